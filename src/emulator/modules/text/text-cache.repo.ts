// The prompt cache's rows: the prefixes an account has cached for a model (by the prefix's hash), how
// many prompt tokens each holds and until when it lives on the virtual clock. Bounded per account:
// a write drops the account's expired rows, then the soonest to expire past PROMPT_CACHE_ROWS.
import type { StateOwner } from '../../core/lifecycle.ts'
import type { DB } from '../../store/db.ts'

/** Cached prefixes one account keeps at most (all its models together). */
export const PROMPT_CACHE_ROWS = 1000

export interface PromptCacheRow {
  account_id: string
  model: string
  prefix_hash: string
  tokens: number
  ttl_ms: number
  expires_at: number
}

export function createPromptCacheRepo(db: DB) {
  const liveStmt = db.prepare<[string, string, string, number], PromptCacheRow>(
    'SELECT * FROM prompt_cache WHERE account_id = ? AND model = ? AND prefix_hash = ? AND expires_at > ?',
  )
  // A prefix written again keeps the longer of its lives and its counts.
  const upsertStmt = db.prepare<PromptCacheRow>(
    `INSERT INTO prompt_cache (account_id, model, prefix_hash, tokens, ttl_ms, expires_at)
     VALUES (@account_id, @model, @prefix_hash, @tokens, @ttl_ms, @expires_at)
     ON CONFLICT (account_id, model, prefix_hash) DO UPDATE SET
       tokens = MAX(tokens, excluded.tokens), ttl_ms = MAX(ttl_ms, excluded.ttl_ms), expires_at = MAX(expires_at, excluded.expires_at)`,
  )
  const expireStmt = db.prepare<[string, number]>('DELETE FROM prompt_cache WHERE account_id = ? AND expires_at <= ?')
  const trimStmt = db.prepare<[string, string, number]>(
    `DELETE FROM prompt_cache WHERE account_id = ? AND rowid IN (
       SELECT rowid FROM prompt_cache WHERE account_id = ? ORDER BY expires_at DESC, rowid DESC LIMIT -1 OFFSET ?)`,
  )
  return {
    /** The account's live row of a prefix, if any. */
    live: (accountId: string, model: string, hash: string, now: number): PromptCacheRow | undefined => liveStmt.get(accountId, model, hash, now),
    /** Writes (or refreshes) rows, in the caller's transaction, keeping the account within its bound. */
    write(rows: readonly PromptCacheRow[], now: number): void {
      if (rows.length === 0) return
      const accountId = rows[0]!.account_id
      expireStmt.run(accountId, now)
      for (const row of rows) upsertStmt.run(row)
      trimStmt.run(accountId, accountId, PROMPT_CACHE_ROWS)
    },
  }
}

export type PromptCacheRepo = ReturnType<typeof createPromptCacheRepo>

export function promptCacheState(db: DB): StateOwner {
  const forget = db.prepare<[string]>('DELETE FROM prompt_cache WHERE account_id = ?')
  return { name: 'promptCache', tables: ['prompt_cache'], resetAccount: (id) => void forget.run(id) }
}
