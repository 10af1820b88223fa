// API keys: the gateway's /keys routes, and the service authentication and the ledger read keys through.
import { sha256Hex } from '../../core/rng.ts'
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
  needs: ['accounts', 'workspaces'],
  create: (ctx) => createKeysRepo(ctx.db),
  state: () => [{ ...keysState, mints: [{ kind: 'key', table: 'api_keys', column: 'hash', idOf: (ids, label) => sha256Hex(ids.token(label)) }] }],
  gateway: keysRoutes,
  admin: keysAdminRoutes,
})
