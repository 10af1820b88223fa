// Accounts and their members: the service every area reads accounts through.
import { Type } from 'typebox'
import { defineModule } from '../module.ts'
import { accountsAdminRoutes } from './accounts.admin.ts'
import { accountsState, createAccountsRepo, type AccountsRepo } from './accounts.repo.ts'

declare module '../module.ts' {
  interface Services {
    accounts: AccountsRepo
  }
}

export const accountsModule = defineModule({
  name: 'accounts',
  needs: ['state'],
  create: (ctx) => createAccountsRepo(ctx.db),
  state: (ctx) => [
    {
      ...accountsState(ctx.db),
      imports: { accounts: { json: { ignored_providers: Type.Array(Type.String()) }, nonNegative: ['credits_nanos', 'spent_nanos'] } },
      mints: [{ kind: 'account', table: 'accounts', column: 'id', idOf: (ids, label) => ids.account(label) }],
    },
  ],
  admin: accountsAdminRoutes,
})
