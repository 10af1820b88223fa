// Rerank: documents ordered by their relevance to a query, scored with the emulator's embeddings,
// billed per search unit through the meter and recorded as a generation.
import type { Limit } from '../../core/limits.ts'
import { defineModule } from '../module.ts'
import { MAX_DOCUMENTS } from './rerank.schemas.ts'
import { MAX_DOCUMENT_TOKENS, MAX_QUERY_TOKENS, MAX_REQUEST_TOKENS } from './rerank.input.ts'
import { rerankRoutes } from './rerank.routes.ts'

/** What this area bounds (docs/limits.md). */
const LIMITS: readonly Limit[] = [
  { what: 'Documents in one request', value: MAX_DOCUMENTS, unit: 'items', beyond: '400 naming `documents`' },
  { what: 'Tokens of the query', value: MAX_QUERY_TOKENS, unit: 'tokens', beyond: '400 naming `query`' },
  { what: 'Tokens of one document', value: MAX_DOCUMENT_TOKENS, unit: 'tokens', beyond: '400 naming the document' },
  { what: 'Tokens of all documents together', value: MAX_REQUEST_TOKENS, unit: 'tokens', beyond: '400 naming `documents`' },
]

export const rerankModule = defineModule({
  name: 'rerank',
  limits: LIMITS,
  needs: ['catalog', 'meter', 'embeddings'],
  gateway: rerankRoutes,
})
