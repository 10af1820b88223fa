import type { ResetInterval, WindowStarts } from '../../core/windows.ts'
import type { DB } from '../../store/db.ts'
import type { StateOwner } from '../../core/lifecycle.ts'
import type { KeyUsageSums, UsageRepo } from '../usage/usage.repo.ts'

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

export type KeyWithUsage = KeyRow & KeyUsageSums

export interface KeyPatch {
  name?: string
  disabled?: boolean
  limit_nanos?: number | null
  limit_reset?: ResetInterval | null
  include_byok_in_limit?: boolean
}

/** `usage`: the usage area's reads (created after this one), for what each key spent. */
export function createKeysRepo(db: DB, usage: () => UsageRepo) {
  const insertStmt = db.prepare<KeyRow>(
    `INSERT INTO api_keys (hash, account_id, kind, token, name, label, disabled, limit_nanos, limit_reset,
       include_byok_in_limit, creator_user_id, expires_at, created_at, updated_at, workspace_id)
     VALUES (@hash, @account_id, @kind, @token, @name, @label, @disabled, @limit_nanos, @limit_reset,
       @include_byok_in_limit, @creator_user_id, @expires_at, @created_at, @updated_at, @workspace_id)`,
  )
  const byHashStmt = db.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE hash = ?')
  const listStmt = db.prepare<
    {
      account_id: string
      kind: string
      include_disabled: 0 | 1
      workspace_id: string
      default_workspace: string
      limit: number
      offset: number
    },
    KeyRow
  >(
    `SELECT * FROM api_keys
     WHERE account_id = @account_id AND kind = @kind AND (@include_disabled = 1 OR disabled = 0)
       AND COALESCE(workspace_id, @default_workspace) = @workspace_id
     ORDER BY created_at, rowid
     LIMIT @limit OFFSET @offset`,
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
  const inWorkspaceStmt = db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM api_keys WHERE workspace_id = ?')
  const madeInWorkspaceStmt = db.prepare<{ workspace_id: string; member_id: string }, { n: number }>(
    'SELECT COUNT(*) AS n FROM api_keys WHERE workspace_id = @workspace_id AND creator_user_id = @member_id',
  )
  // An account reset moves its keys back to its default workspace (the others are deleted).
  const toDefaultStmt = db.prepare<{ account_id: string; default_workspace: string }>(
    `UPDATE api_keys SET workspace_id = @default_workspace
     WHERE account_id = @account_id AND workspace_id IS NOT NULL AND workspace_id <> @default_workspace`,
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
    /** A page of an account's keys of one kind in one workspace, oldest first, each with what it spent as of `starts.now`. */
    list(
      q: { account_id: string; kind: KeyKind; include_disabled: boolean; workspace_id: string; default_workspace: string; limit: number; offset: number },
      starts: WindowStarts,
    ): KeyWithUsage[] {
      const rows = listStmt.all({ ...q, include_disabled: q.include_disabled ? 1 : 0 })
      const spend = usage().keysSpend(
        rows.map((row) => row.hash),
        starts,
      )
      return rows.map((row) => ({ ...row, ...spend.get(row.hash)! }))
    },
    /** A key with what it spent as of `starts.now`, or undefined when the hash is unknown. */
    withUsage(hash: string, starts: WindowStarts): KeyWithUsage | undefined {
      const row = byHashStmt.get(hash)
      return row && { ...row, ...usage().keySpend(hash, starts) }
    },
    /** How many keys a workspace holds. */
    countInWorkspace: (workspaceId: string) => inWorkspaceStmt.get(workspaceId)!.n,
    /** How many keys of a workspace a member made. */
    countMadeInWorkspace: (workspaceId: string, memberId: string) => madeInWorkspaceStmt.get({ workspace_id: workspaceId, member_id: memberId })!.n,
    /** Moves an account's keys in other workspaces to its default one; call inside the caller's transaction. */
    moveToDefaultWorkspace: (accountId: string, defaultWorkspace: string) =>
      void toDefaultStmt.run({ account_id: accountId, default_workspace: defaultWorkspace }),
    update: (hash: string, patch: KeyPatch, now: number) => update.immediate(hash, patch, now),
    delete: (hash: string) => deleteStmt.run(hash).changes > 0,
    forAccount: (accountId: string) => forAccountStmt.all(accountId),
  }
}

export type KeysRepo = ReturnType<typeof createKeysRepo>

/** API keys; an account reset keeps them (in its default workspace: keys.module.ts). */
export const keysState: StateOwner = { name: 'keys', tables: ['api_keys'] }
