// The fuzzed operations of workspaces: a valid request of each, which the fuzz run
// (test/integration/fuzz/fuzz.ts) mutates into bad ones; fuzz/kit.ts says what this file exports.
import type { FuzzOperation } from '../fuzz/kit.ts'

export const operations: FuzzOperation[] = [
  // Workspaces: budgets go on the created one ("fuzz"), so a mutated limit never blocks the billed operations.
  {
    place: 36,
    method: 'POST',
    path: '/api/v1/workspaces',
    key: 'management',
    body: { name: 'w', slug: 'fuzz', description: 'd', default_text_model: 'openai/gpt-4o', default_provider_sort: 'price', io_logging_api_key_ids: [1] },
  },
  { place: 37, method: 'GET', path: '/api/v1/workspaces?offset=0&limit=5', key: 'management' },
  {
    place: 38,
    method: 'PATCH',
    path: '/api/v1/workspaces/default',
    key: 'management',
    body: { name: 'n', io_logging_sampling_rate: 0.5, is_observability_broadcast_enabled: true },
  },
  { place: 39, method: 'PUT', path: '/api/v1/workspaces/fuzz/budgets/monthly', key: 'management', body: { limit_usd: 100, include_byok_in_budgets: true } },
  { place: 40, method: 'DELETE', path: '/api/v1/workspaces/fuzz/budgets/daily', key: 'management' },
  { place: 41, method: 'GET', path: '/api/v1/workspaces/default/members?offset=0&limit=5', key: 'management' },
  { place: 42, method: 'POST', path: '/api/v1/workspaces/fuzz/members/add', key: 'management', body: { user_ids: ['user_x'] } },
  { place: 43, method: 'POST', path: '/api/v1/workspaces/fuzz/members/remove', key: 'management', body: { user_ids: ['user_x'] } },
]
