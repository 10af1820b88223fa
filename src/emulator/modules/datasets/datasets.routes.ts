// The public datasets (any valid key): GET /api/v1/benchmarks, /classifications/task,
// /datasets/app-rankings, /datasets/rankings-daily and /datasets/session-cost. Each request first takes
// one from the datasets' own rate limit (the real 30 a minute per key and 500 a day per account).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import type { EmulatorContext } from '../module.ts'
import { caller } from '../../http/auth.ts'
import { appRankings } from './datasets-apps.service.ts'
import { benchmarks } from './datasets-benchmarks.service.ts'
import { taskClassifications } from './datasets-classifications.service.ts'
import {
  AppRankingsQuery,
  AppRankingsResponse,
  BenchmarksQuery,
  BenchmarksResponse,
  RankingsDailyQuery,
  RankingsDailyResponse,
  SessionCostQuery,
  SessionCostResponse,
  TaskClassificationsQuery,
  TaskClassificationsResponse,
} from './datasets.schemas.ts'
import { rankingsDaily } from './datasets-rankings.service.ts'
import { sessionCost } from './datasets-session-cost.service.ts'

export const datasetsRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  const { fixtures, limiter } = ctx.services.datasets
  const admit = (request: FastifyRequest): void => {
    const { key, account } = caller(request)
    limiter.admit(key.hash, account.id, ctx.clock.now())
  }

  app.get(
    '/benchmarks',
    {
      config: { operation: 'benchmarks.list', auth: 'any' },
      schema: { summary: 'Benchmark scores of the models, by source', tags: ['datasets'], querystring: BenchmarksQuery, response: BenchmarksResponse },
    },
    async (request) => (admit(request), benchmarks(ctx, fixtures.benchmarks, request.query)),
  )

  app.get(
    '/classifications/task',
    {
      config: { operation: 'classifications.task', auth: 'any' },
      schema: {
        summary: 'Market share by task classification over the trailing week',
        tags: ['datasets'],
        querystring: TaskClassificationsQuery,
        response: TaskClassificationsResponse,
      },
    },
    async (request) => (admit(request), taskClassifications(ctx, fixtures.classifications)),
  )

  app.get(
    '/datasets/app-rankings',
    {
      config: { operation: 'datasets.appRankings', auth: 'any' },
      schema: { summary: 'Top apps by tokens in a date window', tags: ['datasets'], querystring: AppRankingsQuery, response: AppRankingsResponse },
    },
    async (request) => (admit(request), appRankings(ctx, fixtures.apps, request.query)),
  )

  app.get(
    '/datasets/rankings-daily',
    {
      config: { operation: 'datasets.rankingsDaily', auth: 'any' },
      schema: { summary: 'Top models by tokens per day, week or month', tags: ['datasets'], querystring: RankingsDailyQuery, response: RankingsDailyResponse },
    },
    async (request) => (admit(request), rankingsDaily(ctx, fixtures.rankings, request.query)),
  )

  app.get(
    '/datasets/session-cost',
    {
      config: { operation: 'datasets.sessionCost', auth: 'any' },
      schema: {
        summary: 'Median cost of a session by harness, model and turns',
        tags: ['datasets'],
        querystring: SessionCostQuery,
        response: SessionCostResponse,
      },
    },
    async (request) => (admit(request), sessionCost(ctx, fixtures.sessionCost, request.query)),
  )
}
