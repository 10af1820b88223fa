import type { DB } from '../../store/db.ts'
import type { StateOwner } from '../../core/lifecycle.ts'

export interface AccountRow {
  id: string
  name: string
  credits_nanos: number
  workspace_id: string
  created_at: number
  /** JSON array of provider slugs or names the account never routes to. */
  ignored_providers: string
  /** 1 = only endpoints with zero data retention. */
  zdr_only: 0 | 1
  /** Credits spent so far: the ledger adds each usage row's cost (BYOK excluded) in the same transaction. */
  spent_nanos: number
}

export interface AccountPreferences {
  name?: string
  ignored_providers?: string[]
  zdr_only?: boolean
}

export interface MemberRow {
  id: string
  account_id: string
  name: string
  email: string
  role: 'admin' | 'member'
  created_at: number
}

export function createAccountsRepo(db: DB) {
  const insertAccountStmt = db.prepare<AccountRow>(
    `INSERT INTO accounts (id, name, credits_nanos, workspace_id, created_at, ignored_providers, zdr_only)
     VALUES (@id, @name, @credits_nanos, @workspace_id, @created_at, @ignored_providers, @zdr_only)`,
  )
  const insertMemberStmt = db.prepare<MemberRow>(
    `INSERT INTO members (id, account_id, name, email, role, created_at)
     VALUES (@id, @account_id, @name, @email, @role, @created_at)`,
  )
  const getStmt = db.prepare<[string], AccountRow>('SELECT * FROM accounts WHERE id = ?')
  const listStmt = db.prepare<[], AccountRow>('SELECT * FROM accounts ORDER BY created_at, rowid')
  const membersStmt = db.prepare<[string], MemberRow>('SELECT * FROM members WHERE account_id = ? ORDER BY created_at, rowid')
  const memberStmt = db.prepare<[string], MemberRow>('SELECT * FROM members WHERE id = ?')
  const deleteStmt = db.prepare<[string]>('DELETE FROM accounts WHERE id = ?')
  const setCreditsStmt = db.prepare<{ id: string; credits_nanos: number }>('UPDATE accounts SET credits_nanos = @credits_nanos WHERE id = @id')
  const updateStmt = db.prepare<{ id: string; name: string; ignored_providers: string; zdr_only: 0 | 1 }>(
    'UPDATE accounts SET name = @name, ignored_providers = @ignored_providers, zdr_only = @zdr_only WHERE id = @id',
  )
  const addCreditsStmt = db.prepare<{ id: string; nanos: number }>('UPDATE accounts SET credits_nanos = credits_nanos + @nanos WHERE id = @id')
  const addSpendStmt = db.prepare<{ id: string; nanos: number }>('UPDATE accounts SET spent_nanos = spent_nanos + @nanos WHERE id = @id')

  return {
    insert: (row: AccountRow) => void insertAccountStmt.run(row),
    insertMember: (row: MemberRow) => void insertMemberStmt.run(row),
    get: (id: string) => getStmt.get(id),
    list: () => listStmt.all(),
    members: (accountId: string) => membersStmt.all(accountId),
    member: (id: string) => memberStmt.get(id),
    delete: (id: string) => deleteStmt.run(id).changes > 0,
    setCredits: (id: string, credits_nanos: number) => void setCreditsStmt.run({ id, credits_nanos }),
    update(row: AccountRow, patch: AccountPreferences): void {
      updateStmt.run({
        id: row.id,
        name: patch.name ?? row.name,
        ignored_providers: patch.ignored_providers === undefined ? row.ignored_providers : JSON.stringify(patch.ignored_providers),
        zdr_only: patch.zdr_only === undefined ? row.zdr_only : patch.zdr_only ? 1 : 0,
      })
    },
    /** Credits bought go up (a confirmed charge); call inside the transaction that records why. */
    addCredits: (id: string, nanos: number) => void addCreditsStmt.run({ id, nanos }),
    /** The debit of a usage row; call inside the transaction that writes the row. */
    addSpend: (id: string, nanos: number) => void addSpendStmt.run({ id, nanos }),
  }
}

export type AccountsRepo = ReturnType<typeof createAccountsRepo>

/** Accounts and their members; an account reset keeps both and sets the spend back to 0. */
export function accountsState(db: DB): StateOwner {
  const resetSpend = db.prepare<[string]>('UPDATE accounts SET spent_nanos = 0 WHERE id = ?')
  return { name: 'accounts', tables: ['accounts', 'members'], resetAccount: (id) => void resetSpend.run(id) }
}
