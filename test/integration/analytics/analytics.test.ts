// GET /api/v1/analytics/meta and POST /api/v1/analytics/query: metrics of the ledger's usage rows,
// which agree exactly with GET /api/v1/activity and the keys' usage; grouping, filters, time buckets,
// ordering and bounds; each refusal with its status and body.
import { describe, expect, it } from 'vitest'
import { testEmulator, type TestEmulator } from '../../helpers/emulator.ts'

const NOW = '2026-03-04T10:00:00.000Z' // TEST_START, a Wednesday
const CHAT_MODEL = 'openai/gpt-4o-mini'
const EMBEDDINGS_MODEL = 'openai/text-embedding-3-small'
const MONEY = ['request_count', 'total_usage', 'byok_usage', 'tokens_prompt', 'tokens_completion', 'reasoning_tokens'] as const

type Row = Record<string, any>

/** USD as whole nano-dollars: sums compared exactly, whatever the float noise of their parts. */
const nanos = (usd: number): number => Math.round(usd * 1e9)

async function query(emu: TestEmulator, body: unknown, key = emu.keys.management) {
  return emu.send('POST', '/api/v1/analytics/query', body, key)
}

async function rows(emu: TestEmulator, body: unknown): Promise<Row[]> {
  const res = await query(emu, body)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  expect(res.body.data.metadata.row_count).toBe(res.body.data.data.length)
  return res.body.data.data
}

async function chat(emu: TestEmulator, key: string, headers: Record<string, string> = {}) {
  const res = await emu.request({
    method: 'POST',
    url: '/api/v1/chat/completions',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
    payload: JSON.stringify({ model: CHAT_MODEL, messages: [{ role: 'user', content: 'Say something short.' }], max_tokens: 20 }),
  })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body as { id: string; usage: { prompt_tokens: number; completion_tokens: number; cost: number } }
}

async function secondKey(emu: TestEmulator): Promise<{ key: string; hash: string }> {
  const account = (await emu.get('/_emulator/api/accounts')).body.data[0].id
  const created = await emu.send('POST', `/_emulator/api/accounts/${account}/keys`, { name: 'second' })
  expect(created.status).toBe(201)
  return { key: created.body.data.key, hash: created.body.data.hash }
}

describe('GET /api/v1/analytics/meta', () => {
  it('lists the metrics, dimensions, operators and granularities a query may name', async () => {
    const emu = await testEmulator()
    const res = await emu.get('/api/v1/analytics/meta', emu.keys.management)
    expect(res.status).toBe(200)
    const meta = res.body.data
    expect(meta.metrics.map((m: Row) => m.name)).toEqual([...MONEY, 'tokens_total', 'avg_cost_per_request', 'avg_latency'])
    expect(meta.metrics[0]).toEqual({ name: 'request_count', display_label: 'Request Count', is_rate: false, display_format: 'number' })
    expect(meta.metrics.find((m: Row) => m.name === 'total_usage').display_format).toBe('currency')
    expect(meta.metrics.find((m: Row) => m.name === 'avg_latency')).toMatchObject({ is_rate: true, display_format: 'latency' })
    expect(meta.dimensions.map((d: Row) => d.name)).toEqual([
      'model',
      'variant',
      'provider',
      'api_key_id',
      'user',
      'workspace',
      'origin',
      'finish_reason',
      'external_user',
      'generation_id',
    ])
    expect(meta.operators).toContainEqual({ name: 'in', value_type: 'array' })
    expect(meta.operators).toContainEqual({ name: 'gte', value_type: 'scalar' })
    expect(meta.granularities.map((g: Row) => g.name)).toEqual(['minute', 'hour', 'day', 'week', 'month'])
  })

  it('takes a management key only: a standard key gets the real 403, no key a 401', async () => {
    const emu = await testEmulator()
    const standard = await emu.get('/api/v1/analytics/meta', emu.keys.standard)
    expect(standard.status).toBe(403)
    expect(standard.body).toEqual({ error: { code: 403, message: 'Only management keys can perform this operation' } })
    const none = await emu.get('/api/v1/analytics/meta')
    expect(none.status).toBe(401)
    expect(none.body).toEqual({ error: { code: 401, message: 'No auth credentials found' } })
    const query403 = await query(emu, { metrics: ['request_count'] }, emu.keys.standard)
    expect(query403.status).toBe(403)
    expect(query403.body).toEqual({ error: { code: 403, message: 'Only management keys can perform this operation' } })
  })
})

describe('POST /api/v1/analytics/query agrees with the ledger', () => {
  it('gives, per day and model, exactly what GET /api/v1/activity gives summed over endpoints (30 days of demo history)', async () => {
    const emu = await testEmulator({ demo: true })
    const activity = (await emu.get('/api/v1/activity', emu.keys.management)).body.data as Row[]
    expect(activity.length).toBeGreaterThan(50)
    const expected = new Map<string, number[]>()
    for (const row of activity) {
      const sums = expected.get(`${row.date} ${row.model}`) ?? [0, 0, 0, 0, 0, 0]
      const parts = [row.requests, nanos(row.usage), nanos(row.byok_usage_inference), row.prompt_tokens, row.completion_tokens, row.reasoning_tokens]
      expected.set(
        `${row.date} ${row.model}`,
        sums.map((s, i) => s + parts[i]!),
      )
    }
    const res = await query(emu, {
      metrics: MONEY,
      dimensions: ['model'],
      granularity: 'day',
      // Activity's 30 completed days.
      time_range: { start: '2026-02-02T00:00:00Z', end: '2026-03-04T00:00:00Z' },
      limit: 10_000,
    })
    expect(res.status).toBe(200)
    expect(res.body.data.metadata.truncated).toBe(false)
    const actual = new Map<string, number[]>(
      (res.body.data.data as Row[]).map((r) => [
        `${r.date__day.slice(0, 10)} ${r.model}`,
        [r.request_count, nanos(r.total_usage), nanos(r.byok_usage), r.tokens_prompt, r.tokens_completion, r.reasoning_tokens],
      ]),
    )
    expect(actual).toEqual(expected)
  })

  it("gives each key's daily, weekly, monthly and all-time usage exactly as GET /api/v1/keys shows it", async () => {
    const emu = await testEmulator({ demo: true })
    const keys = (await emu.get('/api/v1/keys', emu.keys.management)).body.data as Row[]
    expect(keys.some((k) => k.usage_monthly > 0)).toBe(true)
    // The keys' windows: today, this week (from Monday), this month, all time; each up to now included.
    const end = new Date(Date.parse(NOW) + 1).toISOString()
    const windows = {
      usage_daily: '2026-03-04T00:00:00Z',
      usage_weekly: '2026-03-02T00:00:00Z',
      usage_monthly: '2026-03-01T00:00:00Z',
      usage: '2025-03-05T00:00:00Z',
    }
    for (const [field, start] of Object.entries(windows)) {
      const byKey = await rows(emu, { metrics: ['total_usage', 'byok_usage'], dimensions: ['api_key_id'], time_range: { start, end } })
      for (const key of keys) {
        const row = byKey.find((r) => r.api_key_id === key.hash)
        expect(nanos(row?.total_usage ?? 0), `${key.name} ${field}`).toBe(nanos(key[field]))
        expect(nanos(row?.byok_usage ?? 0), `${key.name} byok_${field}`).toBe(nanos(key[`byok_${field}`]))
      }
    }
  })

  it('counts live calls as they are billed: tokens, cost, latency, origin and generation of each', async () => {
    const emu = await testEmulator()
    const first = await chat(emu, emu.keys.standard, { 'http-referer': 'https://app.example' })
    await emu.clock.advance('2h')
    const other = await secondKey(emu)
    const second = await chat(emu, other.key)
    const embed = await emu.send('POST', '/api/v1/embeddings', { model: EMBEDDINGS_MODEL, input: 'counted too' }, emu.keys.standard)
    expect(embed.status).toBe(200)

    const byHour = await rows(emu, {
      metrics: ['request_count', 'tokens_prompt', 'tokens_completion', 'total_usage'],
      granularity: 'hour',
      dimensions: ['model'],
    })
    expect(byHour).toEqual([
      {
        date__hour: '2026-03-04T10:00:00.000Z',
        model: CHAT_MODEL,
        request_count: 1,
        tokens_prompt: first.usage.prompt_tokens,
        tokens_completion: first.usage.completion_tokens,
        total_usage: first.usage.cost,
      },
      {
        date__hour: '2026-03-04T12:00:00.000Z',
        model: CHAT_MODEL,
        request_count: 1,
        tokens_prompt: second.usage.prompt_tokens,
        tokens_completion: second.usage.completion_tokens,
        total_usage: second.usage.cost,
      },
      {
        date__hour: '2026-03-04T12:00:00.000Z',
        model: EMBEDDINGS_MODEL,
        request_count: 1,
        tokens_prompt: embed.body.usage.prompt_tokens,
        tokens_completion: 0,
        total_usage: embed.body.usage.cost,
      },
    ])

    const generation = (await emu.get(`/api/v1/generation?id=${first.id}`, emu.keys.standard)).body.data
    const byGeneration = await rows(emu, {
      metrics: ['avg_latency', 'request_count'],
      dimensions: ['generation_id', 'origin'],
      filters: [{ field: 'model', operator: 'eq', value: CHAT_MODEL }],
      order_by: { field: 'generation_id', direction: 'asc' },
    })
    expect(byGeneration).toEqual(
      [
        { generation_id: first.id, origin: 'https://app.example', avg_latency: generation.latency, request_count: 1 },
        { generation_id: second.id, origin: null, avg_latency: expect.any(Number), request_count: 1 },
      ].sort((a, b) => (a.generation_id < b.generation_id ? -1 : 1)),
    )

    // By key: the second key's one call; the first key's chat and embeddings.
    const byKey = await rows(emu, { metrics: ['request_count'], dimensions: ['api_key_id'], order_by: { field: 'request_count', direction: 'desc' } })
    expect(byKey.map((r) => r.request_count)).toEqual([2, 1])
    expect(byKey[1]!.api_key_id).toBe(other.hash)
  })

  it('gives every query over the same state the same bytes', async () => {
    const body = {
      metrics: ['total_usage', 'tokens_total', 'avg_cost_per_request'],
      dimensions: ['model', 'user'],
      granularity: 'week',
      time_range: { start: '2026-01-01T00:00:00Z', end: NOW },
    }
    const a = await testEmulator({ demo: true })
    const b = await testEmulator({ demo: true })
    const first = await a.request({
      method: 'POST',
      url: '/api/v1/analytics/query',
      headers: { authorization: `Bearer ${a.keys.management}`, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    })
    const again = await b.request({
      method: 'POST',
      url: '/api/v1/analytics/query',
      headers: { authorization: `Bearer ${b.keys.management}`, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    })
    expect(first.status).toBe(200)
    expect(JSON.stringify(again.body)).toBe(JSON.stringify(first.body))
  })
})

describe('POST /api/v1/analytics/query: grouping, filters, order and bounds', () => {
  it('buckets by week from Monday and by month from the 1st, oldest first, with one total row and no granularity', async () => {
    const emu = await testEmulator({ demo: true })
    // The demo history starts on Monday 2026-02-02 and runs to now, Wednesday 2026-03-04.
    const range = { start: '2026-01-25T00:00:00Z', end: '2026-03-05T00:00:00Z' }
    const weeks = await rows(emu, { metrics: ['request_count'], granularity: 'week', time_range: range })
    expect(weeks.map((w) => w.date__week)).toEqual([
      '2026-02-02T00:00:00.000Z',
      '2026-02-09T00:00:00.000Z',
      '2026-02-16T00:00:00.000Z',
      '2026-02-23T00:00:00.000Z',
      '2026-03-02T00:00:00.000Z',
    ])
    const months = await rows(emu, { metrics: ['request_count'], granularity: 'month', time_range: range })
    expect(months.map((m) => m.date__month)).toEqual(['2026-02-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z'])
    const total = await rows(emu, { metrics: ['request_count', 'tokens_total'], time_range: range })
    expect(total).toHaveLength(1)
    expect(total[0]!.request_count).toBe(weeks.reduce((n, w) => n + w.request_count, 0))
    expect(months.reduce((n, m) => n + m.request_count, 0)).toBe(total[0]!.request_count)
  })

  it('filters by a model permaslug (resolved to the ids that have it), by sets with include_unset, and by comparisons', async () => {
    const emu = await testEmulator({ demo: true })
    const range = { start: '2026-02-02T00:00:00Z', end: '2026-03-04T00:00:00Z' }
    const byModel = await rows(emu, { metrics: ['request_count'], dimensions: ['model'], time_range: range })
    expect(byModel.length).toBeGreaterThan(2)
    const [a, b] = byModel as [Row, Row]
    const catalog = (await emu.get('/api/v1/models?output_modalities=all')).body.data as Row[]
    const slug = catalog.find((m) => m.id === a.model)!.canonical_slug as string
    const bySlug = await rows(emu, {
      metrics: ['request_count'],
      dimensions: ['model'],
      time_range: range,
      filters: [{ field: 'model', operator: 'eq', value: slug }],
    })
    expect(bySlug).toEqual([a])
    const pair = await rows(emu, {
      metrics: ['request_count'],
      dimensions: ['model'],
      time_range: range,
      filters: [{ field: 'model', operator: 'in', value: [a.model, b.model] }],
    })
    expect(pair.map((r) => r.model).sort()).toEqual([a.model, b.model].sort())
    const rest = await rows(emu, { metrics: ['request_count'], time_range: range, filters: [{ field: 'model', operator: 'not_in', value: [a.model] }] })
    expect(rest[0]!.request_count).toBe(byModel.reduce((n, r) => n + r.request_count, 0) - a.request_count)
    const after = await rows(emu, {
      metrics: ['request_count'],
      dimensions: ['model'],
      time_range: range,
      filters: [{ field: 'model', operator: 'gt', value: a.model }],
    })
    expect(after.every((r) => r.model > a.model)).toBe(true)

    // The demo history records no generations: no origin is set, and only include_unset keeps those rows.
    const none = await rows(emu, {
      metrics: ['request_count'],
      time_range: range,
      filters: [{ field: 'origin', operator: 'in', value: ['https://x.example'] }],
    })
    expect(none[0]!.request_count).toBe(0)
    const unset = await rows(emu, {
      metrics: ['request_count'],
      time_range: range,
      filters: [{ field: 'origin', operator: 'in', value: ['https://x.example'], include_unset: true }],
    })
    expect(unset[0]!.request_count).toBe(rest[0]!.request_count + a.request_count)
  })

  it('orders by a metric or dimension, cuts rows per group with group_limit and in all with limit, and says it truncated', async () => {
    const emu = await testEmulator({ demo: true })
    const range = { start: '2026-02-02T00:00:00Z', end: '2026-03-04T00:00:00Z' }
    const cheapest = await rows(emu, {
      metrics: ['total_usage'],
      dimensions: ['model'],
      time_range: range,
      order_by: { field: 'total_usage', direction: 'asc' },
    })
    expect(cheapest.map((r) => r.total_usage)).toEqual(cheapest.map((r) => r.total_usage).sort((x, y) => x - y))
    const byName = await rows(emu, { metrics: ['total_usage'], dimensions: ['model'], time_range: range, order_by: { field: 'model', direction: 'desc' } })
    expect(byName.map((r) => r.model)).toEqual(
      cheapest
        .map((r) => r.model)
        .sort()
        .reverse(),
    )
    // request_count may order rows without being asked for.
    const busiest = await rows(emu, {
      metrics: ['total_usage'],
      dimensions: ['model'],
      time_range: range,
      order_by: { field: 'request_count', direction: 'desc' },
    })
    expect(busiest[0]).not.toHaveProperty('request_count')

    const daily = await query(emu, { metrics: ['request_count'], dimensions: ['model'], granularity: 'day', time_range: range, group_limit: 2 })
    const perModel = new Map<string, number>()
    for (const r of daily.body.data.data as Row[]) perModel.set(r.model, (perModel.get(r.model) ?? 0) + 1)
    expect(Math.max(...perModel.values())).toBe(2)
    expect(daily.body.data.metadata.truncated).toBe(true)
    const limited = await query(emu, { metrics: ['request_count'], dimensions: ['model'], time_range: range, limit: 2 })
    expect(limited.body.data.data).toHaveLength(2)
    expect(limited.body.data.metadata).toMatchObject({ row_count: 2, truncated: true })
  })

  it('warns of an api_key_id that is no key of the account, and still answers', async () => {
    const emu = await testEmulator({ demo: true })
    const res = await query(emu, { metrics: ['request_count'], filters: [{ field: 'api_key_id', operator: 'in', value: ['f'.repeat(64), 42] }] })
    expect(res.status).toBe(200)
    expect(res.body.data.data).toEqual([{ request_count: 0 }])
    expect(res.body.data.warnings).toEqual([
      `api_key_id filter value "${'f'.repeat(64)}" is no API key hash of this account: it matches nothing`,
      'api_key_id filter value "42" is no API key hash of this account: it matches nothing',
    ])
  })

  it('groups by workspace, user and variant, as the account records them', async () => {
    const emu = await testEmulator({ demo: true })
    const account = (await emu.get('/_emulator/api/accounts')).body.data[0]
    const res = await rows(emu, { metrics: ['request_count'], dimensions: ['workspace', 'variant'], time_range: { start: '2026-02-02T00:00:00Z', end: NOW } })
    expect(res.map((r) => r.workspace)).toEqual(res.map(() => account.workspace_id))
    expect(res.map((r) => r.variant)).toEqual(['standard'])
    const members = await rows(emu, { metrics: ['request_count'], dimensions: ['user'], time_range: { start: '2026-02-02T00:00:00Z', end: NOW } })
    expect(members.every((r) => typeof r.user === 'string' && r.user.startsWith('user_'))).toBe(true)
  })
})

describe('POST /api/v1/analytics/query: refusals name the field', () => {
  const refusals: Array<[string, unknown, string, Record<string, unknown>?]> = [
    [
      'an unknown metric',
      { metrics: ['request_count', 'spend'] },
      'Field `metrics[1]` is not a metric (GET /api/v1/analytics/meta lists them: request_count, total_usage, byok_usage, tokens_prompt, tokens_completion, reasoning_tokens, tokens_total, avg_cost_per_request, avg_latency)',
    ],
    ['a metric named twice', { metrics: ['total_usage', 'total_usage'] }, 'Field `metrics[1]` repeats `total_usage`: name each once'],
    ['no metric', { metrics: [] }, 'Field `metrics` must not be empty'],
    ['no metrics at all', {}, 'Field `metrics` is required'],
    ['three dimensions', { metrics: ['request_count'], dimensions: ['model', 'provider', 'user'] }, 'Field `dimensions` must have at most 2 items'],
    [
      'an unknown dimension',
      { metrics: ['request_count'], dimensions: ['country'] },
      'Field `dimensions[0]` is not a dimension (GET /api/v1/analytics/meta lists them: model, variant, provider, api_key_id, user, workspace, origin, finish_reason, external_user, generation_id)',
    ],
    ['a dimension named twice', { metrics: ['request_count'], dimensions: ['model', 'model'] }, 'Field `dimensions[1]` repeats `model`: name each once'],
    [
      'a filter on an unknown dimension',
      { metrics: ['request_count'], filters: [{ field: 'country', operator: 'eq', value: 'FR' }] },
      'Field `filters[0].field` is not a dimension (GET /api/v1/analytics/meta lists them: model, variant, provider, api_key_id, user, workspace, origin, finish_reason, external_user, generation_id)',
    ],
    [
      'an unknown operator',
      { metrics: ['request_count'], filters: [{ field: 'model', operator: 'like', value: 'x' }] },
      'Field `filters[0].operator` must be one of eq, neq, in, not_in, gt, gte, lt, lte',
    ],
    [
      'a list for eq',
      { metrics: ['request_count'], filters: [{ field: 'model', operator: 'eq', value: ['x'] }] },
      'Field `filters[0].value` must be a string or a number for `eq`',
    ],
    [
      'a scalar for in',
      { metrics: ['request_count'], filters: [{ field: 'model', operator: 'in', value: 'x' }] },
      'Field `filters[0].value` must be an array of strings or numbers for `in`',
    ],
    [
      'a value that is neither string nor number',
      { metrics: ['request_count'], filters: [{ field: 'model', operator: 'neq', value: true }] },
      'Field `filters[0].value` must be a string or a number',
    ],
    [
      'a listed value that is neither string nor number',
      { metrics: ['request_count'], filters: [{ field: 'user', operator: 'in', value: ['user_a', { id: 1 }] }] },
      'Field `filters[0].value[1]` must be a string or a number',
    ],
    ['a filter without a value', { metrics: ['request_count'], filters: [{ field: 'model', operator: 'eq' }] }, 'Field `filters[0].value` is required'],
    [
      'an empty list',
      { metrics: ['request_count'], filters: [{ field: 'model', operator: 'not_in', value: [] }] },
      'Field `filters[0].value` must not be empty',
    ],
    [
      'too many values',
      { metrics: ['request_count'], filters: [{ field: 'model', operator: 'in', value: Array.from({ length: 1001 }, (_, i) => `m${i}`) }] },
      'Field `filters[0].value` must have at most 1000 items',
    ],
    ['an unknown granularity', { metrics: ['request_count'], granularity: 'year' }, 'Field `granularity` must be one of minute, hour, day, week, month'],
    [
      'an order by what is not asked',
      { metrics: ['total_usage'], order_by: { field: 'tokens_total', direction: 'desc' } },
      'Field `order_by.field` must be a requested metric, request_count, a requested dimension, or date',
    ],
    [
      'an order by date without a granularity',
      { metrics: ['total_usage'], order_by: { field: 'date', direction: 'asc' } },
      'Field `order_by.field` is `date`, which needs a granularity: add one, or order by a metric or dimension',
    ],
    ['a limit of 0', { metrics: ['request_count'], limit: 0 }, 'Field `limit` must be >= 1'],
    ['a limit over 10,000', { metrics: ['request_count'], limit: 10_001 }, 'Field `limit` must be <= 10000'],
    [
      'an end before the start',
      { metrics: ['request_count'], time_range: { start: '2026-03-02T00:00:00Z', end: '2026-03-01T00:00:00Z' } },
      'Field `time_range.end` must be after time_range.start',
    ],
    [
      'a time that is no date-time',
      { metrics: ['request_count'], time_range: { start: 'yesterday', end: '2026-03-01T00:00:00Z' } },
      'Field `time_range.start` is not valid (must match format "date-time")',
    ],
    [
      'a range over 365 days',
      { metrics: ['request_count'], time_range: { start: '2025-01-01T00:00:00Z', end: '2026-03-01T00:00:00Z' } },
      'Field `time_range` spans 424 days; queries span at most 365 days: narrow the range',
    ],
    [
      'a range over 31 days with a dimension read from generations',
      { metrics: ['request_count'], dimensions: ['provider'], time_range: { start: '2026-01-01T00:00:00Z', end: '2026-03-01T00:00:00Z' } },
      'Field `time_range` spans 59 days; queries with provider, origin, finish_reason, external_user or generation_id, or with avg_latency, span at most 31 days: narrow the range',
    ],
    [
      'a classifier',
      { metrics: ['request_count'], classifier_dimensions: { classifier_id: '550e8400-e29b-41d4-a716-446655440000' } },
      'Field `classifier_dimensions.classifier_id` names no active classifier of this workspace (550e8400-e29b-41d4-a716-446655440000): the emulator has no classifiers, so leave classifier_dimensions and classifier_filters out',
    ],
    ['an unknown field', { metrics: ['request_count'], dimension: ['model'] }, 'Field `dimension` is not a known field'],
  ]

  it.each(refusals)('%s -> 400 naming it', async (_name, body, message) => {
    const emu = await testEmulator()
    const res = await query(emu, body)
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe(400)
    expect(res.body.error.message).toBe(message)
    expect(res.body.error.metadata.location).toBe('body')
  })

  it('refuses a body that is no JSON with a 400', async () => {
    const emu = await testEmulator()
    const res = await emu.request({
      method: 'POST',
      url: '/api/v1/analytics/query',
      headers: { authorization: `Bearer ${emu.keys.management}`, 'content-type': 'application/json' },
      payload: '{"metrics": ',
    })
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe(400)
  })
})
