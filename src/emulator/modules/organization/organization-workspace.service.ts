// Which workspace of the caller's account a request means: the one it names (checked with the
// workspaces service to be the account's, else a 404 naming the field), or by default its key's (the
// key's own workspace, else the account's default).
import type { AuthContext } from '../caller.ts'
import type { EmulatorContext } from '../module.ts'
import { workspaceNotFound } from './organization.errors.ts'

/** Whether `id` is a workspace of the account. */
export const ownsWorkspace = (ctx: EmulatorContext, accountId: string, id: string): boolean => ctx.services.workspaces.byId(accountId, id) !== undefined

/** The workspace `id` of the account, or a 404 naming `field`. */
export function requireWorkspace(ctx: EmulatorContext, accountId: string, id: string, field: string, location = 'body'): string {
  if (!ownsWorkspace(ctx, accountId, id)) throw workspaceNotFound(id, field, location)
  return id
}

/** The account's default workspace. */
export const defaultWorkspace = (ctx: EmulatorContext, accountId: string): string => ctx.services.workspaces.defaultFor(accountId)

/** The workspace of a request's key: its own, else the account's default. */
export const workspaceOfKey = (ctx: EmulatorContext, caller: AuthContext): string =>
  caller.key.workspace_id ?? ctx.services.workspaces.defaultFor(caller.account.id)
