// Metrics: GET /metrics in the Prometheus text format, one registry per emulator.
import { defineModule } from '../module.ts'
import { metricsPages } from './metrics.page.ts'
import { createMetricsService, type MetricsService } from './metrics.service.ts'

declare module '../module.ts' {
  interface Services {
    metrics: MetricsService
  }
}

export const metricsModule = defineModule({
  name: 'metrics',
  needs: ['journal', 'text', 'embeddings', 'usage'],
  create: (ctx) => createMetricsService(ctx),
  pages: metricsPages,
})
