// The Messages API through @anthropic-ai/sdk, unmodified, over real HTTP, set up as the gateway
// documents it (base URL `<origin>/api`, the key as a Bearer token): create, stream (its own event
// parsing and finalMessage), a tool round trip, thinking, and its typed errors.
import Anthropic, { APIError, AuthenticationError, BadRequestError, NotFoundError, PaymentRequiredError } from '@anthropic-ai/sdk'
import { Ajv } from 'ajv'
import { describe, expect, it } from 'vitest'
import { listeningEmulator } from '../../helpers/emulator.ts'

const MODEL = 'anthropic/claude-sonnet-4'

const WEATHER = {
  type: 'object' as const,
  properties: { city: { type: 'string', minLength: 2 }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
  required: ['city', 'unit'],
}

const clientFor = (url: string, key: string): Anthropic => new Anthropic({ baseURL: `${url}/api`, authToken: key, apiKey: null, maxRetries: 0 })

describe('@anthropic-ai/sdk', () => {
  it('creates a message, and streams the same one (messages.stream and finalMessage)', async () => {
    const emu = await listeningEmulator()
    const client = clientFor(emu.url, emu.keys.standard)
    const request = { model: MODEL, max_tokens: 256, messages: [{ role: 'user' as const, content: 'Tell me about lighthouses' }] }
    const message = await client.messages.create(request)
    expect(message).toMatchObject({ type: 'message', role: 'assistant', model: MODEL, stop_reason: 'end_turn', stop_sequence: null })
    expect(message.id).toMatch(/^msg_/)
    expect(message.content).toHaveLength(1)
    const [block] = message.content
    expect(block!.type === 'text' && block!.text).toMatch(/lighthouses/)
    expect(message.usage.output_tokens).toBeGreaterThan(10)

    const stream = client.messages.stream(request)
    let text = ''
    stream.on('text', (delta) => {
      text += delta
    })
    const events: string[] = []
    stream.on('streamEvent', (event) => events.push(event.type))
    const final = await stream.finalMessage()
    expect(text).toBe(block!.type === 'text' ? block!.text : null)
    expect(final.content).toEqual(message.content)
    expect(final.stop_reason).toBe('end_turn')
    expect(final.usage).toMatchObject({ input_tokens: message.usage.input_tokens, output_tokens: message.usage.output_tokens })
    expect(events[0]).toBe('message_start')
    expect(events.at(-1)).toBe('message_stop')

    // The raw stream of create({ stream: true }) too.
    const raw = await client.messages.create({ ...request, stream: true })
    const types: string[] = []
    for await (const event of raw) types.push(event.type)
    expect(types).toContain('content_block_delta')
    expect(types.at(-2)).toBe('message_delta')
  })

  it('runs a tool round trip: tool_use, then the tool_result answered in text', async () => {
    const emu = await listeningEmulator()
    const client = clientFor(emu.url, emu.keys.standard)
    const tools = [{ name: 'get_weather', description: 'The weather in a city', input_schema: WEATHER }]
    const question = { role: 'user' as const, content: 'What is the weather in Paris?' }
    const first = await client.messages.create({ model: MODEL, max_tokens: 512, tools, messages: [question] })
    expect(first.stop_reason).toBe('tool_use')
    const use = first.content.find((b) => b.type === 'tool_use')
    if (use?.type !== 'tool_use') throw new Error('no tool_use block')
    expect(use.name).toBe('get_weather')
    expect(new Ajv({ strict: false }).validate(WEATHER, use.input)).toBe(true)

    // The stream gives the same tool call, its input parsed from the input_json_delta pieces.
    const streamed = await client.messages.stream({ model: MODEL, max_tokens: 512, tools, messages: [question] }).finalMessage()
    expect(streamed.content.find((b) => b.type === 'tool_use')).toMatchObject({ name: 'get_weather', input: use.input })

    const second = await client.messages.create({
      model: MODEL,
      max_tokens: 512,
      tools,
      messages: [
        question,
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: '18 degrees and sunny' }] },
      ],
    })
    expect(second.stop_reason).toBe('end_turn')
    expect(second.content.map((b) => b.type)).toEqual(['text'])
  })

  it('thinks when asked: a thinking block with its signature, created and streamed alike', async () => {
    const emu = await listeningEmulator()
    const client = clientFor(emu.url, emu.keys.standard)
    const request = {
      model: MODEL,
      max_tokens: 2048,
      thinking: { type: 'enabled' as const, budget_tokens: 1024 },
      messages: [{ role: 'user' as const, content: 'Why do lighthouses rotate?' }],
    }
    const message = await client.messages.create(request)
    const [thinking, text] = message.content
    expect(thinking?.type).toBe('thinking')
    expect(text?.type).toBe('text')
    if (thinking?.type !== 'thinking') throw new Error('no thinking block')
    expect(thinking.thinking).toMatch(/lighthouses/)
    expect(thinking.signature).not.toBe('')

    const stream = client.messages.stream(request)
    let thought = ''
    stream.on('thinking', (delta) => {
      thought += delta
    })
    const final = await stream.finalMessage()
    expect(thought).toBe(thinking.thinking)
    expect(final.content).toEqual(message.content)
  })

  it('throws its typed errors: 400, 401, 402, 404, a key sent as x-api-key, and a stream broken by a fault', async () => {
    const emu = await listeningEmulator()
    const client = clientFor(emu.url, emu.keys.standard)
    const request = { model: MODEL, max_tokens: 64, messages: [{ role: 'user' as const, content: 'hello' }] }

    const bad = await client.messages.create({ ...request, tool_choice: { type: 'tool', name: 'nothing' } }).catch((e: unknown) => e)
    expect(bad).toBeInstanceOf(BadRequestError)
    const badError = bad as BadRequestError
    expect(badError.status).toBe(400)
    expect(badError.type).toBe('invalid_request_error')
    expect(badError.apiMessage).toBe("Field `tool_choice.name` names nothing, which is not among the request's custom `tools`")
    expect(badError.requestID).toMatch(/^req_/)

    const unknownKey = await clientFor(emu.url, 'sk-gw-v1-nobody')
      .messages.create(request)
      .catch((e: unknown) => e)
    expect(unknownKey).toBeInstanceOf(AuthenticationError)
    expect((unknownKey as AuthenticationError).type).toBe('authentication_error')

    const broke = (await emu.send('POST', '/_emulator/api/accounts', {})).body.data.standard_key as string
    const poor = await clientFor(emu.url, broke)
      .messages.create(request)
      .catch((e: unknown) => e)
    expect(poor).toBeInstanceOf(PaymentRequiredError)
    expect((poor as PaymentRequiredError).type).toBe('billing_error')

    const missing = await client.messages.create({ ...request, model: 'nobody/nothing' }).catch((e: unknown) => e)
    expect(missing).toBeInstanceOf(NotFoundError)
    expect((missing as NotFoundError).type).toBe('not_found_error')

    // A client that sends the key the Anthropic way is told how to send it.
    const apiKeyHeader = new Anthropic({
      baseURL: `${emu.url}/api`,
      apiKey: null,
      authToken: null,
      maxRetries: 0,
      defaultHeaders: { 'x-api-key': emu.keys.standard },
    })
    const refused = await apiKeyHeader.messages.create(request).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(AuthenticationError)
    expect((refused as AuthenticationError).apiMessage).toMatch(/send your API key as a Bearer token/)

    await emu.send('POST', '/_emulator/api/faults', {
      match: { operation: 'messages.create' },
      action: { status: 529, message: 'Overloaded', stream: { after_chunks: 4 } },
    })
    const broken = await client.messages
      .stream(request)
      .finalMessage()
      .catch((e: unknown) => e)
    expect(broken).toBeInstanceOf(APIError)
    expect((broken as APIError).type).toBe('overloaded_error')
    expect((broken as APIError).apiMessage).toBe('Overloaded')
  })
})
