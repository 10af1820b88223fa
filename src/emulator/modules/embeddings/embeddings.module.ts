// Embeddings: deterministic vectors, billed through the ledger.
import { defineModule } from '../module.ts'
import { embeddingsRoutes } from './embeddings.routes.ts'

export const embeddingsModule = defineModule({ name: 'embeddings', needs: ['catalog', 'ratelimit', 'ledger'], gateway: embeddingsRoutes })
