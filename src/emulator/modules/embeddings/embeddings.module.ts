// Embeddings: deterministic vectors, billed through the meter.
import type { Limit } from '../../core/limits.ts'
import { defineModule } from '../module.ts'
import { MAX_INPUTS } from './embeddings.schemas.ts'
import { MAX_REQUEST_TOKENS } from './embeddings.input.ts'
import { embeddingsRoutes } from './embeddings.routes.ts'
import { EMBEDDINGS_CONFIG } from './embeddings.config.ts'

/** What this area bounds (docs/limits.md). */
const LIMITS: readonly Limit[] = [
  { what: 'Inputs in one request', value: MAX_INPUTS, unit: 'items', beyond: '400 naming `input`' },
  {
    what: 'Tokens of all inputs of one request together',
    value: MAX_REQUEST_TOKENS,
    unit: 'tokens',
    beyond: "400 naming `input` and the limit; one input past its model's context is a 400 naming it",
  },
]

export const embeddingsModule = defineModule({
  name: 'embeddings',
  config: EMBEDDINGS_CONFIG,
  limits: LIMITS,
  needs: ['catalog', 'meter'],
  gateway: embeddingsRoutes,
})
