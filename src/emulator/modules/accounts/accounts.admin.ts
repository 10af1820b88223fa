// The admin API's accounts: isolated workspaces for tests (read, change, delete, reset one back to
// how it was made) and their credits. Creating one is the signup area's (signup.admin.ts).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { fieldError } from '../../core/errors.ts'
import { formatUsd, nanosToUsd, usdToNanos } from '../../core/money.ts'
import { data, Deleted } from '../../http/schemas.ts'
import type { EmulatorContext } from '../module.ts'
import { resetAccount } from '../state/state.service.ts'
import { Account, AccountCreditsBody, AccountDetail, AccountParams, UpdateAccountBody } from './accounts.schemas.ts'
import { accountView, requireAccount } from './accounts.service.ts'
import { creditsOrBalance } from './accounts.errors.ts'

export const accountsAdminRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  app.get('/accounts', { config: { operation: 'admin.accounts.list' }, schema: { response: data(Type.Array(Account)) } }, async () => ({
    data: ctx.services.accounts.list().map(accountView),
  }))

  app.get(
    '/accounts/:id',
    { config: { operation: 'admin.accounts.get' }, schema: { response: data(AccountDetail), params: AccountParams } },
    async (request) => {
      const account = requireAccount(ctx, request.params.id)
      const data: AccountDetail = {
        ...accountView(account),
        members: ctx.services.accounts.members(account.id).map((m) => ({ id: m.id, name: m.name, email: m.email, role: m.role })),
      }
      return { data }
    },
  )

  app.patch(
    '/accounts/:id',
    { config: { operation: 'admin.accounts.update' }, schema: { response: data(Account), params: AccountParams, body: UpdateAccountBody } },
    async (request) => {
      const account = requireAccount(ctx, request.params.id)
      ctx.services.accounts.update(account, request.body)
      return { data: accountView(requireAccount(ctx, account.id)) }
    },
  )

  app.delete(
    '/accounts/:id',
    { config: { operation: 'admin.accounts.delete' }, schema: { response: data(Deleted), params: AccountParams } },
    async (request) => {
      requireAccount(ctx, request.params.id)
      ctx.services.accounts.delete(request.params.id)
      return { data: { deleted: true } }
    },
  )

  // A workspace for one test among many running in parallel: back to how the account was created.
  app.post(
    '/accounts/:id/reset',
    { config: { operation: 'admin.accounts.reset' }, schema: { response: data(Account), params: AccountParams } },
    async (request) => {
      resetAccount(ctx, requireAccount(ctx, request.params.id).id)
      return { data: accountView(requireAccount(ctx, request.params.id)) }
    },
  )

  app.put(
    '/accounts/:id/credits',
    {
      config: { operation: 'admin.accounts.credits' },
      schema: { response: data(Account), params: AccountParams, body: AccountCreditsBody },
    },
    async (request) => {
      const { credits_usd, balance_usd } = request.body
      if ((credits_usd === undefined) === (balance_usd === undefined)) {
        throw creditsOrBalance()
      }
      ctx.db
        .transaction(() => {
          const account = requireAccount(ctx, request.params.id)
          // A balance is credits minus spend, so setting it sets the credits that produce it.
          const credits = credits_usd !== undefined ? usdToNanos(credits_usd) : usdToNanos(balance_usd!) + account.spent_nanos
          // A balance may be negative (spend beyond the credits bought), the credits bought never.
          if (credits < 0) {
            throw fieldError(
              'balance_usd',
              `must be >= -${nanosToUsd(account.spent_nanos)} for this account: lower would need negative credits (it has spent ${formatUsd(account.spent_nanos)})`,
            )
          }
          ctx.services.accounts.setCredits(account.id, credits)
        })
        .immediate()
      return { data: accountView(requireAccount(ctx, request.params.id)) }
    },
  )
}
