// The contract cases of analytics (the ledger's usage rows). Collected by test/integration/contract/contract.test.ts, which
// checks each answer against the real document's operation or the vendor's documented shapes
// (contract/kit.ts says what this file exports).
import { get, send, malformed, authCases, type Case, type Real } from '../contract/kit.ts'

/** Where these operations' answers are checked: the real document's operation, the vendor's shape, or nowhere (our own). */
export const real: Record<string, Real> = {
  'analytics.meta': { gateway: ['get', '/analytics/meta'] },
  'analytics.query': { gateway: ['post', '/analytics/query'] },
}

export const cases: Case[] = [
  { operation: 'analytics.meta', name: 'the meta', status: 200, run: (emu) => get(emu, '/api/v1/analytics/meta', emu.keys.management) },
  ...authCases('analytics.meta', (emu, key) => get(emu, '/api/v1/analytics/meta', key), 'management', 403),
  {
    operation: 'analytics.query',
    name: 'spend and latency by model and day',
    status: 200,
    options: { demo: true },
    run: (emu) =>
      send(
        emu,
        'POST',
        '/api/v1/analytics/query',
        {
          metrics: ['request_count', 'total_usage', 'tokens_total', 'avg_latency'],
          dimensions: ['model', 'api_key_id'],
          granularity: 'day',
          time_range: { start: '2026-02-02T00:00:00Z', end: '2026-03-04T00:00:00Z' },
          order_by: { field: 'total_usage', direction: 'desc' },
          limit: 50,
        },
        emu.keys.management,
      ),
  },
  {
    operation: 'analytics.query',
    name: 'a filter on an unknown key (warnings)',
    status: 200,
    run: (emu) =>
      send(
        emu,
        'POST',
        '/api/v1/analytics/query',
        { metrics: ['request_count'], filters: [{ field: 'api_key_id', operator: 'eq', value: 'nope' }] },
        emu.keys.management,
      ),
  },
  {
    operation: 'analytics.query',
    name: 'an unknown metric',
    status: 400,
    run: (emu) => send(emu, 'POST', '/api/v1/analytics/query', { metrics: ['spend'] }, emu.keys.management),
  },
  {
    operation: 'analytics.query',
    name: 'a range over 365 days',
    status: 400,
    run: (emu) =>
      send(
        emu,
        'POST',
        '/api/v1/analytics/query',
        { metrics: ['request_count'], time_range: { start: '2024-01-01T00:00:00Z', end: '2026-01-01T00:00:00Z' } },
        emu.keys.management,
      ),
  },
  { operation: 'analytics.query', name: 'a malformed body', status: 400, run: (emu) => malformed(emu, 'POST', '/api/v1/analytics/query', emu.keys.management) },
  ...authCases('analytics.query', (emu, key) => send(emu, 'POST', '/api/v1/analytics/query', { metrics: ['request_count'] }, key), 'management', 403),
]
