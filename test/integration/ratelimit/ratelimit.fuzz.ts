// The fuzzed operations of rate limits: a valid request of each, which the fuzz run
// (test/integration/fuzz/fuzz.ts) mutates into bad ones; fuzz/kit.ts says what this file exports.
import type { FuzzOperation } from '../fuzz/kit.ts'

export const operations: FuzzOperation[] = [{ place: 105, method: 'PUT', path: '/_emulator/api/rate-limits', body: { keyPerMinute: 100 } }]
