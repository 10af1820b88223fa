import type { StateOwner } from '../../core/lifecycle.ts'
import type { ResetInterval } from '../../core/windows.ts'
import type { DB } from '../../store/db.ts'

export type ChallengeMethod = 'S256' | 'plain'

/** One authorization code of the PKCE flow, with the terms of the key it is exchanged for. */
export interface OAuthCodeRow {
  id: string
  account_id: string
  /** The member who authorized it: the new key's creator and the exchange's `user_id`. */
  user_id: string | null
  app_id: number
  callback_url: string
  code_challenge: string | null
  code_challenge_method: ChallengeMethod | null
  key_name: string
  limit_nanos: number | null
  limit_reset: ResetInterval | null
  key_expires_at: number | null
  workspace_id: string | null
  created_at: number
  /** When the code itself stops being exchangeable (virtual clock). */
  expires_at: number
  used_at: number | null
}

export function createOAuthRepo(db: DB) {
  const insertStmt = db.prepare<OAuthCodeRow>(
    `INSERT INTO oauth_codes (id, account_id, user_id, app_id, callback_url, code_challenge, code_challenge_method, key_name,
       limit_nanos, limit_reset, key_expires_at, workspace_id, created_at, expires_at, used_at)
     VALUES (@id, @account_id, @user_id, @app_id, @callback_url, @code_challenge, @code_challenge_method, @key_name,
       @limit_nanos, @limit_reset, @key_expires_at, @workspace_id, @created_at, @expires_at, @used_at)`,
  )
  const getStmt = db.prepare<[string], OAuthCodeRow>('SELECT * FROM oauth_codes WHERE id = ?')
  const markUsedStmt = db.prepare<{ id: string; at: number }>('UPDATE oauth_codes SET used_at = @at WHERE id = @id AND used_at IS NULL')
  const purgeStmt = db.prepare<[number]>('DELETE FROM oauth_codes WHERE expires_at <= ?')
  const pendingStmt = db.prepare<[string, number], { n: number }>(
    'SELECT COUNT(*) AS n FROM oauth_codes WHERE account_id = ? AND used_at IS NULL AND expires_at > ?',
  )
  return {
    insert: (row: OAuthCodeRow) => void insertStmt.run(row),
    get: (id: string) => getStmt.get(id),
    /** False when the code was used meanwhile. */
    markUsed: (id: string, at: number) => markUsedStmt.run({ id, at }).changes > 0,
    /** Forgets every code that can no longer be exchanged. */
    purgeExpired: (now: number) => void purgeStmt.run(now),
    /** Codes of the account still waiting for their exchange. */
    pending: (accountId: string, now: number) => pendingStmt.get(accountId, now)!.n,
  }
}

export type OAuthRepo = ReturnType<typeof createOAuthRepo>

/** Authorization codes; an account reset forgets the account's. */
export function oauthState(db: DB): StateOwner {
  const forget = db.prepare<[string]>('DELETE FROM oauth_codes WHERE account_id = ?')
  return { name: 'oauth', tables: ['oauth_codes'], resetAccount: (id) => void forget.run(id) }
}
