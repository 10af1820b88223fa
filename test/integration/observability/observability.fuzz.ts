// The fuzzed operations of observability destinations: a valid request of each, which the fuzz run
// (test/integration/fuzz/fuzz.ts) mutates into bad ones; fuzz/kit.ts says what this file exports.
import type { FuzzOperation } from '../fuzz/kit.ts'

export const operations: FuzzOperation[] = [
  { place: 23, method: 'GET', path: '/api/v1/observability/destinations?offset=0&limit=5', key: 'management' },
  {
    place: 24,
    method: 'POST',
    path: '/api/v1/observability/destinations',
    key: 'management',
    body: {
      type: 'webhook',
      name: 'w',
      config: { url: 'http://127.0.0.1:9/traces', method: 'POST', headers: { authorization: 'Bearer x' } },
      sampling_rate: 0.5,
      api_key_hashes: ['{hash}'],
      filter_rules: { groups: [{ logic: 'or', rules: [{ field: 'model', operator: 'regex', value: 'gpt' }] }] },
    },
  },
  {
    place: 25,
    method: 'PATCH',
    path: '/api/v1/observability/destinations/00000000-0000-4000-8000-000000000000',
    key: 'management',
    body: { name: 'x', enabled: false, config: { url: 'http://127.0.0.1:9/h' } },
  },
]
