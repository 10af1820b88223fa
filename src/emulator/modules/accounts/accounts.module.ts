// Accounts and their members: the service every area reads accounts through.
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
  create: (ctx) => createAccountsRepo(ctx.db),
  state: (ctx) => [accountsState(ctx.db)],
  admin: accountsAdminRoutes,
})
