// The fuzzed operations of the API keys: a valid request of each, which the fuzz run
// (test/integration/fuzz/fuzz.ts) mutates into bad ones; fuzz/kit.ts says what this file exports.
import type { FuzzOperation } from '../fuzz/kit.ts'

export const operations: FuzzOperation[] = [
  { place: 0, method: 'GET', path: '/api/v1/keys?include_disabled=true&offset=0', key: 'management' },
  {
    place: 1,
    method: 'PATCH',
    path: '/api/v1/keys/{hash}',
    key: 'management',
    body: { name: 'n', disabled: false, limit: 5, limit_reset: 'daily', include_byok_in_limit: true },
  },
  {
    place: 2,
    method: 'POST',
    path: '/api/v1/keys',
    key: 'management',
    body: { name: 'k', limit: 5, limit_reset: 'weekly', include_byok_in_limit: true, expires_at: '2030-01-01T00:00:00Z', creator_user_id: null },
  },
  { place: 3, method: 'GET', path: '/api/v1/keys/{hash}', key: 'management' },
  // An unknown hash: deleting the seeded key would leave the standard-key operations nothing to fuzz.
  { place: 4, method: 'DELETE', path: `/api/v1/keys/${'f'.repeat(64)}`, key: 'management' },
]
