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
  // A repeat keeps when the feedback was first given, and says when it last changed.
  const upsertFeedbackStmt = db.prepare<FeedbackRow>(
    `INSERT INTO generation_feedback (generation_id, account_id, category, comment, created_at, updated_at)
     VALUES (@generation_id, @account_id, @category, @comment, @created_at, NULL)
     ON CONFLICT (generation_id) DO UPDATE SET category = excluded.category, comment = excluded.comment, updated_at = excluded.created_at`,
  )
  const feedbackStmt = db.prepare<[string], FeedbackRow>('SELECT * FROM generation_feedback WHERE account_id = ? ORDER BY created_at, rowid')

  return {
    insertContent: (row: ContentRow) => void insertContentStmt.run(row),
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
