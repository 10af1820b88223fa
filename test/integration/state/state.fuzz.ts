// The fuzzed operations of state import: a valid request of each, which the fuzz run
// (test/integration/fuzz/fuzz.ts) mutates into bad ones; fuzz/kit.ts says what this file exports.
import type { FuzzOperation } from '../fuzz/kit.ts'

export const operations: FuzzOperation[] = [
  { place: 109, method: 'POST', path: '/_emulator/api/import', body: { format: 'model-gateway-emulator/state', version: 1, tables: {} } },
]
