// Usage windows against the virtual clock. Resets are derived from these boundaries, so nothing has
// to run at midnight: a window simply starts later.
import { startOfUtcDay, startOfUtcMonth, startOfUtcWeek } from './clock.ts'

export type ResetInterval = 'daily' | 'weekly' | 'monthly'

export interface WindowStarts {
  now: number
  day: number
  week: number
  month: number
}

export function windowStarts(now: number): WindowStarts {
  return { now, day: startOfUtcDay(now), week: startOfUtcWeek(now), month: startOfUtcMonth(now) }
}

/** Start of the window a limit with this reset interval counts from (0 = all time). */
export function windowStartFor(interval: ResetInterval | null, starts: WindowStarts): number {
  switch (interval) {
    case 'daily':
      return starts.day
    case 'weekly':
      return starts.week
    case 'monthly':
      return starts.month
    case null:
      return 0
  }
}
