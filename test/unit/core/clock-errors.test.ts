// Due work that throws must not stop the clock's other work, nor escape from the clock's own timer.
import { describe, expect, it } from 'vitest'
import { createClock, type DueSource } from '../../../src/emulator/core/clock.ts'

/** A source with work due at `dues`; it throws at the times in `failAt`, once each. */
function source(name: string, dues: number[], failAt: number[] = [], ran: string[] = []): DueSource {
  return {
    name,
    nextDue: () => dues[0] ?? null,
    runDue: (now) => {
      while (dues.length && dues[0]! <= now) {
        const at = dues.shift()!
        if (failAt.includes(at)) throw new Error(`${name} broke at ${at}`)
        ran.push(`${name}@${at}`)
      }
    },
  }
}

describe('clock: failing due work', () => {
  it('runs the other sources, reaches the target, then fails naming the source', async () => {
    const moves: number[] = []
    const clock = createClock({ mode: 'manual', start: 0, onMove: (p) => moves.push(p.now) })
    const ran: string[] = []
    // `a` keeps failing at 10 (its work stays due): it is left out for the rest of the advance.
    clock.addSource({ name: 'a', nextDue: () => 10, runDue: () => Promise.reject(new Error('disk I/O error')) })
    clock.addSource(source('b', [20, 30], [], ran))
    await expect(clock.advance(50)).rejects.toThrow('a: disk I/O error')
    expect(ran).toEqual(['b@20', 'b@30'])
    expect(clock.now()).toBe(50)
    expect(moves).toEqual([50]) // the position is kept all the same
  })

  it("tells onError of work that failed on the clock's own timer, and keeps ticking", async () => {
    const errors: unknown[] = []
    const ran: string[] = []
    const now = Date.now()
    const clock = createClock({ mode: 'system', tickMs: 5, onError: (error) => errors.push(error) })
    clock.addSource(source('flaky', [now - 2, now - 1], [now - 2], ran))
    clock.start()
    try {
      await expect.poll(() => ran).toEqual([`flaky@${now - 1}`])
      expect(errors.map((e) => (e as Error).message)).toEqual([`flaky: flaky broke at ${now - 2}`])
    } finally {
      clock.stop()
    }
  })
})
