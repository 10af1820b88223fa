// The usage table is the ledger's memory: one row per billable action. Key usage, limit windows,
// credits spent and activity are all derived from these rows.
import type { DB } from '../../store/db.ts'
import type { StateOwner } from '../../core/lifecycle.ts'

export interface UsageRow {
  account_id: string
  key_hash: string | null
  member_id: string | null
  operation: string
  model: string
  provider: string
  endpoint_id: string
  prompt_tokens: number
  completion_tokens: number
  reasoning_tokens: number
  cost_nanos: number
  byok: 0 | 1
  created_at: number
  /** The key's workspace as of now (the account's default for a key without one). */
  workspace_id: string
}

export function createUsageRepo(db: DB) {
  // The row records its key's workspace as of now, so workspace budgets and reports keep their spend
  // when a key is moved or deleted. The caller names it (it holds the key and account rows): a subquery
  // here tripled the cost of the one write every billed request makes.
  const insertStmt = db.prepare<UsageRow>(
    `INSERT INTO usage (account_id, key_hash, member_id, operation, model, provider, endpoint_id, prompt_tokens,
       completion_tokens, reasoning_tokens, cost_nanos, byok, created_at, workspace_id)
     VALUES (@account_id, @key_hash, @member_id, @operation, @model, @provider, @endpoint_id, @prompt_tokens,
       @completion_tokens, @reasoning_tokens, @cost_nanos, @byok, @created_at, @workspace_id)`,
  )
  const getStmt = db.prepare<[number], UsageRow & { id: number }>('SELECT * FROM usage WHERE id = ?')
  const zeroStmt = db.prepare<[number]>('UPDATE usage SET cost_nanos = 0 WHERE id = ?')
  const settleStmt = db.prepare<{ id: number; completion_tokens: number; cost_nanos: number }>(
    'UPDATE usage SET completion_tokens = @completion_tokens, cost_nanos = @cost_nanos WHERE id = @id',
  )
  return {
    get: (id: number) => getStmt.get(id),
    /** A refund: the row stays (the request happened) but costs nothing. */
    zeroCost: (id: number) => void zeroStmt.run(id),
    /** A smaller charge for what was delivered (an answer cut short): its completion tokens and cost. */
    settle: (id: number, completion_tokens: number, cost_nanos: number) => void settleStmt.run({ id, completion_tokens, cost_nanos }),
    /** Call inside the transaction that debits the account. Returns the new row's id. */
    insert: (row: UsageRow): number => Number(insertStmt.run(row).lastInsertRowid),
  }
}

export type UsageRepo = ReturnType<typeof createUsageRepo>

/** The usage ledger; an account reset deletes the account's rows. */
export function usageState(db: DB): StateOwner {
  const forget = db.prepare<[string]>('DELETE FROM usage WHERE account_id = ?')
  return { name: 'usage', tables: ['usage'], resetAccount: (id) => void forget.run(id) }
}
