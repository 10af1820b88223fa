// Observability destinations over HTTP: CRUD with the config's secrets masked (in answers, the
// journal, its HAR and the state export), every bad input with its status and body, and the
// broadcast: each billed call of the workspace reaches an enabled webhook or OTLP collector as an
// OTLP JSON trace, through the callbacks engine (signed, retried on failure), filtered as asked.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { sha256Hex } from '../../../src/emulator/core/rng.ts'
import { listeningEmulator, testEmulator, TEST_START, type TestEmulator } from '../../helpers/emulator.ts'
import { startSink, type Received } from '../../helpers/sink.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const ADMIN = '/_emulator/api'
const PATH = '/api/v1/observability/destinations'
const SECRET = 'sk-lf-VERYsecretLangfuseKey-0123456789-AbCd'
const PUBLIC = 'pk-lf-0123456789abcdef-EfGh'
const LANGFUSE = { type: 'langfuse', name: 'Production Langfuse', config: { baseUrl: 'https://us.cloud.langfuse.com', publicKey: PUBLIC, secretKey: SECRET } }
const CHAT = { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }], user: 'end-user-7' }
const EMBEDDINGS = { model: 'openai/text-embedding-3-small', input: 'a few words' }

const create = (emu: TestEmulator, body: Record<string, unknown>) => emu.send('POST', PATH, body, emu.keys.management)
const webhook = (url: string, extra: Record<string, unknown> = {}) => ({ type: 'webhook', name: 'Hook', config: { url }, ...extra })
const advance = async (emu: TestEmulator, ms: number) => expect((await emu.send('POST', `${ADMIN}/clock/advance`, { ms })).status).toBe(200)
const fieldError = (field: string, issue: string, location = 'body') => ({
  error: { code: 400, message: `${location === 'querystring' ? 'Query parameter' : 'Field'} \`${field}\` ${issue}`, metadata: { field, location, issue } },
})

/** The one span of an OTLP trace, its attributes as a plain object. */
function spanOf(received: Received) {
  const span = received.body.resourceSpans[0].scopeSpans[0].spans[0]
  const value = (v: Record<string, any>): unknown =>
    'stringValue' in v
      ? v.stringValue
      : 'intValue' in v
        ? Number(v.intValue)
        : 'doubleValue' in v
          ? v.doubleValue
          : 'boolValue' in v
            ? v.boolValue
            : v.arrayValue.values.map(value)
  return { ...span, attributes: Object.fromEntries(span.attributes.map((a: { key: string; value: Record<string, any> }) => [a.key, value(a.value)])) }
}

/** Makes the broadcaster and the callbacks engine run what is due, and waits for the attempts. */
async function deliver(emu: TestEmulator): Promise<void> {
  await advance(emu, 1)
  expect(await emu.drainCallbacks()).toBe(true)
}

describe('observability destinations', () => {
  it('creates with 201 and defaults, the config echoed with its secrets masked', async () => {
    const emu = await testEmulator()
    const res = await create(emu, LANGFUSE)
    expect(res.status).toBe(201)
    expect(res.body.data).toEqual({
      id: expect.stringMatching(UUID),
      workspace_id: expect.stringMatching(UUID),
      type: 'langfuse',
      name: 'Production Langfuse',
      enabled: true,
      privacy_mode: false,
      broadcast_generation_cost: false,
      broadcast_generation_identity: false,
      broadcast_generation_request_context: false,
      sampling_rate: 1,
      api_key_hashes: null,
      filter_rules: null,
      regions: ['global'],
      config: { baseUrl: 'https://us.cloud.langfuse.com', publicKey: 'pk-l...EfGh', secretKey: 'sk-l...AbCd' },
      created_at: TEST_START,
      updated_at: TEST_START,
    })
  })

  it('reads, lists (paged), updates (masked values keep their secret) and deletes', async () => {
    const emu = await testEmulator()
    const id = (await create(emu, LANGFUSE)).body.data.id as string
    await create(
      emu,
      webhook('https://hooks.example.com/traces', {
        config: { url: 'https://hooks.example.com/traces', headers: { Authorization: 'Bearer hook-secret-0123456789' } },
      }),
    )
    expect((await emu.get(`${PATH}/${id}`, emu.keys.management)).body.data.config.secretKey).toBe('sk-l...AbCd')
    const list = await emu.get(`${PATH}?offset=1&limit=5`, emu.keys.management)
    expect(list.body.total_count).toBe(2)
    expect(list.body.data).toHaveLength(1)
    expect(list.body.data[0].config).toEqual({ url: 'https://hooks.example.com/traces', headers: { Authorization: 'Bear...6789' } })

    await advance(emu, 60_000)
    // The masked secret, sent back as an answer showed it, keeps the secret; a new one is masked anew.
    const updated = await emu.send(
      'PATCH',
      `${PATH}/${id}`,
      {
        name: 'Renamed',
        enabled: false,
        sampling_rate: 0.5,
        regions: ['eu', 'us'],
        config: { secretKey: 'sk-l...AbCd', publicKey: 'pk-lf-rotated-0123456789-IjKl' },
      },
      emu.keys.management,
    )
    expect(updated.status).toBe(200)
    expect(updated.body.data).toMatchObject({
      name: 'Renamed',
      enabled: false,
      sampling_rate: 0.5,
      regions: ['europe', 'us'],
      config: { baseUrl: 'https://us.cloud.langfuse.com', publicKey: 'pk-l...IjKl', secretKey: 'sk-l...AbCd' },
      created_at: TEST_START,
      updated_at: '2026-03-04T10:01:00.000Z',
    })
    // Null removes an optional field of the config.
    expect((await emu.send('PATCH', `${PATH}/${id}`, { config: { baseUrl: null } }, emu.keys.management)).body.data.config).toEqual({
      publicKey: 'pk-l...IjKl',
      secretKey: 'sk-l...AbCd',
    })

    expect((await emu.send('DELETE', `${PATH}/${id}`, undefined, emu.keys.management)).body).toEqual({ deleted: true })
    const gone = await emu.get(`${PATH}/${id}`, emu.keys.management)
    expect(gone.status).toBe(404)
    expect(gone.body).toEqual({ error: { code: 404, message: `Observability destination ${id} not found` } })
    expect((await emu.get(PATH, emu.keys.management)).body.total_count).toBe(1)
  })

  it('never shows a secret of a config: not in answers, the journal, its HAR or the state export', async () => {
    const emu = await testEmulator()
    const id = (await create(emu, LANGFUSE)).body.data.id as string
    await emu.send('PATCH', `${PATH}/${id}`, { config: { secretKey: `${SECRET}-2` } }, emu.keys.management)
    expect((await create(emu, { ...LANGFUSE, type: 'nothing' })).status).toBe(400)
    const journal = await emu.get(`${ADMIN}/journal?limit=100`)
    const created = journal.body.data.find((e: { path: string; status: number }) => e.path === PATH && e.status === 201)
    expect(JSON.parse(created.request.body).config).toEqual({ baseUrl: 'https://us.cloud.langfuse.com', publicKey: '[redacted]', secretKey: '[redacted]' })
    const everything = [
      JSON.stringify(journal.body),
      JSON.stringify((await emu.get(`${ADMIN}/journal/har`)).body),
      JSON.stringify((await emu.get(`${ADMIN}/export`)).body),
      JSON.stringify((await emu.get(PATH, emu.keys.management)).body),
    ].join('\n')
    expect(everything).not.toContain('VERYsecret')
    expect(everything).not.toContain('0123456789abcdef')
  })
})

describe('observability refusals', () => {
  const cases: Array<[string, Record<string, unknown>, unknown]> = [
    ['no type', { name: 'x', config: {} }, fieldError('type', 'is required')],
    ['an unknown type', { type: 'carrier-pigeon', name: 'x', config: {} }, expect.objectContaining({ error: expect.objectContaining({ code: 400 }) })],
    ['no name', { type: 'webhook', config: { url: 'https://a.example' } }, fieldError('name', 'is required')],
    ['no config', { type: 'webhook', name: 'x' }, fieldError('config', 'is required')],
    ['a missing required field', { type: 'webhook', name: 'x', config: {} }, fieldError('config.url', 'is required for a webhook destination')],
    ['a URL that is no URL', { type: 'webhook', name: 'x', config: { url: 'not a url' } }, fieldError('config.url', 'must be an http or https URL')],
    [
      'a URL of another scheme',
      { type: 'otel-collector', name: 'x', config: { endpoint: 'ftp://a.example' } },
      fieldError('config.endpoint', 'must be an http or https URL'),
    ],
    [
      'a field the type does not take',
      { type: 'webhook', name: 'x', config: { url: 'https://a.example', apiKey: 'k' } },
      fieldError('config.apiKey', 'is not a field of a webhook destination (it takes headers, method, url)'),
    ],
    [
      'a bad enum',
      { type: 'webhook', name: 'x', config: { url: 'https://a.example', method: 'GET' } },
      fieldError('config.method', 'must be one of POST, PUT'),
    ],
    ['an empty secret', { ...LANGFUSE, config: { publicKey: PUBLIC, secretKey: '' } }, fieldError('config.secretKey', 'must not be empty')],
    [
      'headers that are no object',
      { type: 'webhook', name: 'x', config: { url: 'https://a.example', headers: ['a'] } },
      fieldError('config.headers', 'must be an object of header names and values'),
    ],
    ['a sampling rate of 0', { ...LANGFUSE, sampling_rate: 0 }, fieldError('sampling_rate', 'must be >= 0.0001')],
    [
      "another account's key",
      { ...LANGFUSE, api_key_hashes: ['0'.repeat(64)] },
      fieldError('api_key_hashes[0]', 'is not the hash of an API key of this account'),
    ],
    [
      'a filter without its value',
      { ...LANGFUSE, filter_rules: { groups: [{ rules: [{ field: 'model', operator: 'equals' }] }] } },
      fieldError('filter_rules.groups[0].rules[0].value', 'is required by the operator equals'),
    ],
    [
      'a numeric comparison with text',
      { ...LANGFUSE, filter_rules: { groups: [{ rules: [{ field: 'total_cost', operator: 'gt', value: 'a lot' }] }] } },
      fieldError('filter_rules.groups[0].rules[0].value', 'must be a number for the operator gt'),
    ],
    [
      'a regular expression RE2 refuses',
      { ...LANGFUSE, filter_rules: { groups: [{ rules: [{ field: 'model', operator: 'regex', value: '(?=x)' }] }] } },
      expect.objectContaining({
        error: expect.objectContaining({ code: 400, metadata: expect.objectContaining({ field: 'filter_rules.groups[0].rules[0].value' }) }),
      }),
    ],
    ['a workspace_id that is no uuid', { ...LANGFUSE, workspace_id: 'w' }, fieldError('workspace_id', 'is not valid (must match format "uuid")')],
  ]
  it.each(cases)('refuses %s with a 400 naming the field, creating nothing', async (_name, body, expected) => {
    const emu = await testEmulator()
    const res = await create(emu, body)
    expect(res.status).toBe(400)
    expect(res.body).toEqual(expected)
    expect((await emu.get(PATH, emu.keys.management)).body.total_count).toBe(0)
  })

  it('refuses a sixth destination of a type with the 409, and a workspace not of the account with a 404', async () => {
    const emu = await testEmulator()
    for (let i = 0; i < 5; i++) expect((await create(emu, webhook(`https://a.example/${i}`))).status).toBe(201)
    const sixth = await create(emu, webhook('https://a.example/6'))
    expect(sixth.status).toBe(409)
    expect(sixth.body).toEqual({
      error: {
        code: 409,
        message: 'A workspace can have at most 5 webhook destinations: delete one, or change one of them',
        metadata: { type: 'webhook', limit: 5 },
      },
    })
    expect((await create(emu, LANGFUSE)).status).toBe(201)
    const unknown = '00000000-0000-4000-8000-000000000000'
    expect((await create(emu, { ...LANGFUSE, workspace_id: unknown })).body).toEqual({
      error: { code: 404, message: `Workspace ${unknown} not found`, metadata: { field: 'workspace_id', location: 'body' } },
    })
  })

  it('refuses an update that breaks the config, changing nothing, and a URL pointing at the emulator itself', async () => {
    const emu = await listeningEmulator()
    const id = (await create(emu, webhook('https://a.example/hook'))).body.data.id as string
    const bad = await emu.send('PATCH', `${PATH}/${id}`, { name: 'changed?', config: { url: null } }, emu.keys.management)
    expect(bad.body).toEqual(fieldError('config.url', 'is required for a webhook destination'))
    const self = await emu.send('PATCH', `${PATH}/${id}`, { config: { url: `${emu.url}/hook` } }, emu.keys.management)
    expect(self.status).toBe(400)
    expect(self.body.error.metadata.field).toBe('config.url')
    expect((await emu.get(`${PATH}/${id}`, emu.keys.management)).body.data).toMatchObject({ name: 'Hook', config: { url: 'https://a.example/hook' } })
    expect((await emu.send('PATCH', `${PATH}/00000000-0000-4000-8000-000000000000`, { name: 'x' }, emu.keys.management)).status).toBe(404)
    expect((await emu.get(PATH, emu.keys.standard)).status).toBe(401)
    expect((await emu.get(`${PATH}?limit=0`, emu.keys.management)).body).toEqual(fieldError('limit', 'must be >= 1', 'querystring'))
  })
})

describe('the broadcast', () => {
  it('sends each billed call of the workspace to an enabled webhook as an OTLP trace, signed, without a key', async () => {
    const emu = await testEmulator()
    const sink = await startSink()
    await create(emu, webhook(`${sink.url}/traces?team=a`, { broadcast_generation_cost: true, broadcast_generation_identity: true }))
    const chat = await emu.send('POST', '/api/v1/chat/completions', CHAT, emu.keys.standard)
    expect(chat.status).toBe(200)
    const embedded = await emu.send('POST', '/api/v1/embeddings', EMBEDDINGS, emu.keys.standard)
    expect(embedded.status).toBe(200)
    await deliver(emu)

    expect(sink.received).toHaveLength(2)
    const [first, second] = sink.received
    expect(first!.method).toBe('POST')
    expect(first!.path).toBe('/traces')
    expect(first!.query).toBe('team=a')
    expect(first!.headers['content-type']).toBe('application/json')
    expect(first!.headers['x-hmac-signature']).toEqual(expect.any(String))
    expect(first!.body.resourceSpans[0].resource.attributes).toContainEqual({ key: 'service.name', value: { stringValue: 'model-gateway-emulator' } })
    const span = spanOf(first!)
    expect(span).toMatchObject({
      traceId: expect.stringMatching(/^[0-9a-f]{32}$/),
      spanId: expect.stringMatching(/^[0-9a-f]{16}$/),
      name: 'chat openai/gpt-4o-mini',
      kind: 3,
      startTimeUnixNano: `${Date.parse(TEST_START)}000000`,
      status: { code: 1 },
    })
    expect(BigInt(span.endTimeUnixNano)).toBeGreaterThan(BigInt(span.startTimeUnixNano))
    expect(span.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'openai/gpt-4o-mini',
      'gen_ai.response.id': chat.body.id,
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.usage.input_tokens': chat.body.usage.prompt_tokens,
      'gen_ai.usage.output_tokens': chat.body.usage.completion_tokens,
      'gen_ai.usage.total_tokens': chat.body.usage.total_tokens,
      'gen_ai.usage.cost': chat.body.usage.cost,
      'gateway.is_byok': false,
      'gateway.streamed': false,
      'user.id': 'end-user-7',
      'gateway.operation': 'chat.create',
    })
    expect(span.attributes['gateway.latency_ms']).toBeGreaterThan(0)
    // Embeddings keep no generation row: their trace has everything else.
    expect(spanOf(second!).attributes).toMatchObject({
      'gen_ai.operation.name': 'embeddings',
      'gen_ai.request.model': 'openai/text-embedding-3-small',
      'gen_ai.usage.input_tokens': embedded.body.usage.prompt_tokens,
      'gen_ai.usage.cost': embedded.body.usage.cost,
    })
    expect(JSON.stringify(sink.received.map((r) => [r.headers, r.body]))).not.toContain(emu.keys.standard.slice(9))
    // The outbox holds them, delivered, one attempt each.
    const deliveries = (await emu.get(`${ADMIN}/callbacks`)).body.data
    expect(deliveries.map((d: { state: string; status: string; task_id: string }) => [d.state, d.status])).toEqual([
      ['trace', 'delivered'],
      ['trace', 'delivered'],
    ])
    expect(deliveries.map((d: { task_id: string }) => d.task_id)).toContain(chat.body.id)
  })

  it('leaves cost, identity and request context out unless the destination asks for them', async () => {
    const emu = await testEmulator()
    const sink = await startSink()
    await create(emu, webhook(sink.url))
    await emu.send('POST', '/api/v1/chat/completions', CHAT, emu.keys.standard)
    await deliver(emu)
    const keys = Object.keys(spanOf(sink.received[0]!).attributes)
    for (const left of ['gen_ai.usage.cost', 'gateway.is_byok', 'user.id', 'gateway.api_key.name', 'http.request.header.referer'])
      expect(keys).not.toContain(left)
  })

  it('retries a failed delivery after the configured delay, from the outbox', async () => {
    const emu = await testEmulator()
    const sink = await startSink((n) => (n === 1 ? 503 : 200))
    await create(emu, webhook(sink.url))
    await emu.send('POST', '/api/v1/embeddings', EMBEDDINGS, emu.keys.standard)
    await deliver(emu)
    expect(sink.received).toHaveLength(1)
    const [pending] = (await emu.get(`${ADMIN}/callbacks`)).body.data
    expect(pending).toMatchObject({ status: 'pending', attempt_count: 1, attempts: [{ status: 503, error: 'HTTP 503' }] })
    await advance(emu, 10_000)
    expect(await emu.drainCallbacks()).toBe(true)
    expect(sink.received).toHaveLength(2)
    expect(sink.received[1]!.text).toBe(sink.received[0]!.text)
    expect((await emu.get(`${ADMIN}/callbacks/${pending.id}`)).body.data).toMatchObject({ status: 'delivered', attempt_count: 2 })
  })

  it('sends an OTLP collector its traces, and nothing to a vendor destination, a disabled one or another workspace', async () => {
    const emu = await testEmulator()
    const collector = await startSink()
    const hook = await startSink()
    await create(emu, { type: 'otel-collector', name: 'Collector', config: { endpoint: `${collector.url}/v1/traces` } })
    await create(emu, LANGFUSE)
    const disabled = (await create(emu, webhook(hook.url, { enabled: false }))).body.data.id as string
    const other = (await emu.send('POST', '/api/v1/workspaces', { name: 'Other', slug: 'other' }, emu.keys.management)).body.data.id as string
    await create(emu, webhook(hook.url, { workspace_id: other }))
    await emu.send('POST', '/api/v1/embeddings', EMBEDDINGS, emu.keys.standard)
    await deliver(emu)
    expect(collector.received.map((r) => r.path)).toEqual(['/v1/traces'])
    expect(hook.received).toHaveLength(0)
    expect((await emu.get(`${ADMIN}/callbacks`)).body.data).toHaveLength(1)

    // Enabled again, it is sent the calls made from then on, not those before.
    await emu.send('PATCH', `${PATH}/${disabled}`, { enabled: true }, emu.keys.management)
    await emu.send('POST', '/api/v1/chat/completions', CHAT, emu.keys.standard)
    await deliver(emu)
    expect(hook.received.map((r) => spanOf(r).attributes['gen_ai.operation.name'])).toEqual(['chat'])
  })

  it("sends only its own account's calls, and keeps up when another account's rows are deleted under it", async () => {
    const emu = await testEmulator()
    const sink = await startSink()
    await create(emu, webhook(sink.url))
    const other = (await emu.send('POST', `${ADMIN}/accounts`, { credits_usd: 10 })).body.data as { id: string; standard_key: string }
    await emu.send('POST', '/api/v1/embeddings', EMBEDDINGS, emu.keys.standard)
    for (let i = 0; i < 3; i++) await emu.send('POST', '/api/v1/embeddings', EMBEDDINGS, other.standard_key)
    await deliver(emu)
    expect(sink.received).toHaveLength(1)
    // The other account's rows were the last ones: once deleted, SQLite hands their ids out again.
    expect((await emu.send('DELETE', `${ADMIN}/accounts/${other.id}`)).status).toBe(200)
    await emu.send('POST', '/api/v1/chat/completions', CHAT, emu.keys.standard)
    await deliver(emu)
    expect(sink.received.map((r) => spanOf(r).attributes['gen_ai.operation.name'])).toEqual(['embeddings', 'chat'])
  })

  it('delivers after a restart what was billed before it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'observability-'))
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
    const db = join(dir, 'state.db')
    const sink = await startSink()
    const first = await testEmulator({ db })
    await create(first, webhook(sink.url))
    await first.send('POST', '/api/v1/embeddings', EMBEDDINGS, first.keys.standard)
    await first.close()
    expect(sink.received).toHaveLength(0)
    const second = await testEmulator({ db })
    await deliver(second)
    expect(sink.received).toHaveLength(1)
    await deliver(second)
    expect(sink.received).toHaveLength(1)
  })

  it('sends only what its keys and filter rules let through', async () => {
    const emu = await testEmulator()
    const byKey = await startSink()
    const byRules = await startSink()
    await create(emu, webhook(byKey.url, { api_key_hashes: [sha256Hex(emu.keys.management)] }))
    await create(
      emu,
      webhook(byRules.url, {
        filter_rules: {
          groups: [
            {
              logic: 'or',
              rules: [
                { field: 'model', operator: 'starts_with', value: 'openai/gpt' },
                { field: 'model', operator: 'regex', value: 'embed' },
              ],
            },
            {
              rules: [
                { field: 'total_tokens', operator: 'gte', value: 1 },
                { field: 'session_id', operator: 'not_exists' },
              ],
            },
          ],
        },
      }),
    )
    await emu.send('POST', '/api/v1/embeddings', EMBEDDINGS, emu.keys.standard)
    await emu.send('POST', '/api/v1/chat/completions', CHAT, emu.keys.standard)
    await emu.send('POST', '/api/v1/rerank', { model: 'cohere/rerank-v3.5', query: 'q', documents: ['a', 'b'] }, emu.keys.standard)
    await deliver(emu)
    expect(byKey.received).toHaveLength(0)
    expect(byRules.received.map((r) => spanOf(r).attributes['gen_ai.operation.name'])).toEqual(['embeddings', 'chat'])
  })

  it('samples at its rate, the same calls on every run with the same seed', async () => {
    const sampledIds = async () => {
      const emu = await testEmulator()
      const sink = await startSink()
      await create(emu, webhook(sink.url, { sampling_rate: 0.5 }))
      for (let i = 0; i < 20; i++) await emu.send('POST', '/api/v1/embeddings', { ...EMBEDDINGS, input: `text ${i}` }, emu.keys.standard)
      await deliver(emu)
      return sink.received.map((r) => spanOf(r).traceId as string).sort()
    }
    const first = await sampledIds()
    expect(first.length).toBeGreaterThan(2)
    expect(first.length).toBeLessThan(18)
    expect(await sampledIds()).toEqual(first)
  })
})
