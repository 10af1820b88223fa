// Signup: accounts made whole in one step (members, default workspace, starter keys), for the seed
// and the admin API. Above accounts, workspaces and keys, so those need each other in one direction.
import { defineModule } from '../module.ts'
import { signupAdminRoutes } from './signup.admin.ts'
import { createAccount, type CreatedAccount, type NewAccount } from './signup.service.ts'

export interface SignupService {
  /** Creates an account with its members, default workspace and keys, in one transaction. */
  createAccount(input: NewAccount): CreatedAccount
}

declare module '../module.ts' {
  interface Services {
    signup: SignupService
  }
}

export const signupModule = defineModule({
  name: 'signup',
  needs: ['accounts', 'keys', 'workspaces'],
  create: (ctx) => ({ createAccount: (input) => createAccount(ctx, input) }),
  admin: signupAdminRoutes,
})
