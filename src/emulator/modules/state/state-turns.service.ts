// Turns of the event loop for the state's work over many rows (the export's reading and writing, the
// import's reading and checking): a few milliseconds of it, then the others' requests, then more. A
// document of 640 MB takes seconds either way; nobody waits behind it.
import { setImmediate as nextTurn } from 'node:timers/promises'

/** The most time one turn spends on a document before others run. */
const TURN_MS = 8

export class Turns {
  private started = performance.now()

  /** Whether this turn has taken TURN_MS (cheap: asked per row). */
  due(): boolean {
    return performance.now() - this.started >= TURN_MS
  }

  /** Waits for the next turn, after whatever else is waiting. */
  async next(): Promise<void> {
    await nextTurn()
    this.started = performance.now()
  }
}
