// Chat fixtures' rows: an account's rules in order (positions 0..n-1), the first that answers a
// request, and the count of its uses. What a rule matches is text-fixtures.service.ts.
import type { Statement } from 'better-sqlite3'
import type { StateOwner } from '../../core/lifecycle.ts'
import type { DB } from '../../store/db.ts'

export interface ChatFixtureRow {
  id: string
  account_id: string
  name: string | null
  enabled: 0 | 1
  position: number
  /** JSON: ChatFixtureMatch. */
  match: string
  /** JSON: ChatFixtureAnswer, with tool call arguments as JSON text. */
  answer: string
  times: number | null
  remaining: number | null
  hits: number
  created_at: number
  updated_at: number | null
}

export function createChatFixturesRepo(db: DB) {
  const insertStmt = db.prepare<ChatFixtureRow>(
    `INSERT INTO chat_fixtures (id, account_id, name, enabled, position, match, answer, times, remaining, hits, created_at, updated_at)
     VALUES (@id, @account_id, @name, @enabled, @position, @match, @answer, @times, @remaining, @hits, @created_at, @updated_at)`,
  )
  const updateStmt = db.prepare<ChatFixtureRow>(
    `UPDATE chat_fixtures SET name = @name, enabled = @enabled, position = @position, match = @match, answer = @answer,
       times = @times, remaining = @remaining, updated_at = @updated_at WHERE id = @id`,
  )
  const listStmt = db.prepare<[string], ChatFixtureRow>('SELECT * FROM chat_fixtures WHERE account_id = ? ORDER BY position, created_at, rowid')
  // Sorted here, not by ORDER BY: SQLite recompiles a statement whose ORDER BY meets a bound parameter each
  // time the parameter is bound (about 40 us), and this runs twice on every chat request.
  const activeStmt = db.prepare<[string], ChatFixtureRow>(
    'SELECT * FROM chat_fixtures WHERE account_id = ? AND enabled = 1 AND (remaining IS NULL OR remaining > 0)',
  )
  const getStmt = db.prepare<[string], ChatFixtureRow>('SELECT * FROM chat_fixtures WHERE id = ?')
  const deleteStmt = db.prepare<[string]>('DELETE FROM chat_fixtures WHERE id = ?')
  const clearStmt = db.prepare<[string]>('DELETE FROM chat_fixtures WHERE account_id = ?')
  const useStmt = db.prepare<[string]>(
    `UPDATE chat_fixtures SET hits = hits + 1, remaining = CASE WHEN remaining IS NULL THEN NULL ELSE remaining - 1 END WHERE id = ?`,
  )
  // Positions stay 0..n-1 within an account: moving a rule shifts the ones between.
  const renumberStmt = db.prepare<[number, string]>('UPDATE chat_fixtures SET position = ? WHERE id = ?')
  let totalsStmt: Statement<[], { fixtures: number; hits: number }> | undefined
  const renumber = (rows: readonly ChatFixtureRow[]) => rows.forEach((row, i) => row.position !== i && renumberStmt.run(i, row.id))

  return {
    list: (accountId: string) => listStmt.all(accountId),
    get: (id: string) => getStmt.get(id),
    /** Adds a rule at `position` (clamped; the end when null), in the caller's transaction. */
    insert(row: Omit<ChatFixtureRow, 'position'>, position: number | null): void {
      const rows = listStmt.all(row.account_id)
      const at = Math.min(position ?? rows.length, rows.length)
      const added = { ...row, position: rows.length }
      insertStmt.run(added)
      renumber([...rows.slice(0, at), added, ...rows.slice(at)])
    },
    /** Writes a rule's fields, moving it to `position` when given. */
    update(row: ChatFixtureRow, position: number | null): void {
      updateStmt.run(row)
      if (position === null) return
      const others = listStmt.all(row.account_id).filter((r) => r.id !== row.id)
      const at = Math.min(position, others.length)
      renumber([...others.slice(0, at), row, ...others.slice(at)])
    },
    delete(id: string): boolean {
      const row = getStmt.get(id)
      if (!row) return false
      deleteStmt.run(id)
      renumber(listStmt.all(row.account_id))
      return true
    },
    clear: (accountId: string) => void clearStmt.run(accountId),
    /** The rule that answers `subject` now, if any (not yet counted as used). */
    /** The account's rules that may answer (enabled, not used up), in order. */
    active(accountId: string): ChatFixtureRow[] {
      return activeStmt.all(accountId).sort((a, b) => a.position - b.position || a.created_at - b.created_at)
    },
    /** Counts one answer by the rule (spending one of `remaining`), in the caller's transaction. */
    use: (id: string) => void useStmt.run(id),
    /** Every account's rules and the answers they gave (/metrics; prepared at the first scrape). */
    totals(): { fixtures: number; hits: number } {
      totalsStmt ??= db.prepare<[], { fixtures: number; hits: number }>('SELECT COUNT(*) AS fixtures, COALESCE(SUM(hits), 0) AS hits FROM chat_fixtures')
      return totalsStmt.get()!
    },
  }
}

export type ChatFixturesRepo = ReturnType<typeof createChatFixturesRepo>

export function chatFixturesState(db: DB): StateOwner {
  const forget = db.prepare<[string]>('DELETE FROM chat_fixtures WHERE account_id = ?')
  return { name: 'chatFixtures', tables: ['chat_fixtures'], resetAccount: (id) => void forget.run(id) }
}
