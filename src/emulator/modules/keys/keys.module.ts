// API keys: the gateway's /keys routes, and the service authentication and the ledger read keys through.
import { defineModule } from '../module.ts'
import { keysAdminRoutes } from './keys.admin.ts'
import { createKeysRepo, keysState, type KeysRepo } from './keys.repo.ts'
import { keysRoutes } from './keys.routes.ts'

declare module '../module.ts' {
  interface Services {
    keys: KeysRepo
  }
}

export const keysModule = defineModule({
  name: 'keys',
  create: (ctx) => createKeysRepo(ctx.db),
  state: () => [keysState],
  gateway: keysRoutes,
  admin: keysAdminRoutes,
})
