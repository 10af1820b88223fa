// The fuzzed operations of the admin API's own routes and the clock: a valid request of each, which the fuzz run
// (test/integration/fuzz/fuzz.ts) mutates into bad ones; fuzz/kit.ts says what this file exports.
import type { FuzzOperation } from '../fuzz/kit.ts'

export const operations: FuzzOperation[] = [
  { place: 102, method: 'POST', path: '/_emulator/api/clock/advance', body: { ms: 1000 } },
  { place: 103, method: 'POST', path: '/_emulator/api/clock/set', body: { to: '2026-06-01T00:00:00Z' } },
  { place: 110, method: 'POST', path: '/_emulator/api/fixtures/seed', body: { preset: 'empty' } },
]
