// Replay (--replay): hand-written recordings answer chat (JSON and streamed), text completions, the
// Responses API and the Messages API from one file, embeddings from a raw one; `times`; loosened
// matches (an agent loop); what a miss gets (the no-match error in each envelope, nothing billed, or
// a generated answer); the ledger (the recorded cost moves key usage and credits; a 402 bills nothing
// and uses nothing up); the journal's source marks; determinism.
import { createParser, type EventSourceMessage } from 'eventsource-parser'
import { describe, expect, it } from 'vitest'
import { sha256Hex } from '../../../src/emulator/core/rng.ts'
import { listeningEmulator, testEmulator, type TestEmulator } from '../../helpers/emulator.ts'
import { EMBEDDING, folderWith, FORMAT, MODEL, PARIS, QUESTION, SYSTEM } from './replay-helpers.ts'

const ADMIN = '/_emulator/api'

const chat = (emu: TestEmulator, body: Record<string, unknown> = {}, key: string = emu.keys.standard) =>
  emu.send(
    'POST',
    '/api/v1/chat/completions',
    {
      model: MODEL,
      messages: [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: QUESTION },
      ],
      max_tokens: 100,
      ...body,
    },
    key,
  )

/** The events of a streamed answer, as an EventSource reads them. */
async function events(
  emu: TestEmulator,
  url: string,
  body: Record<string, unknown>,
): Promise<{ status: number; events: EventSourceMessage[]; headers: Record<string, unknown> }> {
  const res = await emu.app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
    payload: { ...body, stream: true },
  })
  const out: EventSourceMessage[] = []
  const parser = createParser({ onEvent: (event) => out.push(event) })
  parser.feed(res.body)
  return { status: res.statusCode, events: out, headers: res.headers as Record<string, unknown> }
}

const usageRows = (emu: TestEmulator): number => (emu.ctx.db.prepare('SELECT count(*) AS n FROM usage').get() as { n: number }).n

const journal = async (emu: TestEmulator) =>
  (await emu.get(`${ADMIN}/journal?limit=100`)).body.data as Array<{ operation: string; status: number; source: unknown }>

describe('one recording answers every text API', () => {
  it('answers chat as JSON with the recorded content, model, provider, usage and cost', async () => {
    const emu = await testEmulator({ replay: folderWith({ 'chat-1.json': PARIS }), onMiss: 'error' })
    const res = await chat(emu)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      object: 'chat.completion',
      model: MODEL,
      provider: 'OpenAI',
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Paris.' } }],
      usage: { prompt_tokens: 24, completion_tokens: 2, total_tokens: 26, cost: 0.0125 },
    })
    // The recorded cost split by tokens: the recording has one figure.
    const details = res.body.usage.cost_details
    expect(details.upstream_inference_prompt_cost + details.upstream_inference_completions_cost).toBeCloseTo(0.0125, 12)
    const generation = (await emu.get(`/api/v1/generation?id=${res.body.id}`, emu.keys.standard)).body.data
    expect(generation).toMatchObject({ model: MODEL, provider_name: 'OpenAI', total_cost: 0.0125, tokens_prompt: 24, tokens_completion: 2, latency: 420 })
  })

  it('streams chat from the same recording, with its usage', async () => {
    const emu = await testEmulator({ replay: folderWith({ 'chat-1.json': PARIS }), onMiss: 'error' })
    const { status, events: chunks } = await events(emu, '/api/v1/chat/completions', {
      model: MODEL,
      messages: [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: QUESTION },
      ],
      max_tokens: 100,
    })
    expect(status).toBe(200)
    const data = chunks.filter((e) => e.data !== '[DONE]').map((e) => JSON.parse(e.data))
    expect(data.map((c) => c.choices[0]?.delta?.content ?? '').join('')).toBe('Paris.')
    expect(data.at(-1).usage).toMatchObject({ prompt_tokens: 24, completion_tokens: 2, cost: 0.0125 })
    expect(chunks.at(-1)!.data).toBe('[DONE]')
  })

  it('answers the Responses API and the Messages API (JSON and stream) from the chat recording', async () => {
    const emu = await testEmulator({ replay: folderWith({ 'chat-1.json': PARIS }), onMiss: 'error' })
    const response = await emu.send(
      'POST',
      '/api/v1/responses',
      { model: MODEL, instructions: SYSTEM, input: QUESTION, max_output_tokens: 100 },
      emu.keys.standard,
    )
    expect(response.status).toBe(200)
    expect(response.body).toMatchObject({ status: 'completed', model: MODEL, usage: { input_tokens: 24, output_tokens: 2, cost: 0.0125 } })
    expect(response.body.output).toEqual([
      expect.objectContaining({ type: 'message', content: [expect.objectContaining({ type: 'output_text', text: 'Paris.' })] }),
    ])

    const message = await emu.send(
      'POST',
      '/api/v1/messages',
      { model: MODEL, system: SYSTEM, messages: [{ role: 'user', content: QUESTION }], max_tokens: 100 },
      emu.keys.standard,
    )
    expect(message.status).toBe(200)
    expect(message.body).toMatchObject({ type: 'message', model: MODEL, stop_reason: 'end_turn', content: [{ type: 'text', text: 'Paris.' }] })
    expect(message.body.usage).toMatchObject({ input_tokens: 24, output_tokens: 2 })

    const streamed = await events(emu, '/api/v1/messages', { model: MODEL, system: SYSTEM, messages: [{ role: 'user', content: QUESTION }], max_tokens: 100 })
    const deltas = streamed.events.filter((e) => e.event === 'content_block_delta').map((e) => JSON.parse(e.data).delta.text as string)
    expect(deltas.join('')).toBe('Paris.')

    const text = await emu.send('POST', '/api/v1/completions', { model: MODEL, prompt: QUESTION, max_tokens: 100 }, emu.keys.standard)
    // A text completion has no system prompt: it is another request, and no recording answers it.
    expect(text.status).toBe(404)

    const entries = await journal(emu)
    expect(entries.filter((e) => e.status === 200).map((e) => [e.operation, e.source])).toEqual([
      ['messages.create', { kind: 'replayed', file: 'chat-1.json' }],
      ['messages.create', { kind: 'replayed', file: 'chat-1.json' }],
      ['responses.create', { kind: 'replayed', file: 'chat-1.json' }],
    ])
  })
})

describe('recorded timing', () => {
  it('paces a replayed stream by the recorded first-token time when --chat-speed is above 0', async () => {
    const emu = await listeningEmulator({ chatSpeed: 1, replay: folderWith({ 'chat-1.json': PARIS }), onMiss: 'error' })
    const res = await fetch(`${emu.url}/api/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: MODEL,
        messages: [
          { role: 'system', content: SYSTEM },
          { role: 'user', content: QUESTION },
        ],
        max_tokens: 100,
        stream: true,
      }),
    })
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader()
    let received = ''
    const until = async (text: string) => {
      while (!received.includes(text)) {
        const { value, done } = await reader.read()
        if (done) throw new Error(`the stream ended without ${text}: ${received}`)
        received += value
      }
    }
    await until(': OPENROUTER PROCESSING')
    await emu.clock.advance(PARIS.text.timing.first_token_ms - 1)
    let more = false
    const pending = reader.read().then((r) => {
      more = true
      return r
    })
    // A round trip to the same server: whatever the advance released has been written by now.
    expect((await emu.get(`${ADMIN}/health`)).status).toBe(200)
    expect(more).toBe(false)
    await emu.clock.advance(1)
    received += (await pending).value ?? ''
    expect(received).toContain('"role":"assistant"')
    await emu.clock.advance('10s')
    await until('data: [DONE]')
  })
})

describe('raw recordings', () => {
  it('answers embeddings with the recorded JSON, billed at the recorded cost, with a generation', async () => {
    const emu = await testEmulator({ replay: folderWith({ 'embeddings/lighthouse.json': EMBEDDING }), onMiss: 'error' })
    const res = await emu.send(
      'POST',
      '/api/v1/embeddings',
      { model: 'openai/text-embedding-3-small', input: 'lighthouse', user: 'someone' },
      emu.keys.standard,
    )
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('application/json')
    expect(res.body).toEqual(EMBEDDING.raw.json)
    const generation = (await emu.get(`/api/v1/generation?id=${String(res.headers['x-generation-id'])}`, emu.keys.standard)).body.data
    expect(generation).toMatchObject({
      api_type: 'embeddings',
      total_cost: 0.0004,
      tokens_prompt: 2,
      provider_name: 'OpenAI',
      model: 'openai/text-embedding-3-small',
    })
    expect((await journal(emu)).find((e) => e.operation === 'embeddings.create')!.source).toEqual({ kind: 'replayed', file: 'embeddings/lighthouse.json' })

    // Another input is another request: no recording answers it.
    const other = await emu.send('POST', '/api/v1/embeddings', { model: 'openai/text-embedding-3-small', input: 'submarine' }, emu.keys.standard)
    expect(other.status).toBe(404)
    expect(other.body.error.metadata).toMatchObject({ reason: 'no_recording', model: 'openai/text-embedding-3-small' })
  })
})

describe('raw bytes', () => {
  it('answers speech with the recorded bytes and content type, kept for the inspector; a form transcription is never replayed', async () => {
    const mp3 = Buffer.from('ID3\u0004\u0000recorded speech bytes')
    const speech = {
      format: FORMAT,
      operation: 'audio.speech',
      match: { model: 'openai/gpt-4o-mini-tts' },
      raw: { status: 200, content_type: 'audio/mpeg', base64: mp3.toString('base64'), model: 'openai/gpt-4o-mini-tts', provider: 'OpenAI', cost: 0.0003 },
      recorded: { at: '2026-03-01T00:00:00Z', upstream: 'https://gateway.example', latency_ms: 640 },
    }
    const emu = await testEmulator({ replay: folderWith({ 'speech.json': speech }), onMiss: 'error' })
    const res = await emu.app.inject({
      method: 'POST',
      url: '/api/v1/audio/speech',
      headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
      payload: { model: 'openai/gpt-4o-mini-tts', input: 'Hello there', response_format: 'mp3' },
    })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('audio/mpeg')
    expect(res.rawPayload.equals(mp3)).toBe(true)
    const generation = (await emu.get(`/api/v1/generation?id=${String(res.headers['x-generation-id'])}`, emu.keys.standard)).body.data
    expect(generation).toMatchObject({ api_type: 'tts', total_cost: 0.0003, latency: 640 })
    const entry = (await journal(emu)).find((e) => e.operation === 'audio.speech') as unknown as { id: number; media: unknown[] }
    expect(entry.media).toEqual([{ index: 0, content_type: 'audio/mpeg', bytes: mp3.length, kept: true }])

    const form = new FormData()
    form.append('model', 'openai/whisper-1')
    form.append('file', new Blob([mp3], { type: 'audio/mpeg' }), 'a.mp3')
    const request = new Request('http://x/', { method: 'POST', body: form })
    const transcribed = await emu.app.inject({
      method: 'POST',
      url: '/api/v1/audio/transcriptions',
      headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': request.headers.get('content-type')! },
      payload: Buffer.from(await request.arrayBuffer()),
    })
    expect(transcribed.statusCode).toBe(404)
    expect(transcribed.json().error.metadata).toEqual({ reason: 'no_recording', model: null })
  })
})

describe('times and loosened matches', () => {
  it('answers `times` requests, then is used up (a generated answer follows); a reset gives the uses back', async () => {
    const emu = await testEmulator({ replay: folderWith({ 'chat-1.json': { ...PARIS, times: 1 } }) })
    expect((await chat(emu)).body.choices[0].message.content).toBe('Paris.')
    const second = await chat(emu)
    expect(second.status).toBe(200)
    expect(second.body.choices[0].message.content).not.toBe('Paris.')
    expect((await journal(emu)).map((e) => e.source)).toEqual([{ kind: 'generated' }, { kind: 'replayed', file: 'chat-1.json' }])
    const listed = (await emu.get(`${ADMIN}/recordings`)).body
    expect(listed).toMatchObject({ total_count: 1, on_miss: 'generate', upstream: null })
    expect(listed.data).toEqual([{ file: 'chat-1.json', operation: 'chat.create', model: MODEL, times: 1, remaining: 0, uses: 1, loosened: false }])
    await emu.reset()
    expect((await emu.get(`${ADMIN}/recordings`)).body.data[0]).toMatchObject({ remaining: 1, uses: 0 })
    expect((await chat(emu)).body.choices[0].message.content).toBe('Paris.')
  })

  it('runs an agent loop from loosened recordings: a tool call with fresh ids, then the answer to its result', async () => {
    const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }]
    const emu = await testEmulator({
      onMiss: 'error',
      replay: folderWith({
        '01-call.json': {
          format: FORMAT,
          operation: 'chat.create',
          match: { model: 'openai/*', last_user_regex: 'weather in \\w+', tool_result: false },
          text: {
            choices: [{ content: null, tool_calls: [{ name: 'get_weather', arguments: { city: 'Paris' } }], finish_reason: 'tool_calls' }],
            model: MODEL,
            provider: 'OpenAI',
            usage: { prompt_tokens: 50, completion_tokens: 12, cost: 0.001 },
          },
        },
        '02-answer.json': {
          format: FORMAT,
          operation: 'chat.create',
          match: { tool: 'get_weather', tool_result: true },
          text: {
            choices: [{ content: 'It is sunny in Paris.', finish_reason: 'stop' }],
            model: MODEL,
            provider: 'OpenAI',
            usage: { prompt_tokens: 70, completion_tokens: 6, cost: 0.002 },
          },
        },
      }),
    })
    const ask = [{ role: 'user', content: 'What is the weather in Paris?' }]
    const first = await emu.send('POST', '/api/v1/chat/completions', { model: 'openai/gpt-4o', messages: ask, tools }, emu.keys.standard)
    expect(first.status).toBe(200)
    const call = first.body.choices[0].message.tool_calls[0]
    expect(first.body.choices[0].finish_reason).toBe('tool_calls')
    expect(call).toEqual({
      id: expect.stringMatching(/^call_[0-9a-f]{24}$/),
      type: 'function',
      function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
    })
    const loop = [...ask, { role: 'assistant', content: null, tool_calls: [call] }, { role: 'tool', tool_call_id: call.id, content: '{"sky":"clear"}' }]
    const second = await emu.send('POST', '/api/v1/chat/completions', { model: 'openai/gpt-4o', messages: loop, tools }, emu.keys.standard)
    expect(second.body.choices[0].message.content).toBe('It is sunny in Paris.')
    // A conversation no condition holds for.
    const other = await emu.send('POST', '/api/v1/chat/completions', { model: 'anthropic/claude-sonnet-4', messages: ask, tools }, emu.keys.standard)
    expect(other.status).toBe(404)
    expect((await emu.get(`${ADMIN}/recordings`)).body.data.map((r: { loosened: boolean; uses: number }) => [r.loosened, r.uses])).toEqual([
      [true, 1],
      [true, 1],
    ])
  })

  it('cuts a recorded answer at the request’s max tokens and stop sequences, as a fixture’s', async () => {
    const long = {
      ...PARIS,
      match: { last_user: 'capital' },
      text: { ...PARIS.text, choices: [{ content: 'Paris is the capital. It is on the Seine.', finish_reason: 'stop' }] },
    }
    const emu = await testEmulator({ replay: folderWith({ 'long.json': long }), onMiss: 'error' })
    const stopped = await chat(emu, { stop: ['.'] })
    expect(stopped.body.choices[0]).toMatchObject({ finish_reason: 'stop', message: { content: 'Paris is the capital' } })
    const cut = await chat(emu, { max_tokens: 2 })
    expect(cut.body.choices[0].finish_reason).toBe('length')
    expect(cut.body.usage.completion_tokens).toBe(2)
  })
})

describe('a request no recording answers', () => {
  it('--on-miss error: a 404 in the route’s envelope naming the model and the last user message, nothing billed', async () => {
    const emu = await testEmulator({ replay: folderWith({ 'chat-1.json': PARIS }), onMiss: 'error' })
    const before = usageRows(emu)
    const res = await chat(emu, { messages: [{ role: 'user', content: 'And the capital of Peru?' }] })
    expect(res.status).toBe(404)
    expect(res.body).toEqual({
      error: {
        code: 404,
        message: expect.stringContaining('No recorded answer matched this request (model openai/gpt-4o-mini, last user message "And the capital of Peru?")'),
        metadata: { reason: 'no_recording', model: MODEL, last_user: 'And the capital of Peru?' },
      },
    })
    const anthropic = await emu.send(
      'POST',
      '/api/v1/messages',
      { model: MODEL, messages: [{ role: 'user', content: 'Hi' }], max_tokens: 10 },
      emu.keys.standard,
    )
    expect(anthropic.status).toBe(404)
    expect(anthropic.body).toMatchObject({
      type: 'error',
      error: { type: 'not_found_error', message: expect.stringContaining('No recorded answer matched this request') },
      metadata: { reason: 'no_recording' },
    })
    const long = 'x'.repeat(5000)
    const bounded = await chat(emu, { messages: [{ role: 'user', content: long }] })
    expect(bounded.body.error.metadata.last_user).toHaveLength(121)
    expect(bounded.body.error.message.length).toBeLessThan(400)
    expect(usageRows(emu)).toBe(before)
  })

  it('--on-miss generate (the default without --upstream): a generated answer, marked so', async () => {
    const emu = await testEmulator({ replay: folderWith({ 'chat-1.json': PARIS }) })
    const res = await chat(emu, { messages: [{ role: 'user', content: 'Tell me about lighthouses' }] })
    expect(res.status).toBe(200)
    expect(res.body.choices[0].message.content).toMatch(/lighthouses/)
    const embedded = await emu.send('POST', '/api/v1/embeddings', { model: 'openai/text-embedding-3-small', input: 'submarine' }, emu.keys.standard)
    expect(embedded.status).toBe(200)
    expect((await journal(emu)).map((e) => e.source)).toEqual([{ kind: 'generated' }, { kind: 'generated' }])
  })

  it('a body its surface refuses is answered by the surface, not as a miss', async () => {
    const emu = await testEmulator({ replay: folderWith({ 'chat-1.json': PARIS }), onMiss: 'error' })
    const res = await chat(emu, { messages: [{ role: 'wizard', content: 'hi' }] })
    expect(res.status).toBe(400)
    expect(res.body.error.message).toBe('Field `messages[0].role` must be one of system, developer, user, assistant, tool')
  })
})

describe('the ledger', () => {
  it('moves key usage and credits by the recorded cost', async () => {
    const emu = await testEmulator({ replay: folderWith({ 'chat-1.json': PARIS, 'emb.json': EMBEDDING }) })
    const credits = async () => (await emu.get('/api/v1/credits', emu.keys.standard)).body.data
    const keyUsage = async () => (await emu.get('/api/v1/key', emu.keys.standard)).body.data.usage as number
    const [creditsBefore, usageBefore] = [await credits(), await keyUsage()]
    expect((await chat(emu)).status).toBe(200)
    expect((await emu.send('POST', '/api/v1/embeddings', EMBEDDING.request, emu.keys.standard)).status).toBe(200)
    expect((await credits()).total_usage).toBeCloseTo(creditsBefore.total_usage + 0.0125 + 0.0004, 9)
    expect(await keyUsage()).toBeCloseTo(usageBefore + 0.0129, 9)
  })

  it('answers a broke account 402, billing nothing and using no `times`', async () => {
    const emu = await testEmulator({ replay: folderWith({ 'chat-1.json': { ...PARIS, times: 1 }, 'emb.json': { ...EMBEDDING, times: 1 } }) })
    const broke = (await emu.send('POST', `${ADMIN}/accounts`, { name: 'broke', credits_usd: 0.001 })).body.data
    const before = usageRows(emu)
    const res = await chat(emu, {}, broke.standard_key)
    expect(res.status).toBe(402)
    expect((await emu.send('POST', '/api/v1/embeddings', EMBEDDING.request, broke.standard_key)).status).toBe(200)
    expect(usageRows(emu)).toBe(before + 1)
    const listed = (await emu.get(`${ADMIN}/recordings`)).body.data
    expect(listed.map((r: { file: string; remaining: number }) => [r.file, r.remaining])).toEqual([
      ['chat-1.json', 1],
      ['emb.json', 0],
    ])
    // The account that can pay gets the recording.
    expect((await chat(emu)).body.choices[0].message.content).toBe('Paris.')
  })

  it('answers a model the catalog lacks from its recording, billed through a stand-in endpoint named by the recorded provider', async () => {
    const ghost = {
      ...PARIS,
      request: { ...PARIS.request, model: 'acme/ghost-1' },
      text: { ...PARIS.text, model: 'acme/ghost-1', provider: 'Acme Cloud' },
    }
    const emu = await testEmulator({ replay: folderWith({ 'ghost.json': ghost }), onMiss: 'error' })
    const res = await chat(emu, { model: 'acme/ghost-1' })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ model: 'acme/ghost-1', provider: 'Acme Cloud', usage: { cost: 0.0125 } })
    const message = await emu.send(
      'POST',
      '/api/v1/messages',
      { model: 'acme/ghost-1', system: SYSTEM, messages: [{ role: 'user', content: QUESTION }], max_tokens: 100 },
      emu.keys.standard,
    )
    expect(message.body.content).toEqual([{ type: 'text', text: 'Paris.', citations: null }])
    // A guardrail that allows other providers refuses it, as any model; nothing is billed.
    const created = await emu.send('POST', '/api/v1/guardrails', { name: 'openai only', allowed_providers: ['openai'] }, emu.keys.management)
    const assigned = await emu.send(
      'POST',
      `/api/v1/guardrails/${created.body.data.id}/assignments/keys`,
      { key_hashes: [sha256Hex(emu.keys.standard)] },
      emu.keys.management,
    )
    expect(assigned.body).toEqual({ assigned_count: 1 })
    const before = usageRows(emu)
    const refused = await chat(emu, { model: 'acme/ghost-1' })
    expect(refused.status).toBe(404)
    expect(refused.body.error).toMatchObject({
      message: 'No endpoints available matching your guardrail restrictions and data policy',
      metadata: { model: 'acme/ghost-1' },
    })
    expect(usageRows(emu)).toBe(before)
  })
})

describe('determinism', () => {
  it('gives the same bytes for the same requests, tool-call ids included', async () => {
    const recording = {
      format: FORMAT,
      operation: 'chat.create',
      match: { last_user: 'weather' },
      text: {
        choices: [{ content: null, tool_calls: [{ name: 'get_weather', arguments: '{"city": "Oslo"}' }], finish_reason: 'tool_calls' }],
        model: MODEL,
        provider: 'OpenAI',
        usage: { prompt_tokens: 10, completion_tokens: 9, cost: 0.0001 },
      },
    }
    const run = async () => {
      const emu = await testEmulator({ replay: folderWith({ 'call.json': recording }) })
      return (await chat(emu, { messages: [{ role: 'user', content: 'weather in Oslo?' }] })).body
    }
    const [a, b] = [await run(), await run()]
    expect(a).toEqual(b)
    expect(a.choices[0].message.tool_calls[0].function.arguments).toBe('{"city": "Oslo"}')
  })
})
