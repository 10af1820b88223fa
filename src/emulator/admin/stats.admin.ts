// GET /_emulator/api/stats: what the emulator holds in memory, and the bounds it keeps to, so a test
// (or a curious user) can see that the journal and the caches stay under their byte limits.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { EmulatorContext } from '../modules/module.ts'
import { vectorCacheStats } from '../modules/embeddings/embeddings-cache.service.ts'
import { LIST_CACHE_BYTES } from '../modules/catalog/catalog-index.service.ts'
import { MAX_TOTAL_CONTENT_BYTES } from '../modules/generations/generations.schemas.ts'
import { Stats } from './admin.responses.ts'
import { data } from '../http/schemas.ts'

export const statsAdminRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  const { journal, catalog, generations } = ctx.services
  app.get('/stats', { config: { operation: 'admin.stats' }, schema: { summary: 'Memory held, and the bounds kept', response: data(Stats) } }, async () => {
    const memory = process.memoryUsage()
    const content = generations.repo.held(null)
    return {
      data: {
        process: { rss_bytes: memory.rss, heap_used_bytes: memory.heapUsed, heap_total_bytes: memory.heapTotal, external_bytes: memory.external },
        journal: journal.stats(),
        vector_cache: vectorCacheStats(),
        catalog_cache: { ...catalog.get().cached(), limit_bytes: 2 * LIST_CACHE_BYTES },
        generation_content: { entries: content.rows, bytes: content.bytes, limit_bytes: MAX_TOTAL_CONTENT_BYTES },
      },
    }
  })
}
