// The fuzzed operations of fault rules: a valid request of each, which the fuzz run
// (test/integration/fuzz/fuzz.ts) mutates into bad ones; fuzz/kit.ts says what this file exports.
import type { FuzzOperation } from '../fuzz/kit.ts'

export const operations: FuzzOperation[] = [
  {
    place: 104,
    method: 'POST',
    path: '/_emulator/api/faults',
    body: { match: { operation: 'models.count' }, action: { status: 503 }, remaining: 1, probability: 0.5 },
  },
]
