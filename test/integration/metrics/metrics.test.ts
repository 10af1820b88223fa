// GET /metrics: the Prometheus text format that a strict parser reads; counters that agree with the
// journal after a mix of answers (200s, a faulted 429, a 401, a chat fixture's answer); the ledger, the
// journal and the caches read when scraped; a registry per emulator; and the admin API's guards.
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { createEmulator, VERSION } from '../../../src/emulator/index.ts'
import { listeningEmulator, testEmulator, type TestEmulator } from '../../helpers/emulator.ts'
import { parsePrometheusText, sampleValue, type Family } from './prometheus-text.ts'

const ADMIN = '/_emulator/api'
const CHAT = 'openai/gpt-4o-mini'
const EMBEDDING = 'openai/text-embedding-3-small'
const P = 'gateway_emulator_'

interface JournalEntry {
  operation: string
  status: number
  duration_ms: number
  fault: string | null
}

async function scrape(emu: TestEmulator): Promise<Map<string, Family>> {
  const res = await emu.app.inject({ method: 'GET', url: '/metrics' })
  expect(res.statusCode, res.body).toBe(200)
  return parsePrometheusText(res.body)
}

const journal = async (emu: TestEmulator): Promise<JournalEntry[]> => (await emu.get(`${ADMIN}/journal?limit=10000`)).body.data as JournalEntry[]

/** Every series of a family as `labels -> value`, its labels written `k=v,k=v` in their order. */
const series = (families: Map<string, Family>, name: string, sample = name): Record<string, number> =>
  Object.fromEntries(
    (families.get(name)?.samples ?? [])
      .filter((s) => s.name === sample)
      .map((s) => [
        Object.entries(s.labels)
          .map(([k, v]) => `${k}=${v}`)
          .join(','),
        s.value,
      ]),
  )

const countBy = <T>(items: readonly T[], key: (item: T) => string): Record<string, number> => {
  const out: Record<string, number> = {}
  for (const item of items) out[key(item)] = (out[key(item)] ?? 0) + 1
  return out
}

const post = (emu: TestEmulator, url: string, key: string, body: unknown, headers: Record<string, string> = {}) =>
  emu.request({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
    payload: JSON.stringify(body),
  })

describe('GET /metrics', () => {
  it('answers the Prometheus text format 0.0.4, a HELP and a TYPE for every family', async () => {
    const emu = await testEmulator()
    await post(emu, '/api/v1/chat/completions', emu.keys.standard, { model: CHAT, messages: [{ role: 'user', content: 'Hello' }] })
    const res = await emu.app.inject({ method: 'GET', url: '/metrics' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8')
    expect(res.headers['cache-control']).toBe('no-store')
    const families = parsePrometheusText(res.body)
    const types = Object.fromEntries([...families.values()].map((f) => [f.name, f.type]))
    expect(types).toEqual({
      [`${P}requests_total`]: 'counter',
      [`${P}request_duration_seconds`]: 'histogram',
      [`${P}faults_total`]: 'counter',
      [`${P}ledger_usage_rows`]: 'gauge',
      [`${P}ledger_cost_usd`]: 'gauge',
      [`${P}ledger_tokens`]: 'gauge',
      [`${P}chat_fixture_hits`]: 'gauge',
      [`${P}chat_fixtures`]: 'gauge',
      [`${P}journal_entries`]: 'gauge',
      [`${P}journal_bytes`]: 'gauge',
      [`${P}journal_limit_bytes`]: 'gauge',
      [`${P}cache_bytes`]: 'gauge',
      [`${P}cache_limit_bytes`]: 'gauge',
      [`${P}process_memory_bytes`]: 'gauge',
      [`${P}info`]: 'gauge',
    })
    for (const family of families.values()) expect(family.help, family.name).toMatch(/\w{3,}/)
    expect(sampleValue(families, `${P}info`, `${P}info`, { version: VERSION })).toBe(1)
    // The histogram's buckets, in seconds, for the one chat.
    const buckets = families.get(`${P}request_duration_seconds`)!.samples.filter((s) => s.name.endsWith('_bucket'))
    expect(buckets.map((s) => s.labels.le)).toEqual([
      '0.0005',
      '0.001',
      '0.0025',
      '0.005',
      '0.01',
      '0.025',
      '0.05',
      '0.1',
      '0.25',
      '0.5',
      '1',
      '2.5',
      '5',
      '10',
      '30',
      '60',
      '120',
      '300',
      '+Inf',
    ])
    expect(buckets.at(-1)!.value).toBe(1)
  })

  it('counts what the journal records: 200s, a faulted 429, a 401 and a chat fixture hit, with their latencies and the ledger', async () => {
    const emu = await testEmulator()
    const account = (await emu.send('POST', `${ADMIN}/accounts`, { credits_usd: 10 })).body.data as { id: string; standard_key: string }
    const key = account.standard_key
    const fixture = await emu.send('POST', `${ADMIN}/accounts/${account.id}/chat-fixtures`, { match: { last_user: 'ping' }, answer: { content: 'pong' } })
    expect(fixture.status).toBe(201)
    const rule = (await emu.send('POST', `${ADMIN}/faults`, { match: { operation: 'chat.create' }, action: { status: 429 }, remaining: 1 })).body.data as {
      id: string
    }

    const chat = (content: string, withKey = key) => post(emu, '/api/v1/chat/completions', withKey, { model: CHAT, messages: [{ role: 'user', content }] })
    expect((await chat('Tell me about lighthouses')).status).toBe(429)
    const answered = [await chat('Tell me about lighthouses'), await chat('And harbours?'), await chat('ping')]
    expect(answered.map((r) => r.status)).toEqual([200, 200, 200])
    expect(answered[2]!.body.choices[0].message.content).toBe('pong')
    expect((await chat('Hello', 'sk-gw-v1-not-a-key')).status).toBe(401)
    expect((await post(emu, '/api/v1/embeddings', key, { model: EMBEDDING, input: ['one', 'two'] })).status).toBe(200)
    expect((await post(emu, '/api/v1/embeddings', key, { model: EMBEDDING }, {})).status).toBe(400)
    expect((await emu.get('/api/v1/models/count')).status).toBe(200)
    expect((await post(emu, '/api/v1/embeddings', key, { model: EMBEDDING, input: 'x' }, { 'x-emulator-fault': '503' })).status).toBe(503)

    const entries = await journal(emu)
    expect(entries).toHaveLength(9)
    const families = await scrape(emu)

    // Requests, by operation and status: exactly the journal's.
    expect(series(families, `${P}requests_total`)).toEqual(countBy(entries, (e) => `operation=${e.operation},status=${e.status}`))
    expect(series(families, `${P}requests_total`)).toEqual({
      'operation=chat.create,status=429': 1,
      'operation=chat.create,status=200': 3,
      'operation=chat.create,status=401': 1,
      'operation=embeddings.create,status=200': 1,
      'operation=embeddings.create,status=400': 1,
      'operation=models.count,status=200': 1,
      'operation=embeddings.create,status=503': 1,
    })
    // Latencies: one observation per entry, summing to the journal's durations.
    const durations = `${P}request_duration_seconds`
    expect(series(families, durations, `${durations}_count`)).toEqual(countBy(entries, (e) => `operation=${e.operation}`))
    for (const operation of ['chat.create', 'embeddings.create', 'models.count']) {
      const journaled = entries.filter((e) => e.operation === operation).reduce((sum, e) => sum + e.duration_ms / 1000, 0)
      expect(sampleValue(families, durations, `${durations}_sum`, { operation })).toBeCloseTo(journaled, 6)
    }
    // Faults, by rule (and the header's own): the journal's faulted entries.
    expect(series(families, `${P}faults_total`)).toEqual(
      countBy(
        entries.filter((e) => e.fault !== null),
        (e) => `rule=${e.fault},operation=${e.operation}`,
      ),
    )
    expect(series(families, `${P}faults_total`)).toEqual({ [`rule=${rule.id},operation=chat.create`]: 1, 'rule=header,operation=embeddings.create': 1 })
    // The fixture's answer.
    expect(sampleValue(families, `${P}chat_fixture_hits`, `${P}chat_fixture_hits`)).toBe(1)
    expect(sampleValue(families, `${P}chat_fixtures`, `${P}chat_fixtures`)).toBe(1)

    // The ledger: a row per billed answer (three chats, one embeddings call), their tokens and cost.
    expect(series(families, `${P}ledger_usage_rows`)).toEqual({
      [`operation=chat.create,model=${CHAT}`]: 3,
      [`operation=embeddings.create,model=${EMBEDDING}`]: 1,
    })
    const chatTokens = (field: 'prompt_tokens' | 'completion_tokens') => answered.reduce((sum, r) => sum + (r.body.usage[field] as number), 0)
    expect(sampleValue(families, `${P}ledger_tokens`, `${P}ledger_tokens`, { operation: 'chat.create', model: CHAT, kind: 'prompt' })).toBe(
      chatTokens('prompt_tokens'),
    )
    expect(sampleValue(families, `${P}ledger_tokens`, `${P}ledger_tokens`, { operation: 'chat.create', model: CHAT, kind: 'completion' })).toBe(
      chatTokens('completion_tokens'),
    )
    const spent = ((await emu.get(`${ADMIN}/accounts`)).body.data as Array<{ spent_usd: number }>).reduce((sum, a) => sum + a.spent_usd, 0)
    const cost = Object.values(series(families, `${P}ledger_cost_usd`)).reduce((sum, v) => sum + v, 0)
    expect(spent).toBeGreaterThan(0)
    expect(cost).toBeCloseTo(spent, 9)

    // The journal and the caches, as GET /_emulator/api/stats reports them.
    const stats = (await emu.get(`${ADMIN}/stats`)).body.data
    expect(sampleValue(families, `${P}journal_entries`, `${P}journal_entries`)).toBe(9)
    expect(sampleValue(families, `${P}journal_bytes`, `${P}journal_bytes`, { part: 'bodies' })).toBe(stats.journal.bytes)
    expect(sampleValue(families, `${P}journal_limit_bytes`, `${P}journal_limit_bytes`, { part: 'media' })).toBe(stats.journal.media_limit_bytes)
    expect(sampleValue(families, `${P}cache_bytes`, `${P}cache_bytes`, { cache: 'chat_answers' })).toBe(emu.ctx.services.text.answers.chars() * 2)
    expect(sampleValue(families, `${P}cache_bytes`, `${P}cache_bytes`, { cache: 'chat_answers' })).toBeGreaterThan(0)
    expect(sampleValue(families, `${P}cache_bytes`, `${P}cache_bytes`, { cache: 'embedding_vectors' })).toBe(stats.vector_cache.bytes)
  })

  it('is neither journaled nor counted itself, and counts the router too', async () => {
    const emu = await testEmulator()
    await scrape(emu)
    await scrape(emu)
    expect(await journal(emu)).toEqual([])
    expect(series(await scrape(emu), `${P}requests_total`)).toEqual({})
    const task = await emu.get('/router/v1/video/ent/v2/tasks/nope/creations', emu.keys.standard)
    const entries = await journal(emu)
    expect(entries.map((e) => [e.operation, e.status])).toEqual([['video.tasks.get', task.status]])
    expect(series(await scrape(emu), `${P}requests_total`)).toEqual({ [`operation=video.tasks.get,status=${task.status}`]: 1 })
  })

  it('keeps its counters through a state reset, while the ledger and the journal follow the state', async () => {
    const emu = await testEmulator()
    await post(emu, '/api/v1/embeddings', emu.keys.standard, { model: EMBEDDING, input: 'before the reset' })
    expect(series(await scrape(emu), `${P}ledger_usage_rows`)).toEqual({ [`operation=embeddings.create,model=${EMBEDDING}`]: 1 })
    expect((await emu.send('POST', `${ADMIN}/reset`)).status).toBe(200)
    const after = await scrape(emu)
    expect(series(after, `${P}ledger_usage_rows`)).toEqual({})
    expect(sampleValue(after, `${P}journal_entries`, `${P}journal_entries`)).toBe(0)
    expect(series(after, `${P}requests_total`)).toEqual({ 'operation=embeddings.create,status=200': 1 })
  })

  it('keeps a registry per emulator: two in one process count only their own requests', async () => {
    const one = await testEmulator()
    const two = await testEmulator()
    for (let i = 0; i < 3; i++) await one.get('/api/v1/models/count')
    await two.get('/api/v1/models/count')
    expect(series(await scrape(one), `${P}requests_total`)).toEqual({ 'operation=models.count,status=200': 3 })
    expect(series(await scrape(two), `${P}requests_total`)).toEqual({ 'operation=models.count,status=200': 1 })
  })

  it('over real HTTP: counts a 429 that the openai client retries and a dropped connection (status 0), as the journal records them', async () => {
    const emu = await listeningEmulator()
    // A short Retry-After (the client reads the -ms header first), so the retry comes at once.
    const rule = await emu.send('POST', `${ADMIN}/faults`, {
      match: { operation: 'chat.create' },
      action: { status: 429, headers: { 'retry-after-ms': '10' } },
      remaining: 1,
    })
    expect(rule.status).toBe(201)
    const client = new OpenAI({ apiKey: emu.keys.standard, baseURL: `${emu.url}/api/v1`, maxRetries: 2 })
    const completion = await client.chat.completions.create({ model: CHAT, messages: [{ role: 'user', content: 'Tell me about lighthouses' }] })
    expect(completion.choices[0]!.message.content).toMatch(/\w/)
    const drop = await emu.send('POST', `${ADMIN}/faults/presets/drop-connection`, { match: { operation: 'embeddings.create' }, remaining: 1 })
    expect(drop.status).toBe(201)
    const once = new OpenAI({ apiKey: emu.keys.standard, baseURL: `${emu.url}/api/v1`, maxRetries: 0 })
    await expect(once.embeddings.create({ model: EMBEDDING, input: 'x' })).rejects.toThrow(/Connection error/)

    const res = await fetch(`${emu.url}/metrics`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
    const families = parsePrometheusText(await res.text())
    expect(series(families, `${P}requests_total`)).toEqual({
      'operation=chat.create,status=429': 1,
      'operation=chat.create,status=200': 1,
      'operation=embeddings.create,status=0': 1,
    })
    const entries = await journal(emu)
    expect(countBy(entries, (e) => `operation=${e.operation},status=${e.status}`)).toEqual(series(families, `${P}requests_total`))
    expect(series(families, `${P}faults_total`)).toEqual(
      countBy(
        entries.filter((e) => e.fault !== null),
        (e) => `rule=${e.fault},operation=${e.operation}`,
      ),
    )
    expect(series(families, `${P}faults_total`)).toHaveProperty([`rule=${rule.body.data.id},operation=chat.create`], 1)
  })

  it('counts every request when more than a batch of them come between two scrapes', async () => {
    const emu = await testEmulator()
    const total = 1100
    for (let i = 0; i < total; i++) await emu.get('/api/v1/models/count')
    const families = await scrape(emu)
    expect(series(families, `${P}requests_total`)).toEqual({ 'operation=models.count,status=200': total })
    expect(sampleValue(families, `${P}request_duration_seconds`, `${P}request_duration_seconds_count`, { operation: 'models.count' })).toBe(total)
  })
})

describe('the guards of /metrics: the admin API answers, so does it', () => {
  it('refuses a foreign Host (DNS rebinding) with the admin API 403, and a cross-site frame', async () => {
    const emu = await testEmulator()
    const rebound = await emu.request({ method: 'GET', url: '/metrics', headers: { host: 'attacker.example:8710' } })
    const admin = await emu.request({ method: 'GET', url: `${ADMIN}/health`, headers: { host: 'attacker.example:8710' } })
    expect(rebound.status).toBe(403)
    expect(rebound.body).toEqual(admin.body)
    expect(rebound.body.error.metadata).toEqual({ field: 'host', location: 'headers' })
    // A host given with --allowed-hosts is as good as loopback.
    const allowed = await testEmulator({ allowedHosts: ['metrics.test'] })
    expect((await allowed.request({ method: 'GET', url: '/metrics', headers: { host: 'metrics.test:8710' } })).status).toBe(200)
    // A page of another site can neither frame it nor read it.
    const framed = await emu.request({ method: 'GET', url: '/metrics', headers: { 'sec-fetch-dest': 'iframe', 'sec-fetch-site': 'cross-site' } })
    expect(framed.status).toBe(403)
    const fetched = await emu.request({ method: 'GET', url: '/metrics', headers: { origin: 'https://attacker.example' } })
    expect(fetched.status).toBe(403)
    expect(fetched.body.error.metadata).toEqual({ field: 'origin', location: 'headers' })
    // Every answer says it must not be framed.
    const ok = await emu.request({ method: 'GET', url: '/metrics' })
    expect(ok.headers['x-frame-options']).toBe('DENY')
  })

  it('needs the admin token beyond loopback (a scraper sends it as a Bearer token)', async () => {
    const emu = await createEmulator({ host: '0.0.0.0', clock: 'manual', logLevel: 'silent' })
    try {
      const token = emu.config.adminToken!
      const ask = (headers: Record<string, string>) => emu.app.inject({ method: 'GET', url: '/metrics', headers: { host: 'localhost', ...headers } })
      // What Prometheus sends: the exposition formats it takes, no HTML.
      const accept = 'application/openmetrics-text;version=1.0.0;q=0.5,text/plain;version=0.0.4;q=0.4,*/*;q=0.1'
      const refused = await ask({ accept })
      expect(refused.statusCode).toBe(401)
      expect(refused.headers['content-type']).toMatch(/^application\/json/)
      expect(refused.json().error.message).toMatch(/^The admin API and UI need the admin token/)
      expect(refused.body).not.toContain(token)
      expect((await ask({ accept, authorization: 'Bearer wrong' })).statusCode).toBe(401)
      const scraped = await ask({ accept, authorization: `Bearer ${token}` })
      expect(scraped.statusCode).toBe(200)
      expect(() => parsePrometheusText(scraped.body)).not.toThrow()
      expect((await ask({ 'x-emulator-admin-token': token })).statusCode).toBe(200)
    } finally {
      await emu.close()
    }
  })

  it('is reached by no other spelling of its path around the guards', async () => {
    const emu = await testEmulator({ adminToken: 'let-me-in' })
    for (const url of ['//metrics', '/%6Detrics', '/./metrics', '/x/../metrics', '/metrics%2F', '/Metrics', '/metrics/', '/metrics?x=1']) {
      const res = await emu.request({ method: 'GET', url, headers: { host: 'attacker.example' } })
      // Refused as a spelling (400), unknown (404), or the route itself behind its guard (403).
      expect([400, 403, 404], `${url}: ${JSON.stringify(res.body)}`).toContain(res.status)
      expect(res.body.error.code).toBe(res.status)
      const untokened = await emu.request({ method: 'GET', url })
      expect([400, 401, 404], url).toContain(untokened.status)
    }
  })

  it('needs the token on loopback too when one is configured', async () => {
    const emu = await testEmulator({ adminToken: 'let-me-in' })
    expect((await emu.get('/metrics')).status).toBe(401)
    expect((await emu.request({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer let-me-in' } })).status).toBe(200)
  })
})
