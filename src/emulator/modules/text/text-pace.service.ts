// How a streamed answer waits between its events. While the clock runs, in real time (a running
// virtual clock moves at real speed). While it is frozen, in virtual time: the answer goes on only as
// the clock is advanced, so a test can step through a paced stream, or release it whole with one
// advance. Each stream keeps its own timeline (a cursor from its start), so an advance of 10 s
// releases every event due within those 10 s, not one per advance.
import { wallClock, type Clock, type DueSource } from '../../core/clock.ts'

export interface StreamTimeline {
  /** Milliseconds since the stream started, on the clock it follows. */
  elapsed(): number
  /** Waits `ms` more of the stream's time. */
  sleep(ms: number): Promise<void>
}

export interface Pacer {
  timeline(): StreamTimeline
  /** Stops following the clock (the emulator is closing); waiting streams are released. */
  close(): void
}

export function createPacer(clock: Clock): Pacer {
  const waiting = new Set<{ at: number; resolve: () => void }>()
  const source: DueSource = {
    name: 'chat-streams',
    nextDue: () => {
      let earliest: number | null = null
      for (const w of waiting) if (earliest === null || w.at < earliest) earliest = w.at
      return earliest
    },
    runDue(now) {
      for (const w of waiting) {
        if (w.at > now) continue
        waiting.delete(w)
        w.resolve()
      }
    },
  }
  const remove = clock.addSource(source)

  return {
    timeline() {
      const realStart = wallClock.perf()
      const virtualStart = clock.now()
      // Where the stream is on its own virtual timeline: the sum of the waits it has asked for.
      let cursor = virtualStart
      const frozen = () => clock.mode === 'manual'
      return {
        elapsed: () => (frozen() ? clock.now() - virtualStart : wallClock.perf() - realStart),
        sleep(ms) {
          cursor += ms
          if (!frozen()) return new Promise((resolve) => setTimeout(resolve, ms))
          if (clock.now() >= cursor) return Promise.resolve()
          return new Promise((resolve) => waiting.add({ at: cursor, resolve }))
        },
      }
    },
    close() {
      remove()
      for (const w of waiting) w.resolve()
      waiting.clear()
    },
  }
}
