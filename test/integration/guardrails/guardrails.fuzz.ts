// The fuzzed operations of guardrails: a valid request of each, which the fuzz run
// (test/integration/fuzz/fuzz.ts) mutates into bad ones; fuzz/kit.ts says what this file exports.
import type { FuzzOperation } from '../fuzz/kit.ts'

export const operations: FuzzOperation[] = [
  {
    place: 16,
    method: 'POST',
    path: '/api/v1/guardrails',
    key: 'management',
    body: {
      name: 'g',
      description: 'd',
      limit_usd: 1,
      reset_interval: 'weekly',
      allowed_providers: ['openai'],
      allowed_models: ['openai/gpt-4.1'],
      enforce_zdr: false,
    },
  },
  { place: 17, method: 'PATCH', path: '/api/v1/guardrails/{guardrail}', key: 'management', body: { name: 'h', ignored_providers: ['azure'] } },
  { place: 18, method: 'POST', path: '/api/v1/guardrails/{guardrail}/assignments/keys', key: 'management', body: { key_hashes: ['{hash}'] } },
  { place: 19, method: 'POST', path: '/api/v1/guardrails/{guardrail}/assignments/members/remove', key: 'management', body: { member_user_ids: ['user_x'] } },
]
