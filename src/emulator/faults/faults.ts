// Faults: stored rules that make gateway and router requests fail on purpose (a status with a
// realistic body and headers, added latency, or a dropped connection), matched by operation, method
// and path, key, account and model; with a seeded probability, a remaining count and an expiry on the
// clock. A fault answers before the handler runs, so a faulted request changes no state.
import { ApiError, ROUTER_REASON } from '../core/errors.ts'
import { deriveUnit } from '../core/rng.ts'
import type { FaultPreset } from './faults.schemas.ts'
import type { FaultAction, FaultMatch } from './faults.schemas.ts'
import type { DB } from '../store/db.ts'
import type { StateOwner } from '../core/lifecycle.ts'

export interface FaultRow {
  id: string
  name: string | null
  enabled: 0 | 1
  match: string
  action: string
  probability: number
  remaining: number | null
  expires_at: number | null
  evaluations: number
  hits: number
  created_at: number
  updated_at: number | null
}

export function createFaultsRepo(db: DB) {
  const insertStmt = db.prepare<FaultRow>(
    `INSERT INTO fault_rules (id, name, enabled, match, action, probability, remaining, expires_at, evaluations, hits, created_at, updated_at)
     VALUES (@id, @name, @enabled, @match, @action, @probability, @remaining, @expires_at, @evaluations, @hits, @created_at, @updated_at)`,
  )
  const updateStmt = db.prepare<FaultRow>(
    `UPDATE fault_rules SET name = @name, enabled = @enabled, match = @match, action = @action, probability = @probability,
       remaining = @remaining, expires_at = @expires_at, updated_at = @updated_at WHERE id = @id`,
  )
  const countStmt = db.prepare<{ id: string; fired: 0 | 1 }>(
    `UPDATE fault_rules SET evaluations = evaluations + 1, hits = hits + @fired,
       remaining = CASE WHEN @fired = 1 AND remaining IS NOT NULL THEN remaining - 1 ELSE remaining END
     WHERE id = @id`,
  )
  const listStmt = db.prepare<[], FaultRow>('SELECT * FROM fault_rules ORDER BY created_at, rowid')
  const activeStmt = db.prepare<[], FaultRow>('SELECT * FROM fault_rules WHERE enabled = 1 AND (remaining IS NULL OR remaining > 0) ORDER BY created_at, rowid')
  const getStmt = db.prepare<[string], FaultRow>('SELECT * FROM fault_rules WHERE id = ?')
  const deleteStmt = db.prepare<[string]>('DELETE FROM fault_rules WHERE id = ?')
  const clearStmt = db.prepare('DELETE FROM fault_rules')
  // Every gateway request asks for the active rules, and almost always there are none: that answer is
  // kept until the table changes (a write through this repo, or a reset or an import: `changed`).
  let noneActive = false
  const changed = (): void => {
    noneActive = false
  }
  return {
    insert: (row: FaultRow) => (insertStmt.run(row), changed()),
    update: (row: FaultRow) => (updateStmt.run(row), changed()),
    /** Records one evaluation of a rule, and its firing (which spends one of `remaining`). */
    count: (id: string, fired: boolean) => (countStmt.run({ id, fired: fired ? 1 : 0 }), changed()),
    list: () => listStmt.all(),
    active: (): FaultRow[] => {
      if (noneActive) return []
      const rows = activeStmt.all()
      noneActive = rows.length === 0
      return rows
    },
    get: (id: string) => getStmt.get(id),
    delete: (id: string) => {
      const deleted = deleteStmt.run(id).changes > 0
      changed()
      return deleted
    },
    clear: () => (clearStmt.run(), changed()),
    /** The table was rewritten underneath (a reset or an import of the state). */
    changed,
  }
}

export type FaultsRepo = ReturnType<typeof createFaultsRepo>

/** What a request looks like to the matcher. */
export interface FaultTarget {
  operation: string
  method: string
  path: string
  key_hash: string | null
  account_id: string | null
  model: string | null
}

const globToRegExp = (glob: string): RegExp =>
  new RegExp(
    `^${glob
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  )

export function matches(match: FaultMatch, target: FaultTarget): boolean {
  if (match.operation !== undefined && match.operation !== target.operation) return false
  if (match.method !== undefined && match.method.toUpperCase() !== target.method) return false
  if (match.path !== undefined && !globToRegExp(match.path).test(target.path)) return false
  if (match.key_hash !== undefined && match.key_hash !== target.key_hash) return false
  if (match.account_id !== undefined && match.account_id !== target.account_id) return false
  if (match.model !== undefined && match.model !== target.model) return false
  return true
}

/** A draw in [0, 1) fixed by (seed, rule, how many times the rule has been evaluated). */
export const faultDraw = (seed: number, ruleId: string, evaluation: number): number => deriveUnit(seed, `fault:${ruleId}:${evaluation}`)

/** The gateway's messages; on the video router a status the vendor's table knows answers in its words. */
const STATUS_TEXT: Record<number, { message: string }> = {
  402: { message: 'Insufficient credits. Add more using a crypto charge or the admin API' },
  408: { message: 'Operation timed out. Please try again later.' },
  429: { message: 'Rate limit exceeded' },
  500: { message: 'Internal Server Error' },
  502: { message: 'Provider returned error' },
  503: { message: 'Service temporarily unavailable: the provider is not available right now' },
  504: { message: 'Gateway timeout' },
}

/**
 * The error a fault answers with: the real service's message and metadata for the status, and the
 * headers a client reads (Retry-After and X-RateLimit-* on a 429, Retry-After on a 503).
 */
export function faultError(
  status: number,
  now: number,
  ruleId: string,
  action: Pick<FaultAction, 'message' | 'headers'> = {},
  by: 'fault' | 'fixture' = 'fault',
): ApiError {
  const known = STATUS_TEXT[status]
  const headers: Record<string, string> = {}
  const metadata: Record<string, unknown> = by === 'fault' ? { emulator_fault: ruleId } : { emulator_fixture: ruleId }
  if (status === 429) {
    const reset = now - (now % 60_000) + 60_000
    // Retry-After stays short: clients honour it in real time, and a test should not wait a minute
    // for a window of the virtual clock (a rule's `headers` can say otherwise).
    Object.assign(headers, { 'retry-after': '1', 'x-ratelimit-limit': '20', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) })
    metadata.error_type = 'rate_limit_exceeded'
  }
  if (status === 503) {
    headers['retry-after'] = '5'
    metadata.error_type = 'provider_unavailable'
  }
  if (status === 402) metadata.limit_source = 'openrouter_credits'
  if (status === 502) metadata.error_type = 'server'
  // A rule's own message is answered as written, in either envelope (a `reason` keeps it on the router).
  return new ApiError(status, action.message ?? known?.message ?? `Error ${status}`, {
    headers: { ...headers, ...action.headers },
    metadata,
    detail: `answered by ${by === 'fault' ? 'fault rule' : 'chat fixture'} ${ruleId}`,
    ...(action.message !== undefined && { reason: ROUTER_REASON[status] ?? 'BadRequest' }),
  })
}

/** One sentence for the UI: what the rule does, to what, how often, until when. */
export function explain(row: FaultRow): string {
  const match = JSON.parse(row.match) as FaultMatch
  const action = JSON.parse(row.action) as FaultAction
  const what: string[] = []
  if (action.drop) what.push('drops the connection')
  if (action.status !== undefined)
    what.push(
      `answers ${action.status}${STATUS_TEXT[action.status] ? ` (${STATUS_TEXT[action.status]!.message.split(':')[0]!.split('.')[0]!.toLowerCase()})` : ''}`,
    )
  if (action.latency_ms !== undefined) what.push(`adds ${action.latency_ms} ms of latency`)
  if (action.latency_range_ms) what.push(`adds ${action.latency_range_ms.min}-${action.latency_range_ms.max} ms of latency`)
  const to: string[] = []
  if (match.operation) to.push(match.operation)
  if (match.method || match.path) to.push(`${match.method?.toUpperCase() ?? ''} ${match.path ?? ''}`.trim())
  if (match.model) to.push(`model ${match.model}`)
  if (match.key_hash) to.push(`key ${match.key_hash.slice(0, 8)}…`)
  if (match.account_id) to.push(`account ${match.account_id}`)
  const scope = to.length > 0 ? to.join(', ') : 'every gateway and router request'
  const times = row.remaining === null ? '' : row.remaining === 0 ? ', and is used up' : `, the next ${row.remaining === 1 ? 'time' : `${row.remaining} times`}`
  const chance = row.probability < 1 ? ` with probability ${Math.round(row.probability * 100)}%` : ''
  const until = row.expires_at === null ? '' : ` until ${new Date(row.expires_at).toISOString()}`
  const off = row.enabled ? '' : ' (disabled)'
  return `${what.join(' and ') || 'does nothing'} to ${scope}${times}${chance}${until}${off}.`.replace(/^./, (c) => c.toUpperCase())
}

/** One call each for the common cases. */
/** The common faults, one call each; `common` ones are offered first (the design's 402, 429 and 503). */
export const PRESETS: Record<string, Omit<FaultPreset, 'id'>> = {
  'insufficient-credits': {
    name: '402 insufficient credits',
    label: '402 Insufficient credits',
    description: 'the account has run out of credits',
    common: true,
    action: { status: 402 },
  },
  'rate-limited': {
    name: '429 rate limited',
    label: '429 Rate limited',
    description: 'with Retry-After and X-RateLimit-* headers',
    common: true,
    action: { status: 429 },
  },
  'provider-unavailable': {
    name: '503 provider unavailable',
    label: '503 Provider unavailable',
    description: 'the upstream provider is down, with Retry-After',
    common: true,
    action: { status: 503 },
  },
  'server-error': { name: '500 server error', label: '500 Server error', description: 'an internal error', common: false, action: { status: 500 } },
  'bad-gateway': { name: '502 bad gateway', label: '502 Bad gateway', description: 'the upstream answered badly', common: false, action: { status: 502 } },
  timeout: { name: '408 timeout', label: '408 Timeout', description: 'the request took too long', common: false, action: { status: 408 } },
  slow: { name: 'slow: 2 s of latency', label: 'Slow: +2 s latency', description: 'answers as usual, 2 s late', common: false, action: { latency_ms: 2000 } },
  'drop-connection': {
    name: 'dropped connection',
    label: 'Drop the connection',
    description: 'closes the connection without an answer',
    common: false,
    action: { drop: true },
  },
}

/** Fault rules belong to the whole emulator: an account reset keeps them. */
export const faultsState: StateOwner = { name: 'faults', tables: ['fault_rules'] }
