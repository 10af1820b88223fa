// The virtual clock's position, kept across restarts of a file-backed emulator (migration 0006).
import { wallClock, type ClockPosition } from '../core/clock.ts'
import type { DB } from './db.ts'

/** Tables that describe the running emulator rather than its state: not exported, imported or reset. */
export const RUNTIME_TABLES: ReadonlySet<string> = new Set(['clock_position'])

export function saveClockPosition(db: DB, position: ClockPosition): void {
  db.prepare(
    `INSERT INTO clock_position (id, mode, now, offset_ms) VALUES (1, @mode, @now, @offset_ms)
     ON CONFLICT (id) DO UPDATE SET mode = excluded.mode, now = excluded.now, offset_ms = excluded.offset_ms`,
  ).run(position)
}

/**
 * Where the clock resumes (virtual epoch ms), or undefined when it never moved: a system clock that was
 * running carries on with its offset, a manual one from where it stopped.
 */
export function resumeClockAt(db: DB): number | undefined {
  const saved = db.prepare<[], ClockPosition>('SELECT mode, now, offset_ms FROM clock_position WHERE id = 1').get()
  if (!saved) return undefined
  return saved.mode === 'system' ? wallClock.now() + saved.offset_ms : saved.now
}
