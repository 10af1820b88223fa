import { describe, expect, it } from 'vitest'
import { createClock, parseDuration, startOfUtcWeek } from '../../../src/emulator/core/clock.ts'

describe('clock', () => {
  it('parses durations', () => {
    expect(parseDuration('1500')).toBe(1500)
    expect(parseDuration('90s')).toBe(90_000)
    expect(parseDuration('1d2h30m')).toBe(95_400_000)
    expect(parseDuration('1w')).toBe(604_800_000)
    expect(() => parseDuration('soon')).toThrow(/not of the form/)
    expect(() => parseDuration(-1)).toThrow(/>= 0/)
  })

  it('finds Monday 00:00 UTC for any day of the week', () => {
    const monday = Date.parse('2026-03-02T00:00:00Z')
    for (let d = 0; d < 7; d++) expect(startOfUtcWeek(monday + d * 86_400_000 + 3_600_000)).toBe(monday)
    expect(startOfUtcWeek(Date.parse('2026-03-01T23:59:59Z'))).toBe(Date.parse('2026-02-23T00:00:00Z'))
  })

  it('runs due work in time order, at the time it was due, across sources', async () => {
    const clock = createClock({ mode: 'manual', start: 0 })
    const seen: string[] = []
    const makeSource = (name: string, dues: number[]) => ({
      name,
      nextDue: () => dues[0] ?? null,
      runDue: (now: number) => {
        while (dues.length && dues[0]! <= now) seen.push(`${name}@${dues.shift()}:${now}`)
      },
    })
    clock.addSource(
      makeSource(
        'a',
        [30, 10].sort((x, y) => x - y),
      ),
    )
    clock.addSource(makeSource('b', [20, 40]))
    await clock.advance(35)
    expect(seen).toEqual(['a@10:10', 'b@20:20', 'a@30:30'])
    expect(clock.now()).toBe(35)
    await clock.advance(100)
    expect(seen.at(-1)).toBe('b@40:40')
    expect(clock.now()).toBe(135)
  })

  it('lets work scheduled by due work run within the same advance', async () => {
    const clock = createClock({ mode: 'manual', start: 0 })
    const dues = [10]
    const ran: number[] = []
    clock.addSource({
      name: 'chain',
      nextDue: () => dues[0] ?? null,
      runDue: (now) => {
        dues.shift()
        ran.push(now)
        if (now < 50) dues.push(now + 10)
      },
    })
    await clock.advance(1000)
    expect(ran).toEqual([10, 20, 30, 40, 50])
  })
})
