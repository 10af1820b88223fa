// The fuzzed operations of analytics: a valid request of each, which the fuzz run
// (test/integration/fuzz/fuzz.ts) mutates into bad ones; fuzz/kit.ts says what this file exports.
import type { FuzzOperation } from '../fuzz/kit.ts'

export const operations: FuzzOperation[] = [
  { place: 78, method: 'GET', path: '/api/v1/analytics/meta', key: 'management' },
  {
    place: 79,
    method: 'POST',
    path: '/api/v1/analytics/query',
    key: 'management',
    body: {
      metrics: ['request_count', 'total_usage', 'avg_latency'],
      dimensions: ['model', 'provider'],
      filters: [{ field: 'model', operator: 'in', value: ['openai/gpt-4o-mini'], include_unset: true }],
      granularity: 'hour',
      group_limit: 5,
      limit: 100,
      order_by: { field: 'total_usage', direction: 'desc' },
      time_range: { start: '2026-01-01T00:00:00Z', end: '2026-01-20T00:00:00Z' },
    },
  },
]
