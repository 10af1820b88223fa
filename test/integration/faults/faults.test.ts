// Fault rules and the journal: every action and matcher, seeded probability, remaining count and expiry,
// the header override, no state change for a faulted call, journal filters and redaction, HAR that a
// HAR schema accepts, and the SSE stream read by an EventSource client.
import { createRequire } from 'node:module'
import { EventSource } from 'eventsource'
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { sha256Hex } from '../../../src/emulator/core/rng.ts'
import { listeningEmulator, testEmulator, type TestEmulator } from '../../helpers/emulator.ts'

const har = createRequire(import.meta.url)('har-validator/lib/promise') as { har(doc: unknown): Promise<boolean> }
const MODEL = 'openai/text-embedding-3-small'

const embed = (emu: TestEmulator, headers: Record<string, string> = {}, key = emu.keys.standard) =>
  emu.request({
    method: 'POST',
    url: '/api/v1/embeddings',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
    payload: JSON.stringify({ model: MODEL, input: 'fault me' }),
  })

const addFault = async (emu: TestEmulator, rule: Record<string, unknown>) => {
  const res = await emu.send('POST', '/_emulator/api/faults', rule)
  expect(res.status).toBe(201)
  return res.body.data as { id: string; explanation: string }
}

const usageOf = async (emu: TestEmulator) => (await emu.get('/api/v1/credits', emu.keys.standard)).body.data.total_usage as number

describe('fault rules', () => {
  it('answers the next two embeddings calls with 429 and headers, then lets the third through', async () => {
    const emu = await testEmulator()
    const rule = await addFault(emu, { match: { operation: 'embeddings.create' }, action: { status: 429 }, remaining: 2 })
    expect(rule.explanation).toBe('Answers 429 (rate limit exceeded) to embeddings.create, the next 2 times.')
    for (let i = 0; i < 2; i++) {
      const res = await embed(emu)
      expect(res.status).toBe(429)
      expect(res.body).toEqual({
        error: { code: 429, message: 'Rate limit exceeded', metadata: { emulator_fault: rule.id, error_type: 'rate_limit_exceeded' } },
      })
      expect(res.headers['retry-after']).toBe('1')
      expect(res.headers['x-ratelimit-limit']).toBe('20')
      expect(res.headers['x-ratelimit-remaining']).toBe('0')
      expect(res.headers['x-ratelimit-reset']).toBe(String(Date.parse('2026-03-04T10:01:00Z')))
    }
    expect((await embed(emu)).status).toBe(200)
    const after = (await emu.get(`/_emulator/api/faults/${rule.id}`)).body.data
    expect(after).toMatchObject({ remaining: 0, hits: 2, evaluations: 2 })
    expect(after.explanation).toMatch(/and is used up\.$/)
  })

  it('a faulted call changes no state: credits, usage and the key are untouched', async () => {
    const emu = await testEmulator()
    await addFault(emu, { match: { operation: 'embeddings.create' }, action: { status: 503 } })
    const res = await embed(emu)
    expect(res.status).toBe(503)
    expect(res.headers['retry-after']).toBe('5')
    expect(res.body.error).toMatchObject({ code: 503, metadata: { error_type: 'provider_unavailable' } })
    expect(await usageOf(emu)).toBe(0)
    expect(emu.ctx.db.prepare('SELECT COUNT(*) AS n FROM usage').get()).toEqual({ n: 0 })
  })

  it.each([
    // status, the gateway's message, the vendor's reason and message on the router
    [402, 'Insufficient credits. Add more using a crypto charge or the admin API', 'CreditInsufficient', 'insufficient credits'],
    [408, 'Operation timed out. Please try again later.', 'Canceled', 'request canceled by client'],
    [429, 'Rate limit exceeded', 'TooManyRequests', 'too many requests'],
    [500, 'Internal Server Error', 'InternalServiceFailure', 'internal service failure'],
    [502, 'Provider returned error', 'BadGateway', 'Provider returned error'],
    [
      503,
      'Service temporarily unavailable: the provider is not available right now',
      'ServiceUnavailable',
      'Service temporarily unavailable: the provider is not available right now',
    ],
  ])('status %i comes with the real message, in the envelope of the API called', async (status, message, reason, routerMessage) => {
    const emu = await testEmulator()
    await addFault(emu, { action: { status } })
    const res = await embed(emu)
    expect(res.status).toBe(status)
    expect(res.body.error).toMatchObject({ code: status, message })
    const router = await emu.request({ method: 'GET', url: '/router/v1/video/ent/v2/tasks', headers: { authorization: `Bearer ${emu.keys.standard}` } })
    expect(router.status).toBe(status)
    expect(router.body).toEqual({ code: status, message: routerMessage, reason, metadata: { trace_id: expect.any(String) } })
    expect(router.headers['x-emulator-detail']).toMatch(/^answered by fault rule /)
  })

  it("answers a rule's own message as written, in both envelopes", async () => {
    const emu = await testEmulator()
    await addFault(emu, { action: { status: 429, message: 'slow down, test' } })
    expect((await embed(emu)).body.error).toMatchObject({ code: 429, message: 'slow down, test' })
    const router = await emu.request({ method: 'GET', url: '/router/v1/video/ent/v2/tasks', headers: { authorization: `Bearer ${emu.keys.standard}` } })
    expect(router.body).toMatchObject({ code: 429, reason: 'TooManyRequests', message: 'slow down, test' })
  })

  it('matches on operation, method and path pattern, key, account and model', async () => {
    const emu = await testEmulator()
    const other = (await emu.send('POST', '/_emulator/api/accounts', { credits_usd: 5 })).body.data
    const cases: Array<[Record<string, unknown>, () => Promise<number>, () => Promise<number>]> = [
      [{ operation: 'models.list' }, async () => (await emu.get('/api/v1/models')).status, async () => (await emu.get('/api/v1/models/count')).status],
      [
        { method: 'GET', path: '/api/v1/models/*/endpoints' },
        async () => (await emu.get('/api/v1/models/openai/gpt-4.1/endpoints')).status,
        async () => (await emu.get('/api/v1/models')).status,
      ],
      [{ key_hash: sha256Hex(emu.keys.standard) }, async () => (await embed(emu)).status, async () => (await embed(emu, {}, other.standard_key)).status],
      [{ account_id: other.id }, async () => (await embed(emu, {}, other.standard_key)).status, async () => (await embed(emu)).status],
      [
        { model: MODEL },
        async () => (await embed(emu)).status,
        async () => (await emu.send('POST', '/api/v1/embeddings', { model: 'baai/bge-m3', input: 'x' }, emu.keys.standard)).status,
      ],
    ]
    for (const [match, hit, miss] of cases) {
      const rule = await addFault(emu, { match, action: { status: 500 } })
      expect(await hit(), JSON.stringify(match)).toBe(500)
      expect(await miss(), JSON.stringify(match)).not.toBe(500)
      await emu.send('DELETE', `/_emulator/api/faults/${rule.id}`)
    }
  })

  it('never applies to the admin API', async () => {
    const emu = await testEmulator()
    await addFault(emu, { action: { status: 500 } })
    expect((await emu.get('/_emulator/api/health')).status).toBe(200)
  })

  it('probability is seeded: the same seed fires on the same calls', async () => {
    const pattern = async () => {
      const emu = await testEmulator()
      await addFault(emu, { match: { operation: 'models.count' }, action: { status: 503 }, probability: 0.5 })
      const statuses: number[] = []
      for (let i = 0; i < 30; i++) statuses.push((await emu.get('/api/v1/models/count')).status)
      return statuses
    }
    const first = await pattern()
    expect(await pattern()).toEqual(first)
    const fired = first.filter((s) => s === 503).length
    expect(fired).toBeGreaterThan(5)
    expect(fired).toBeLessThan(25)
  })

  it('expires on the clock, and can be disabled, enabled, edited and deleted', async () => {
    const emu = await testEmulator()
    const rule = await addFault(emu, { match: { operation: 'models.count' }, action: { status: 500 }, expires_at: '2026-03-04T11:00:00Z' })
    expect((await emu.get('/api/v1/models/count')).status).toBe(500)
    await emu.clock.advance('1h')
    expect((await emu.get('/api/v1/models/count')).status).toBe(200)
    await emu.send('PATCH', `/_emulator/api/faults/${rule.id}`, { expires_at: null })
    expect((await emu.get('/api/v1/models/count')).status).toBe(500)
    const disabled = await emu.send('POST', `/_emulator/api/faults/${rule.id}/disable`)
    expect(disabled.body.data.enabled).toBe(false)
    expect((await emu.get('/api/v1/models/count')).status).toBe(200)
    await emu.send('POST', `/_emulator/api/faults/${rule.id}/enable`)
    expect((await emu.get('/api/v1/models/count')).status).toBe(500)
    expect((await emu.send('DELETE', `/_emulator/api/faults/${rule.id}`)).body).toEqual({ data: { deleted: true } })
    expect((await emu.get('/api/v1/models/count')).status).toBe(200)
    expect((await emu.get(`/_emulator/api/faults/${rule.id}`)).status).toBe(404)
  })

  it('takes effect on the next request after requests that met none, and goes with a reset or an import', async () => {
    const emu = await testEmulator()
    // Requests with no rule at all, first: the emulator then knows there is none without asking again.
    expect((await emu.get('/api/v1/models/count')).status).toBe(200)
    expect((await emu.get('/api/v1/models/count')).status).toBe(200)
    await addFault(emu, { match: { operation: 'models.count' }, action: { status: 500 } })
    expect((await emu.get('/api/v1/models/count')).status).toBe(500)
    const withRule = (await emu.get('/_emulator/api/export')).body as unknown
    expect((await emu.send('POST', '/_emulator/api/reset')).status).toBe(200)
    expect((await emu.get('/api/v1/models/count')).status).toBe(200)
    expect((await emu.send('POST', '/_emulator/api/import', withRule)).status).toBe(200)
    expect((await emu.get('/api/v1/models/count')).status).toBe(500)
  })

  it('adds latency, fixed or a seeded range, and then answers normally', async () => {
    const emu = await testEmulator()
    await addFault(emu, { match: { operation: 'models.count' }, action: { latency_ms: 150 } })
    const start = performance.now()
    expect((await emu.get('/api/v1/models/count')).status).toBe(200)
    expect(performance.now() - start).toBeGreaterThanOrEqual(140)
    const ranged = await addFault(emu, { match: { operation: 'endpoints.zdr' }, action: { latency_range_ms: { min: 20, max: 40 } } })
    expect(ranged.explanation).toBe('Adds 20-40 ms of latency to endpoints.zdr.')
  })

  it('drops the connection: the client sees a network error, retried by openai, and the journal records it', async () => {
    const emu = await listeningEmulator()
    await emu.send('POST', '/_emulator/api/faults/presets/drop-connection', { match: { operation: 'embeddings.create' }, remaining: 1 })
    const client = new OpenAI({ apiKey: emu.keys.standard, baseURL: `${emu.url}/api/v1`, maxRetries: 0 })
    await expect(client.embeddings.create({ model: MODEL, input: 'x' })).rejects.toThrow(/Connection error/)
    const retrying = new OpenAI({ apiKey: emu.keys.standard, baseURL: `${emu.url}/api/v1`, maxRetries: 1 })
    expect((await retrying.embeddings.create({ model: MODEL, input: 'x' })).data).toHaveLength(1)
    const dropped = (await emu.get('/_emulator/api/journal?fault=any')).body.data
    expect(dropped).toHaveLength(1)
    expect(dropped[0]).toMatchObject({ aborted: true, status: 0, operation: 'embeddings.create' })
  })

  it('the X-Emulator-Fault header forces a status on one request', async () => {
    const emu = await testEmulator()
    const res = await embed(emu, { 'x-emulator-fault': '402' })
    expect(res.status).toBe(402)
    expect(res.body.error.metadata).toMatchObject({ emulator_fault: 'header', limit_source: 'openrouter_credits' })
    expect((await embed(emu)).status).toBe(200)
    const bad = await embed(emu, { 'x-emulator-fault': 'teapot' })
    expect(bad.status).toBe(400)
    expect(bad.body.error.message).toBe('Header X-Emulator-Fault must be an HTTP status from 400 to 599')
  })

  it('presets are one call each; a bad rule is a 400 naming the field', async () => {
    const emu = await testEmulator()
    const list = (await emu.get('/_emulator/api/faults/presets')).body.data as Array<Record<string, unknown>>
    const presets = list.map((p) => p.id)
    expect(presets).toEqual(expect.arrayContaining(['insufficient-credits', 'rate-limited', 'provider-unavailable']))
    // Each says enough for a button; the design's three (402, 429, 503) are the common ones.
    expect(list.filter((p) => p.common).map((p) => p.id)).toEqual(['insufficient-credits', 'rate-limited', 'provider-unavailable'])
    expect(list.find((p) => p.id === 'rate-limited')).toEqual({
      id: 'rate-limited',
      name: '429 rate limited',
      label: '429 Rate limited',
      description: 'with Retry-After and X-RateLimit-* headers',
      common: true,
      action: { status: 429 },
    })
    for (const p of list) expect(p).toEqual(expect.objectContaining({ label: expect.any(String), description: expect.any(String), action: expect.any(Object) }))
    for (const [preset, status] of [
      ['insufficient-credits', 402],
      ['rate-limited', 429],
      ['provider-unavailable', 503],
    ] as const) {
      const res = await emu.send('POST', `/_emulator/api/faults/presets/${preset}`, { match: { operation: 'models.count' }, remaining: 1 })
      expect(res.status).toBe(201)
      expect((await emu.get('/api/v1/models/count')).status).toBe(status)
    }
    expect((await emu.send('POST', '/_emulator/api/faults/presets/nope')).status).toBe(404)
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ action: { status: 200 } }, 'Field `action.status` must be >= 400'],
      [{ action: { status: 429 }, probability: 2 }, 'Field `probability` must be <= 1'],
      [{ action: {} }, 'Field `action` must have a status, a latency or drop'],
      [{ match: { operation: 'x' } }, 'Field `action` is required'],
      [{ action: { status: 429 }, match: { colour: 'red' } }, 'Field `match.colour` is not a known field'],
      [{ action: { status: 429 }, remaining: -1 }, 'Field `remaining` must be >= 0'],
    ]
    for (const [rule, message] of cases) {
      const res = await emu.send('POST', '/_emulator/api/faults', rule)
      expect(res.status, JSON.stringify(rule)).toBe(400)
      expect(res.body.error.message).toBe(message)
    }
  })
})

describe('the journal', () => {
  it('records every gateway and router request with its fault, caller and effects, newest first', async () => {
    const emu = await testEmulator()
    const rule = await addFault(emu, { match: { operation: 'embeddings.create' }, action: { status: 429 }, remaining: 1 })
    await embed(emu)
    const ok = await embed(emu)
    await emu.get('/api/v1/models?limit=1')
    await emu.get('/_emulator/api/health')
    const list = (await emu.get('/_emulator/api/journal')).body
    expect(list.total_count).toBe(3)
    const [models, embedded, faulted] = list.data
    expect(models).toMatchObject({
      operation: 'models.list',
      method: 'GET',
      path: '/api/v1/models',
      query: 'limit=1',
      status: 200,
      fault: null,
      key_hash: null,
    })
    expect(embedded).toMatchObject({
      operation: 'embeddings.create',
      status: 200,
      fault: null,
      key_hash: sha256Hex(emu.keys.standard),
      time: '2026-03-04T10:00:00.000Z',
    })
    expect(embedded.effects.usage).toHaveLength(1)
    // Bodies are kept up to a limit (16 KB by default): the id is near the start.
    expect(embedded.response.body).toContain(ok.body.id)
    expect(faulted).toMatchObject({ status: 429, fault: rule.id, effects: { usage: [] } })
    expect((await emu.get(`/_emulator/api/journal?fault=${rule.id}`)).body.data).toHaveLength(1)
    expect((await emu.get('/_emulator/api/journal?status=200&operation=embeddings.create')).body.data).toHaveLength(1)
    expect((await emu.get('/_emulator/api/journal?path=/models')).body.data).toHaveLength(1)
    expect((await emu.get(`/_emulator/api/journal?key=${sha256Hex(emu.keys.standard)}&limit=1&offset=1`)).body.data[0].id).toBe(faulted.id)
    expect((await emu.get(`/_emulator/api/journal/${faulted.id}`)).body.data.id).toBe(faulted.id)
    expect((await emu.get('/_emulator/api/journal/99999')).status).toBe(404)
  })

  it('redacts keys everywhere: headers, bodies, lists and HAR', async () => {
    const emu = await testEmulator()
    await emu.send('POST', '/api/v1/embeddings', { model: MODEL, input: `my key is ${emu.keys.standard}` }, emu.keys.standard)
    await emu.get('/api/v1/keys', emu.keys.management)
    const everything = JSON.stringify([(await emu.get('/_emulator/api/journal')).body, (await emu.get('/_emulator/api/journal/har')).body])
    for (const token of [emu.keys.standard, emu.keys.management]) expect(everything).not.toContain(token.slice(12))
    expect(everything).toContain('[redacted]')
  })

  it('records requests that authentication refuses, and none of the admin API', async () => {
    const emu = await testEmulator()
    await emu.send('POST', '/api/v1/embeddings', { model: MODEL, input: 'x' }, 'sk-gw-v1-not-a-key')
    await emu.get('/api/v1/credits')
    await emu.get('/_emulator/api/health')
    const entries = (await emu.get('/_emulator/api/journal')).body.data
    expect(entries.map((e: { operation: string; status: number }) => [e.operation, e.status])).toEqual([
      ['credits.get', 401],
      ['embeddings.create', 401],
    ])
  })

  it('keeps only the start of a large body, says how much more there was, and redacts a key cut at the limit', async () => {
    const emu = await testEmulator({ journalBodyLimit: 100 })
    // The key starts at byte 80 of the request body, so the limit cuts it in two.
    const prefix = '{"model":"openai/text-embedding-3-small","input":"'
    const input = `${'x'.repeat(80 - prefix.length)}${emu.keys.standard} and more words after it`
    const ok = await emu.send('POST', '/api/v1/embeddings', { model: MODEL, input }, emu.keys.standard)
    expect(ok.status).toBe(200)
    const [entry] = (await emu.get('/_emulator/api/journal')).body.data
    const requestBytes = JSON.stringify({ model: MODEL, input }).length
    expect(entry.request.body_bytes).toBe(requestBytes)
    expect(entry.request.body).toBe(`${prefix}${'x'.repeat(80 - prefix.length)}sk-gw-v1-3c9…[redacted]… (${requestBytes - 100} more bytes)`)
    expect(entry.response.body).toMatch(/^\{"id":"gen-emb-.{0,90}… \(\d+ more bytes\)$/)
    expect(entry.response.body.length).toBeLessThan(140)
  })

  it('exports valid HAR 1.2', async () => {
    const emu = await testEmulator()
    await embed(emu)
    await emu.get('/api/v1/models?output_modalities=embeddings')
    await embed(emu, { 'x-emulator-fault': '503' })
    const doc = (await emu.get('/_emulator/api/journal/har')).body
    expect(doc.log.version).toBe('1.2')
    expect(doc.log.entries).toHaveLength(3)
    expect(doc.log.entries[0].request.method).toBe('POST')
    await expect(har.har(doc)).resolves.toBeTruthy()
  })

  it('is bounded, cleared by DELETE and by reset', async () => {
    const emu = await testEmulator({ journalSize: 3 })
    for (let i = 0; i < 5; i++) await emu.get('/api/v1/models/count')
    const list = (await emu.get('/_emulator/api/journal')).body
    expect(list.data.map((e: { id: number }) => e.id)).toEqual([5, 4, 3])
    await emu.send('DELETE', '/_emulator/api/journal')
    expect((await emu.get('/_emulator/api/journal')).body.total_count).toBe(0)
    await emu.get('/api/v1/models/count')
    await emu.send('POST', '/_emulator/api/reset')
    expect((await emu.get('/_emulator/api/journal')).body.total_count).toBe(0)
  })

  it('streams new entries and state changes over SSE', async () => {
    const emu = await listeningEmulator()
    const events: Array<{ type: string; data: Record<string, unknown> }> = []
    const source = new EventSource(`${emu.url}/_emulator/api/events`)
    const opened = new Promise<void>((resolve) => (source.onopen = () => resolve()))
    for (const type of ['journal', 'clock.moved', 'video.task', 'charge.created']) {
      source.addEventListener(type, (e) => events.push({ type, data: JSON.parse((e as { data: string }).data) as Record<string, unknown> }))
    }
    await opened
    await fetch(`${emu.url}/api/v1/models/count`)
    await fetch(`${emu.url}/_emulator/api/clock/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"ms":1000}' })
    await fetch(`${emu.url}/router/v1/video/ent/v2/text2video`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'videoq2', prompt: 'x' }),
    })
    await expect.poll(() => events.map((e) => e.type)).toEqual(expect.arrayContaining(['journal', 'clock.moved', 'video.task']))
    source.close()
    expect(events.find((e) => e.type === 'journal')!.data).toMatchObject({ operation: 'models.count', status: 200 })
  })
})
