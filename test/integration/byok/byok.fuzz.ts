// The fuzzed operations of BYOK credentials: a valid request of each, which the fuzz run
// (test/integration/fuzz/fuzz.ts) mutates into bad ones; fuzz/kit.ts says what this file exports.
import type { FuzzOperation } from '../fuzz/kit.ts'

export const operations: FuzzOperation[] = [
  { place: 20, method: 'GET', path: '/api/v1/byok?provider=openai&offset=0&limit=5', key: 'management' },
  {
    place: 21,
    method: 'POST',
    path: '/api/v1/byok',
    key: 'management',
    body: {
      provider: 'openai',
      key: 'sk-fuzz-0123456789',
      name: 'n',
      is_fallback: true,
      allowed_models: ['openai/gpt-4.1'],
      allowed_api_key_hashes: ['{hash}'],
    },
  },
  { place: 22, method: 'PATCH', path: '/api/v1/byok/00000000-0000-4000-8000-000000000000', key: 'management', body: { key: 'sk-rotated', disabled: true } },
]
