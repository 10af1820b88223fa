// Record once, replay for ever: a recording emulator saves what the upstream (a second emulator)
// answered; with the upstream stopped, a replaying emulator (--on-miss error) answers the same calls
// from the folder, as JSON and as streams, and a new prompt gets the no-match error. Also what a
// stream cut part way bills, and how a model the recording emulator's catalog lacks is billed.
import Anthropic from '@anthropic-ai/sdk'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import OpenAI from 'openai'
import { describe, expect, it, onTestFinished } from 'vitest'
import { listeningEmulator } from '../../helpers/emulator.ts'

const MODEL = 'openai/gpt-4o-mini'
const CLAUDE = 'anthropic/claude-3.5-haiku'
const EMBEDDER = 'openai/text-embedding-3-small'
const ASK = [{ role: 'user' as const, content: 'Tell me about lighthouses' }]

async function folder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'gwe-replay-'))
  onTestFinished(() => rm(dir, { recursive: true, force: true }))
  return dir
}

const clients = (url: string, key: string) => ({
  openai: new OpenAI({ apiKey: key, baseURL: `${url}/api/v1`, maxRetries: 0 }),
  claude: new Anthropic({ baseURL: `${url}/api`, authToken: key, apiKey: null, maxRetries: 0 }),
})

/** The same calls, plain and streamed, through the official clients: what each answered. */
async function calls(url: string, key: string) {
  const { openai, claude } = clients(url, key)
  const chat = await openai.chat.completions.create({ model: MODEL, messages: ASK })
  let chatStream = ''
  for await (const chunk of await openai.chat.completions.create({ model: MODEL, messages: ASK, stream: true }))
    chatStream += chunk.choices[0]?.delta.content ?? ''
  const response = await openai.responses.create({ model: MODEL, input: 'Tell me about lighthouses' })
  let responseStream = ''
  for await (const event of await openai.responses.create({ model: MODEL, input: 'Tell me about lighthouses', stream: true }))
    if (event.type === 'response.output_text.delta') responseStream += event.delta
  const messages = { model: CLAUDE, max_tokens: 256, messages: ASK }
  const message = await claude.messages.create(messages)
  const messageStream = await claude.messages.stream(messages).finalMessage()
  const vectors = await openai.embeddings.create({ model: EMBEDDER, input: 'hello world', dimensions: 8, encoding_format: 'float' })
  return {
    chat: chat.choices[0]!.message.content,
    chatStream,
    response: response.output_text,
    responseStream,
    message: message.content,
    messageStream: messageStream.content,
    vectors: vectors.data[0]!.embedding,
    costs: [chat, response, message, vectors].map((answer) => (answer.usage as unknown as { cost: number }).cost),
  }
}

describe('record, then replay offline', () => {
  it('with the upstream stopped, answers the same calls from the folder, streams included; a new prompt is the no-match error', async () => {
    const up = await listeningEmulator({ seed: 2 })
    const dir = await folder()
    const recorder = await listeningEmulator({ upstream: up.url, upstreamKey: up.keys.standard, record: dir })
    const recorded = await calls(recorder.url, recorder.keys.standard)
    // Each answer streamed says what its JSON said.
    expect(recorded.chatStream).toBe(recorded.chat)
    expect(recorded.responseStream).toBe(recorded.response)
    expect(recorded.messageStream).toEqual(recorded.message)
    expect((await readdir(dir)).length).toBe(4)
    await up.close()

    const replay = await listeningEmulator({ replay: dir, onMiss: 'error' })
    const replayed = await calls(replay.url, replay.keys.standard)
    expect(replayed).toEqual(recorded)
    // Billed at the recorded costs: the chat, response and message twice each, the embeddings once.
    const [chat, response, message, vectors] = recorded.costs as [number, number, number, number]
    expect((await replay.get('/api/v1/key', replay.keys.standard)).body.data.usage).toBeCloseTo(2 * (chat + response + message) + vectors, 12)

    const { openai } = clients(replay.url, replay.keys.standard)
    const missed = await openai.chat.completions
      .create({ model: MODEL, messages: [{ role: 'user', content: 'Something never recorded' }] })
      .catch((error: unknown) => error)
    expect(missed).toBeInstanceOf(OpenAI.NotFoundError)
    expect((missed as InstanceType<typeof OpenAI.NotFoundError>).error).toMatchObject({ code: 404, metadata: { reason: 'no_recording' } })
  })

  it('a stream the upstream breaks part way is relayed with its error, billed for what arrived, and not saved', async () => {
    const up = await listeningEmulator({ seed: 2 })
    const dir = await folder()
    const emu = await listeningEmulator({ upstream: up.url, upstreamKey: up.keys.standard, record: dir })
    const { openai } = clients(emu.url, emu.keys.standard)
    const whole = await openai.chat.completions.create({ model: MODEL, messages: ASK })
    const fullCost = (whole.usage as unknown as { cost: number }).cost
    await rm(dir, { recursive: true, force: true })
    const before = (await emu.get('/api/v1/key', emu.keys.standard)).body.data.usage

    // The upstream's error chunk after a few chunks: relayed as it came.
    await up.send('POST', '/_emulator/api/faults', { match: { operation: 'chat.create' }, action: { status: 502, stream: { after_chunks: 4 } }, remaining: 1 })
    const broken = await (
      await fetch(`${emu.url}/api/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: MODEL, messages: ASK, stream: true }),
      })
    ).text()
    expect(broken).toMatch(/"finish_reason":"error"/)
    const afterError = (await emu.get('/api/v1/key', emu.keys.standard)).body.data.usage - before
    expect(afterError).toBeGreaterThan(0)
    expect(afterError).toBeLessThan(fullCost)

    // The upstream closes the connection part way: the stream ends with the emulator's error event.
    await up.send('POST', '/_emulator/api/faults', { match: { operation: 'chat.create' }, action: { stream: { after_chunks: 4, cut: true } }, remaining: 1 })
    const cut = await (
      await fetch(`${emu.url}/api/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: MODEL, messages: ASK, stream: true }),
      })
    ).text()
    expect(cut).toContain(`"error":{"code":502,"message":"The upstream gateway ${up.url} closed the stream part way"}`)
    expect((await emu.get('/api/v1/key', emu.keys.standard)).body.data.usage - before).toBeGreaterThan(afterError)
    await expect(readdir(dir)).rejects.toThrow(/ENOENT/)
    const sources = (await emu.get('/_emulator/api/journal?operation=chat.create&limit=2')).body.data.map((e: any) => e.source)
    // Each says why it was not saved (the log says the same).
    expect(sources).toEqual([
      { kind: 'proxied', upstream_status: 200, upstream_ms: expect.any(Number), recorded_file: null, not_recorded: 'the stream was cut part way' },
      {
        kind: 'proxied',
        upstream_status: 200,
        upstream_ms: expect.any(Number),
        recorded_file: null,
        not_recorded: 'the upstream broke the stream with an error',
      },
    ])
  })

  it('a model the catalog lacks is billed at the upstream’s cost, on an endpoint named by the upstream’s provider', async () => {
    const up = await listeningEmulator({ seed: 2 })
    const emu = await listeningEmulator({ upstream: up.url, upstreamKey: up.keys.standard })
    expect((await emu.send('DELETE', `/_emulator/api/catalog/models/${MODEL}`)).status).toBe(200)
    const { openai } = clients(emu.url, emu.keys.standard)
    const { data, response } = await openai.chat.completions.create({ model: MODEL, messages: ASK }).withResponse()
    const cost = (data.usage as unknown as { cost: number }).cost
    expect(cost).toBeGreaterThan(0)
    const generation = await emu.get(`/api/v1/generation?id=${response.headers.get('x-generation-id')}`, emu.keys.standard)
    expect(generation.body.data).toMatchObject({ model: MODEL, provider_name: providerOf(data), total_cost: cost })
  })
})

/** The gateway's `provider`, which the openai client's types do not name. */
const providerOf = (answer: object): string => (answer as { provider: string }).provider
