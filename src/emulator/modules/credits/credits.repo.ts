import type { DB } from '../../store/db.ts'
import type { StateOwner } from '../../core/lifecycle.ts'

export type ChargeStatus = 'pending' | 'confirmed' | 'expired'

export interface ChargeRow {
  id: string
  account_id: string
  key_hash: string | null
  amount_nanos: number
  chain_id: number
  sender: string
  status: ChargeStatus
  /** JSON of the API's web3_data object, fixed at creation. */
  web3_data: string
  created_at: number
  expires_at: number
  /** When the charge confirms by itself (auto-confirm), or null. */
  confirm_at: number | null
  confirmed_at: number | null
}

// When a pending charge next needs the clock: its auto-confirm if that comes before its expiry, else its expiry.
const DUE_AT = /* sql */ `CASE WHEN confirm_at IS NOT NULL AND confirm_at < expires_at THEN confirm_at ELSE expires_at END`

export function createCreditsRepo(db: DB) {
  const insertStmt = db.prepare<ChargeRow>(
    `INSERT INTO charges (id, account_id, key_hash, amount_nanos, chain_id, sender, status, web3_data, created_at, expires_at, confirm_at, confirmed_at)
     VALUES (@id, @account_id, @key_hash, @amount_nanos, @chain_id, @sender, @status, @web3_data, @created_at, @expires_at, @confirm_at, @confirmed_at)`,
  )
  const getStmt = db.prepare<[string], ChargeRow>('SELECT * FROM charges WHERE id = ?')
  const forAccountStmt = db.prepare<[string], ChargeRow>('SELECT * FROM charges WHERE account_id = ? ORDER BY created_at DESC, rowid DESC')
  const allStmt = db.prepare<[], ChargeRow>('SELECT * FROM charges ORDER BY created_at DESC, rowid DESC')
  // Only a pending charge moves, so a confirm and an expiry can never both apply.
  const setStatusStmt = db.prepare<{ id: string; status: ChargeStatus; confirmed_at: number | null }>(
    `UPDATE charges SET status = @status, confirmed_at = @confirmed_at WHERE id = @id AND status = 'pending'`,
  )
  const nextDueStmt = db.prepare<[], { at: number | null }>(`SELECT MIN(${DUE_AT}) AS at FROM charges WHERE status = 'pending'`)
  const dueStmt = db.prepare<[number], ChargeRow>(`SELECT * FROM charges WHERE status = 'pending' AND ${DUE_AT} <= ? ORDER BY ${DUE_AT}, rowid`)

  return {
    insert: (row: ChargeRow) => void insertStmt.run(row),
    get: (id: string) => getStmt.get(id),
    listForAccount: (accountId: string) => forAccountStmt.all(accountId),
    listAll: () => allStmt.all(),
    /** Moves a pending charge; false when it was not pending. */
    setStatus: (id: string, status: Exclude<ChargeStatus, 'pending'>, confirmedAt: number | null = null) =>
      setStatusStmt.run({ id, status, confirmed_at: confirmedAt }).changes > 0,
    /** Earliest auto-confirm or expiry among pending charges, or null. */
    nextDue: () => nextDueStmt.get()?.at ?? null,
    /** Pending charges with an auto-confirm or expiry at or before `now`, earliest first. */
    pendingDue: (now: number) => dueStmt.all(now),
  }
}

export type CreditsRepo = ReturnType<typeof createCreditsRepo>

/** Crypto charges; an account reset deletes the account's. */
export function creditsState(db: DB): StateOwner {
  const forget = db.prepare<[string]>('DELETE FROM charges WHERE account_id = ?')
  return { name: 'credits', tables: ['charges'], resetAccount: (id) => void forget.run(id) }
}
