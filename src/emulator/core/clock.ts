// The emulator's only source of time. Everything in src/emulator asks this clock, never Date.now(),
// so a test can move time by hand and every reset window, expiry and task transition follows.
import type { ClockMode, ClockState } from './types.ts'

export type { ClockMode, ClockState }
/** Something that has work due at points in virtual time (video tasks, charge expiries, callbacks). */
export interface DueSource {
  readonly name: string
  /** Earliest virtual time (epoch ms) at which this source has work, or null when it has none. */
  nextDue(): number | null
  /** Runs everything due at or before `now`. */
  runDue(now: number): Promise<void> | void
}

export interface Clock {
  now(): number
  nowIso(): string
  readonly mode: ClockMode
  state(): ClockState
  /** Moves forward by `ms` (or a duration such as '1d', '90m'), running due work in time order. */
  advance(by: number | string): Promise<ClockState>
  /** Moves forward to `to`, running due work in time order. Refuses to go backwards. */
  advanceTo(to: number): Promise<ClockState>
  /** Jumps to `to` in either direction without running anything (a forward jump leaves work due). */
  set(to: number): ClockState
  /** Stops time where it is: the clock becomes manual. */
  freeze(): ClockState
  /** Lets time run again from where it is: the clock becomes system, keeping its offset. */
  resume(): ClockState
  addSource(source: DueSource): () => void
  /** Runs what is due now (the system-mode ticker calls this). */
  runDue(): Promise<void>
  /** Resolves when the due work under way has finished (close waits for it before closing the database). */
  idle(): Promise<void>
  start(): void
  stop(): void
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }

/** Parses 1500, '1500', '90s', '15m', '2h', '1d', '1w', or a sum such as '1d2h'. */
export function parseDuration(input: number | string): number {
  if (typeof input === 'number') {
    if (!Number.isFinite(input) || input < 0) throw new RangeError(`duration must be a finite number >= 0, got ${input}`)
    return Math.round(input)
  }
  const text = input.trim()
  if (/^\d+$/.test(text)) return Number(text)
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/g)]
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== text) {
    throw new RangeError(`duration "${input}" is not of the form 500ms, 30s, 15m, 2h, 1d or 1w`)
  }
  return Math.round(parts.reduce((sum, p) => sum + Number(p[1]) * UNITS[p[2]!]!, 0))
}

export interface ClockOptions {
  mode: ClockMode
  /** Start time for a manual clock (epoch ms). A system clock starts at real time. */
  start?: number
  /** How often a system clock looks for due work, in real milliseconds. */
  tickMs?: number
  /** Told after every explicit move (advance, set, freeze, resume), so the position can be kept. */
  onMove?: (position: ClockPosition) => void
  /** Told when due work run by the clock's own timer fails: no caller awaits it. Without it, the error is dropped. */
  onError?: (error: unknown) => void
}

/** Where a clock stands, as kept across restarts. */
export interface ClockPosition {
  mode: ClockMode
  /** Virtual epoch ms. */
  now: number
  /** Virtual minus real time (what a system clock keeps). */
  offset_ms: number
}

/** Real wall-clock time, for the few things that must be real (callback Date headers, durations). */
export const wallClock = {
  now: (): number => Date.now(),
  iso: (): string => new Date(Date.now()).toISOString(),
  perf: (): number => performance.now(),
  /** HTTP date (RFC 7231, GMT), e.g. `Tue, 06 May 2025 12:09:42 GMT`. */
  httpDate: (): string => new Date(Date.now()).toUTCString(),
}

export const DEFAULT_MANUAL_START = Date.UTC(2026, 0, 1, 12, 0, 0)

export function createClock(options: ClockOptions): Clock {
  let mode: ClockMode = options.mode
  // In system mode: now = real now + offset. In manual mode: now = frozenAt.
  let offset = 0
  let frozenAt = options.start ?? (mode === 'manual' ? DEFAULT_MANUAL_START : Date.now())
  if (mode === 'system' && options.start !== undefined) offset = options.start - Date.now()
  const sources = new Set<DueSource>()
  let timer: NodeJS.Timeout | undefined
  let running: Promise<void> = Promise.resolve()

  const now = (): number => (mode === 'manual' ? frozenAt : Date.now() + offset)
  const state = (): ClockState => ({ now: new Date(now()).toISOString(), mode })
  const moved = (): ClockState => {
    const at = now()
    options.onMove?.({ mode, now: at, offset_ms: at - Date.now() })
    return state()
  }
  const setNow = (to: number): void => {
    if (mode === 'manual') frozenAt = to
    else offset = to - Date.now()
  }

  /** The source with the earliest due work, leaving out those that failed in this run. */
  const earliestDue = (failed: Map<DueSource, unknown>): { at: number; source: DueSource } | null => {
    let best: { at: number; source: DueSource } | null = null
    for (const source of sources) {
      if (failed.has(source)) continue
      let at: number | null
      try {
        at = source.nextDue()
      } catch (error) {
        failed.set(source, error)
        continue
      }
      if (at !== null && (best === null || at < best.at)) best = { at, source }
    }
    return best
  }

  // Runs due work up to `target` in time order. Calls are serialised so two advances never interleave.
  // A source that throws is left out for the rest of the run (its work would stay due, and be tried
  // again at once): the other sources' work still runs and the clock still reaches `target`; then the
  // run fails, naming the sources that failed.
  const runUntil = (target: number): Promise<void> => {
    const job = running.then(async () => {
      const failed = new Map<DueSource, unknown>()
      for (let guard = 0; guard < 1_000_000; guard++) {
        const due = earliestDue(failed)
        if (due === null || due.at > target) break
        if (due.at > now()) setNow(due.at)
        try {
          await due.source.runDue(now())
        } catch (error) {
          failed.set(due.source, error)
        }
      }
      if (target > now()) setNow(target)
      if (failed.size > 0) {
        const what = [...failed].map(([source, error]) => `${source.name}: ${error instanceof Error ? error.message : String(error)}`)
        throw new Error(what.join('; '), { cause: [...failed.values()][0] })
      }
    })
    running = job.catch(() => undefined)
    return job
  }

  const clock: Clock = {
    now,
    nowIso: () => new Date(now()).toISOString(),
    get mode() {
      return mode
    },
    state,
    async advance(by) {
      const ms = parseDuration(by)
      // Kept even when due work failed: the clock has moved all the same.
      try {
        await runUntil(now() + ms)
      } finally {
        moved()
      }
      return state()
    },
    async advanceTo(to) {
      if (to < now()) throw new RangeError(`cannot advance to ${new Date(to).toISOString()}: it is before now (${state().now})`)
      try {
        await runUntil(to)
      } finally {
        moved()
      }
      return state()
    },
    set(to) {
      setNow(to)
      return moved()
    },
    freeze() {
      if (mode === 'system') {
        frozenAt = now()
        mode = 'manual'
      }
      return moved()
    },
    resume() {
      if (mode === 'manual') {
        offset = frozenAt - Date.now()
        mode = 'system'
      }
      return moved()
    },
    addSource(source) {
      sources.add(source)
      return () => sources.delete(source)
    },
    runDue: () => runUntil(now()),
    idle: () => running,
    start() {
      if (timer) return
      timer = setInterval(() => {
        if (mode === 'system') void clock.runDue().catch((error: unknown) => options.onError?.(error))
      }, options.tickMs ?? 250)
      timer.unref()
    },
    stop() {
      if (timer) clearInterval(timer)
      timer = undefined
    },
  }
  return clock
}

// Window starts for usage and limit resets: days at 00:00 UTC, weeks on Monday, months on the 1st.
export function startOfUtcDay(ms: number): number {
  const d = new Date(ms)
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate())
}

export function startOfUtcWeek(ms: number): number {
  const day = startOfUtcDay(ms)
  const weekday = (new Date(day).getUTCDay() + 6) % 7 // Monday = 0
  return day - weekday * 86_400_000
}

export function startOfUtcMonth(ms: number): number {
  const d = new Date(ms)
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)
}

export function toIso(ms: number): string {
  return new Date(ms).toISOString()
}
