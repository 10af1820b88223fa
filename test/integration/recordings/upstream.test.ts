// Proxying and recording (--upstream, --upstream-key, --record), against a second emulator started as
// the upstream gateway (its own seed, so its answers differ from what the recording emulator would
// write), through the official clients: the answers are the upstream's own, billed on the emulator's
// ledger at the upstream's cost; upstream errors are relayed and neither billed nor saved; a request
// the ledger refuses is never forwarded; streams are relayed as they arrive; every file written is a
// valid recording; and no key or token reaches a file, the journal, its HAR or the state export.
import Anthropic from '@anthropic-ai/sdk'
import { createHash } from 'node:crypto'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import OpenAI, { toFile } from 'openai'
import { describe, expect, it, onTestFinished } from 'vitest'
import { compileCheck } from '../../../src/emulator/http/validation.ts'
import type { EmulatorOptions } from '../../../src/emulator/index.ts'
import { RecordingFile } from '../../../src/emulator/modules/recordings/recordings-format.service.ts'
import { listeningEmulator, recordUsage, TEST_START, testEmulator } from '../../helpers/emulator.ts'

const MODEL = 'openai/gpt-4o-mini'
const CLAUDE = 'anthropic/claude-3.5-haiku'
const EMBEDDER = 'openai/text-embedding-3-small'
const ASK = [{ role: 'user' as const, content: 'Tell me about lighthouses' }]

async function folder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'gwe-record-'))
  onTestFinished(() => rm(dir, { recursive: true, force: true }))
  return dir
}

/** An upstream emulator (seed 2) and a recording emulator (seed 1) that forwards to it with the upstream's key. */
async function pair(options: EmulatorOptions = {}, upstream: EmulatorOptions = {}) {
  const up = await listeningEmulator({ seed: 2, ...upstream })
  const dir = await folder()
  const emu = await listeningEmulator({ upstream: up.url, upstreamKey: up.keys.standard, record: dir, ...options })
  const openai = (url: string, key: string) => new OpenAI({ apiKey: key, baseURL: `${url}/api/v1`, maxRetries: 0 })
  const anthropic = (url: string, key: string) => new Anthropic({ baseURL: `${url}/api`, authToken: key, apiKey: null, maxRetries: 0 })
  return {
    up,
    emu,
    dir,
    /** The clients a user points at the recording emulator, with its own key. */
    client: openai(emu.url, emu.keys.standard),
    claude: anthropic(emu.url, emu.keys.standard),
    /** The same clients on the upstream itself, with its key: its own answers. */
    direct: openai(up.url, up.keys.standard),
    directClaude: anthropic(up.url, up.keys.standard),
  }
}

const keyUsage = async (emu: Awaited<ReturnType<typeof listeningEmulator>>, key: string): Promise<number> => (await emu.get('/api/v1/key', key)).body.data.usage

const post = (url: string, key: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${url}/api/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })

/** The files of the folder, parsed, each checked against the recording format. */
async function recordings(dir: string): Promise<Array<{ name: string; file: RecordingFile; text: string }>> {
  const check = compileCheck(RecordingFile)
  const names = (await readdir(dir)).sort()
  return Promise.all(
    names.map(async (name) => {
      const text = await readFile(join(dir, name), 'utf8')
      const file = JSON.parse(text) as RecordingFile
      expect(check(file), name).toBeNull()
      return { name, file, text }
    }),
  )
}

/** A JSON value without the ids that differ between two answers to the same request. */
const withoutIds = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(withoutIds)
    : value !== null && typeof value === 'object'
      ? Object.fromEntries(Object.entries(value).flatMap(([k, v]) => (k === 'id' || k === 'call_id' ? [] : [[k, withoutIds(v)]])))
      : value

describe('proxying and recording', () => {
  it('chat through the openai client, plain and streamed: the upstream’s answers, billed at its cost, saved', async () => {
    const { up, emu, dir, client, direct } = await pair()
    const request = { model: MODEL, messages: ASK }
    const { data: proxied, response } = await client.chat.completions.create(request).withResponse()
    const own = await direct.chat.completions.create(request)
    expect(proxied.choices).toEqual(own.choices)
    expect(proxied.usage).toEqual(own.usage)
    expect(proxied.model).toBe(own.model)
    // The emulator's own answer (seed 1) would be another one.
    const local = await testEmulator()
    const generated = await local.send('POST', '/api/v1/chat/completions', request, local.keys.standard)
    expect(generated.body.choices[0].message.content).not.toBe(proxied.choices[0]!.message.content)

    const cost = (proxied.usage as unknown as { cost: number }).cost
    expect(cost).toBeGreaterThan(0)
    expect(await keyUsage(emu, emu.keys.standard)).toBeCloseTo(cost, 12)
    expect((await emu.get('/api/v1/credits', emu.keys.standard)).body.data.total_usage).toBeCloseTo(cost, 12)
    // The generation answers GET /api/v1/generation by the id the caller was given.
    const generation = await emu.get(`/api/v1/generation?id=${response.headers.get('x-generation-id')}`, emu.keys.standard)
    expect(generation.body.data).toMatchObject({ total_cost: cost, model: MODEL, provider_name: providerOf(proxied), streamed: false, api_type: 'completions' })
    // The upstream billed its key for the proxied call and the direct one.
    expect(await keyUsage(up, up.keys.standard)).toBeCloseTo(2 * cost, 12)

    const stream = await client.chat.completions.create({ ...request, stream: true })
    let text = ''
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? ''
    expect(text).toBe(own.choices[0]!.message.content)
    expect(await keyUsage(emu, emu.keys.standard)).toBeCloseTo(2 * cost, 12)

    // One file: the plain and the streamed request are one request in normal form (the later overwrote it).
    const files = await recordings(dir)
    expect(files.map((f) => f.name)).toEqual([expect.stringMatching(/^chat\.create-[0-9a-f]{12}\.json$/)])
    const [{ file, text: raw }] = files as [(typeof files)[number]]
    expect(file).toMatchObject({
      operation: 'chat.create',
      request: { model: MODEL, messages: [{ role: 'user', content: ASK[0]!.content }] },
      text: { model: MODEL, provider: providerOf(own), choices: [{ content: text, finish_reason: 'stop' }], usage: { cost } },
      recorded: { upstream: up.url, at: '2026-03-04T10:00:00.000Z' },
    })
    // Keys sorted at every level, two-space indents, a final newline.
    expect(raw).toBe(`${JSON.stringify(sorted(file), null, 2)}\n`)
    // The journal tells where each answer came from and which file it went to.
    const journal = (await emu.get('/_emulator/api/journal?operation=chat.create')).body.data
    expect(journal.map((e: any) => e.source)).toEqual([
      { kind: 'proxied', upstream_status: 200, upstream_ms: expect.any(Number), recorded_file: files[0]!.name },
      { kind: 'proxied', upstream_status: 200, upstream_ms: expect.any(Number), recorded_file: files[0]!.name },
    ])
  })

  it('responses and embeddings through the openai client, messages through @anthropic-ai/sdk', async () => {
    const { up, emu, dir, client, direct, claude, directClaude } = await pair()
    const responses = { model: MODEL, input: 'Tell me about lighthouses', instructions: 'Be brief.' }
    const response = await client.responses.create(responses)
    const ownResponse = await direct.responses.create(responses)
    expect(response.output_text).toBe(ownResponse.output_text)
    expect(withoutIds(response.output)).toEqual(withoutIds(ownResponse.output))
    expect(response.usage).toEqual(ownResponse.usage)

    const messages = { model: CLAUDE, max_tokens: 256, messages: ASK }
    const message = await claude.messages.create(messages)
    const ownMessage = await directClaude.messages.create(messages)
    expect(message.content).toEqual(ownMessage.content)
    expect(message.usage).toEqual(ownMessage.usage)
    const streamed = await claude.messages.stream(messages).finalMessage()
    expect(streamed.content).toEqual(ownMessage.content)

    const embeddings = { model: EMBEDDER, input: ['hello world', 'goodbye world'], dimensions: 16 }
    const vectors = await client.embeddings.create(embeddings)
    const ownVectors = await direct.embeddings.create(embeddings)
    expect(vectors.data).toEqual(ownVectors.data)
    expect(vectors.usage).toEqual(ownVectors.usage)

    const costs = [response.usage, message.usage, message.usage, vectors.usage].map((u) => (u as unknown as { cost: number }).cost)
    expect(await keyUsage(emu, emu.keys.standard)).toBeCloseTo(
      costs.reduce((a, b) => a + b, 0),
      12,
    )
    const files = await recordings(dir)
    expect(files.map((f) => f.file.operation).sort()).toEqual(['embeddings.create', 'messages.create', 'responses.create'])
    const embedded = files.find((f) => f.file.operation === 'embeddings.create')!.file
    // The openai client asks for base64 vectors: part of the request, since it changes the answer.
    expect(embedded.request).toEqual({ dimensions: 16, encoding_format: 'base64', input: ['hello world', 'goodbye world'], model: EMBEDDER })
    // The body as the upstream sent it: the vectors as base64, which the client decoded.
    expect(embedded.raw).toMatchObject({ status: 200, model: EMBEDDER, cost: costs[3], json: { usage: ownVectors.usage } })
    expect((embedded.raw!.json as { data: Array<{ embedding: unknown }> }).data.map((d) => typeof d.embedding)).toEqual(['string', 'string'])
    // The upstream billed its own key for each call: proxied (a message twice) and direct.
    const [responseCost, messageCost, , embeddingsCost] = costs as [number, number, number, number]
    expect(await keyUsage(up, up.keys.standard)).toBeCloseTo(2 * responseCost + 3 * messageCost + 2 * embeddingsCost, 12)
  })

  it('speech and a multipart transcription: the upstream’s bytes and text', async () => {
    const { dir, client, direct } = await pair()
    const speech = { model: 'openai/gpt-4o-mini-tts', voice: 'nova' as const, input: 'Testing, one, two, three.', response_format: 'mp3' as const }
    const mp3 = Buffer.from(await (await client.audio.speech.create(speech)).arrayBuffer())
    const ownMp3 = Buffer.from(await (await direct.audio.speech.create(speech)).arrayBuffer())
    expect(mp3.equals(ownMp3)).toBe(true)
    const transcription = await client.audio.transcriptions.create({ model: 'openai/whisper-large-v3', file: await toFile(mp3, 'speech.mp3') })
    expect(transcription.text).toBe(speech.input)
    const files = await recordings(dir)
    const saved = files.find((f) => f.file.operation === 'audio.speech')!.file
    expect(Buffer.from(saved.raw!.base64!, 'base64').equals(mp3)).toBe(true)
    expect(files.find((f) => f.file.operation === 'audio.transcriptions')!.file.request).toMatchObject({
      model: 'openai/whisper-large-v3',
      input_audio: { data: mp3.toString('base64'), format: 'mp3' },
    })
  })

  it('relays a stream chunk by chunk as the upstream sends it', async () => {
    // A paced upstream on a frozen clock: its answer goes on only as its clock is advanced.
    const { up, emu, dir } = await pair({}, { chatSpeed: 1 })
    const model = up.ctx.services.catalog.get().find(MODEL)!
    const endpoint = [...model.endpoints].sort((a, b) => b.status - a.status)[0]!
    const latencyMs = (endpoint.latency_last_30m?.p50 ?? 0.5) * 1000
    const msPerToken = 1000 / (endpoint.throughput_last_30m?.p50 ?? 50)

    const res = await post(emu.url, emu.keys.standard, '/chat/completions', { model: MODEL, messages: ASK, stream: true })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/)
    const reader = res.body!.getReader()
    const decoder = new TextDecoder()
    let received = ''
    const readUntil = async (seen: (text: string) => boolean): Promise<void> => {
      while (!seen(received)) {
        const { value, done } = await reader.read()
        if (done) throw new Error(`the stream ended before it was expected to: ${received}`)
        received += decoder.decode(value, { stream: true })
      }
    }
    const upstreamDone = async () => (await up.get('/_emulator/api/journal?operation=chat.create')).body.total_count
    // The upstream's first bytes, while its clock has not moved: it cannot have finished.
    await readUntil((text) => text.includes(': OPENROUTER PROCESSING'))
    expect(await upstreamDone()).toBe(0)
    // Past the latency and about one token: the first words arrive, the rest is still to come.
    await up.clock.advance(Math.ceil(latencyMs + 1.3 * msPerToken))
    await readUntil((text) => /"delta":\{"content":"[^"]+"/.test(text))
    expect(received).not.toContain('[DONE]')
    expect(await upstreamDone()).toBe(0)
    await up.clock.advance('1h')
    await readUntil((text) => text.includes('data: [DONE]'))
    const { done } = await reader.read()
    expect(done).toBe(true)
    expect(await upstreamDone()).toBe(1)
    // The arrival times are the recording's timing.
    const [saved] = await recordings(dir)
    expect(saved!.file.text!.timing).toEqual({ first_token_ms: expect.any(Number), tokens_per_second: expect.any(Number) })
  })

  it('a client that goes away ends the upstream request', async () => {
    const { up, emu } = await pair({}, { chatSpeed: 1 })
    // Whether the upstream's answer had finished when its connection closed.
    const upstreamClosed = new Promise<boolean>((resolve) =>
      up.app.server.once('request', (_req, res) => res.once('close', () => resolve(res.writableFinished))),
    )
    const controller = new AbortController()
    const res = await fetch(`${emu.url}/api/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, messages: ASK, stream: true }),
      signal: controller.signal,
    })
    const reader = res.body!.getReader()
    expect(new TextDecoder().decode((await reader.read()).value)).toContain(': OPENROUTER PROCESSING')
    controller.abort()
    expect(await upstreamClosed).toBe(false)
  })

  it('relays an upstream error with its status and body, and neither bills nor saves it', async () => {
    const { up, emu, dir } = await pair()
    const fault = await up.send('POST', '/_emulator/api/faults', {
      match: { operation: 'chat.create' },
      action: { status: 503, message: 'Upstream is overloaded' },
    })
    expect(fault.status).toBe(201)
    const body = { model: MODEL, messages: ASK }
    const proxied = await post(emu.url, emu.keys.standard, '/chat/completions', body)
    const own = await post(up.url, up.keys.standard, '/chat/completions', body)
    expect(proxied.status).toBe(503)
    expect(await proxied.json()).toEqual(await own.json())
    // The Messages API's error, in Anthropic's envelope.
    await up.send('POST', '/_emulator/api/faults', { match: { operation: 'messages.create' }, action: { status: 529 } })
    const claude = await post(emu.url, emu.keys.standard, '/messages', { model: CLAUDE, max_tokens: 64, messages: ASK })
    expect(claude.status).toBe(529)
    expect(await claude.json()).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } })

    expect(await keyUsage(emu, emu.keys.standard)).toBe(0)
    expect(await readdir(dir)).toEqual([])
    const journal = (await emu.get('/_emulator/api/journal?operation=chat.create')).body.data
    expect(journal[0]).toMatchObject({ status: 503, effects: { usage: [] }, source: { kind: 'proxied', upstream_status: 503, recorded_file: null } })
  })

  it('forwards nothing the ledger refuses: no credits, a model the guardrails forbid, a key limit or a guardrail budget spent', async () => {
    const { up, emu } = await pair()
    const account = (await emu.get('/_emulator/api/accounts')).body.data[0].id
    await emu.send('PUT', `/_emulator/api/accounts/${account}/credits`, { balance_usd: 0 })
    const broke = await post(emu.url, emu.keys.standard, '/chat/completions', { model: MODEL, messages: ASK })
    expect(broke.status).toBe(402)
    expect(await broke.json()).toMatchObject({
      error: { code: 402, message: expect.stringMatching(/^Insufficient credits/), metadata: { limit_source: 'openrouter_credits' } },
    })
    const claude = await post(emu.url, emu.keys.standard, '/messages', { model: CLAUDE, max_tokens: 64, messages: ASK })
    expect(claude.status).toBe(402)
    expect(await claude.json()).toMatchObject({ type: 'error', error: { type: 'billing_error' } })

    await emu.send('PUT', `/_emulator/api/accounts/${account}/credits`, { balance_usd: 10 })
    const guardrail = await emu.send('POST', '/api/v1/guardrails', { name: 'Only Claude', allowed_models: [CLAUDE] }, emu.keys.management)
    expect(guardrail.status).toBe(201)
    const hash = createHash('sha256').update(emu.keys.standard).digest('hex')
    const assigned = await emu.send('POST', `/api/v1/guardrails/${guardrail.body.data.id}/assignments/keys`, { key_hashes: [hash] }, emu.keys.management)
    expect(assigned.status).toBe(200)
    const forbidden = await post(emu.url, emu.keys.standard, '/chat/completions', { model: MODEL, messages: ASK })
    expect(forbidden.status).toBe(404)
    expect(await forbidden.json()).toMatchObject({
      error: { code: 404, message: 'No endpoints available matching your guardrail restrictions and data policy' },
    })

    await emu.send('POST', `/api/v1/guardrails/${guardrail.body.data.id}/assignments/keys/remove`, { key_hashes: [hash] }, emu.keys.management)

    // A key whose limit is spent, then a guardrail whose budget is: each refused as bill would refuse it.
    recordUsage(emu, hash, 2, TEST_START)
    await emu.send('PATCH', `/api/v1/keys/${hash}`, { limit: 1 }, emu.keys.management)
    const limited = await post(emu.url, emu.keys.standard, '/chat/completions', { model: MODEL, messages: ASK })
    expect(limited.status).toBe(402)
    expect(await limited.json()).toMatchObject({ error: { message: 'Key limit exceeded (total limit)', metadata: { limit_source: 'openrouter_key_limit' } } })
    await emu.send('PATCH', `/api/v1/keys/${hash}`, { limit: null }, emu.keys.management)
    const budget = await emu.send('POST', '/api/v1/guardrails', { name: 'Budget', limit_usd: 1 }, emu.keys.management)
    await emu.send('POST', `/api/v1/guardrails/${budget.body.data.id}/assignments/keys`, { key_hashes: [hash] }, emu.keys.management)
    const spent = await post(emu.url, emu.keys.standard, '/chat/completions', { model: MODEL, messages: ASK })
    expect(spent.status).toBe(402)
    expect(await spent.json()).toMatchObject({ error: { metadata: { limit_source: 'guardrail_budget' } } })

    expect((await up.get('/_emulator/api/journal')).body.total_count).toBe(0)
    expect(await keyUsage(emu, emu.keys.standard)).toBe(2)
  })

  it('an upstream that cannot be reached, redirects, answers too much or refuses the upstream key: a 502 naming it, never the key', async () => {
    const closed = await listenOn(() => undefined)
    const port = (closed.address() as { port: number }).port
    await new Promise((resolve) => closed.close(resolve))
    const gone = await listeningEmulator({ upstream: `http://127.0.0.1:${port}`, upstreamKey: 'sk-upstream-secret-0123456789' })
    const unreachable = await post(gone.url, gone.keys.standard, '/chat/completions', { model: MODEL, messages: ASK })
    expect(unreachable.status).toBe(502)
    const said = await unreachable.text()
    expect(JSON.parse(said)).toMatchObject({
      error: { code: 502, message: `The upstream gateway http://127.0.0.1:${port} is unreachable: connection refused` },
    })
    expect(said).not.toContain('sk-upstream-secret')

    const redirecting = await listenOn((_req, res) => res.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' }).end())
    const origin = `http://127.0.0.1:${(redirecting.address() as { port: number }).port}`
    const moved = await listeningEmulator({ upstream: origin, upstreamKey: 'sk-upstream-secret-0123456789' })
    const redirected = await post(moved.url, moved.keys.standard, '/chat/completions', { model: MODEL, messages: ASK })
    expect(redirected.status).toBe(502)
    expect(await redirected.json()).toMatchObject({
      error: { message: `The upstream gateway ${origin} answered 302, a redirect, which the emulator does not follow` },
    })

    // An answer that says it is over the bound (64 MiB) is not relayed at all.
    const huge = await listenOn((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(64 * 1024 * 1024 + 1) })
      res.end(Buffer.alloc(64 * 1024 * 1024 + 1, 0x20))
    })
    const hugeOrigin = `http://127.0.0.1:${(huge.address() as { port: number }).port}`
    const flooded = await listeningEmulator({ upstream: hugeOrigin, upstreamKey: 'sk-upstream-secret-0123456789' })
    const tooLarge = await post(flooded.url, flooded.keys.standard, '/chat/completions', { model: MODEL, messages: ASK })
    expect(tooLarge.status).toBe(502)
    expect(await tooLarge.json()).toMatchObject({
      error: {
        message: `The upstream gateway ${hugeOrigin} answered more than 64 MiB, which the emulator does not relay`,
        metadata: { limit_bytes: 64 * 1024 * 1024 },
      },
    })
    // One that does not say its length is relayed as it arrives (it is larger than a recording may be)
    // and cut at the bound: the caller's answer ends early, and nothing is billed.
    const unsaid = await listenOn((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(Buffer.alloc(64 * 1024 * 1024 + 1, 0x20))
    })
    const unsaidOrigin = `http://127.0.0.1:${(unsaid.address() as { port: number }).port}`
    const cut = await listeningEmulator({ upstream: unsaidOrigin, upstreamKey: 'sk-upstream-secret-0123456789' })
    const cutShort = await post(cut.url, cut.keys.standard, '/chat/completions', { model: MODEL, messages: ASK })
    expect(cutShort.status).toBe(200)
    await expect(cutShort.arrayBuffer()).rejects.toThrow()
    expect((await flooded.get('/api/v1/key', flooded.keys.standard)).body.data.usage).toBe(0)
    expect((await cut.get('/api/v1/key', cut.keys.standard)).body.data.usage).toBe(0)

    const up = await listeningEmulator({ seed: 2 })
    const wrongKey = await listeningEmulator({ upstream: up.url, upstreamKey: 'sk-gw-v1-not-a-key-of-the-upstream' })
    const refused = await post(wrongKey.url, wrongKey.keys.standard, '/chat/completions', { model: MODEL, messages: ASK })
    expect(refused.status).toBe(502)
    const refusal = await refused.text()
    expect(JSON.parse(refusal)).toMatchObject({
      error: { message: expect.stringMatching(new RegExp(`^The upstream gateway ${up.url} refused the upstream key \\(401`)) },
    })
    expect(refusal).not.toContain('not-a-key')
  })

  it('sends the upstream key and the app’s headers, never the caller’s key or other headers', async () => {
    const { up, emu } = await pair()
    const res = await post(
      emu.url,
      emu.keys.standard,
      '/chat/completions',
      { model: MODEL, messages: ASK },
      { 'X-Title': 'Lighthouse app', 'X-Private': 'not for the upstream' },
    )
    expect(res.status).toBe(200)
    const [entry] = (await up.get('/_emulator/api/journal')).body.data
    const seen = (await up.get(`/_emulator/api/journal/${entry.id}`)).body.data
    expect(seen.key_hash).toBe(createHash('sha256').update(up.keys.standard).digest('hex'))
    expect(seen.request.headers['x-title']).toBe('Lighthouse app')
    expect(seen.request.headers['x-private']).toBeUndefined()
  })

  it('writes no key or token to the folder, the journal, its HAR or the state export', async () => {
    const { up, emu, dir, client, claude } = await pair({ adminToken: 'gwe-admin-test-token-0123456789' })
    const admin = { 'x-emulator-admin-token': 'gwe-admin-test-token-0123456789' }
    await client.chat.completions.create({ model: MODEL, messages: ASK })
    for await (const _ of await client.chat.completions.create({ model: MODEL, messages: ASK, stream: true, user: emu.keys.standard.slice(0, 20) }));
    await claude.messages.create({ model: CLAUDE, max_tokens: 64, messages: ASK })
    // A request that carries a key in its content is relayed, not saved.
    await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: `my key is ${emu.keys.standard}` }] })
    expect((await recordings(dir)).length).toBe(2)

    const secrets = [up.keys.standard, emu.keys.standard, up.keys.management, 'gwe-admin-test-token-0123456789']
    const files = await Promise.all((await readdir(dir)).map((name) => readFile(join(dir, name), 'utf8')))
    const journal = JSON.stringify((await emu.request({ method: 'GET', url: '/_emulator/api/journal?limit=100', headers: admin })).body)
    const entries = (await emu.request({ method: 'GET', url: '/_emulator/api/journal?limit=100', headers: admin })).body.data as Array<{ id: number }>
    const full = await Promise.all(
      entries.map(async (e) => JSON.stringify((await emu.request({ method: 'GET', url: `/_emulator/api/journal/${e.id}`, headers: admin })).body)),
    )
    const har = JSON.stringify((await emu.request({ method: 'GET', url: '/_emulator/api/journal/har', headers: admin })).body)
    const exported = (await emu.request({ method: 'GET', url: '/_emulator/api/export', headers: admin })).body
    expect(exported.tables).toBeDefined()
    for (const secret of secrets) {
      for (const text of [...files, journal, ...full, har]) expect(text.includes(secret), `a ${secret.slice(0, 9)} secret`).toBe(false)
    }
    // The export holds the emulator's own keys in their table (to restore them), and nothing else does.
    const { api_keys: _keys, ...rest } = exported.tables
    expect(JSON.stringify(rest).includes(emu.keys.standard)).toBe(false)
    expect(JSON.stringify(exported).includes(up.keys.standard)).toBe(false)
  })
})

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sorted((value as Record<string, unknown>)[k])]),
  )
}

/** A plain HTTP server on 127.0.0.1 (closed when the test ends). */
async function listenOn(handler: Parameters<typeof createServer>[1]): Promise<Server> {
  const server = createServer(handler)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(() => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve())))
  return server
}

/** The gateway's `provider`, which the openai client's types do not name. */
const providerOf = (answer: object): string => (answer as { provider: string }).provider
