// API keys: the gateway's /keys routes, and the service authentication and the ledger read keys through.
import { sha256Hex } from '../../core/rng.ts'
import { defineModule } from '../module.ts'
import { keysAdminRoutes } from './keys.admin.ts'
import { createKeysRepo, keysState, type KeysRepo } from './keys.repo.ts'
import { keysRoutes } from './keys.routes.ts'

/** Finds a workspace of an account by its id (the workspaces area, above this one, tells how). */
export type WorkspaceFinder = (accountId: string, id: string) => { id: string } | undefined

export interface KeysService extends KeysRepo {
  /** The workspace of the account a key names (`workspace_id`), or undefined when it is not one of its. */
  workspaceOf(accountId: string, id: string): { id: string } | undefined
  /** Called once by the workspaces area when it is created. */
  findsWorkspacesWith(find: WorkspaceFinder): void
}

declare module '../module.ts' {
  interface Services {
    keys: KeysService
  }
}

export const keysModule = defineModule({
  name: 'keys',
  needs: ['accounts', 'usage'],
  create: (ctx) => {
    let find: WorkspaceFinder = () => undefined
    return {
      ...createKeysRepo(ctx.db, () => ctx.services.usage),
      workspaceOf: (accountId, id) => find(accountId, id),
      findsWorkspacesWith: (finder) => void (find = finder),
    }
  },
  state: (ctx) => [
    {
      ...keysState,
      // The account's other workspaces go (workspaces' reset): its keys move back to its default one.
      resetAccount: (id) => {
        const account = ctx.services.accounts.get(id)
        if (account) ctx.services.keys.moveToDefaultWorkspace(id, account.workspace_id)
      },
      mints: [{ kind: 'key', table: 'api_keys', column: 'hash', idOf: (ids, label) => sha256Hex(ids.token(label)) }],
    },
  ],
  gateway: keysRoutes,
  admin: keysAdminRoutes,
})
