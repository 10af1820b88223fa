// Prepared SQL for BYOK credentials. A row holds the key's masked label, never the key.
import type { StateOwner } from '../../core/lifecycle.ts'
import type { DB } from '../../store/db.ts'

export interface ByokRow {
  id: string
  account_id: string
  workspace_id: string
  provider: string
  name: string | null
  label: string
  disabled: 0 | 1
  is_fallback: 0 | 1
  is_byok_only: 0 | 1
  is_required: 0 | 1
  declared_zdr: 0 | 1 | null
  /** JSON arrays, or null for "no restriction". */
  allowed_models: string | null
  allowed_api_key_hashes: string | null
  allowed_user_ids: string | null
  sort_order: number
  created_at: number
  updated_at: number | null
}

export interface ByokFilter {
  account_id: string
  workspace_id: string
  provider: string | null
}

export function createByokRepo(db: DB) {
  const insertStmt = db.prepare<ByokRow>(
    `INSERT INTO byok_credentials (id, account_id, workspace_id, provider, name, label, disabled, is_fallback, is_byok_only, is_required,
       declared_zdr, allowed_models, allowed_api_key_hashes, allowed_user_ids, sort_order, created_at, updated_at)
     VALUES (@id, @account_id, @workspace_id, @provider, @name, @label, @disabled, @is_fallback, @is_byok_only, @is_required,
       @declared_zdr, @allowed_models, @allowed_api_key_hashes, @allowed_user_ids, @sort_order, @created_at, @updated_at)`,
  )
  const updateStmt = db.prepare<ByokRow>(
    `UPDATE byok_credentials SET name = @name, label = @label, disabled = @disabled, is_fallback = @is_fallback, is_byok_only = @is_byok_only,
       is_required = @is_required, declared_zdr = @declared_zdr, allowed_models = @allowed_models,
       allowed_api_key_hashes = @allowed_api_key_hashes, allowed_user_ids = @allowed_user_ids, updated_at = @updated_at
     WHERE id = @id`,
  )
  const getStmt = db.prepare<[string], ByokRow>('SELECT * FROM byok_credentials WHERE id = ?')
  const deleteStmt = db.prepare<[string]>('DELETE FROM byok_credentials WHERE id = ?')
  // A null provider matches every provider, so one statement serves both lists.
  const where = 'account_id = @account_id AND workspace_id = @workspace_id AND (@provider IS NULL OR provider = @provider)'
  const listStmt = db.prepare<ByokFilter & { limit: number; offset: number }, ByokRow>(
    `SELECT * FROM byok_credentials WHERE ${where} ORDER BY created_at, rowid LIMIT @limit OFFSET @offset`,
  )
  const countStmt = db.prepare<ByokFilter, { n: number }>(`SELECT COUNT(*) AS n FROM byok_credentials WHERE ${where}`)
  const nextOrderStmt = db.prepare<ByokFilter, { n: number }>(`SELECT COALESCE(MAX(sort_order) + 1, 0) AS n FROM byok_credentials WHERE ${where}`)
  // Sorted in `usable`, not by ORDER BY: SQLite recompiles a statement whose ORDER BY meets a bound parameter
  // each time the parameter is bound, and this runs on every billed request.
  const usableStmt = db.prepare<ByokFilter, ByokRow>(`SELECT * FROM byok_credentials WHERE ${where} AND disabled = 0`)
  const accountStmt = db.prepare<[string], ByokRow>('SELECT * FROM byok_credentials WHERE account_id = ? ORDER BY created_at, rowid')
  const inWorkspaceStmt = db.prepare<[string, string], { n: number }>('SELECT COUNT(*) AS n FROM byok_credentials WHERE account_id = ? AND workspace_id = ?')
  const inAccountStmt = db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM byok_credentials WHERE account_id = ?')
  const allStmt = db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM byok_credentials')

  return {
    insert: (row: ByokRow) => void insertStmt.run(row),
    update: (row: ByokRow) => void updateStmt.run(row),
    get: (id: string) => getStmt.get(id),
    delete: (id: string) => void deleteStmt.run(id),
    /** Oldest first. */
    list: (filter: ByokFilter, limit: number, offset: number) => listStmt.all({ ...filter, limit, offset }),
    count: (filter: ByokFilter) => countStmt.get(filter)!.n,
    /** The place a new credential of this provider takes in its workspace: after every other. */
    nextSortOrder: (filter: ByokFilter) => nextOrderStmt.get(filter)!.n,
    /** The enabled credentials of one provider in one workspace, in the order they would be tried. */
    usable: (filter: ByokFilter) => usableStmt.all(filter).sort((a, b) => a.is_fallback - b.is_fallback || a.sort_order - b.sort_order),
    /** Every credential of an account, in every workspace (the admin API's view). */
    ofAccount: (accountId: string) => accountStmt.all(accountId),
    /** How many credentials a workspace holds (what a workspace's deletion would leave behind). */
    countInWorkspace: (accountId: string, workspaceId: string) => inWorkspaceStmt.get(accountId, workspaceId)!.n,
    /** How many credentials an account holds, in every workspace (every account's, for null). */
    countStored: (accountId: string | null) => (accountId === null ? allStmt.get()!.n : inAccountStmt.get(accountId)!.n),
  }
}

export type ByokRepo = ReturnType<typeof createByokRepo>

/** The credentials; an account reset deletes the account's. */
export function byokState(db: DB): StateOwner {
  const forget = db.prepare<[string]>('DELETE FROM byok_credentials WHERE account_id = ?')
  return { name: 'byok', tables: ['byok_credentials'], resetAccount: (id) => void forget.run(id) }
}
