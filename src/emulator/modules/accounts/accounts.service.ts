// Accounts are isolated workspaces: each has its own members, keys, credits and everything those
// touch. They are made whole (members, default workspace, starter keys) by the signup area.
import { nanosToUsd } from '../../core/money.ts'
import type { EmulatorContext } from '../module.ts'
import type { AccountRow } from './accounts.repo.ts'
import type { Account } from './accounts.schemas.ts'
import { accountNotFound } from './accounts.errors.ts'

/** An account as the admin API shows it. */
export const accountView = (account: AccountRow): Account => ({
  id: account.id,
  name: account.name,
  credits_usd: nanosToUsd(account.credits_nanos),
  spent_usd: nanosToUsd(account.spent_nanos),
  balance_usd: nanosToUsd(account.credits_nanos - account.spent_nanos),
  workspace_id: account.workspace_id,
  created_at: new Date(account.created_at).toISOString(),
  ignored_providers: JSON.parse(account.ignored_providers) as string[],
  zdr_only: account.zdr_only === 1,
})

/** The account of an admin route's path, or its 404. */
export function requireAccount(ctx: EmulatorContext, id: string): AccountRow {
  const account = ctx.services.accounts.get(id)
  if (!account) throw accountNotFound(id)
  return account
}
