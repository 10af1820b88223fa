// A short seeded fuzz run inside the suite; `npm run fuzz` runs the long one.
import { expect, it } from 'vitest'
import { fuzz } from './fuzz.ts'

it('answers 400 fuzzed requests with successes and 4xx envelopes only, and keeps the database intact', async () => {
  const result = await fuzz(400, 20261122)
  expect(result.failures).toEqual([])
  expect(result.requests).toBe(400)
}, 120_000)
