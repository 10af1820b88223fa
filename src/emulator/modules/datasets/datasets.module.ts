// Public datasets and rankings: benchmarks, task classifications, app and model rankings and session
// costs, generated from the seed over the catalog's models and the fixture files of `datasets/`.
import { defineModule } from '../module.ts'
import { createRateLimiter, type RateLimiter } from '../ratelimit/ratelimit.service.ts'
import { loadDatasetFixtures, type DatasetFixtures } from './datasets.fixtures.ts'
import { datasetsRoutes } from './datasets.routes.ts'

export interface DatasetsService {
  /** The fixture files, read and checked at start. */
  readonly fixtures: DatasetFixtures
  /** The datasets' own request limit, apart from the inference limits (--rate-limit-*). */
  readonly limiter: RateLimiter
}

declare module '../module.ts' {
  interface Services {
    datasets: DatasetsService
  }
}

/** The real document's limit on these endpoints: 30 requests a minute per key, 500 a day per account. */
export const DATASET_LIMITS = { keyPerMinute: 30, keyPerDay: null, accountPerMinute: null, accountPerDay: 500 }

export const datasetsModule = defineModule({
  name: 'datasets',
  needs: ['catalog', 'meter', 'ratelimit'],
  create: (ctx) => ({ fixtures: loadDatasetFixtures(ctx.config.fixtures), limiter: createRateLimiter(DATASET_LIMITS) }),
  // Counts live in memory, like the inference limits': a reset or an import starts them afresh.
  state: (ctx) => [{ name: 'datasets', tables: [], afterStateChange: () => ctx.services.datasets.limiter.clear() }],
  gateway: datasetsRoutes,
})
