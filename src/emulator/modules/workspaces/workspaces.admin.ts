// Admin side of workspaces (under /_emulator/api): every workspace of one account with its budgets
// and member count, read without a key and without going through the gateway (the inspector's Data view).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { page } from '../../http/schemas.ts'
import { AccountParams } from '../accounts/accounts.schemas.ts'
import { requireAccount } from '../accounts/accounts.service.ts'
import type { EmulatorContext } from '../module.ts'
import { AccountWorkspace } from './workspaces.schemas.ts'
import { budgetView, implicitMemberships, isDefault, workspaceView } from './workspaces.service.ts'

export const workspacesAdminRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  const repo = ctx.services.workspaces.repo
  app.get(
    '/accounts/:id/workspaces',
    { config: { operation: 'admin.accounts.workspaces' }, schema: { response: page(AccountWorkspace), params: AccountParams } },
    async (request) => {
      const account = requireAccount(ctx, request.params.id)
      const data: AccountWorkspace[] = repo.list(account.id, repo.count(account.id), 0).map((row) => ({
        ...workspaceView(row),
        budgets: repo.budgets(row.id).map(budgetView),
        // The default workspace's members are implicit: every member of the account.
        member_count: isDefault(row, account) ? implicitMemberships(ctx, account).length : repo.memberCount(row.id),
      }))
      return { data, total_count: data.length }
    },
  )
}
