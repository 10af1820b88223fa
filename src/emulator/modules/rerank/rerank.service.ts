// Rerank: checks the model, the query and the documents, scores each document against the query with
// the emulator's meaningful embeddings, then bills the search units and records the generation through
// the meter (402 before anything is recorded). Nothing is billed for a request that fails.
import type { RequestOrigin } from '../../http/request-origin.ts'
import { countTokens, IMAGE_TOKENS, loadTokenizer } from '../../core/tokens.ts'
import { nanosToUsd } from '../../core/money.ts'
import type { EmulatorContext } from '../module.ts'
import type { AuthContext } from '../caller.ts'
import type { CatalogModel, Region } from '../catalog/catalog.schemas.ts'
import { routeByPreferences } from '../catalog/catalog-routing.service.ts'
import { searchNanos } from '../meter/meter-pricers.service.ts'
import { meter, servedBy } from '../meter/meter.service.ts'
import { cachedVector, shelf, type CachedVector } from '../embeddings/embeddings-cache.service.ts'
import { embedFeatures, imageFeatures, textFeatures } from '../embeddings/embeddings-vectors.service.ts'
import { notARerankModel } from './rerank.errors.ts'
import { checkDocumentTokens, checkQueryLength, checkQueryTokens, measure, parseDocuments, type RerankItem, type RerankLimits } from './rerank.input.ts'
import type { RerankBody, RerankResult } from './rerank.schemas.ts'
import { rank } from './rerank-score.service.ts'

/** Components of the vectors documents are scored with: enough that unrelated words rarely collide. */
const SCORING_DIMENSIONS = 1024
/** Used when a catalog model does not say its context length (rerank-v3.5's). */
const DEFAULT_CONTEXT_TOKENS = 4096

export function rerankModel(ctx: EmulatorContext, id: string): CatalogModel {
  const { model } = ctx.services.catalog.resolve(id, 'rerank')
  if (!model.architecture.output_modalities.includes('rerank')) throw notARerankModel(id, model.architecture.output_modalities)
  return model
}

/** A text's vector and tokens, from the embeddings' cache or made now: the same text always scores the same. */
function textVector(model: string, text: string): CachedVector {
  return cachedVector(shelf(model, SCORING_DIMENSIONS, 'text'), text, () => ({
    vector: embedFeatures(model, textFeatures(text), SCORING_DIMENSIONS, `text:${text}`),
    tokens: countTokens(text),
  }))
}

/** A document with an image: its text's features and its image's, as an embeddings content input is made. */
function contentVector(model: string, item: RerankItem): CachedVector {
  const identity = [item.text === undefined ? '' : `t:${item.text}`, `i:${item.image!}`].join('\u0000')
  return cachedVector(shelf(model, SCORING_DIMENSIONS, 'content'), identity, () => {
    const features = item.text === undefined ? new Map<number, number>() : textFeatures(item.text)
    imageFeatures(item.image!, features)
    return {
      vector: embedFeatures(model, features, SCORING_DIMENSIONS, `content:${identity}`),
      tokens: (item.text === undefined ? 0 : countTokens(item.text)) + IMAGE_TOKENS,
    }
  })
}

export async function createRerank(
  ctx: EmulatorContext,
  caller: AuthContext,
  body: RerankBody,
  region: Region | null,
  origin: RequestOrigin,
): Promise<RerankResult> {
  const model = rerankModel(ctx, body.model)
  const limits: RerankLimits = {
    model: model.id,
    contextTokens: model.context_length ?? DEFAULT_CONTEXT_TOKENS,
    inputs: model.architecture.input_modalities,
  }
  checkQueryLength(body.query, limits)
  const items = parseDocuments(body.documents, limits)
  await loadTokenizer()
  const query = textVector(model.id, body.query)
  checkQueryTokens(query.tokens, limits)
  const documents = items.map((item) => (item.image === undefined ? textVector(model.id, item.text!) : contentVector(model.id, item)))
  const documentTokens = documents.map((d) => d.tokens)
  checkDocumentTokens(items, documentTokens)
  const { searchUnits, totalTokens } = measure(query.tokens, documentTokens, limits.contextTokens)
  const ranked = rank(
    query.vector,
    documents.map((d) => d.vector),
    Math.min(body.top_n ?? items.length, items.length),
  )

  const metered = meter(ctx, {
    caller,
    operation: 'rerank.create',
    model: { id: model.id, canonical_slug: model.canonical_slug },
    endpoints: model.endpoints,
    region,
    route: routeByPreferences(model, body.provider ?? undefined),
    tokens: { prompt: totalTokens },
    // Its request price per search unit, its prompt price per token.
    price: (endpoint) => searchNanos(endpoint.pricing, searchUnits, totalTokens),
    generation: (endpoint) => {
      const served = servedBy(endpoint, { latencyS: 0.2, tokensPerSecond: 5000 })
      return {
        apiType: 'rerank',
        idKind: 'rerank',
        idLabel: 'rerank',
        origin,
        user: body.user ?? null,
        streamed: false,
        finishReason: null,
        latencyMs: served.latencyMs,
        generationTimeMs: served.timeFor(totalTokens),
      }
    },
  })
  return {
    id: metered.generationId!,
    model: model.id,
    provider: metered.endpoint.provider_name,
    results: ranked.map((r) => ({ index: r.index, relevance_score: r.relevance_score, document: items[r.index]!.echo })),
    usage: { search_units: searchUnits, total_tokens: totalTokens, cost: nanosToUsd(metered.charge.cost_nanos) },
  }
}
