// Which workspace of the caller's account a credential or destination belongs to, and which one a call
// is made in: the workspaces area owns them; these areas only name one.
import type { AccountRow } from '../accounts/accounts.repo.ts'
import type { KeyRow } from '../keys/keys.repo.ts'
import type { EmulatorContext } from '../module.ts'
import { workspaceNotFound } from './byok.errors.ts'

/** The workspace `given` names (a 404 naming `field` when it is not the account's), else the account's default. */
export function workspaceFor(ctx: EmulatorContext, accountId: string, given: string | undefined, field: string, location: string): string {
  if (given === undefined) return ctx.services.workspaces.defaultFor(accountId)
  if (!ctx.services.workspaces.byId(accountId, given)) throw workspaceNotFound(given, field, location)
  return given
}

/** The workspace a key's calls are made in: its own, or (a key from before workspaces) its account's default. */
export const workspaceOfKey = (key: Pick<KeyRow, 'workspace_id'>, account: Pick<AccountRow, 'workspace_id'>): string => key.workspace_id ?? account.workspace_id
