// Rerank through the ledger: search units at the endpoint's request price (a long document counts
// once per chunk), key usage and credits moved by the cost reported, 402s and guardrails before
// anything is billed, provider routing, faults, the rate limit, and the generation GET /generation finds.
import { describe, expect, it } from 'vitest'
import { sha256Hex } from '../../../src/emulator/core/rng.ts'
import { countTokens, loadTokenizer } from '../../../src/emulator/core/tokens.ts'
import { listeningEmulator, testEmulator, type TestEmulator } from '../../helpers/emulator.ts'

const MODEL = 'cohere/rerank-v3.5'

const rerank = (emu: TestEmulator, body: Record<string, unknown>, key = emu.keys.standard, headers: Record<string, string> = {}) =>
  emu.request({
    method: 'POST',
    url: '/api/v1/rerank',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
    payload: JSON.stringify({ model: MODEL, query: 'sourdough bread', documents: ['a loaf of sourdough bread', 'the stock market'], ...body }),
  })

const standardKey = async (emu: TestEmulator) =>
  (await emu.get('/api/v1/keys', emu.keys.management)).body.data.find((k: { hash: string }) => k.hash === sha256Hex(emu.keys.standard))

const counts = (emu: TestEmulator) => ({
  usage: emu.ctx.db.prepare('SELECT count(*) FROM usage').pluck().get(),
  generations: emu.ctx.db.prepare('SELECT count(*) FROM generations').pluck().get(),
})

describe('search units', () => {
  it('are one per query with up to 100 documents, at the endpoint request price', async () => {
    const emu = await testEmulator()
    const documents = (n: number) => Array.from({ length: n }, (_, i) => `document number ${i}`)
    const hundred = await rerank(emu, { documents: documents(100) })
    expect(hundred.body.usage).toMatchObject({ search_units: 1, cost: 0.002 })
    const more = await rerank(emu, { documents: documents(101) })
    expect(more.body.usage).toMatchObject({ search_units: 2, cost: 0.004 })
    expect((await rerank(emu, { documents: documents(1000) })).body.usage).toMatchObject({ search_units: 10, cost: 0.02 })
    // rerank-v4.0-fast costs $0.001 a search unit.
    expect((await rerank(emu, { model: 'cohere/rerank-v4.0-fast', documents: documents(150) })).body.usage).toMatchObject({ search_units: 2, cost: 0.002 })
  })

  it('count a document longer than the context leaves beside the query once per chunk', async () => {
    const emu = await testEmulator()
    await loadTokenizer()
    const query = 'sourdough bread'
    const long = Array.from({ length: 3000 }, (_, i) => `word${i % 997}`).join(' ')
    const queryTokens = countTokens(query)
    const longTokens = countTokens(long)
    // rerank-v3.5 reads 4096 tokens at once, 4 of them its own: the rest is the query and a chunk of the document.
    const chunks = Math.ceil(longTokens / (4096 - 4 - queryTokens))
    expect(chunks).toBeGreaterThan(1)
    const short = Array.from({ length: 99 }, (_, i) => `short document ${i}`)
    const res = await rerank(emu, { query, documents: [...short, long] })
    expect(res.status).toBe(200)
    // 99 short documents and a long one of two chunks: 101 documents' worth, two search units.
    expect(res.body.usage.search_units).toBe(Math.ceil((99 + chunks) / 100))
    expect(res.body.usage.search_units).toBe(2)
    const shortTokens = short.reduce((n, d) => n + countTokens(d), 0)
    expect(res.body.usage.total_tokens).toBe(99 * queryTokens + shortTokens + chunks * queryTokens + longTokens)
  })
})

describe('the ledger', () => {
  it('moves key usage and credits by the cost it reports, and GET /generation finds the call', async () => {
    const emu = await testEmulator()
    const res = await rerank(emu, { user: 'user-42' }, emu.keys.standard, { 'http-referer': 'https://app.example', 'user-agent': 'rerank-test' })
    expect(res.status).toBe(200)
    expect((await standardKey(emu)).usage).toBeCloseTo(res.body.usage.cost, 9)
    expect((await emu.get('/api/v1/credits', emu.keys.standard)).body.data.total_usage).toBeCloseTo(res.body.usage.cost, 9)
    const generation = await emu.get(`/api/v1/generation?id=${res.body.id}`, emu.keys.standard)
    expect(generation.status).toBe(200)
    expect(generation.body.data).toMatchObject({
      id: res.body.id,
      api_type: 'rerank',
      model: MODEL,
      provider_name: 'Cohere',
      total_cost: res.body.usage.cost,
      tokens_prompt: res.body.usage.total_tokens,
      tokens_completion: 0,
      streamed: false,
      finish_reason: null,
      http_referer: 'https://app.example',
      user_agent: 'rerank-test',
      external_user: 'user-42',
      created_at: '2026-03-04T10:00:00.000Z',
    })
    expect(generation.body.data.latency).toBeGreaterThan(0)
    // The usage row names the operation.
    expect(emu.ctx.db.prepare('SELECT operation FROM usage').pluck().all()).toEqual(['rerank.create'])
  })

  it('402 when credits run out, and nothing is billed or recorded for it', async () => {
    const emu = await testEmulator()
    const broke = (await emu.send('POST', '/_emulator/api/accounts', {})).body.data
    const before = counts(emu)
    const res = await rerank(emu, {}, broke.standard_key)
    expect(res.status).toBe(402)
    expect(res.body.error).toMatchObject({ code: 402, metadata: { limit_source: 'openrouter_credits' } })
    expect((await emu.get('/api/v1/credits', broke.standard_key)).body.data).toEqual({ total_credits: 0, total_usage: 0 })
    expect(counts(emu)).toEqual(before)
  })

  it('402 when the key limit is spent', async () => {
    const emu = await testEmulator()
    await emu.send('PATCH', `/api/v1/keys/${sha256Hex(emu.keys.standard)}`, { limit: 0.001, limit_reset: 'daily' }, emu.keys.management)
    expect((await rerank(emu, {})).status).toBe(200)
    const over = await rerank(emu, {})
    expect(over.status).toBe(402)
    expect(over.body.error.message).toBe('Key limit exceeded (daily limit)')
  })

  it('a guardrail that forbids the providers is a 404; one that forbids one routes to the other', async () => {
    const emu = await testEmulator()
    const hash = sha256Hex(emu.keys.standard)
    const guardrail = (await emu.send('POST', '/api/v1/guardrails', { name: 'no cohere', ignored_providers: ['cohere'] }, emu.keys.management)).body.data
    await emu.send('POST', `/api/v1/guardrails/${guardrail.id}/assignments/keys`, { key_hashes: [hash] }, emu.keys.management)
    // rerank-v3.5 is also served by Amazon Bedrock; rerank-v4.0-fast by Cohere alone.
    const bedrock = await rerank(emu, {})
    expect(bedrock.status).toBe(200)
    expect(bedrock.body.provider).toBe('Amazon Bedrock')
    const before = counts(emu)
    const none = await rerank(emu, { model: 'cohere/rerank-v4.0-fast' })
    expect(none.status).toBe(404)
    expect(none.body.error.message).toBe('No endpoints available matching your guardrail restrictions and data policy')
    expect(counts(emu)).toEqual(before)
  })

  it('routes by provider preferences; none left is a 404', async () => {
    const emu = await testEmulator()
    expect((await rerank(emu, { provider: { order: ['amazon-bedrock'] } })).body.provider).toBe('Amazon Bedrock')
    expect((await rerank(emu, { provider: { only: ['Cohere'] } })).body.provider).toBe('Cohere')
    expect((await rerank(emu, { provider: null })).body.provider).toBe('Cohere')
    const none = await rerank(emu, { provider: { only: ['nobody'] } })
    expect(none.status).toBe(404)
    expect(none.body.error).toMatchObject({ code: 404, message: 'No endpoints found that match your provider preferences' })
  })
})

describe('the EU listener', () => {
  it('serves from an endpoint in the EU only: none is a 404', async () => {
    const emu = await listeningEmulator()
    const post = (model: string) =>
      fetch(`${emu.euUrl}/api/v1/rerank`, {
        method: 'POST',
        headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model, query: 'q', documents: ['a'] }),
      })
    // rerank-v3.5 runs in the EU on Amazon Bedrock; rerank-v4.0-fast nowhere in the EU.
    const inEu = await post(MODEL)
    expect(inEu.status).toBe(200)
    expect(((await inEu.json()) as { provider: string }).provider).toBe('Amazon Bedrock')
    const outside = await post('cohere/rerank-v4.0-fast')
    expect(outside.status).toBe(404)
    expect(((await outside.json()) as { error: { code: number } }).error.code).toBe(404)
  })
})

describe('faults and the rate limit', () => {
  it('the X-Emulator-Fault header and a fault rule answer instead, billing nothing', async () => {
    const emu = await testEmulator()
    const before = counts(emu)
    const header = await rerank(emu, {}, emu.keys.standard, { 'x-emulator-fault': '503' })
    expect(header.status).toBe(503)
    expect(header.body.error).toMatchObject({ code: 503, metadata: { emulator_fault: 'header' } })
    await emu.send('POST', '/_emulator/api/faults', { match: { operation: 'rerank.create' }, action: { status: 502 }, remaining: 1 })
    const rule = await rerank(emu, {})
    expect(rule.status).toBe(502)
    expect(rule.body.error.code).toBe(502)
    expect(counts(emu)).toEqual(before)
    expect((await rerank(emu, {})).status).toBe(200)
  })

  it('429 past the key rate limit, billing nothing', async () => {
    const emu = await testEmulator({ rateLimitKeyPerMinute: 1 })
    expect((await rerank(emu, {})).status).toBe(200)
    const before = counts(emu)
    const limited = await rerank(emu, {})
    expect(limited.status).toBe(429)
    expect(limited.body.error.code).toBe(429)
    expect(counts(emu)).toEqual(before)
  })
})
