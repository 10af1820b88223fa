// Prepared SQL for what the emulator keeps of a generation beyond its metadata: its content (the
// prompt and answer, as JSON and text) and the one piece of feedback given on it (an upsert replaces it).
import type { StateOwner } from '../../core/lifecycle.ts'
import type { DB } from '../../store/db.ts'

export interface ContentRow {
  generation_id: string
  account_id: string
  /** JSON: `{"prompt": ...}` or `{"messages": [...]}`. */
  input: string
  completion: string | null
  reasoning: string | null
}

/** Contents counted together: rows, and bytes as stored (UTF-8). */
export interface ContentTotals {
  rows: number
  bytes: number
}

export interface FeedbackRow {
  generation_id: string
  account_id: string
  category: string
  comment: string | null
  created_at: number
  updated_at: number | null
}

export function createGenerationsContentRepo(db: DB) {
  const insertContentStmt = db.prepare<ContentRow>(
    `INSERT INTO generation_contents (generation_id, account_id, input, completion, reasoning)
     VALUES (@generation_id, @account_id, @input, @completion, @reasoning)`,
  )
  const contentStmt = db.prepare<[string, string], ContentRow>('SELECT * FROM generation_contents WHERE generation_id = ? AND account_id = ?')
  // octet_length reads a value's size from its record header: thousands of rows are summed in a millisecond or so.
  const bytes = 'octet_length(input) + IFNULL(octet_length(completion), 0) + IFNULL(octet_length(reasoning), 0)'
  const heldStmt = db.prepare<[string], ContentTotals>(
    `SELECT COUNT(*) AS rows, IFNULL(SUM(${bytes}), 0) AS bytes FROM generation_contents WHERE account_id = ?`,
  )
  const heldAllStmt = db.prepare<[], ContentTotals>(`SELECT COUNT(*) AS rows, IFNULL(SUM(${bytes}), 0) AS bytes FROM generation_contents`)
  // The newest rows within the bound stay; the first past it (newest first) and every older one go.
  const pastBound = (where: string) => `SELECT MAX(id) FROM (
      SELECT rowid AS id, ROW_NUMBER() OVER newest AS n, SUM(${bytes}) OVER newest AS total
      FROM generation_contents ${where} WINDOW newest AS (ORDER BY rowid DESC)
    ) WHERE n > @rows OR total > @bytes`
  const pruneStmt = db.prepare<ContentTotals & { account_id: string }>(
    `DELETE FROM generation_contents WHERE account_id = @account_id AND rowid <= (${pastBound('WHERE account_id = @account_id')})`,
  )
  const pruneAllStmt = db.prepare<ContentTotals>(`DELETE FROM generation_contents WHERE rowid <= (${pastBound('')})`)
  // A repeat keeps when the feedback was first given, and says when it last changed.
  const upsertFeedbackStmt = db.prepare<FeedbackRow>(
    `INSERT INTO generation_feedback (generation_id, account_id, category, comment, created_at, updated_at)
     VALUES (@generation_id, @account_id, @category, @comment, @created_at, NULL)
     ON CONFLICT (generation_id) DO UPDATE SET category = excluded.category, comment = excluded.comment, updated_at = excluded.created_at`,
  )
  const feedbackStmt = db.prepare<[string], FeedbackRow>('SELECT * FROM generation_feedback WHERE account_id = ? ORDER BY created_at, rowid')

  return {
    insertContent: (row: ContentRow) => void insertContentStmt.run(row),
    /** The contents an account keeps (every account's, for null): how many, and their bytes. */
    held: (accountId: string | null): ContentTotals => (accountId === null ? heldAllStmt.get()! : heldStmt.get(accountId)!),
    /** Drops an account's oldest contents (every account's, for null) until the rest fit `within`. */
    prune: (accountId: string | null, within: ContentTotals) =>
      void (accountId === null ? pruneAllStmt.run(within) : pruneStmt.run({ ...within, account_id: accountId })),
    content: (generationId: string, accountId: string) => contentStmt.get(generationId, accountId),
    upsertFeedback: (row: FeedbackRow) => void upsertFeedbackStmt.run(row),
    feedback: (accountId: string) => feedbackStmt.all(accountId),
  }
}

export type GenerationsContentRepo = ReturnType<typeof createGenerationsContentRepo>

/** Contents and feedback; an account reset deletes the account's (its generations go too). */
export function generationsContentState(db: DB): StateOwner {
  const forget = ['DELETE FROM generation_contents WHERE account_id = ?', 'DELETE FROM generation_feedback WHERE account_id = ?'].map((sql) =>
    db.prepare<[string]>(sql),
  )
  return { name: 'generation-content', tables: ['generation_contents', 'generation_feedback'], resetAccount: (id) => forget.forEach((stmt) => stmt.run(id)) }
}
