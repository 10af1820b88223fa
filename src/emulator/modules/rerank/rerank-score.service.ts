// Relevance without a model: the query and each document become the emulator's meaningful embeddings
// (embeddings/embeddings-vectors.service.ts: texts that share words share components), and their cosine similarity is
// mapped onto [0, 1] the way a cross-encoder's scores spread: unrelated texts (cosine about 0.15, as
// the vectors share a common direction) near 0.05, texts on the query's topic above 0.7, the query
// itself near 1. The map is monotonic, so the order is the order of similarity.
import { cosine } from '../embeddings/embeddings-vectors.service.ts'

/** The cosine at which a document is as likely relevant as not (a score of 0.5)... */
const MIDPOINT = 0.45
/** ...and how steeply the score rises around it. */
const SLOPE = 8
/** Scores are rounded to this many decimals, so equal similarities tie exactly. */
const SCALE = 1e8

/**
 * A cosine similarity as a relevance score in [0, 1]: a sigmoid of the algebraic kind (z / sqrt(1 +
 * z^2)), made of IEEE arithmetic alone (no Math.exp), so every machine gives the same bits.
 */
export function relevanceOf(similarity: number): number {
  const z = SLOPE * (similarity - MIDPOINT)
  const score = 0.5 + (0.5 * z) / Math.sqrt(1 + z * z)
  return Math.round(Math.min(1, Math.max(0, score)) * SCALE) / SCALE
}

export interface Ranked {
  index: number
  relevance_score: number
}

/** Each document's score against the query, most relevant first (equal scores in document order), at most `topN`. */
export function rank(query: ArrayLike<number>, documents: readonly ArrayLike<number>[], topN: number): Ranked[] {
  return documents
    .map((vector, index) => ({ index, relevance_score: relevanceOf(cosine(query, vector)) }))
    .sort((a, b) => b.relevance_score - a.relevance_score || a.index - b.index)
    .slice(0, topN)
}
