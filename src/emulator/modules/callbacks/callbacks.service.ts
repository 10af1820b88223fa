// Task-state callbacks. A delivery is an outbox row written in the transaction of the state change it
// reports; a dispatcher on the clock claims it when due and POSTs it in the background, signed as the
// vendor documents, and retries terminal states after the configured virtual delays. Every attempt is
// kept. Delivery never holds up the clock or other receivers: a claim is all a clock step waits for,
// and each destination has its own small limit of attempts at once.
import { createHmac } from 'node:crypto'
import type { LookupFunction } from 'node:net'
import { http, https } from '../../core/node-http.ts'
import { toIso, wallClock, type DueSource } from '../../core/clock.ts'
import type { EmulatorContext } from '../module.ts'
import { uncommitted } from '../../store/db.ts'
import { OwnAddressError } from '../../http/own-addresses.ts'
import { recordEffect } from '../../journal/journal.ts'
import type { CallbackDelivery } from './callbacks.schemas.ts'
import type { AttemptRow, CallbacksRepo, DeliveryFilter, DeliveryRow } from './callbacks.repo.ts'
import { callbackAttemptsUsedUp } from './callbacks.errors.ts'

/** Our neutral name for the vendor, sent as X-HMAC-ACCESS-KEY and signed. */
export const ACCESS_KEY = 'video'
const SIGNED_HEADERS = ['Date', 'x-request-nonce'] as const
/** Attempts under way at once, over every destination. */
const MAX_PARALLEL = 32
/** Attempts made for one task's callbacks at most, redeliveries included: a bound on any loop. */
export const MAX_ATTEMPTS_PER_TASK = 50
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
  ctx.services.callbacks.insert({
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
function post(url: URL, headers: Record<string, string>, body: string, signal: AbortSignal, lookup: LookupFunction | undefined): Promise<number> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? https.request : http.request
    // agent: false = one connection per attempt, closed after it: no pooled socket outlives a receiver.
    // lookup: the host name is resolved by the connection and refused there if it is the emulator's own.
    const options = { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, agent: false, signal, lookup }
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
  const token = ctx.services.keys.byHash(row.key_hash)?.token
  if (!token) return { status: null, error: KEY_GONE, retriable: false }
  let url: URL
  try {
    url = new URL(row.url)
  } catch {
    return { status: null, error: `invalid callback URL ${row.url}`, retriable: false }
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { status: null, error: `unsupported callback URL scheme ${url.protocol}`, retriable: false }
  // Checked when the URL was given, and again now (an import, a name that resolves here by now): a loop.
  if (ctx.ownAddresses.includes(url)) return { status: null, error: `refused: ${url.host} is the emulator itself, which it does not call`, retriable: false }
  // A persisted sequence gives each attempt its own nonce, across restarts too (receivers may reject replays).
  const nonce = ctx.ids.uuid(ctx.ids.next('callback-nonce'))
  const headers = { 'content-type': 'application/json', ...signCallback({ url: row.url, secret: token, date: wallClock.httpDate(), nonce }) }
  const timeout = AbortSignal.timeout(ctx.config.callbackTimeoutMs)
  try {
    // Nothing leaves before the commit that holds what it tells (group commit: store/db.ts).
    await uncommitted(ctx.db)
    const status = await post(url, headers, row.body, AbortSignal.any([timeout, stop]), ctx.ownAddresses.lookupFor(url))
    return { status, error: status >= 200 && status < 300 ? null : `HTTP ${status}`, retriable: true }
  } catch (error) {
    if (stop.aborted) return null
    if (timeout.aborted) return { status: null, error: `timed out after ${ctx.config.callbackTimeoutMs} ms`, retriable: true }
    if (error instanceof OwnAddressError) return { status: null, error: `refused: ${error.message}`, retriable: false }
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
  const repo = ctx.services.callbacks
  const row = repo.get(id)
  // Redelivered (or deleted with its account, or released by an import) since it was claimed.
  if (!row || (scheduled && (row.status !== 'pending' || row.next_attempt_at !== null))) return
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

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error))

/**
 * Ends a claimed delivery failed, when its attempt threw (its recording failed, say): left claimed, it
 * would stay pending, never tried again until a restart. Best effort: the database may be what fails.
 */
function endFailed(ctx: EmulatorContext, id: string): void {
  const repo = ctx.services.callbacks
  try {
    ctx.db
      .transaction(() => {
        const cur = repo.get(id)
        // Still claimed (pending, no next attempt): what the throw left. Anything else was recorded.
        if (cur?.status === 'pending' && cur.next_attempt_at === null)
          repo.update({ id, attempts: cur.attempts, status: 'failed', next_attempt_at: null, delivered_at: null })
      })
      .immediate()
  } catch {
    // Still claimed: released at the next start (or reset), and attempted then.
  }
}

// ---- Dispatcher ----------------------------------------------------------------------------------

export interface OutboxState {
  /** Attempts under way. */
  in_flight: number
  /** Claimed deliveries waiting for a free slot of their destination. */
  queued: number
  /** Pending deliveries due now that are not claimed yet. */
  due: number
}

export interface CallbackDispatcher extends DueSource {
  /** Aborted by stop(). */
  readonly stopped: AbortSignal
  /** Aborts in-flight deliveries (they stay pending and are made after a restart). */
  stop(): void
  /** Resolves true once nothing is under way, queued or due now; false when `timeoutMs` passes first. */
  drain(timeoutMs: number): Promise<boolean>
  outbox(): OutboxState
  /** Resolves once every attempt under way has settled (close waits for it). */
  settled(): Promise<void>
}

interface Claim {
  id: string
  /** Virtual time the attempt was due: what the attempt records. */
  at: number
}

/** Attempts to one receiver share a queue: its scheme, host and port. */
function destinationOf(url: string): string {
  try {
    const { protocol, host } = new URL(url)
    return `${protocol}//${host}`
  } catch {
    return url
  }
}

export function createCallbackDispatcher(ctx: EmulatorContext, repo: CallbacksRepo): CallbackDispatcher {
  const stopper = new AbortController()
  const stopped = stopper.signal

  const perDestination = ctx.config.callbackConcurrency
  const destinations = new Map<string, { active: number; queue: Claim[] }>()
  const underWay = new Set<Promise<void>>()
  const waiters = new Set<() => void>()
  let queued = 0

  // Claims a stop (or a crash) left behind are due again now; an import or a reset may bring some too.
  const releaseClaims = (): void => {
    if (ctx.db.open && underWay.size === 0 && queued === 0) repo.releaseClaims(ctx.clock.now())
  }
  releaseClaims()
  ctx.events.on('state.reset', releaseClaims)

  const notify = (): void => {
    for (const waiter of waiters) waiter()
  }
  const dueNow = (): boolean => {
    const next = ctx.db.open ? repo.nextDue() : null
    return next !== null && next <= ctx.clock.now()
  }
  /** A retry whose virtual time has already passed is due now: the clock runs it (and any other due work). */
  const runWhatIsDue = (): void => {
    if (!stopped.aborted && dueNow()) void ctx.clock.runDue().catch((error: unknown) => ctx.warn(`callback delivery failed: ${(error as Error).message}`))
  }

  /** For what runs after an attempt, in no request: a throw (the database failing a read) is a warning. */
  const safely = (what: string, fn: () => void): void => {
    try {
      fn()
    } catch (error) {
      ctx.warn(`callback deliveries: ${what} failed: ${message(error)}`)
    }
  }

  const start = (): void => {
    for (const [key, destination] of destinations) {
      while (destination.active < perDestination && destination.queue.length > 0 && underWay.size < MAX_PARALLEL && !stopped.aborted) {
        const claim = destination.queue.shift()!
        queued--
        destination.active++
        // Nobody awaits this promise (close only waits for it to settle): nothing in it may reject, or
        // the unhandled rejection would end the process. A delivery that throws ends failed.
        const run: Promise<void> = attempt(ctx, claim.id, claim.at, stopped, true)
          .catch((error: unknown) => {
            if (!ctx.db.open) return
            ctx.warn(`callback delivery ${claim.id}: its attempt failed (${message(error)}); the delivery ends failed`)
            endFailed(ctx, claim.id)
          })
          .finally(() => {
            destination.active--
            underWay.delete(run)
            if (destination.active === 0 && destination.queue.length === 0) destinations.delete(key)
            safely('starting the next attempts', start)
            safely('looking for deliveries due', runWhatIsDue)
            safely('telling who waits for the outbox', notify)
          })
        underWay.add(run)
      }
    }
  }

  return {
    name: 'callbacks',
    stopped,
    // Nothing is due once stopped, or the clock would keep calling for the deliveries left pending.
    nextDue: () => (stopped.aborted ? null : repo.nextDue()),
    // Only claims, in one transaction, and hands the attempts to their destinations' queues: the clock
    // moves on at once, whatever the receivers do.
    runDue(now) {
      const claims = ctx.db
        .transaction((): Claim[] =>
          repo.pendingDue(now, BATCH).map((row) => {
            repo.claim(row.id)
            return { id: row.id, at: row.next_attempt_at! }
          }),
        )
        .immediate()
      for (const claim of claims) {
        const row = repo.get(claim.id)!
        const key = destinationOf(row.url)
        let destination = destinations.get(key)
        if (!destination) destinations.set(key, (destination = { active: 0, queue: [] }))
        destination.queue.push(claim)
        queued++
      }
      start()
      notify()
    },
    stop: () => stopper.abort(),
    outbox: () => ({ in_flight: underWay.size, queued, due: ctx.db.open ? repo.pendingDue(ctx.clock.now(), BATCH).length : 0 }),
    drain(timeoutMs) {
      return new Promise<boolean>((resolve) => {
        const finish = (drained: boolean): void => {
          clearTimeout(timer)
          waiters.delete(check)
          resolve(drained)
        }
        const check = (): void => {
          if (underWay.size === 0 && queued === 0 && !dueNow()) finish(true)
        }
        const timer = setTimeout(() => finish(false), timeoutMs)
        waiters.add(check)
        runWhatIsDue()
        check()
      })
    },
    settled: async () => {
      while (underWay.size > 0) await Promise.allSettled(underWay)
    },
  }
}

/**
 * One attempt right now, whatever the status; it never reschedules retries. Undefined when the id is
 * unknown; a 429 once the task's callbacks have had MAX_ATTEMPTS_PER_TASK attempts.
 */
export async function redeliver(ctx: EmulatorContext, dispatcher: CallbackDispatcher, id: string): Promise<DeliveryView | undefined> {
  const row = ctx.services.callbacks.get(id)
  if (!row) return undefined
  const made = ctx.services.callbacks.attemptsForTask(row.task_id)
  if (made >= MAX_ATTEMPTS_PER_TASK) {
    throw callbackAttemptsUsedUp(row.task_id, made, MAX_ATTEMPTS_PER_TASK)
  }
  await attempt(ctx, id, ctx.clock.now(), dispatcher.stopped, false)
  return getDeliveryView(ctx, id)
}

// ---- Views ---------------------------------------------------------------------------------------

const isoOrNull = (ms: number | null): string | null => (ms === null ? null : toIso(ms))

/** A delivery and its attempts, for the admin API and the journal. */
export function deliveryView(row: DeliveryRow, attempts: readonly AttemptRow[]): CallbackDelivery {
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

export type DeliveryView = CallbackDelivery

export function getDeliveryView(ctx: EmulatorContext, id: string): DeliveryView | undefined {
  const repo = ctx.services.callbacks
  const row = repo.get(id)
  return row && deliveryView(row, repo.attempts(row.id))
}

export function listDeliveryViews(ctx: EmulatorContext, filter: DeliveryFilter = {}): DeliveryView[] {
  const repo = ctx.services.callbacks
  return repo.list(filter).map((row) => deliveryView(row, repo.attempts(row.id)))
}
