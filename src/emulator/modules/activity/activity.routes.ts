// GET /api/v1/activity (management key): usage per UTC date and endpoint over the last 30 completed
// UTC days; today is not complete, so it is not there yet. The admin API reads the same report for
// any account (activity.admin.ts).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { Static } from 'typebox'
import { startOfUtcDay } from '../../core/clock.ts'
import { fieldError } from '../../core/errors.ts'
import { nanosToUsd } from '../../core/money.ts'
import type { EmulatorContext } from '../module.ts'
import { caller } from '../../http/auth.ts'
import { ActivityQuery, ActivityResponse, type ActivityItem } from './activity.schemas.ts'

const DAY = 86_400_000
export const ACTIVITY_DAYS = 30

const isoDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10)

/** One account's activity as the API answers it; a bad `date` is a 400 naming the field. */
export function activityReport(ctx: EmulatorContext, accountId: string, query: Static<typeof ActivityQuery>): ActivityItem[] {
  const today = startOfUtcDay(ctx.clock.now())
  const first = today - ACTIVITY_DAYS * DAY
  let from = first
  let to = today
  const { date } = query
  if (date !== undefined) {
    const day = /^\d{4}-\d{2}-\d{2}$/.test(date) ? Date.parse(`${date}T00:00:00Z`) : NaN
    // Date.parse accepts 2026-02-31 as March 3rd; a real calendar date reads back the same.
    if (Number.isNaN(day) || isoDate(day) !== date) throw fieldError('date', 'must be a date as YYYY-MM-DD', 'querystring')
    if (day < first || day >= today) {
      throw fieldError('date', `must be one of the last ${ACTIVITY_DAYS} completed UTC days, ${isoDate(first)} to ${isoDate(today - DAY)}`, 'querystring')
    }
    from = day
    to = day + DAY
  }
  const catalog = ctx.services.catalog.get()
  const rows = ctx.services.usage.byDayAndEndpoint({ account_id: accountId, from, to, key_hash: query.api_key_hash ?? null, member_id: query.user_id ?? null })
  return rows.map((r) => ({
    date: r.date,
    model: r.model,
    model_permaslug: catalog.find(r.model)?.canonical_slug ?? r.model,
    endpoint_id: r.endpoint_id,
    provider_name: r.provider_name,
    usage: nanosToUsd(r.usage_nanos),
    byok_usage_inference: nanosToUsd(r.byok_nanos),
    requests: r.requests,
    prompt_tokens: r.prompt_tokens,
    completion_tokens: r.completion_tokens,
    reasoning_tokens: r.reasoning_tokens,
  }))
}

export const activityRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  app.get(
    '/activity',
    {
      config: {
        operation: 'activity.list',
        auth: { kind: 'management', wrongKindStatus: 403, wrongKindMessage: 'Only management keys can fetch activity for an account' },
      },
      schema: { summary: 'Usage per day and endpoint', tags: ['activity'], querystring: ActivityQuery, response: ActivityResponse },
    },
    async (request) => ({ data: activityReport(ctx, caller(request).account.id, request.query) }),
  )
}
