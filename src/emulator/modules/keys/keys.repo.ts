import type { ResetInterval, WindowStarts } from '../../core/windows.ts'
import type { DB } from '../../store/db.ts'
import type { StateOwner } from '../../core/lifecycle.ts'

export type KeyKind = 'management' | 'standard'

export interface KeyRow {
  hash: string
  account_id: string
  kind: KeyKind
  token: string | null
  name: string
  label: string
  disabled: 0 | 1
  limit_nanos: number | null
  limit_reset: ResetInterval | null
  include_byok_in_limit: 0 | 1
  creator_user_id: string | null
  expires_at: number | null
  created_at: number
  updated_at: number | null
  /** The workspace it belongs to; null (a state from before workspaces) is the account's default. */
  workspace_id: string | null
}

/** Usage sums of one key over its windows, derived from the usage rows (nano-USD). */
export interface KeyUsageSums {
  usage: number
  usage_daily: number
  usage_weekly: number
  usage_monthly: number
  byok_usage: number
  byok_usage_daily: number
  byok_usage_weekly: number
  byok_usage_monthly: number
}

export type KeyWithUsage = KeyRow & KeyUsageSums

export interface KeyPatch {
  name?: string
  disabled?: boolean
  limit_nanos?: number | null
  limit_reset?: ResetInterval | null
  include_byok_in_limit?: boolean
}

// One pass over a key's usage rows gives every window; rows after `now` (a clock set backwards) do not count.
const USAGE_COLUMNS = /* sql */ `
  COALESCE(SUM(CASE WHEN u.byok = 0 THEN u.cost_nanos END), 0)                          AS usage,
  COALESCE(SUM(CASE WHEN u.byok = 0 AND u.created_at >= @day   THEN u.cost_nanos END), 0) AS usage_daily,
  COALESCE(SUM(CASE WHEN u.byok = 0 AND u.created_at >= @week  THEN u.cost_nanos END), 0) AS usage_weekly,
  COALESCE(SUM(CASE WHEN u.byok = 0 AND u.created_at >= @month THEN u.cost_nanos END), 0) AS usage_monthly,
  COALESCE(SUM(CASE WHEN u.byok = 1 THEN u.cost_nanos END), 0)                          AS byok_usage,
  COALESCE(SUM(CASE WHEN u.byok = 1 AND u.created_at >= @day   THEN u.cost_nanos END), 0) AS byok_usage_daily,
  COALESCE(SUM(CASE WHEN u.byok = 1 AND u.created_at >= @week  THEN u.cost_nanos END), 0) AS byok_usage_weekly,
  COALESCE(SUM(CASE WHEN u.byok = 1 AND u.created_at >= @month THEN u.cost_nanos END), 0) AS byok_usage_monthly`

export function createKeysRepo(db: DB) {
  const insertStmt = db.prepare<KeyRow>(
    `INSERT INTO api_keys (hash, account_id, kind, token, name, label, disabled, limit_nanos, limit_reset,
       include_byok_in_limit, creator_user_id, expires_at, created_at, updated_at, workspace_id)
     VALUES (@hash, @account_id, @kind, @token, @name, @label, @disabled, @limit_nanos, @limit_reset,
       @include_byok_in_limit, @creator_user_id, @expires_at, @created_at, @updated_at, @workspace_id)`,
  )
  const byHashStmt = db.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE hash = ?')
  const listStmt = db.prepare<
    WindowStarts & {
      account_id: string
      kind: string
      include_disabled: 0 | 1
      workspace_id: string
      default_workspace: string
      limit: number
      offset: number
    },
    KeyWithUsage
  >(
    `SELECT k.*, ${USAGE_COLUMNS}
     FROM api_keys k
     LEFT JOIN usage u ON u.key_hash = k.hash AND u.created_at <= @now
     WHERE k.account_id = @account_id AND k.kind = @kind AND (@include_disabled = 1 OR k.disabled = 0)
       AND COALESCE(k.workspace_id, @default_workspace) = @workspace_id
     GROUP BY k.hash
     ORDER BY k.created_at, k.rowid
     LIMIT @limit OFFSET @offset`,
  )
  const withUsageStmt = db.prepare<WindowStarts & { hash: string }, KeyWithUsage>(
    `SELECT k.*, ${USAGE_COLUMNS}
     FROM api_keys k
     LEFT JOIN usage u ON u.key_hash = k.hash AND u.created_at <= @now
     WHERE k.hash = @hash
     GROUP BY k.hash`,
  )
  const updateStmt = db.prepare<{
    hash: string
    name: string
    disabled: 0 | 1
    limit_nanos: number | null
    limit_reset: ResetInterval | null
    include_byok_in_limit: 0 | 1
    updated_at: number
  }>(
    `UPDATE api_keys SET name = @name, disabled = @disabled, limit_nanos = @limit_nanos, limit_reset = @limit_reset,
       include_byok_in_limit = @include_byok_in_limit, updated_at = @updated_at
     WHERE hash = @hash`,
  )
  // The real daily cap on free-variant requests is the account's, across its keys.
  const freeRequestsStmt = db.prepare<{ account_id: string; since: number; now: number }, { n: number }>(
    `SELECT COUNT(*) AS n FROM usage
     WHERE account_id = @account_id AND created_at >= @since AND created_at <= @now AND model LIKE '%:free'`,
  )
  const deleteStmt = db.prepare<[string]>('DELETE FROM api_keys WHERE hash = ?')
  const forAccountStmt = db.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE account_id = ? ORDER BY created_at, rowid')

  const update = db.transaction((hash: string, patch: KeyPatch, now: number): boolean => {
    const row = byHashStmt.get(hash)
    if (!row) return false
    updateStmt.run({
      hash,
      name: patch.name ?? row.name,
      disabled: patch.disabled === undefined ? row.disabled : patch.disabled ? 1 : 0,
      limit_nanos: patch.limit_nanos === undefined ? row.limit_nanos : patch.limit_nanos,
      limit_reset: patch.limit_reset === undefined ? row.limit_reset : patch.limit_reset,
      include_byok_in_limit: patch.include_byok_in_limit === undefined ? row.include_byok_in_limit : patch.include_byok_in_limit ? 1 : 0,
      updated_at: now,
    })
    return true
  })

  return {
    insert: (row: KeyRow) => void insertStmt.run(row),
    byHash: (hash: string) => byHashStmt.get(hash),
    list: (
      q: { account_id: string; kind: KeyKind; include_disabled: boolean; workspace_id: string; default_workspace: string; limit: number; offset: number },
      starts: WindowStarts,
    ) => listStmt.all({ ...starts, ...q, include_disabled: q.include_disabled ? 1 : 0 }),
    withUsage: (hash: string, starts: WindowStarts) => withUsageStmt.get({ ...starts, hash }),
    /** Usage rows of `:free` models the account wrote in [since, now]. */
    freeModelRequests: (accountId: string, since: number, now: number) => freeRequestsStmt.get({ account_id: accountId, since, now })!.n,
    update: (hash: string, patch: KeyPatch, now: number) => update.immediate(hash, patch, now),
    delete: (hash: string) => deleteStmt.run(hash).changes > 0,
    forAccount: (accountId: string) => forAccountStmt.all(accountId),
  }
}

export type KeysRepo = ReturnType<typeof createKeysRepo>

/** API keys; an account reset keeps them. */
export const keysState: StateOwner = { name: 'keys', tables: ['api_keys'] }
