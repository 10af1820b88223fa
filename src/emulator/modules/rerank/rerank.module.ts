// Rerank: documents ordered by their relevance to a query, scored with the emulator's embeddings,
// billed per search unit through the ledger and recorded as a generation.
import { defineModule } from '../module.ts'
import { rerankRoutes } from './rerank.routes.ts'

export const rerankModule = defineModule({
  name: 'rerank',
  needs: ['catalog', 'ratelimit', 'ledger', 'embeddings', 'chat'],
  gateway: rerankRoutes,
})
