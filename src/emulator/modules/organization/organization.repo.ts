// Prepared SQL for SCIM group mappings. A group maps to a workspace at most once (UNIQUE), so a second
// create of the same pair is a conflict, not a second row.
import type { StateOwner } from '../../core/lifecycle.ts'
import type { DB } from '../../store/db.ts'

export interface MappingRow {
  id: string
  account_id: string
  scim_group_id: string
  workspace_id: string
  role: 'admin' | 'member'
  created_at: number
  updated_at: number
}

export function createOrganizationRepo(db: DB) {
  const inWorkspaceStmt = db.prepare<[string, string], { n: number }>('SELECT COUNT(*) AS n FROM scim_group_mappings WHERE account_id = ? AND workspace_id = ?')
  const insertStmt = db.prepare<MappingRow>(
    `INSERT INTO scim_group_mappings (id, account_id, scim_group_id, workspace_id, role, created_at, updated_at)
     VALUES (@id, @account_id, @scim_group_id, @workspace_id, @role, @created_at, @updated_at)`,
  )
  const getStmt = db.prepare<[string, string], MappingRow>('SELECT * FROM scim_group_mappings WHERE id = ? AND account_id = ?')
  const pairStmt = db.prepare<[string, string, string], MappingRow>(
    'SELECT * FROM scim_group_mappings WHERE account_id = ? AND scim_group_id = ? AND workspace_id = ?',
  )
  const listStmt = db.prepare<{ account_id: string; limit: number; offset: number }, MappingRow>(
    'SELECT * FROM scim_group_mappings WHERE account_id = @account_id ORDER BY created_at, rowid LIMIT @limit OFFSET @offset',
  )
  const countStmt = db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM scim_group_mappings WHERE account_id = ?')
  const countAllStmt = db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM scim_group_mappings')
  const setRoleStmt = db.prepare<{ id: string; role: string; updated_at: number }>(
    'UPDATE scim_group_mappings SET role = @role, updated_at = @updated_at WHERE id = @id',
  )
  const deleteStmt = db.prepare<[string]>('DELETE FROM scim_group_mappings WHERE id = ?')

  return {
    /** Rows in a workspace: a workspace that holds any cannot be deleted. */
    countInWorkspace: (accountId: string, workspaceId: string) => inWorkspaceStmt.get(accountId, workspaceId)!.n,
    insert: (row: MappingRow) => void insertStmt.run(row),
    /** One of the account's mappings (another account's is as unknown as none). */
    get: (id: string, accountId: string) => getStmt.get(id, accountId),
    forPair: (accountId: string, groupId: string, workspaceId: string) => pairStmt.get(accountId, groupId, workspaceId),
    list: (account_id: string, limit: number, offset: number) => listStmt.all({ account_id, limit, offset }),
    count: (accountId: string) => countStmt.get(accountId)!.n,
    /** Mappings of every account together. */
    countAll: () => countAllStmt.get()!.n,
    setRole: (id: string, role: MappingRow['role'], updated_at: number) => void setRoleStmt.run({ id, role, updated_at }),
    delete: (id: string) => deleteStmt.run(id).changes > 0,
  }
}

export type OrganizationRepo = ReturnType<typeof createOrganizationRepo>

/** SCIM group mappings; an account reset deletes the account's. */
export function organizationState(db: DB): StateOwner {
  const forget = db.prepare<[string]>('DELETE FROM scim_group_mappings WHERE account_id = ?')
  return { name: 'organization', tables: ['scim_group_mappings'], resetAccount: (id) => void forget.run(id) }
}
