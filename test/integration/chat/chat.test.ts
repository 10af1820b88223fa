// POST /api/v1/chat/completions, POST /api/v1/completions and GET /api/v1/generation: every bad-input
// rule (status and error body), the ledger (key usage, credits, guardrail budget, activity, 402),
// determinism, streaming as events, faults, and the journal's record of a stream.
import { createParser, type EventSourceMessage } from 'eventsource-parser'
import { describe, expect, it } from 'vitest'
import { sha256Hex } from '../../../src/emulator/core/rng.ts'
import { listeningEmulator, testEmulator, type TestEmulator } from '../../helpers/emulator.ts'

const MODEL = 'openai/gpt-4o-mini'
const USER = [{ role: 'user', content: 'Tell me about lighthouses' }]

const chat = (emu: TestEmulator, body: Record<string, unknown>, key = emu.keys.standard) =>
  emu.send('POST', '/api/v1/chat/completions', { model: MODEL, messages: USER, ...body }, key)

/** The events of a streamed answer, parsed as a browser's EventSource parses them. */
async function streamed(emu: TestEmulator, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const res = await emu.app.inject({
    method: 'POST',
    url: '/api/v1/chat/completions',
    headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json', ...headers },
    payload: { model: MODEL, messages: USER, stream: true, ...body },
  })
  const events: EventSourceMessage[] = []
  const comments: string[] = []
  const parser = createParser({ onEvent: (e) => events.push(e), onComment: (c) => comments.push(c) })
  parser.feed(res.body)
  return { res, events, comments, chunks: events.filter((e) => e.data !== '[DONE]').map((e) => JSON.parse(e.data) as Record<string, any>) }
}

describe('bad input: a 400 naming the field, nothing billed', () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['no messages', { messages: [] }, 'Field `messages` must not be empty'],
    ['a message that is not an object', { messages: ['hi'] }, 'Field `messages[0]` must be an object with `role` and `content`'],
    ['an unknown role', { messages: [{ role: 'wizard', content: 'x' }] }, 'Field `messages[0].role` must be one of system, developer, user, assistant, tool'],
    ['a user message without content', { messages: [{ role: 'user' }] }, 'Field `messages[0].content` is required'],
    [
      'a content part of an unknown type',
      { messages: [{ role: 'user', content: [{ type: 'pdf' }] }] },
      'Field `messages[0].content[0].type` must be one of text, image_url, input_audio, file, video_url, input_video',
    ],
    ['a text part without text', { messages: [{ role: 'user', content: [{ type: 'text' }] }] }, 'Field `messages[0].content[0].text` must be a string'],
    [
      'an image part without a URL',
      { messages: [{ role: 'user', content: [{ type: 'image_url', image_url: {} }] }] },
      'Field `messages[0].content[0].image_url.url` must be a non-empty string (an image URL or data URI)',
    ],
    [
      'a tool message without its call id',
      { messages: [{ role: 'tool', content: '42' }] },
      'Field `messages[0].tool_call_id` must be a non-empty string: the id of the tool call this answers',
    ],
    [
      'a tool call without arguments',
      { messages: [{ role: 'assistant', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f' } }] }] },
      'Field `messages[0].tool_calls[0].function.arguments` must be a string (JSON)',
    ],
    [
      'a tool with a bad name',
      { tools: [{ type: 'function', function: { name: 'get weather' } }] },
      'Field `tools[0].function.name` must be 1 to 64 letters, digits, _ or -',
    ],
    [
      'a tool whose parameters are no schema',
      { tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'banana' } } }] },
      'Field `tools[0].function.parameters` is not a valid JSON Schema',
    ],
    ['tool_choice required without tools', { tool_choice: 'required' }, 'Field `tool_choice` is "required" but the request has no `tools`'],
    [
      'tool_choice naming an unknown tool',
      { tools: [{ type: 'function', function: { name: 'f' } }], tool_choice: { type: 'function', function: { name: 'g' } } },
      "Field `tool_choice.function.name` names g, which is not among the request's `tools`",
    ],
    ['an unknown response format', { response_format: { type: 'yaml' } }, 'Field `response_format.type` must be one of text, json_object, json_schema'],
    [
      'a json_schema format without a name',
      { response_format: { type: 'json_schema', json_schema: { schema: {} } } },
      'Field `response_format.json_schema.name` must be 1 to 64 letters, digits, _ or -',
    ],
    ['max_tokens of 0', { max_tokens: 0 }, 'Field `max_tokens` must be >= 1'],
    ['n over the bound', { n: 9 }, 'Field `n` must be <= 8'],
    ['an unknown model', { model: 'nobody/nothing' }, 'nobody/nothing is not a valid model ID'],
    ['an embeddings model', { model: 'openai/text-embedding-3-small' }, 'openai/text-embedding-3-small is an embeddings model: call it on /api/v1/embeddings'],
  ]
  it.each(cases)('%s', async (_name, body, message) => {
    const emu = await testEmulator()
    const res = await chat(emu, body)
    expect(res.status, JSON.stringify(res.body)).toBe(400)
    expect(res.body.error.code).toBe(400)
    expect(res.body.error.message.startsWith(message), res.body.error.message).toBe(true)
    expect((await emu.get('/api/v1/credits', emu.keys.standard)).body.data.total_usage).toBe(0)
  })

  it('a prompt longer than the context: 400 with the real message', async () => {
    const emu = await testEmulator()
    const res = await chat(emu, { model: 'microsoft/phi-4', max_tokens: 16_000, messages: [{ role: 'user', content: 'word '.repeat(1000) }] })
    expect(res.status).toBe(400)
    expect(res.body.error.message).toMatch(/^This endpoint's maximum context length is 16384 tokens\. However, you requested about \d+ tokens/)
  })

  it('tools on a model none of whose endpoints take them: 404', async () => {
    const emu = await testEmulator()
    const res = await chat(emu, { model: 'microsoft/phi-4', tools: [{ type: 'function', function: { name: 'f' } }] })
    expect(res.status).toBe(404)
    expect(res.body.error.message).toBe(
      'No endpoints found that support tool use. To learn more about provider routing, visit: https://openrouter.ai/docs/provider-routing',
    )
  })
})

describe('answers', () => {
  it('are the same for the same seed, model and messages, and differ otherwise', async () => {
    const a = await testEmulator({ seed: 7 })
    const b = await testEmulator({ seed: 7 })
    const c = await testEmulator({ seed: 8 })
    const text = async (emu: TestEmulator, body: Record<string, unknown> = {}) => (await chat(emu, body)).body.choices[0].message.content as string
    expect(await text(a)).toBe(await text(b))
    expect(await text(a)).not.toBe(await text(c))
    expect(await text(a, { seed: 1 })).not.toBe(await text(a))
    expect(await text(a, { messages: [{ role: 'user', content: 'Tell me about submarines' }] })).toMatch(/submarines/)
  })

  it('n gives that many different choices, billed together', async () => {
    const emu = await testEmulator()
    const res = await chat(emu, { n: 3 })
    expect(res.body.choices.map((c: { index: number }) => c.index)).toEqual([0, 1, 2])
    expect(new Set(res.body.choices.map((c: { message: { content: string } }) => c.message.content)).size).toBe(3)
  })

  it('json_object and json_schema give JSON; a named tool_choice calls that tool', async () => {
    const emu = await testEmulator()
    const object = await chat(emu, { response_format: { type: 'json_object' } })
    expect(JSON.parse(object.body.choices[0].message.content)).toHaveProperty('answer')
    const schema = {
      type: 'object',
      properties: { title: { type: 'string' }, score: { type: 'integer', minimum: 1, maximum: 5 } },
      required: ['title', 'score'],
    }
    const structured = await chat(emu, { response_format: { type: 'json_schema', json_schema: { name: 'review', schema, strict: true } } })
    const value = JSON.parse(structured.body.choices[0].message.content)
    expect(value.score).toBeGreaterThanOrEqual(1)
    expect(value.score).toBeLessThanOrEqual(5)
    const tools = [1, 2].map((i) => ({ type: 'function', function: { name: `tool_${i}` } }))
    const named = await chat(emu, { tools, tool_choice: { type: 'function', function: { name: 'tool_2' } } })
    expect(named.body.choices[0].message.tool_calls[0].function.name).toBe('tool_2')
    // auto calls a tool the user's message names, and answers in text after the tool's result.
    const weather = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }]
    const call = await chat(emu, { tools: weather, messages: [{ role: 'user', content: 'What is the weather in Oslo?' }] })
    const toolCall = call.body.choices[0].message.tool_calls[0]
    expect(toolCall.function.name).toBe('get_weather')
    const after = await chat(emu, {
      tools: weather,
      messages: [
        { role: 'user', content: 'What is the weather in Oslo?' },
        { role: 'assistant', content: null, tool_calls: [toolCall] },
        { role: 'tool', tool_call_id: toolCall.id, content: '{"sky":"clear"}' },
      ],
    })
    expect(after.body.choices[0].finish_reason).toBe('stop')
    expect(typeof after.body.choices[0].message.content).toBe('string')
    expect((await chat(emu, { tools: weather, messages: [{ role: 'user', content: 'Hello there' }] })).body.choices[0].finish_reason).toBe('stop')
  })

  it('the legacy text completion answers a prompt with text', async () => {
    const emu = await testEmulator()
    const res = await emu.send('POST', '/api/v1/completions', { model: MODEL, prompt: 'Once upon a time in a harbour', max_tokens: 8 }, emu.keys.standard)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ object: 'text_completion', model: MODEL, choices: [{ index: 0, finish_reason: 'length' }] })
    expect(res.body.usage.completion_tokens).toBe(8)
  })

  it("the legacy text completion ignores chat's fields, whatever their shape (found by the fuzzer: a 500)", async () => {
    const emu = await testEmulator()
    const body = { model: MODEL, prompt: 'Once upon a time', max_tokens: 8, tools: '{"a":', response_format: 7, tool_choice: [] }
    const res = await emu.send('POST', '/api/v1/completions', body, emu.keys.standard)
    expect(res.status).toBe(200)
    expect(res.body.choices[0].text.length).toBeGreaterThan(0)
  })
})

describe('run-time settings', () => {
  it('answer lengths per model and for all, and the stream speed, change over the admin API and go back on reset', async () => {
    const emu = await testEmulator()
    const settings = '/_emulator/api/chat/settings'
    expect((await emu.get(settings)).body.data).toEqual({ answer_tokens: 60, model_answer_tokens: {}, speed: 0 })
    const other = 'anthropic/claude-3.5-haiku'
    const tokens = async (model: string) => (await chat(emu, { model })).body.usage.completion_tokens as number
    const [before, otherBefore] = [await tokens(MODEL), await tokens(other)]
    const set = await emu.send('PUT', settings, { answer_tokens: 12, model_answer_tokens: { [MODEL]: 300 } })
    expect(set.body.data).toEqual({ answer_tokens: 12, model_answer_tokens: { [MODEL]: 300 }, speed: 0 })
    expect(await tokens(MODEL)).toBeGreaterThan(Math.max(before, 250))
    expect(await tokens(other)).toBeLessThan(Math.min(otherBefore, 30))

    for (const [body, field] of [
      [{ model_answer_tokens: { 'nobody/nothing': 10 } }, 'model_answer_tokens.nobody/nothing'],
      [{ answer_tokens: 0 }, 'answer_tokens'],
      [{ speed: -1 }, 'speed'],
      [{ pace: 1 }, 'pace'],
    ] as const) {
      const res = await emu.send('PUT', settings, body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.error.message).toContain(field)
    }
    expect((await emu.get(settings)).body.data.answer_tokens).toBe(12)
    await emu.send('POST', '/_emulator/api/reset')
    expect((await emu.get(settings)).body.data).toEqual({ answer_tokens: 60, model_answer_tokens: {}, speed: 0 })
  })
})

describe('the ledger', () => {
  it('moves key usage, credits, activity and the generation record by the billed cost', async () => {
    const emu = await testEmulator()
    const res = await chat(emu, {}, emu.keys.standard)
    const cost = res.body.usage.cost as number
    expect(cost).toBeGreaterThan(0)
    const model = emu.ctx.services.catalog.get().find(MODEL)!
    const endpoint = model.endpoints.find((e) => e.provider_name === res.body.provider)!
    expect(cost).toBeCloseTo(
      res.body.usage.prompt_tokens * Number(endpoint.pricing.prompt) + res.body.usage.completion_tokens * Number(endpoint.pricing.completion),
      12,
    )
    const key = (await emu.get('/api/v1/keys', emu.keys.management)).body.data.find((k: { hash: string }) => k.hash === sha256Hex(emu.keys.standard))
    expect(key.usage).toBeCloseTo(cost, 12)
    expect((await emu.get('/api/v1/credits', emu.keys.standard)).body.data.total_usage).toBeCloseTo(cost, 12)

    const generation = await emu.get(`/api/v1/generation?id=${res.body.id}`, emu.keys.standard)
    expect(generation.status).toBe(200)
    expect(generation.body.data).toMatchObject({
      id: res.body.id,
      model: MODEL,
      provider_name: res.body.provider,
      total_cost: cost,
      tokens_prompt: res.body.usage.prompt_tokens,
      tokens_completion: res.body.usage.completion_tokens,
      streamed: false,
      finish_reason: 'stop',
      api_type: 'completions',
    })

    await emu.clock.advanceTo(Date.parse('2026-03-05T00:00:00Z'))
    const activity = (await emu.get('/api/v1/activity', emu.keys.management)).body.data
    expect(activity).toHaveLength(1)
    expect(activity[0]).toMatchObject({
      model: MODEL,
      requests: 1,
      prompt_tokens: res.body.usage.prompt_tokens,
      completion_tokens: res.body.usage.completion_tokens,
    })
    expect(activity[0].usage).toBeCloseTo(cost, 12)
  })

  it('402 before anything is sent: no credits, a key limit spent, a guardrail budget spent', async () => {
    const emu = await testEmulator()
    const broke = (await emu.send('POST', '/_emulator/api/accounts', {})).body.data
    const poor = await chat(emu, {}, broke.standard_key)
    expect(poor.status).toBe(402)
    expect(poor.body.error.metadata.limit_source).toBe('openrouter_credits')
    const poorStream = await emu.app.inject({
      method: 'POST',
      url: '/api/v1/chat/completions',
      headers: { authorization: `Bearer ${broke.standard_key}`, 'content-type': 'application/json' },
      payload: { model: MODEL, messages: USER, stream: true },
    })
    expect(poorStream.statusCode).toBe(402)
    expect(poorStream.headers['content-type']).toMatch(/^application\/json/)

    const hash = sha256Hex(emu.keys.standard)
    await emu.send('PATCH', `/api/v1/keys/${hash}`, { limit: 0.000001 }, emu.keys.management)
    expect((await chat(emu, {})).status).toBe(200)
    const over = await chat(emu, {})
    expect(over.status).toBe(402)
    expect(over.body.error.message).toBe('Key limit exceeded (total limit)')
    await emu.send('PATCH', `/api/v1/keys/${hash}`, { limit: null }, emu.keys.management)

    const guardrail = (await emu.send('POST', '/api/v1/guardrails', { name: 'tiny', limit_usd: 0.000001 }, emu.keys.management)).body.data
    await emu.send('POST', `/api/v1/guardrails/${guardrail.id}/assignments/keys`, { key_hashes: [hash] }, emu.keys.management)
    // The key's spending so far already counts against the budget.
    const budget = await chat(emu, {})
    expect(budget.status).toBe(402)
    expect(budget.body.error.metadata).toMatchObject({ limit_source: 'guardrail_budget', guardrail_id: guardrail.id })
  })

  it("routes by the request's provider preferences within what the key's guardrails allow", async () => {
    const emu = await testEmulator()
    const model = (await emu.get(`/api/v1/models/${MODEL}/endpoints`)).body.data
    const providers = (model.endpoints as Array<{ provider_name: string; tag: string }>).map((e) => e.provider_name)
    expect(providers.length).toBeGreaterThan(1)
    const [first, second] = providers as [string, string]
    expect((await chat(emu, { provider: { order: [second] } })).body.provider).toBe(second)
    expect((await chat(emu, { provider: { only: [first] } })).body.provider).toBe(first)
    expect((await chat(emu, { provider: { ignore: [first] } })).body.provider).not.toBe(first)
    const none = await chat(emu, { provider: { only: ['nobody'] } })
    expect(none.status).toBe(404)
    expect(none.body.error.message).toBe('No endpoints found that match your provider preferences')

    const hash = sha256Hex(emu.keys.standard)
    const assign = async (body: Record<string, unknown>) => {
      const guardrail = (await emu.send('POST', '/api/v1/guardrails', body, emu.keys.management)).body.data
      await emu.send('POST', `/api/v1/guardrails/${guardrail.id}/assignments/keys`, { key_hashes: [hash] }, emu.keys.management)
      return guardrail.id as string
    }
    // A guardrail that allows other models only: the model has no endpoint left for this key.
    const narrow = await assign({ name: 'other models', allowed_models: ['anthropic/claude-3.5-haiku'] })
    const denied = await chat(emu, {})
    expect(denied.status).toBe(404)
    expect(denied.body.error.message).toBe('No endpoints available matching your guardrail restrictions and data policy')
    await emu.send('DELETE', `/api/v1/guardrails/${narrow}`, undefined, emu.keys.management)
    // A guardrail that allows one provider: every answer comes from it, whatever the request prefers.
    await assign({ name: 'one provider', allowed_providers: [second.toLowerCase()] })
    expect((await chat(emu, {})).body.provider).toBe(second)
    expect((await chat(emu, { provider: { order: [first] } })).body.provider).toBe(second)
  })

  it("a generation is the caller's account's: another account's id is unknown", async () => {
    const emu = await testEmulator()
    const res = await chat(emu, {})
    const other = (await emu.send('POST', '/_emulator/api/accounts', { credits_usd: 5 })).body.data
    const lookup = await emu.get(`/api/v1/generation?id=${res.body.id}`, other.standard_key)
    expect(lookup.status).toBe(404)
    expect(lookup.body.error).toEqual({ code: 404, message: `Generation ${res.body.id} not found` })
  })
})

describe('streaming', () => {
  it('sends the role, content deltas, the finish reason, usage and [DONE], with the id in a header and on every chunk', async () => {
    const emu = await testEmulator()
    const whole = await chat(emu, {})
    const { res, events, comments, chunks } = await streamed(emu, {})
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('text/event-stream')
    expect(comments).toEqual(['OPENROUTER PROCESSING'])
    expect(events.at(-1)!.data).toBe('[DONE]')
    const id = res.headers['x-generation-id']
    expect(id).toMatch(/^gen-\d+-[A-Za-z0-9]{20}$/)
    expect(new Set(chunks.map((c) => c.id))).toEqual(new Set([id]))
    expect(chunks.every((c) => c.object === 'chat.completion.chunk')).toBe(true)
    expect(chunks[0]!.choices[0].delta).toEqual({ role: 'assistant', content: '' })
    const text = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')
    expect(text).toBe(whole.body.choices[0].message.content)
    expect(chunks.at(-2)!.choices[0].finish_reason).toBe('stop')
    expect(chunks.at(-1)!.choices).toEqual([])
    expect(chunks.at(-1)!.usage.completion_tokens).toBe(whole.body.usage.completion_tokens)
    expect((await emu.get(`/api/v1/generation?id=${id}`, emu.keys.standard)).body.data.streamed).toBe(true)
  })

  it('streams tool-call arguments in pieces after a first delta with the id, type and name', async () => {
    const emu = await testEmulator()
    const tools = [
      {
        type: 'function',
        function: {
          name: 'plan',
          parameters: { type: 'object', properties: { steps: { type: 'array', items: { type: 'string' }, minItems: 3 } }, required: ['steps'] },
        },
      },
    ]
    const whole = await chat(emu, { tools, tool_choice: 'required' })
    const { chunks } = await streamed(emu, { tools, tool_choice: 'required' })
    const deltas = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? [])
    expect(deltas[0]).toMatchObject({ index: 0, type: 'function', function: { name: 'plan', arguments: '' } })
    expect(deltas.length).toBeGreaterThan(2)
    expect(deltas.map((d) => d.function.arguments).join('')).toBe(whole.body.choices[0].message.tool_calls[0].function.arguments)
    expect(chunks.at(-2)!.choices[0].finish_reason).toBe('tool_calls')
  })

  it('is journaled with what was sent, and a fault answers a stream request in the envelope, not as a stream', async () => {
    const emu = await testEmulator()
    const { res } = await streamed(emu, {})
    const [summary] = (await emu.get('/_emulator/api/journal')).body.data
    const entry = (await emu.get(`/_emulator/api/journal/${summary.id}`)).body.data
    expect(entry.operation).toBe('chat.create')
    expect(entry.response.body_bytes).toBe(Buffer.byteLength(res.body))
    expect(entry.response.body).toBe(res.body)

    const faulted = await streamed(emu, {}, { 'x-emulator-fault': '429' })
    expect(faulted.res.statusCode).toBe(429)
    expect(faulted.res.json().error.code).toBe(429)
  })

  it('a fault breaks the stream after N chunks: an error chunk (HTTP 200 already sent), and only what was sent is billed', async () => {
    const emu = await testEmulator()
    const whole = await chat(emu, {})
    const rule = await emu.send('POST', '/_emulator/api/faults', { match: { operation: 'chat.create' }, action: { status: 502, stream: { after_chunks: 4 } } })
    expect(rule.status).toBe(201)
    const { res, events, chunks } = await streamed(emu, {})
    expect(res.statusCode).toBe(200)
    expect(events.map((e) => e.data)).not.toContain('[DONE]')
    expect(chunks).toHaveLength(5)
    const last = chunks.at(-1)!
    expect(last.error).toEqual({ code: 502, message: 'Provider returned error', metadata: { error_type: 'provider_unavailable' } })
    expect(last.choices[0]).toMatchObject({ finish_reason: 'error' })
    const sentText = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')
    expect(whole.body.choices[0].message.content.startsWith(sentText)).toBe(true)
    const generation = (await emu.get(`/api/v1/generation?id=${String(res.headers['x-generation-id'])}`, emu.keys.standard)).body.data
    expect(generation.finish_reason).toBe('error')
    expect(generation.tokens_completion).toBe(3)
    expect(generation.total_cost).toBeLessThan(whole.body.usage.cost)
    // The whole answer, the broken one: credits moved by both, the broken one at its smaller cost.
    expect((await emu.get('/api/v1/credits', emu.keys.standard)).body.data.total_usage).toBeCloseTo(whole.body.usage.cost + generation.total_cost, 12)
    // A request that does not stream gets the status at once.
    const plain = await chat(emu, {})
    expect(plain.status).toBe(502)
    expect(plain.body.error.code).toBe(502)
  })

  it('a fault can cut the connection part way; the client sees a failure, not a short success', async () => {
    const emu = await listeningEmulator()
    const rule = await emu.send('POST', '/_emulator/api/faults', { match: { operation: 'chat.create' }, action: { stream: { after_chunks: 2, cut: true } } })
    expect(rule.status, JSON.stringify(rule.body)).toBe(201)
    const res = await fetch(`${emu.url}/api/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, messages: USER, stream: true }),
    })
    expect(res.status).toBe(200)
    await expect(res.text()).rejects.toThrow()
    // Recorded once the server has seen the connection close.
    await expect.poll(async () => (await emu.get('/_emulator/api/journal')).body.data[0]?.fault).toBe(rule.body.data.id)
    const id = (await emu.get('/_emulator/api/journal')).body.data[0].path
    expect(id).toBe('/api/v1/chat/completions')
    // Two chunks went out (the role and one word): one completion token is billed.
    const generations = emu.ctx.db.prepare('SELECT u.completion_tokens, g.finish_reason FROM generations g JOIN usage u ON u.id = g.usage_id').all()
    expect(generations).toEqual([{ completion_tokens: 1, finish_reason: null }])
  })

  it('paced by --chat-speed, a stream follows a frozen clock: nothing after the first comment until the clock passes the latency, then the rest as it advances', async () => {
    const emu = await listeningEmulator({ chatSpeed: 1 })
    // The endpoint's figures, as the generation reports them: latency, then the whole generation.
    const plain = await chat(emu, {})
    const { latency, generation_time: total } = (await emu.get(`/api/v1/generation?id=${plain.body.id}`, emu.keys.standard)).body.data
    expect(latency).toBeGreaterThan(0)
    const res = await fetch(`${emu.url}/api/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, messages: USER, stream: true }),
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
    await emu.clock.advance(latency - 1)
    // A round trip to the same server: whatever the advance released has been written by now.
    expect((await emu.get('/_emulator/api/health')).status).toBe(200)
    let more = false
    const pending = reader.read().then((r) => {
      more = true
      return r
    })
    expect((await emu.get('/_emulator/api/health')).status).toBe(200)
    expect(more).toBe(false)
    await emu.clock.advance(1)
    const first = await pending
    received += first.value ?? ''
    expect(received).toContain('"role":"assistant"')
    expect(received).not.toContain('[DONE]')
    // One advance over the rest of the generation (twice its even pace: the waits jitter) releases everything due within it.
    await emu.clock.advance(2 * total)
    await until('data: [DONE]')
    const chunks = received.split('\n\n').filter((e) => e.startsWith('data: {'))
    const text = chunks.map((e) => JSON.parse(e.slice(6)).choices[0]?.delta?.content ?? '').join('')
    expect(text).toBe(plain.body.choices[0].message.content)
  })

  it('a fault `after_ms` counts on the frozen clock: the answer breaks when the clock passes it', async () => {
    const emu = await listeningEmulator()
    await emu.send('POST', '/_emulator/api/faults', { match: { operation: 'chat.create' }, action: { status: 503, stream: { after_ms: 5000 } } })
    const res = await fetch(`${emu.url}/api/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, messages: USER, stream: true }),
    })
    expect(res.status).toBe(200)
    const body = res.text()
    await emu.clock.advance('5s')
    const events = (await body).split('\n\n').filter((e) => e.startsWith('data: '))
    const last = JSON.parse(events.at(-1)!.slice(6))
    expect(last.error).toMatchObject({ code: 503 })
    expect(last.choices[0].finish_reason).toBe('error')
    expect(events.some((e) => e === 'data: [DONE]')).toBe(false)
    // Everything before the break was sent: the whole answer's text.
    expect(events.length).toBeGreaterThan(5)
  })

  it('a stream fault rule needs a status or a cut, and a point: 400 naming action.stream', async () => {
    const emu = await testEmulator()
    const noStatus = await emu.send('POST', '/_emulator/api/faults', { action: { stream: { after_chunks: 1 } } })
    expect(noStatus.status).toBe(400)
    expect(noStatus.body.error).toMatchObject({ code: 400, metadata: { field: 'action.stream' } })
    expect(noStatus.body.error.message).toBe('Field `action.stream` needs a `status` (an error chunk) or `cut: true` (the connection closes)')
    const noPoint = await emu.send('POST', '/_emulator/api/faults', { action: { status: 500, stream: {} } })
    expect(noPoint.status).toBe(400)
    expect(noPoint.body.error.message).toBe('Field `action.stream` needs `after_chunks` or `after_ms`: when the answer goes wrong')
  })
})
