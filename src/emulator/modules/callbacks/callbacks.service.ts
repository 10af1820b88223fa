// Task-state callbacks. A delivery is an outbox row written in the transaction of the state change it
// reports; a dispatcher on the clock POSTs it, signed as the vendor documents, and retries terminal
// states after the configured virtual delays. Every attempt is kept.
import { createHmac } from 'node:crypto'
import { http, https } from '../../core/node-http.ts'
import { toIso, wallClock, type DueSource } from '../../core/clock.ts'
import type { EmulatorContext } from '../../context.ts'
import { recordEffect } from '../../journal/journal.ts'
import type { AttemptRow, DeliveryFilter, DeliveryRow } from './callbacks.repo.ts'

/** Our neutral name for the vendor, sent as X-HMAC-ACCESS-KEY and signed. */
export const ACCESS_KEY = 'video'
const SIGNED_HEADERS = ['Date', 'x-request-nonce'] as const
const MAX_PARALLEL = 32
/** Deliveries read per runDue; the clock calls again while more are due. */
const BATCH = 1000
const KEY_GONE = 'the key that created the task no longer exists'

// ---- Signing -------------------------------------------------------------------------------------

export interface SignInput {
  url: string
  /** The API key token that created the task. */
  secret: string
  /** HTTP date, e.g. `Tue, 06 May 2025 12:09:42 GMT`. */
  date: string
  nonce: string
}

/** The vendor's string to sign; it ends with a newline, after the last signed header. */
export function callbackSigningString({ url, date, nonce }: Omit<SignInput, 'secret'>): string {
  const { pathname, search } = new URL(url)
  const values: Record<(typeof SIGNED_HEADERS)[number], string> = { Date: date, 'x-request-nonce': nonce }
  const signedHeaders = SIGNED_HEADERS.map((name) => `${name}:${values[name]}\n`).join('')
  return ['POST', pathname || '/', search.slice(1), ACCESS_KEY, date, signedHeaders].join('\n')
}

/** The signature headers of one callback request (HMAC-SHA256, base64). */
export function signCallback(input: SignInput): Record<string, string> {
  return {
    Date: input.date,
    'x-request-nonce': input.nonce,
    'X-HMAC-SIGNED-HEADERS': SIGNED_HEADERS.join(';'),
    'X-HMAC-SIGNATURE': createHmac('sha256', input.secret).update(callbackSigningString(input)).digest('base64'),
    'X-HMAC-ALGORITHM': 'hmac-sha256',
    'X-HMAC-ACCESS-KEY': ACCESS_KEY,
  }
}

// ---- Outbox --------------------------------------------------------------------------------------

export interface NewDelivery {
  account_id: string
  task_id: string
  key_hash: string
  url: string
  state: string
  body: string
  terminal: boolean
}

/** Call INSIDE the caller's transaction (the state change it reports): the outbox row commits with it. Returns the delivery id. */
export function enqueueDelivery(ctx: EmulatorContext, delivery: NewDelivery): string {
  if (!ctx.db.inTransaction) throw new Error('enqueueDelivery must run inside the transaction of the state change it reports')
  const now = ctx.clock.now()
  const id = ctx.ids.uuid(ctx.ids.next('callback'))
  const { terminal, ...fields } = delivery
  ctx.repos.callbacks.insert({
    id,
    ...fields,
    status: 'pending',
    attempts: 0,
    // The vendor retries only terminal states (success, failed).
    max_attempts: terminal ? 1 + ctx.config.callbackRetryDelaysMs.length : 1,
    next_attempt_at: now,
    created_at: now,
    delivered_at: null,
  })
  recordEffect('callback', id)
  return id
}

// ---- Attempts ------------------------------------------------------------------------------------

interface Outcome {
  status: number | null
  error: string | null
  /** False when trying again cannot help (the key is gone, the URL is unusable). */
  retriable: boolean
}

const NETWORK_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
}

function networkError(error: unknown): string {
  const e = error as NodeJS.ErrnoException
  return (e.code !== undefined ? NETWORK_ERRORS[e.code] : undefined) ?? e.message ?? String(error)
}

// node:http rather than fetch: fetch refuses some ports (6000, 10080, ...) and pools connections.
function post(url: URL, headers: Record<string, string>, body: string, signal: AbortSignal): Promise<number> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? https.request : http.request
    // agent: false = one connection per attempt, closed after it: no pooled socket outlives a receiver.
    const options = { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, agent: false, signal }
    const req = send(url, options, (res) => {
      res.on('error', () => undefined) // a late abort may error an answer already counted
      res.resume() // the answer's body is not needed
      resolve(res.statusCode ?? 0)
    })
    req.on('error', reject)
    req.end(body)
  })
}

/** One HTTP attempt; null when the dispatcher was stopped during it (the attempt does not count). */
async function send(ctx: EmulatorContext, row: DeliveryRow, stop: AbortSignal): Promise<Outcome | null> {
  const token = ctx.repos.keys.byHash(row.key_hash)?.token
  if (!token) return { status: null, error: KEY_GONE, retriable: false }
  let url: URL
  try {
    url = new URL(row.url)
  } catch {
    return { status: null, error: `invalid callback URL ${row.url}`, retriable: false }
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { status: null, error: `unsupported callback URL scheme ${url.protocol}`, retriable: false }
  // A persisted sequence gives each attempt its own nonce, across restarts too (receivers may reject replays).
  const nonce = ctx.ids.uuid(ctx.ids.next('callback-nonce'))
  const headers = { 'content-type': 'application/json', ...signCallback({ url: row.url, secret: token, date: wallClock.httpDate(), nonce }) }
  const timeout = AbortSignal.timeout(ctx.config.callbackTimeoutMs)
  try {
    const status = await post(url, headers, row.body, AbortSignal.any([timeout, stop]))
    return { status, error: status >= 200 && status < 300 ? null : `HTTP ${status}`, retriable: true }
  } catch (error) {
    if (stop.aborted) return null
    if (timeout.aborted) return { status: null, error: `timed out after ${ctx.config.callbackTimeoutMs} ms`, retriable: true }
    return { status: null, error: networkError(error), retriable: true }
  }
}

function retryDelay(ctx: EmulatorContext, attempts: number): number {
  const delays = ctx.config.callbackRetryDelaysMs
  // The last delay repeats if a restart shortened the list under a delivery's max_attempts.
  return delays[attempts - 1] ?? delays.at(-1) ?? 0
}

/**
 * Attempts a delivery at virtual time `at` and records the attempt. A scheduled attempt moves the
 * delivery on (delivered, retry later, failed); a manual one (redeliver) only marks it delivered on success.
 */
async function attempt(ctx: EmulatorContext, id: string, at: number, stop: AbortSignal, scheduled: boolean): Promise<void> {
  const repo = ctx.repos.callbacks
  const row = repo.get(id)
  // Redelivered (or deleted with its account) since it was read as due.
  if (!row || (scheduled && (row.status !== 'pending' || row.next_attempt_at === null || row.next_attempt_at > at))) return
  const wallAt = wallClock.now()
  const started = wallClock.perf()
  const outcome = await send(ctx, row, stop)
  const durationMs = Math.round(wallClock.perf() - started)
  // Stopped during the attempt: leave the delivery as it was, to be made after a restart.
  if (outcome === null || !ctx.db.open) return
  const ok = outcome.error === null

  const updated = ctx.db
    .transaction((): DeliveryRow | undefined => {
      // Re-read: a redeliver may have run alongside this attempt.
      const cur = repo.get(id)
      if (!cur) return undefined
      const attempts = cur.attempts + 1
      repo.recordAttempt({ delivery_id: id, attempt: attempts, at, wall_at: wallAt, status: outcome.status, duration_ms: durationMs, error: outcome.error })
      let next: Pick<DeliveryRow, 'status' | 'next_attempt_at' | 'delivered_at'> = cur
      if (ok) next = { status: 'delivered', next_attempt_at: null, delivered_at: at }
      else if (cur.status === 'pending' && (scheduled || !outcome.retriable)) {
        next =
          outcome.retriable && attempts < cur.max_attempts
            ? { status: 'pending', next_attempt_at: at + retryDelay(ctx, attempts), delivered_at: null }
            : { status: 'failed', next_attempt_at: null, delivered_at: null }
      }
      repo.update({ id, attempts, status: next.status, next_attempt_at: next.next_attempt_at, delivered_at: next.delivered_at })
      return repo.get(id)!
    })
    .immediate()
  if (!updated) return
  ctx.events.emit('callback.attempt', {
    delivery_id: id,
    task_id: updated.task_id,
    status: outcome.status,
    outcome: ok ? 'delivered' : updated.status === 'pending' ? 'retry' : 'failed',
  })
}

// ---- Dispatcher ----------------------------------------------------------------------------------

export interface CallbackDispatcher extends DueSource {
  /** Aborted by stop(). */
  readonly stopped: AbortSignal
  /** aborts in-flight deliveries (they stay pending and are retried after a restart) */
  stop(): void
}

export function createCallbackDispatcher(ctx: EmulatorContext): CallbackDispatcher {
  const stopper = new AbortController()
  const stopped = stopper.signal
  return {
    name: 'callbacks',
    stopped,
    // Nothing is due once stopped, or the clock would keep calling for the deliveries left pending.
    nextDue: () => (stopped.aborted ? null : ctx.repos.callbacks.nextDue()),
    async runDue(now) {
      const due = ctx.repos.callbacks.pendingDue(now, BATCH)
      let next = 0
      // A pool of workers: one slow receiver does not hold up the others.
      const worker = async (): Promise<void> => {
        while (next < due.length && !stopped.aborted) await attempt(ctx, due[next++]!.id, now, stopped, true)
      }
      await Promise.all(Array.from({ length: Math.min(MAX_PARALLEL, due.length) }, worker))
    },
    stop: () => stopper.abort(),
  }
}

/** One attempt right now, whatever the status; it never reschedules retries. Undefined when the id is unknown. */
export async function redeliver(ctx: EmulatorContext, dispatcher: CallbackDispatcher, id: string): Promise<DeliveryView | undefined> {
  if (!ctx.repos.callbacks.get(id)) return undefined
  await attempt(ctx, id, ctx.clock.now(), dispatcher.stopped, false)
  return getDeliveryView(ctx, id)
}

// ---- Views ---------------------------------------------------------------------------------------

const isoOrNull = (ms: number | null): string | null => (ms === null ? null : toIso(ms))

/** A delivery and its attempts, for the admin API and the journal. */
export function deliveryView(row: DeliveryRow, attempts: readonly AttemptRow[]) {
  return {
    id: row.id,
    task_id: row.task_id,
    account_id: row.account_id,
    url: row.url,
    state: row.state,
    status: row.status,
    attempt_count: row.attempts,
    max_attempts: row.max_attempts,
    next_attempt_at: isoOrNull(row.next_attempt_at),
    created_at: toIso(row.created_at),
    delivered_at: isoOrNull(row.delivered_at),
    /** The JSON body, exactly as sent. */
    body: row.body,
    attempts: attempts.map((a) => ({
      attempt: a.attempt,
      at: toIso(a.at),
      wall_at: toIso(a.wall_at),
      status: a.status,
      duration_ms: a.duration_ms,
      error: a.error,
    })),
  }
}

export type DeliveryView = ReturnType<typeof deliveryView>

export function getDeliveryView(ctx: EmulatorContext, id: string): DeliveryView | undefined {
  const repo = ctx.repos.callbacks
  const row = repo.get(id)
  return row && deliveryView(row, repo.attempts(row.id))
}

export function listDeliveryViews(ctx: EmulatorContext, filter: DeliveryFilter = {}): DeliveryView[] {
  const repo = ctx.repos.callbacks
  return repo.list(filter).map((row) => deliveryView(row, repo.attempts(row.id)))
}
