// Prepared SQL for workspaces, their budgets and their members. A key's workspace is its own
// `workspace_id`, or its account's default one where that is NULL (keys from before the column).
import type { StateOwner } from '../../core/lifecycle.ts'
import type { DB } from '../../store/db.ts'
import type { AccountsRepo } from '../accounts/accounts.repo.ts'

export interface WorkspaceRow {
  id: string
  account_id: string
  name: string
  slug: string
  description: string | null
  default_text_model: string | null
  default_image_model: string | null
  default_provider_sort: string | null
  is_observability_io_logging_enabled: 0 | 1
  is_observability_broadcast_enabled: 0 | 1
  is_data_discount_logging_enabled: 0 | 1
  io_logging_sampling_rate: number
  /** JSON array of integers, or null for "every key". */
  io_logging_api_key_ids: string | null
  include_byok_in_budgets: 0 | 1
  created_by: string | null
  created_at: number
  updated_at: number | null
}

export const BUDGET_INTERVALS = ['daily', 'weekly', 'monthly', 'lifetime'] as const
/** Narrowest first: a budget's limit must be below every wider one's. */
export type BudgetInterval = (typeof BUDGET_INTERVALS)[number]

export interface BudgetRow {
  id: string
  workspace_id: string
  reset_interval: BudgetInterval
  limit_nanos: number
  created_at: number
  updated_at: number
}

/** A budget of a key's workspace, with what enforcing it needs to know of the workspace. */
export interface MembershipRow {
  id: string
  workspace_id: string
  member_id: string
  /** The member's role in the account: a workspace member holds the role they hold there. */
  role: 'admin' | 'member'
  created_at: number
}

/** What a new default workspace holds: its name and slug; every setting at its default. */
export const DEFAULT_WORKSPACE = { name: 'Default Workspace', slug: 'default' } as const

export function createWorkspacesRepo(db: DB) {
  const insertStmt = db.prepare<WorkspaceRow>(
    `INSERT INTO workspaces (id, account_id, name, slug, description, default_text_model, default_image_model, default_provider_sort,
       is_observability_io_logging_enabled, is_observability_broadcast_enabled, is_data_discount_logging_enabled,
       io_logging_sampling_rate, io_logging_api_key_ids, include_byok_in_budgets, created_by, created_at, updated_at)
     VALUES (@id, @account_id, @name, @slug, @description, @default_text_model, @default_image_model, @default_provider_sort,
       @is_observability_io_logging_enabled, @is_observability_broadcast_enabled, @is_data_discount_logging_enabled,
       @io_logging_sampling_rate, @io_logging_api_key_ids, @include_byok_in_budgets, @created_by, @created_at, @updated_at)`,
  )
  const updateStmt = db.prepare<WorkspaceRow>(
    `UPDATE workspaces SET name = @name, slug = @slug, description = @description, default_text_model = @default_text_model,
       default_image_model = @default_image_model, default_provider_sort = @default_provider_sort,
       is_observability_io_logging_enabled = @is_observability_io_logging_enabled,
       is_observability_broadcast_enabled = @is_observability_broadcast_enabled,
       is_data_discount_logging_enabled = @is_data_discount_logging_enabled, io_logging_sampling_rate = @io_logging_sampling_rate,
       io_logging_api_key_ids = @io_logging_api_key_ids, include_byok_in_budgets = @include_byok_in_budgets, updated_at = @updated_at
     WHERE id = @id`,
  )
  const getStmt = db.prepare<[string], WorkspaceRow>('SELECT * FROM workspaces WHERE id = ?')
  const bySlugStmt = db.prepare<{ account_id: string; slug: string }, WorkspaceRow>('SELECT * FROM workspaces WHERE account_id = @account_id AND slug = @slug')
  const listStmt = db.prepare<{ account_id: string; limit: number; offset: number }, WorkspaceRow>(
    'SELECT * FROM workspaces WHERE account_id = @account_id ORDER BY created_at, rowid LIMIT @limit OFFSET @offset',
  )
  const countStmt = db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM workspaces WHERE account_id = ?')
  const deleteStmt = db.prepare<[string]>('DELETE FROM workspaces WHERE id = ?')
  // Workspaces added to an account (its default one, made with it, is not one).
  const addedInStmt = db.prepare<[string, string], { n: number }>('SELECT COUNT(*) AS n FROM workspaces WHERE account_id = ? AND id <> ?')
  const addedStmt = db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM workspaces WHERE id NOT IN (SELECT value FROM json_each(?))')

  // Sorted in `budgets`, not by ORDER BY: SQLite recompiles a statement whose ORDER BY meets a bound
  // parameter each time the parameter is bound (tens of microseconds on every billed request).
  const budgetsStmt = db.prepare<[string], BudgetRow>('SELECT * FROM workspace_budgets WHERE workspace_id = ?')
  const budgetStmt = db.prepare<{ workspace_id: string; reset_interval: BudgetInterval }, BudgetRow>(
    'SELECT * FROM workspace_budgets WHERE workspace_id = @workspace_id AND reset_interval = @reset_interval',
  )
  const upsertBudgetStmt = db.prepare<BudgetRow>(
    `INSERT INTO workspace_budgets (id, workspace_id, reset_interval, limit_nanos, created_at, updated_at)
     VALUES (@id, @workspace_id, @reset_interval, @limit_nanos, @created_at, @updated_at)
     ON CONFLICT (workspace_id, reset_interval) DO UPDATE SET limit_nanos = excluded.limit_nanos, updated_at = excluded.updated_at`,
  )
  const deleteBudgetStmt = db.prepare<{ workspace_id: string; reset_interval: BudgetInterval }>(
    'DELETE FROM workspace_budgets WHERE workspace_id = @workspace_id AND reset_interval = @reset_interval',
  )
  const setIncludeByokStmt = db.prepare<{ id: string; include_byok_in_budgets: 0 | 1 }>(
    'UPDATE workspaces SET include_byok_in_budgets = @include_byok_in_budgets WHERE id = @id',
  )
  const membersStmt = db.prepare<{ workspace_id: string; limit: number; offset: number }, Omit<MembershipRow, 'role'>>(
    `SELECT id, workspace_id, member_id, created_at FROM workspace_members
     WHERE workspace_id = @workspace_id ORDER BY created_at, rowid LIMIT @limit OFFSET @offset`,
  )
  const memberCountStmt = db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM workspace_members WHERE workspace_id = ?')
  const addMemberStmt = db.prepare<{ id: string; workspace_id: string; member_id: string; created_at: number }>(
    `INSERT INTO workspace_members (id, workspace_id, member_id, created_at) VALUES (@id, @workspace_id, @member_id, @created_at)
     ON CONFLICT (workspace_id, member_id) DO NOTHING`,
  )
  const removeMemberStmt = db.prepare<{ workspace_id: string; member_id: string }>(
    'DELETE FROM workspace_members WHERE workspace_id = @workspace_id AND member_id = @member_id',
  )

  return {
    insert: (row: WorkspaceRow) => void insertStmt.run(row),
    update: (row: WorkspaceRow) => void updateStmt.run(row),
    get: (id: string) => getStmt.get(id),
    bySlug: (account_id: string, slug: string) => bySlugStmt.get({ account_id, slug }),
    list: (account_id: string, limit: number, offset: number) => listStmt.all({ account_id, limit, offset }),
    count: (account_id: string) => countStmt.get(account_id)!.n,
    /** Workspaces added to an account, besides its default one. */
    countAdded: (accountId: string, defaultWorkspace: string) => addedInStmt.get(accountId, defaultWorkspace)!.n,
    /** Workspaces added to every account, besides the default ones (every account's). */
    countAddedInAll: (defaultWorkspaces: readonly string[]) => addedStmt.get(JSON.stringify(defaultWorkspaces))!.n,
    delete: (id: string) => deleteStmt.run(id).changes > 0,

    /** A workspace's budgets, narrowest first (on every billed request: none for most workspaces). */
    budgets: (workspaceId: string) =>
      budgetsStmt.all(workspaceId).sort((a, b) => BUDGET_INTERVALS.indexOf(a.reset_interval) - BUDGET_INTERVALS.indexOf(b.reset_interval)),
    budget: (workspace_id: string, reset_interval: BudgetInterval) => budgetStmt.get({ workspace_id, reset_interval }),
    /** Creates the interval's budget, or changes its limit (keeping its id and created_at). */
    upsertBudget: (row: BudgetRow) => void upsertBudgetStmt.run(row),
    deleteBudget: (workspace_id: string, reset_interval: BudgetInterval) => deleteBudgetStmt.run({ workspace_id, reset_interval }).changes > 0,
    setIncludeByok: (id: string, include: boolean) => void setIncludeByokStmt.run({ id, include_byok_in_budgets: include ? 1 : 0 }),

    /** A page of a workspace's memberships, oldest first; `roleOf` gives each member's role in the account. */
    members: (workspace_id: string, limit: number, offset: number, roleOf: (memberId: string) => MembershipRow['role'] | undefined): MembershipRow[] =>
      membersStmt.all({ workspace_id, limit, offset }).flatMap((row) => {
        const role = roleOf(row.member_id)
        return role === undefined ? [] : [{ id: row.id, workspace_id: row.workspace_id, member_id: row.member_id, role, created_at: row.created_at }]
      }),
    memberCount: (workspaceId: string) => memberCountStmt.get(workspaceId)!.n,
    /** True when the member was not in the workspace yet (they are now). */
    addMember: (row: { id: string; workspace_id: string; member_id: string; created_at: number }) => addMemberStmt.run(row).changes > 0,
    removeMember: (workspace_id: string, member_id: string) => removeMemberStmt.run({ workspace_id, member_id }).changes > 0,
  }
}

export type WorkspacesRepo = ReturnType<typeof createWorkspacesRepo>

/**
 * Workspaces, budgets and members. An account reset puts the account back to its default workspace as
 * created (settings, no budgets): the others go, and the keys in them move to the default one (keys
 * outlive an account reset: keys.module.ts). After an import, an account without its default workspace (a document
 * from before workspaces) gets one.
 */
export function workspacesState(db: DB, accounts: AccountsRepo): StateOwner {
  const forget = [
    'DELETE FROM workspace_members WHERE workspace_id IN (SELECT id FROM workspaces WHERE account_id = @account_id)',
    'DELETE FROM workspace_budgets WHERE workspace_id IN (SELECT id FROM workspaces WHERE account_id = @account_id)',
    'DELETE FROM workspaces WHERE account_id = @account_id AND id <> @default_workspace',
    `UPDATE workspaces SET name = '${DEFAULT_WORKSPACE.name}', slug = '${DEFAULT_WORKSPACE.slug}', description = NULL,
       default_text_model = NULL, default_image_model = NULL, default_provider_sort = NULL,
       is_observability_io_logging_enabled = 0, is_observability_broadcast_enabled = 0, is_data_discount_logging_enabled = 1,
       io_logging_sampling_rate = 1, io_logging_api_key_ids = NULL, include_byok_in_budgets = 0, updated_at = NULL
     WHERE id = @default_workspace`,
  ].map((sql) => db.prepare<{ account_id: string; default_workspace: string }>(sql))
  const existsStmt = db.prepare<[string], { one: number }>('SELECT 1 AS one FROM workspaces WHERE id = ?')
  const slugUsedStmt = db.prepare<[string, string], { one: number }>('SELECT 1 AS one FROM workspaces WHERE account_id = ? AND slug = ?')
  const insertDefaultStmt = db.prepare<{ id: string; account_id: string; slug: string; created_by: string | null; created_at: number }>(
    `INSERT INTO workspaces (id, account_id, name, slug, created_by, created_at)
     VALUES (@id, @account_id, '${DEFAULT_WORKSPACE.name}', @slug, @created_by, @created_at)`,
  )
  // Oldest account first; the slug is the default's unless the account already uses it for another workspace.
  const ensureDefaults = (): void => {
    for (const account of accounts.list()) {
      if (existsStmt.get(account.workspace_id)) continue
      const slugUsed = slugUsedStmt.get(account.id, DEFAULT_WORKSPACE.slug) !== undefined
      insertDefaultStmt.run({
        id: account.workspace_id,
        account_id: account.id,
        slug: slugUsed ? `${DEFAULT_WORKSPACE.slug}-${account.workspace_id.slice(0, 8)}` : DEFAULT_WORKSPACE.slug,
        created_by: accounts.members(account.id)[0]?.id ?? null,
        created_at: account.created_at,
      })
    }
  }
  return {
    name: 'workspaces',
    tables: ['workspaces', 'workspace_budgets', 'workspace_members'],
    resetAccount: (id) => {
      const account = accounts.get(id)
      if (account) forget.forEach((stmt) => stmt.run({ account_id: id, default_workspace: account.workspace_id }))
    },
    afterStateChange: (change) => {
      if (change === 'import') ensureDefaults()
    },
  }
}
