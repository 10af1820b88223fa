// The fuzzed operations of activity: a valid request of each, which the fuzz run
// (test/integration/fuzz/fuzz.ts) mutates into bad ones; fuzz/kit.ts says what this file exports.
import type { FuzzOperation } from '../fuzz/kit.ts'

export const operations: FuzzOperation[] = [{ place: 77, method: 'GET', path: '/api/v1/activity?date=2026-01-01', key: 'management' }]
