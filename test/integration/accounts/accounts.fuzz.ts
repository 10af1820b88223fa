// The fuzzed operations of accounts (the admin API): a valid request of each, which the fuzz run
// (test/integration/fuzz/fuzz.ts) mutates into bad ones; fuzz/kit.ts says what this file exports.
import type { FuzzOperation } from '../fuzz/kit.ts'

export const operations: FuzzOperation[] = [
  { place: 98, method: 'POST', path: '/_emulator/api/accounts', body: { name: 'a', credits_usd: 5 } },
  { place: 99, method: 'PATCH', path: '/_emulator/api/accounts/{account}', body: { ignored_providers: ['openai'], zdr_only: false } },
  { place: 100, method: 'PUT', path: '/_emulator/api/accounts/{account}/credits', body: { balance_usd: 50 } },
  { place: 101, method: 'POST', path: '/_emulator/api/accounts/{account}/keys', body: { kind: 'standard', limit: 1, expires_at: '2030-01-01T00:00:00Z' } },
]
