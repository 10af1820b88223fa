// GET /api/v1/analytics/meta and POST /api/v1/analytics/query (management key; a standard key gets
// the real 403): what can be asked, and the answer computed from the ledger's usage rows.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { EmulatorContext } from '../module.ts'
import { caller } from '../../http/auth.ts'
import { analyticsMeta } from './analytics-meta.service.ts'
import { planQuery, runQuery } from './analytics.service.ts'
import { createAnalyticsRepo } from './analytics.repo.ts'
import { AnalyticsMetaResponse, AnalyticsQueryBody, AnalyticsQueryResponse } from './analytics.schemas.ts'

const MANAGEMENT = { kind: 'management', wrongKindStatus: 403 } as const

/** A query with 20 filters of 1,000 values each is well under this. */
const QUERY_BODY_LIMIT = 1024 * 1024

export const analyticsRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  const repo = createAnalyticsRepo(() => ctx.services.usage)

  app.get(
    '/analytics/meta',
    {
      config: { operation: 'analytics.meta', auth: MANAGEMENT },
      schema: { summary: 'The metrics, dimensions, operators and granularities of analytics queries', tags: ['analytics'], response: AnalyticsMetaResponse },
    },
    async () => ({ data: analyticsMeta() }),
  )

  app.post(
    '/analytics/query',
    {
      config: { operation: 'analytics.query', auth: MANAGEMENT },
      bodyLimit: QUERY_BODY_LIMIT,
      schema: { summary: 'Metrics of the usage ledger, grouped and filtered', tags: ['analytics'], body: AnalyticsQueryBody, response: AnalyticsQueryResponse },
    },
    async (request) => {
      const { account } = caller(request)
      return { data: runQuery(ctx, repo, account, planQuery(ctx, account, request.body)) }
    },
  )
}
