// How docs/limits.md says a bound: bytes in binary units with the exact count, times in seconds.
import { describe, expect, it } from 'vitest'
import { describeValue, limitsMarkdown } from '../../../src/emulator/core/limits.ts'

describe('a bound as the limits page says it', () => {
  it.each([
    [{ value: 25 * 1024 * 1024, unit: 'bytes' as const }, '25 MiB (26,214,400 bytes)'],
    [{ value: 1024 * 1024, unit: 'bytes' as const }, '1 MiB (1,048,576 bytes)'],
    [{ value: 6_920_601, unit: 'bytes' as const }, '6,920,601 bytes'],
    [{ value: 64 * 1024, unit: 'bytes' as const }, '64 KiB (65,536 bytes)'],
    [{ value: 2000, unit: 'ms' as const }, '2 s'],
    [{ value: 1500, unit: 'ms' as const }, '1,500 ms'],
    [{ value: 10_000, unit: 'items' as const }, '10,000'],
    [{ value: 300_000, unit: 'tokens' as const }, '300,000 tokens'],
  ])('%o is %s', (limit, said) => {
    expect(describeValue(limit)).toBe(said)
  })

  it('makes one table a group, escaping pipes, and leaves empty groups out', () => {
    const page = limitsMarkdown([
      { title: 'Empty', limits: [] },
      { title: 'Bodies', limits: [{ what: 'A | B', value: 3, unit: 'items', beyond: '400' }] },
    ])
    expect(page).toBe('### Bodies\n\n| Bound | Value | Past it |\n| --- | --- | --- |\n| A \\| B | 3 | 400 |')
  })
})
