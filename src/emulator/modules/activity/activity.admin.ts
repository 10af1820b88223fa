// Admin side of activity (under /_emulator/api): one account's report as GET /api/v1/activity
// answers it, read without a key and without going through the gateway (no journal entry, no fault).
import { Type } from 'typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { EmulatorContext } from '../module.ts'
import { AccountParams } from '../accounts/accounts.schemas.ts'
import { activityReport } from './activity.routes.ts'
import { ActivityQuery } from './activity.schemas.ts'
import { ActivityItem } from './activity.schemas.ts'
import { data } from '../../http/schemas.ts'
import { accountNotFound } from '../accounts/accounts.errors.ts'

export const activityAdminRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  app.get(
    '/accounts/:id/activity',
    {
      config: { operation: 'admin.accounts.activity' },
      schema: { response: data(Type.Array(ActivityItem)), params: AccountParams, querystring: ActivityQuery },
    },
    async (request) => {
      if (!ctx.services.accounts.get(request.params.id)) throw accountNotFound(request.params.id)
      return { data: activityReport(ctx, request.params.id, request.query) }
    },
  )
}
