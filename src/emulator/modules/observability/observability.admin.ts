// Admin side of observability (under /_emulator/api): every destination of one account, in every
// workspace, secrets masked as the API shows them, for the inspector.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorEnvelope } from '../../http/schemas.ts'
import { AccountParams } from '../accounts/accounts.schemas.ts'
import type { EmulatorContext } from '../module.ts'
import { AccountDestinationList } from './observability.schemas.ts'
import { destinationView } from './observability.service.ts'
import { accountNotFound } from '../accounts/accounts.errors.ts'

export const observabilityAdminRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  app.get(
    '/accounts/:id/observability/destinations',
    {
      config: { operation: 'admin.accounts.observability' },
      schema: { params: AccountParams, response: { 200: AccountDestinationList, '4xx': ErrorEnvelope } },
    },
    async (request) => {
      const account = ctx.services.accounts.get(request.params.id)
      if (!account) throw accountNotFound(request.params.id)
      const data = ctx.services.observability.ofAccount(account.id).map(destinationView)
      return { data, total_count: data.length }
    },
  )
}
