import type { DB } from '../../store/db.ts'
import type { StateOwner } from '../../core/lifecycle.ts'

export type DeliveryStatus = 'pending' | 'delivered' | 'failed'

export interface DeliveryRow {
  id: string
  account_id: string
  task_id: string
  key_hash: string
  url: string
  /** The task state the body reports. */
  state: string
  /** The JSON body, exactly as sent. */
  body: string
  status: DeliveryStatus
  attempts: number
  max_attempts: number
  /** Virtual time of the next scheduled attempt; null unless pending, or while an attempt is under way. */
  next_attempt_at: number | null
  created_at: number
  delivered_at: number | null
}

export interface AttemptRow {
  id: number
  delivery_id: string
  attempt: number
  /** Virtual time of the attempt. */
  at: number
  /** Real time of the attempt (what the receiver saw in the Date header). */
  wall_at: number
  status: number | null
  /** Real milliseconds the attempt took. */
  duration_ms: number
  error: string | null
}

export interface DeliveryFilter {
  task_id?: string | undefined
  status?: DeliveryStatus | undefined
  account_id?: string | undefined
}

export function createCallbacksRepo(db: DB) {
  const insertStmt = db.prepare<DeliveryRow>(
    `INSERT INTO callback_deliveries (id, account_id, task_id, key_hash, url, state, body, status, attempts, max_attempts, next_attempt_at, created_at, delivered_at)
     VALUES (@id, @account_id, @task_id, @key_hash, @url, @state, @body, @status, @attempts, @max_attempts, @next_attempt_at, @created_at, @delivered_at)`,
  )
  const getStmt = db.prepare<[string], DeliveryRow>('SELECT * FROM callback_deliveries WHERE id = ?')
  // A null filter matches everything, so one statement serves every combination.
  const listStmt = db.prepare<{ task_id: string | null; status: string | null; account_id: string | null }, DeliveryRow>(
    `SELECT * FROM callback_deliveries
     WHERE (@task_id IS NULL OR task_id = @task_id) AND (@status IS NULL OR status = @status) AND (@account_id IS NULL OR account_id = @account_id)
     ORDER BY created_at DESC, rowid DESC`,
  )
  // Both read the (status, next_attempt_at) index.
  const dueStmt = db.prepare<[number, number], DeliveryRow>(
    `SELECT * FROM callback_deliveries WHERE status = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at, created_at, rowid LIMIT ?`,
  )
  const nextDueStmt = db.prepare<[], { at: number | null }>(`SELECT MIN(next_attempt_at) AS at FROM callback_deliveries WHERE status = 'pending'`)
  const insertAttemptStmt = db.prepare<Omit<AttemptRow, 'id'>>(
    `INSERT INTO callback_attempts (delivery_id, attempt, at, wall_at, status, duration_ms, error)
     VALUES (@delivery_id, @attempt, @at, @wall_at, @status, @duration_ms, @error)`,
  )
  const updateStmt = db.prepare<Pick<DeliveryRow, 'id' | 'status' | 'attempts' | 'next_attempt_at' | 'delivered_at'>>(
    `UPDATE callback_deliveries SET status = @status, attempts = @attempts, next_attempt_at = @next_attempt_at, delivered_at = @delivered_at
     WHERE id = @id`,
  )
  // A claimed delivery (being attempted) keeps status pending with no next attempt time, so the clock
  // does not find it due again; one left so by a stop or a crash is due again at the next start.
  const claimStmt = db.prepare<[string]>(`UPDATE callback_deliveries SET next_attempt_at = NULL WHERE id = ? AND status = 'pending'`)
  const releaseStmt = db.prepare<[number]>(`UPDATE callback_deliveries SET next_attempt_at = ? WHERE status = 'pending' AND next_attempt_at IS NULL`)
  const taskAttemptsStmt = db.prepare<[string], { n: number }>(
    'SELECT COUNT(*) AS n FROM callback_attempts WHERE delivery_id IN (SELECT id FROM callback_deliveries WHERE task_id = ?)',
  )
  const attemptsStmt = db.prepare<[string], AttemptRow>('SELECT * FROM callback_attempts WHERE delivery_id = ? ORDER BY attempt, id')

  return {
    insert: (row: DeliveryRow) => void insertStmt.run(row),
    get: (id: string) => getStmt.get(id),
    /** Newest first. */
    list: (filter: DeliveryFilter = {}) =>
      listStmt.all({ task_id: filter.task_id ?? null, status: filter.status ?? null, account_id: filter.account_id ?? null }),
    /** Pending deliveries due at or before `now`, earliest first. */
    pendingDue: (now: number, limit: number) => dueStmt.all(now, limit),
    /** Earliest next attempt among pending deliveries, or null. */
    nextDue: () => nextDueStmt.get()?.at ?? null,
    recordAttempt: (row: Omit<AttemptRow, 'id'>) => void insertAttemptStmt.run(row),
    update: (row: Pick<DeliveryRow, 'id' | 'status' | 'attempts' | 'next_attempt_at' | 'delivered_at'>) => void updateStmt.run(row),
    attempts: (deliveryId: string) => attemptsStmt.all(deliveryId),
    claim: (id: string) => void claimStmt.run(id),
    /** Makes every claimed delivery due at `at` (claims do not outlive the process that made them). */
    releaseClaims: (at: number) => releaseStmt.run(at).changes,
    /** Attempts made for every callback of one task. */
    attemptsForTask: (taskId: string) => taskAttemptsStmt.get(taskId)!.n,
  }
}

export type CallbacksRepo = ReturnType<typeof createCallbacksRepo>

/** The callback outbox and its attempts; an account reset deletes the account's deliveries. */
export function callbacksState(db: DB): StateOwner {
  const forget = [
    'DELETE FROM callback_attempts WHERE delivery_id IN (SELECT id FROM callback_deliveries WHERE account_id = ?)',
    'DELETE FROM callback_deliveries WHERE account_id = ?',
  ].map((sql) => db.prepare<[string]>(sql))
  return { name: 'callbacks', tables: ['callback_deliveries', 'callback_attempts'], resetAccount: (id) => forget.forEach((stmt) => stmt.run(id)) }
}
