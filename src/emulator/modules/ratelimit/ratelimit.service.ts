// Optional request limits per key and per account, per minute and per UTC day, on the virtual clock
// (off unless configured). Fixed windows, so X-RateLimit-Reset is a real boundary: the next minute
// or the next midnight UTC. Counts live in memory: a restart or a reset starts them afresh.
import { Type } from 'typebox'
import { startOfUtcDay } from '../../core/clock.ts'
import type { StateOwner } from '../../core/lifecycle.ts'
import { checkedSettings } from '../../http/validation.ts'
import { Nullable, Shape } from '../../http/schemas.ts'
import { rateLimitExceeded } from './ratelimit.errors.ts'

const RateLimit = Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 1e9 })))
/** The limits as the admin API and an imported document give them; a misspelt limit would otherwise be accepted and never applied. */
export const RateLimitsBody = Type.Object(
  { keyPerMinute: RateLimit, keyPerDay: RateLimit, accountPerMinute: RateLimit, accountPerDay: RateLimit },
  { additionalProperties: false },
)

export interface RateLimits {
  keyPerMinute: number | null
  keyPerDay: number | null
  accountPerMinute: number | null
  accountPerDay: number | null
}

interface Window {
  name: keyof RateLimits
  scope: 'key' | 'account'
  label: string
  start(now: number): number
  length(start: number): number
}

const MINUTE = 60_000
const DAY = 86_400_000

const WINDOWS: Window[] = [
  { name: 'keyPerMinute', scope: 'key', label: 'requests per minute for this key', start: (t) => t - (t % MINUTE), length: () => MINUTE },
  { name: 'keyPerDay', scope: 'key', label: 'requests per day for this key', start: startOfUtcDay, length: () => DAY },
  { name: 'accountPerMinute', scope: 'account', label: 'requests per minute for this account', start: (t) => t - (t % MINUTE), length: () => MINUTE },
  { name: 'accountPerDay', scope: 'account', label: 'requests per day for this account', start: startOfUtcDay, length: () => DAY },
]

export interface RateLimiter {
  limits(): RateLimits
  configure(limits: Partial<RateLimits>): RateLimits
  /** Admits one request (counting it in every window) or throws a 429 naming the window that ran out. */
  admit(keyHash: string, accountId: string, now: number): void
  clear(): void
}

export function createRateLimiter(initial: RateLimits): RateLimiter {
  let limits = { ...initial }
  const counts = new Map<string, { start: number; count: number }>()

  return {
    limits: () => ({ ...limits }),
    configure(next) {
      limits = { ...limits, ...next }
      return { ...limits }
    },
    admit(keyHash, accountId, now) {
      const active = WINDOWS.filter((w) => limits[w.name] !== null)
      if (active.length === 0) return
      const slots = active.map((w) => {
        const id = `${w.name}:${w.scope === 'key' ? keyHash : accountId}`
        const start = w.start(now)
        let slot = counts.get(id)
        if (!slot || slot.start !== start) counts.set(id, (slot = { start, count: 0 }))
        return { window: w, slot, limit: limits[w.name]! }
      })
      const full = slots.find((s) => s.slot.count >= s.limit)
      if (full) {
        const reset = full.slot.start + full.window.length(full.slot.start)
        throw rateLimitExceeded(full.limit, full.window, reset, Math.max(1, Math.ceil((reset - now) / 1000)))
      }
      for (const s of slots) s.slot.count++
    },
    clear: () => counts.clear(),
  }
}

/** The limits are a run-time setting of the state (reset returns them to the configured ones); counts start afresh after any change of state. */
export function rateLimitState(limiter: RateLimiter, configured: RateLimits): StateOwner {
  return {
    name: 'rate_limits',
    tables: [],
    settings: checkedSettings<RateLimits>('rate_limits', RateLimitsBody, {
      current: () => limiter.limits(),
      defaults: () => ({ ...configured }),
      apply: (limits) => void limiter.configure(limits),
    }),
    afterStateChange: () => limiter.clear(),
  }
}

// ---- Admin answers -------------------------------------------------------------------------------

const Limit = (description: string) => Nullable(Type.Integer({ minimum: 1, description }))
/** The request limits on inference routes in force (null: none). */
export const RateLimits = Shape({
  keyPerMinute: Limit('Requests per minute one key may make'),
  keyPerDay: Limit('Requests per day one key may make'),
  accountPerMinute: Limit('Requests per minute one account may make'),
  accountPerDay: Limit('Requests per day one account may make'),
})
