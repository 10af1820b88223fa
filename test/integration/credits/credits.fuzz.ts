// The fuzzed operations of credits: a valid request of each, which the fuzz run
// (test/integration/fuzz/fuzz.ts) mutates into bad ones; fuzz/kit.ts says what this file exports.
import type { FuzzOperation } from '../fuzz/kit.ts'

export const operations: FuzzOperation[] = [
  {
    place: 44,
    method: 'POST',
    path: '/api/v1/credits/crypto',
    key: 'standard',
    body: { amount: 10, sender: '0x9a85CB3bfd494Ea3a8C9E50aA6a3c1a7E8BACE11', chain_id: 8453 },
  },
  { place: 45, method: 'GET', path: '/api/v1/credits', key: 'standard' },
]
