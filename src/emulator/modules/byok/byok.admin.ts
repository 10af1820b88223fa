// Admin side of BYOK (under /_emulator/api): every credential of one account, in every workspace, as
// the API shows them (labels only: the keys were never kept), for the inspector.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { EmulatorContext } from '../module.ts'
import { AccountParams } from '../accounts/accounts.schemas.ts'
import { ErrorEnvelope } from '../../http/schemas.ts'
import { AccountByokList } from './byok.schemas.ts'
import { byokView } from './byok.service.ts'
import { accountNotFound } from '../accounts/accounts.errors.ts'

export const byokAdminRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  app.get(
    '/accounts/:id/byok',
    { config: { operation: 'admin.accounts.byok' }, schema: { params: AccountParams, response: { 200: AccountByokList, '4xx': ErrorEnvelope } } },
    async (request) => {
      const account = ctx.services.accounts.get(request.params.id)
      if (!account) throw accountNotFound(request.params.id)
      const data = ctx.services.byok.ofAccount(account.id).map(byokView)
      return { data, total_count: data.length }
    },
  )
}
