// Admin side of guardrails (under /_emulator/api): one account's guardrails, each with the keys and
// members assigned to it, read without a key and without going through the gateway.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { EmulatorContext } from '../module.ts'
import { AccountParams } from '../accounts/accounts.schemas.ts'
import { guardrailView, keyAssignmentView, memberAssignmentView } from './guardrails.service.ts'
import { page } from '../../http/schemas.ts'
import { AccountGuardrail } from './guardrails.schemas.ts'
import { accountNotFound } from '../accounts/accounts.errors.ts'

export const guardrailsAdminRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  const repo = ctx.services.guardrails
  app.get(
    '/accounts/:id/guardrails',
    { config: { operation: 'admin.accounts.guardrails' }, schema: { response: page(AccountGuardrail), params: AccountParams } },
    async (request) => {
      const account = ctx.services.accounts.get(request.params.id)
      if (!account) throw accountNotFound(request.params.id)
      const data: AccountGuardrail[] = repo.list(account.id, repo.count(account.id), 0).map((row) => ({
        ...guardrailView(row, account),
        keys: repo.keyAssignments(row.id).map(keyAssignmentView),
        members: repo.memberAssignments(row.id).map(memberAssignmentView),
      }))
      return { data, total_count: data.length }
    },
  )
}
