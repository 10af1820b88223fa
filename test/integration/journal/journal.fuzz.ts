// The fuzzed operations of the journal: a valid request of each, which the fuzz run
// (test/integration/fuzz/fuzz.ts) mutates into bad ones; fuzz/kit.ts says what this file exports.
import type { FuzzOperation } from '../fuzz/kit.ts'

export const operations: FuzzOperation[] = [{ place: 107, method: 'GET', path: '/_emulator/api/journal?status=200&limit=5&since=2026-01-01T00:00:00Z' }]
