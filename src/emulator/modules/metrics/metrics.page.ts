// GET /metrics: the Prometheus text format, where scrapers look for it (the origin's root). It is
// registered in the admin scope, so it answers only where the admin API does: the Host and Origin
// checks, the admin token beyond loopback (a scraper sends it as `Authorization: Bearer`) and the
// framing guard all apply, and it is never journaled nor faulted.
import type { FastifyReply } from 'fastify'
import { ErrorEnvelope } from '../../http/schemas.ts'
import type { ModuleRoutes } from '../module.ts'

export const METRICS_PATH = '/metrics'

export const metricsPages: ModuleRoutes = async (app, { ctx }) => {
  const metrics = ctx.services.metrics
  app.get(
    METRICS_PATH,
    {
      config: { operation: 'admin.metrics' },
      schema: {
        summary: 'Metrics in the Prometheus text format',
        tags: ['admin'],
        response: {
          200: {
            description: 'Requests by operation and status, latencies, faults, the ledger, the journal and the caches (Prometheus text format 0.0.4)',
            content: { 'text/plain': { schema: { type: 'string' } } },
          },
          '4xx': ErrorEnvelope,
        },
      },
    },
    async (_request, reply) => {
      const text = await metrics.scrape()
      // The schema documents the text; it is sent as it is.
      return (reply as FastifyReply).type(metrics.contentType).header('cache-control', 'no-store').header('x-content-type-options', 'nosniff').send(text)
    },
  )
}
