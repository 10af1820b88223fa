// POST /api/v1/messages, the Anthropic Messages API: the message and its blocks (thinking, text,
// tool_use), stop reasons, every bad-input rule (status and Anthropic error body), every other error
// of the route in Anthropic's envelope, the ledger (key usage, credits, the generation, 402), chat
// fixtures, determinism, and the stream of named events with its mid-stream fault.
import { Ajv } from 'ajv'
import { createParser, type EventSourceMessage } from 'eventsource-parser'
import { describe, expect, it } from 'vitest'
import { IMAGE_TOKENS } from '../../../src/emulator/core/tokens.ts'
import { sha256Hex } from '../../../src/emulator/core/rng.ts'
import { png } from '../../helpers/images.ts'
import { testEmulator, type TestEmulator } from '../../helpers/emulator.ts'

const MODEL = 'anthropic/claude-sonnet-4'
/** An Anthropic model that does not reason: thinking asked of it gives no thinking block. */
const PLAIN_MODEL = 'anthropic/claude-3.5-haiku'
const URL_PATH = '/api/v1/messages'
const USER = [{ role: 'user', content: 'Tell me about lighthouses' }]
const PNG = png(8, 8).toString('base64')

const WEATHER_TOOL = {
  name: 'get_weather',
  description: 'The weather in a city',
  input_schema: {
    type: 'object',
    properties: { city: { type: 'string', minLength: 2 }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
    required: ['city', 'unit'],
  },
}

/** A message from the standard key (or `key`; null for none). */
const message = (emu: TestEmulator, body: Record<string, unknown>, key: string | null = emu.keys.standard) =>
  emu.send('POST', URL_PATH, { model: MODEL, max_tokens: 1024, messages: USER, ...body }, key ?? undefined)

/** The events of a streamed message, parsed as an EventSource parses them. */
async function streamed(emu: TestEmulator, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const res = await emu.app.inject({
    method: 'POST',
    url: URL_PATH,
    headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json', ...headers },
    payload: { model: MODEL, max_tokens: 1024, messages: USER, stream: true, ...body },
  })
  const events: EventSourceMessage[] = []
  createParser({ onEvent: (e) => events.push(e) }).feed(res.body)
  return { res, events, data: events.map((e) => JSON.parse(e.data) as Record<string, any>) }
}

/** Anthropic's error body for a status and a message (the error type follows the status). */
const anthropicError = (type: string, message: string | RegExp) => ({
  type: 'error',
  error: expect.objectContaining({ type, message: typeof message === 'string' ? message : expect.stringMatching(message) }),
  request_id: expect.stringMatching(/^req_[0-9a-f]{24}$/),
})

const usageRows = (emu: TestEmulator): number => (emu.ctx.db.prepare('SELECT COUNT(*) AS n FROM usage').get() as { n: number }).n

describe('a message', () => {
  it('answers with an Anthropic message whose id is the generation id, deterministically', async () => {
    const emu = await testEmulator()
    const res = await message(emu, {})
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    const body = res.body
    expect(body).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: MODEL,
      stop_reason: 'end_turn',
      stop_sequence: null,
      stop_details: null,
      container: null,
      usage: {
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        cache_creation: null,
        inference_geo: null,
        output_tokens_details: { thinking_tokens: 0 },
        server_tool_use: null,
        service_tier: 'standard',
        is_byok: false,
      },
    })
    expect(body.id).toMatch(/^msg_\d+-[A-Za-z0-9]{20}$/)
    expect(res.headers['x-generation-id']).toBe(`gen-${body.id.slice('msg_'.length)}`)
    expect(body.content).toEqual([{ type: 'text', text: expect.stringMatching(/lighthouses/), citations: null }])
    expect(body.usage.input_tokens).toBeGreaterThan(0)
    expect(body.usage.output_tokens).toBeGreaterThan(10)

    // The same request gives the same message; another conversation another one.
    const again = await message(emu, {})
    expect(again.body.content).toEqual(body.content)
    expect(again.body.usage).toEqual(body.usage)
    expect((await message(emu, { messages: [{ role: 'user', content: 'And submarines?' }] })).body.content).not.toEqual(body.content)
    // And the same bytes from another emulator of the same seed, JSON and stream alike.
    const [one, two] = [await testEmulator(), await testEmulator()]
    expect((await message(one, {})).body).toEqual((await message(two, {})).body)
    expect((await streamed(one, {})).res.body).toBe((await streamed(two, {})).res.body)
  })

  it('reads a system prompt (a string or text blocks) and content blocks: media count as tokens', async () => {
    const emu = await testEmulator()
    const tokens = async (body: Record<string, unknown>) => {
      const res = await message(emu, body)
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      // Every prompt token: those a cache breakpoint wrote or read are counted apart from input_tokens.
      const usage = res.body.usage as { input_tokens: number; cache_creation_input_tokens: number; cache_read_input_tokens: number }
      return usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens
    }
    const plain = await tokens({})
    expect(await tokens({ system: 'You are a lighthouse keeper who answers briefly.' })).toBeGreaterThan(plain)
    expect(await tokens({ system: [{ type: 'text', text: 'You are a lighthouse keeper who answers briefly.', cache_control: { type: 'ephemeral' } }] })).toBe(
      await tokens({ system: 'You are a lighthouse keeper who answers briefly.' }),
    )
    const withImages = await tokens({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/a.jpg' } },
            { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0x' } },
            { type: 'text', text: 'Tell me about lighthouses' },
          ],
        },
      ],
    })
    expect(withImages).toBe(plain + 3 * IMAGE_TOKENS)
    // A plain-text document is read as text.
    expect(
      await tokens({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'Keepers trimmed the wicks nightly.' } },
              { type: 'text', text: 'Tell me about lighthouses' },
            ],
          },
        ],
      }),
    ).toBeGreaterThan(plain)
  })

  it('stops at max_tokens (stop_reason "max_tokens") and at a stop sequence (stop_reason "stop_sequence", named)', async () => {
    const emu = await testEmulator()
    const cut = await message(emu, { max_tokens: 5 })
    expect(cut.body.stop_reason).toBe('max_tokens')
    expect(cut.body.stop_sequence).toBeNull()
    expect(cut.body.usage.output_tokens).toBe(5)
    const whole = await message(emu, {})
    const word = (whole.body.content[0].text as string).split(' ')[4]!
    const stopped = await message(emu, { stop_sequences: ['never-in-the-text', word] })
    expect(stopped.body.stop_reason).toBe('stop_sequence')
    expect(stopped.body.stop_sequence).toBe(word)
    expect(stopped.body.content[0].text).not.toContain(word)
    expect(whole.body.content[0].text.startsWith(stopped.body.content[0].text)).toBe(true)
    // A stop sequence the text never meets changes nothing.
    expect((await message(emu, { stop_sequences: ['never-in-the-text'] })).body).toMatchObject({ stop_reason: 'end_turn', stop_sequence: null })
  })

  it('thinks only where asked and the model reasons: a thinking block with a signature, first, within the budget', async () => {
    const emu = await testEmulator()
    const thought = await message(emu, { thinking: { type: 'enabled', budget_tokens: 48 } })
    expect(thought.status).toBe(200)
    const [thinking, text] = thought.body.content
    expect(thinking).toEqual({ type: 'thinking', thinking: expect.stringMatching(/lighthouses/), signature: expect.stringMatching(/^[A-Za-z0-9+/]+=*$/) })
    expect(text.type).toBe('text')
    const thinkingTokens = thought.body.usage.output_tokens_details.thinking_tokens
    expect(thinkingTokens).toBeGreaterThan(0)
    expect(thinkingTokens).toBeLessThanOrEqual(48)
    const plain = await message(emu, {})
    // The answer reads the same with or without thinking; the thinking is billed on top.
    expect(text.text).toBe(plain.body.content[0].text)
    expect(thought.body.usage.output_tokens).toBe(plain.body.usage.output_tokens + thinkingTokens)

    expect((await message(emu, { thinking: { type: 'adaptive' }, output_config: { effort: 'low' } })).body.content[0].type).toBe('thinking')
    expect((await message(emu, { thinking: { type: 'disabled' } })).body.content.map((b: { type: string }) => b.type)).toEqual(['text'])
    const omitted = await message(emu, { thinking: { type: 'enabled', budget_tokens: 48, display: 'omitted' } })
    expect(omitted.body.content[0]).toEqual({ type: 'thinking', thinking: '', signature: thinking.signature })
    expect(omitted.body.usage.output_tokens_details.thinking_tokens).toBe(thinkingTokens)
    // A model that does not reason answers without thinking.
    const haiku = await message(emu, { model: PLAIN_MODEL, thinking: { type: 'enabled', budget_tokens: 48 } })
    expect(haiku.body.content.map((b: { type: string }) => b.type)).toEqual(['text'])
    // Thinking passed back in the next turn is taken.
    const next = await message(emu, {
      thinking: { type: 'enabled', budget_tokens: 48 },
      messages: [...USER, { role: 'assistant', content: thought.body.content }, { role: 'user', content: 'And their lenses?' }],
    })
    expect(next.status, JSON.stringify(next.body)).toBe(200)
  })

  it('calls a tool (tool_use with an object input valid against input_schema), then answers its tool_result in text', async () => {
    const emu = await testEmulator()
    const ajv = new Ajv({ strict: false })
    const ask = { tools: [WEATHER_TOOL], messages: [{ role: 'user', content: 'What is the weather in Paris?' }] }
    const call = await message(emu, ask)
    expect(call.body.stop_reason).toBe('tool_use')
    const use = call.body.content.find((b: { type: string }) => b.type === 'tool_use')
    expect(use).toMatchObject({ type: 'tool_use', id: expect.stringMatching(/^toolu_[0-9a-f]{24}$/), name: 'get_weather', caller: { type: 'direct' } })
    expect(ajv.validate(WEATHER_TOOL.input_schema, use.input), ajv.errorsText()).toBe(true)

    const answer = await message(emu, {
      ...ask,
      messages: [
        ...ask.messages,
        { role: 'assistant', content: call.body.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: [{ type: 'text', text: '18 degrees and sunny' }] }] },
      ],
    })
    expect(answer.body.stop_reason).toBe('end_turn')
    expect(answer.body.content.map((b: { type: string }) => b.type)).toEqual(['text'])
    const failed = await message(emu, {
      ...ask,
      messages: [
        ...ask.messages,
        { role: 'assistant', content: call.body.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'the service is down', is_error: true }] },
      ],
    })
    expect(failed.body.stop_reason).toBe('end_turn')

    // tool_choice: a named tool, any tool, none; server tools are taken and never called.
    const lookup = { name: 'lookup', input_schema: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } }
    const named = await message(emu, { tools: [WEATHER_TOOL, lookup], tool_choice: { type: 'tool', name: 'lookup' } })
    expect(named.body.content.at(-1)).toMatchObject({ type: 'tool_use', name: 'lookup', input: { id: expect.any(Number) } })
    expect((await message(emu, { tools: [lookup], tool_choice: { type: 'any', disable_parallel_tool_use: true } })).body.stop_reason).toBe('tool_use')
    expect((await message(emu, { ...ask, tool_choice: { type: 'none' } })).body.stop_reason).toBe('end_turn')
    const server = await message(emu, { ...ask, tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 2 }, WEATHER_TOOL] })
    expect(server.body.content.at(-1)).toMatchObject({ type: 'tool_use', name: 'get_weather' })
  })

  it('takes a request as Claude Code sends it: ?beta=true, anthropic-* headers, cache_control, context_management', async () => {
    const emu = await testEmulator()
    const res = await emu.request({
      method: 'POST',
      url: `${URL_PATH}?beta=true`,
      headers: {
        authorization: `Bearer ${emu.keys.standard}`,
        'content-type': 'application/json',
        'anthropic-version': '2023-06-01',
        'anthropic-beta': 'claude-code-20250219,interleaved-thinking-2025-05-14',
        'x-app': 'cli',
      },
      payload: {
        model: MODEL,
        max_tokens: 32000,
        stream: true,
        system: [
          { type: 'text', text: 'You are Claude Code.', cache_control: { type: 'ephemeral' } },
          { type: 'text', text: 'Answer tersely.', cache_control: { type: 'ephemeral', ttl: '1h' } },
        ],
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Read the weather file', cache_control: { type: 'ephemeral' } }] }],
        tools: [{ ...WEATHER_TOOL, cache_control: { type: 'ephemeral' } }],
        thinking: { type: 'adaptive' },
        output_config: { effort: 'high' },
        context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
        metadata: { user_id: JSON.stringify({ device_id: 'd'.repeat(64), account_uuid: '', session_id: '3f1c2b8e-0000-4000-8000-000000000000' }) },
        temperature: 1,
      },
    })
    expect(res.status, res.body).toBe(200)
    expect(res.body).toContain('event: message_stop')
  })

  it('answers in JSON valid against output_config.format', async () => {
    const emu = await testEmulator()
    const schema = { type: 'object', properties: { name: { type: 'string' }, height_m: { type: 'integer', minimum: 1 } }, required: ['name', 'height_m'] }
    const res = await message(emu, { output_config: { format: { type: 'json_schema', schema } } })
    expect(res.status).toBe(200)
    const value = JSON.parse(res.body.content[0].text)
    expect(new Ajv({ strict: false }).validate(schema, value)).toBe(true)
  })
})

describe('bad input: a 400 in Anthropic’s envelope naming the field, nothing billed', () => {
  const tool = (name: string) => ({ name, input_schema: { type: 'object' } })
  const image = (source: Record<string, unknown>) => ({ messages: [{ role: 'user', content: [{ type: 'image', source }] }] })
  const cases: Array<[string, Record<string, unknown>, string | RegExp]> = [
    ['no model', { model: undefined }, 'Field `model` is required'],
    ['no messages', { messages: undefined }, 'Field `messages` is required'],
    ['messages null', { messages: null }, 'Field `messages` must be an array'],
    ['an empty conversation', { messages: [] }, 'Field `messages` must not be empty'],
    ['max_tokens 0', { max_tokens: 0 }, 'Field `max_tokens` must be >= 1'],
    ['a message that is not an object', { messages: ['hi'] }, 'Field `messages[0]` must be an object with `role` and `content`'],
    ['the tool role', { messages: [{ role: 'tool', content: 'x' }] }, 'Field `messages[0].role` must be one of user, assistant, system'],
    ['a message without content', { messages: [{ role: 'user' }] }, 'Field `messages[0].content` is required'],
    ['content of a number', { messages: [{ role: 'user', content: 5 }] }, 'Field `messages[0].content` must be a string or an array of content blocks'],
    [
      'a block of an unknown type',
      { messages: [{ role: 'user', content: [{ type: 'video' }] }] },
      'Field `messages[0].content[0].type` must be one of text, image, document, tool_use, tool_result, thinking, redacted_thinking, search_result, compaction, server_tool_use, web_search_tool_result, advisor_tool_result, tool_addition, tool_removal, openrouter_shell_tool_result, openrouter_bash_tool_result',
    ],
    ['a text block without text', { messages: [{ role: 'user', content: [{ type: 'text' }] }] }, 'Field `messages[0].content[0].text` must be a string'],
    [
      'an image of another media type',
      image({ type: 'base64', media_type: 'image/bmp', data: PNG }),
      'Field `messages[0].content[0].source.media_type` must be one of image/jpeg, image/png, image/gif, image/webp',
    ],
    [
      'an image as a data URI',
      image({ type: 'base64', media_type: 'image/png', data: `data:image/png;base64,${PNG}` }),
      'Field `messages[0].content[0].source.data` must be base64 (no data: prefix, no line breaks)',
    ],
    [
      'an image with no data',
      image({ type: 'base64', media_type: 'image/png', data: '' }),
      'Field `messages[0].content[0].source.data` must be a non-empty string',
    ],
    [
      'an image URL of another scheme',
      image({ type: 'url', url: 'ftp://example.com/a.png' }),
      'Field `messages[0].content[0].source.url` must be an http(s) URL',
    ],
    ['an image source of another type', image({ type: 'file', file_id: 'f' }), 'Field `messages[0].content[0].source.type` must be one of base64, url'],
    [
      'a document source of another type',
      { messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'zip' } }] }] },
      'Field `messages[0].content[0].source.type` must be one of base64, text, content, url, file',
    ],
    [
      'a PDF of another media type',
      { messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'base64', media_type: 'application/zip', data: 'UEsD' } }] }] },
      'Field `messages[0].content[0].source.media_type` must be application/pdf',
    ],
    [
      'a tool_use without an id',
      { messages: [...USER, { role: 'assistant', content: [{ type: 'tool_use', name: 'f', input: {} }] }] },
      'Field `messages[1].content[0].id` must be a non-empty string',
    ],
    [
      'a tool_result without tool_use_id',
      { messages: [...USER, { role: 'user', content: [{ type: 'tool_result', content: 'x' }] }] },
      'Field `messages[1].content[0].tool_use_id` must be a non-empty string',
    ],
    [
      'a tool_result with is_error of text',
      { messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', is_error: 'yes' }] }] },
      'Field `messages[0].content[0].is_error` must be a boolean',
    ],
    [
      'a tool_result holding a thinking block',
      {
        messages: [
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'thinking', thinking: 'x', signature: 's' }] }] },
        ],
      },
      'Field `messages[0].content[0].content[0].type` must be one of text, image, document, search_result, tool_reference',
    ],
    [
      'thinking passed back without its signature',
      { messages: [...USER, { role: 'assistant', content: [{ type: 'thinking', thinking: 'hmm' }] }] },
      'Field `messages[1].content[0].signature` must be a string',
    ],
    ['a system prompt of a number', { system: 5 }, 'Field `system` must be a string or an array of text blocks'],
    ['a system block of another type', { system: [{ type: 'image' }] }, 'Field `system[0].type` must be one of text'],
    ['a tool without input_schema', { tools: [{ name: 'f' }] }, 'Field `tools[0].input_schema` is required (a JSON Schema of the tool’s input)'],
    ['a tool name with a space', { tools: [tool('get weather')] }, 'Field `tools[0].name` must be 1 to 64 letters, digits, _ or -'],
    ['a tool named twice', { tools: [tool('f'), tool('f')] }, 'Field `tools[1].name` repeats the name f'],
    ['an invalid input_schema', { tools: [{ name: 'f', input_schema: { type: 5 } }] }, /^Field `tools\[0\]\.input_schema` is not a valid JSON Schema: /],
    [
      'a chat completions tool',
      { tools: [{ type: 'function', function: { name: 'f', parameters: {} } }] },
      'Field `tools[0].type` is "function", the chat completions tool shape: a Messages tool is {"name", "description", "input_schema"}',
    ],
    ['bash with another name', { tools: [{ type: 'bash_20250124', name: 'shell' }] }, 'Field `tools[0].name` must be "bash" for a bash_20250124 tool'],
    [
      'the text editor without its name',
      { tools: [{ type: 'text_editor_20250124' }] },
      'Field `tools[0].name` must be "str_replace_editor" for a text_editor_20250124 tool',
    ],
    ['web search without its name', { tools: [{ type: 'web_search_20250305' }] }, 'Field `tools[0].name` must be "web_search" for a web_search_20250305 tool'],
    ['the advisor without a model', { tools: [{ type: 'advisor_20260301', name: 'advisor' }] }, 'Field `tools[0].model` is required: the advisor model’s id'],
    ['a server tool whose type is empty', { tools: [{ type: '' }] }, 'Field `tools[0].type` must be a non-empty string'],
    [
      'tool_choice naming no tool',
      { tools: [tool('f')], tool_choice: { type: 'tool', name: 'g' } },
      "Field `tool_choice.name` names g, which is not among the request's custom `tools`",
    ],
    ['tool_choice any without tools', { tool_choice: { type: 'any' } }, 'Field `tool_choice.type` is "any" but the request has no custom `tools`'],
    [
      'tool_choice as chat writes it',
      { tools: [tool('f')], tool_choice: 'auto' },
      'Field `tool_choice` must be an object: {"type":"auto"}, {"type":"any"}, {"type":"none"} or {"type":"tool","name":"..."}',
    ],
    ['tool_choice of another type', { tools: [tool('f')], tool_choice: { type: 'required' } }, 'Field `tool_choice.type` must be one of auto, any, none, tool'],
    ['thinking without a budget', { thinking: { type: 'enabled' } }, 'Field `thinking.budget_tokens` must be an integer from 1 to 10000000'],
    ['thinking of another type', { thinking: { type: 'on' } }, 'Field `thinking.type` must be one of enabled, disabled, adaptive'],
    ['thinking shown another way', { thinking: { type: 'adaptive', display: 'full' } }, 'Field `thinking.display` must be one of summarized, omitted, updates'],
    ['an unknown effort', { output_config: { effort: 'extreme' } }, 'Field `output_config.effort` must be one of low, medium, high, xhigh, max'],
    ['an output format of another type', { output_config: { format: { type: 'json_object' } } }, 'Field `output_config.format.type` must be json_schema'],
    ['stop_sequences as a string', { stop_sequences: 'END' }, 'Field `stop_sequences` must be an array'],
    ['a temperature of 3', { temperature: 3 }, 'Field `temperature` must be <= 2'],
    ['stream as text', { stream: 'yes' }, 'Field `stream` must be a boolean'],
    ['models and fallbacks together', { models: [PLAIN_MODEL], fallbacks: [{ model: PLAIN_MODEL }] }, 'Field `fallbacks` cannot be combined with `models`'],
    ['an embeddings model', { model: 'openai/text-embedding-3-small' }, 'openai/text-embedding-3-small is an embeddings model: call it on /api/v1/embeddings'],
  ]
  it.each(cases)('%s', async (_name, body, expected) => {
    const emu = await testEmulator()
    const res = await message(emu, body)
    expect(res.status, JSON.stringify(res.body)).toBe(400)
    expect(res.body).toEqual({ ...anthropicError('invalid_request_error', expected), metadata: expect.anything() })
    expect(res.body.error.error_type).toBe('invalid_request')
    expect(res.headers['request-id']).toBe(res.body.request_id)
    expect(usageRows(emu)).toBe(0)
  })
})

describe('every other error of the route, in Anthropic’s envelope', () => {
  it('refuses a missing, unknown or management key, and an x-api-key with a way to send it (never the key)', async () => {
    const emu = await testEmulator()
    expect(await message(emu, {}, null)).toMatchObject({ status: 401, body: anthropicError('authentication_error', 'No auth credentials found') })
    expect(await message(emu, {}, 'sk-gw-v1-nobody')).toMatchObject({ status: 401, body: anthropicError('authentication_error', 'User not found.') })
    expect((await message(emu, {}, emu.keys.management)).body.error.type).toBe('authentication_error')
    const sdkDefault = await emu.request({
      method: 'POST',
      url: URL_PATH,
      headers: { 'x-api-key': emu.keys.standard, 'content-type': 'application/json' },
      payload: { model: MODEL, max_tokens: 10, messages: USER },
    })
    expect(sdkDefault.status).toBe(401)
    expect(sdkDefault.body).toEqual({
      ...anthropicError('authentication_error', /^The x-api-key header is not accepted here: send your API key as a Bearer token/),
      metadata: { field: 'x-api-key', location: 'headers' },
    })
    expect(JSON.stringify(sdkDefault.body)).not.toContain(emu.keys.standard)
    const journal = JSON.stringify((await emu.get('/_emulator/api/journal')).body)
    expect(journal).toContain('x-api-key')
    expect(journal).not.toContain(emu.keys.standard)
    // Both headers: the Bearer token is used.
    const both = await emu.request({
      method: 'POST',
      url: URL_PATH,
      headers: { 'x-api-key': 'anything', authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
      payload: { model: MODEL, max_tokens: 10, messages: USER },
    })
    expect(both.status).toBe(200)
    expect(usageRows(emu)).toBe(1)
  })

  it('answers an unknown model with a 404 not_found_error, and other paths under /messages with a 404', async () => {
    const emu = await testEmulator()
    const unknown = await message(emu, { model: 'nobody/nothing' })
    expect(unknown).toMatchObject({ status: 404, body: anthropicError('not_found_error', 'Model nobody/nothing not found') })
    // A fallback the catalog knows answers instead.
    expect((await message(emu, { model: 'nobody/nothing', fallbacks: [{ model: PLAIN_MODEL }] })).body.model).toBe(PLAIN_MODEL)
    const countTokens = await emu.send('POST', `${URL_PATH}/count_tokens`, { model: MODEL, messages: USER }, emu.keys.standard)
    expect(countTokens).toMatchObject({ status: 404, body: anthropicError('not_found_error', 'Not Found: no route for POST /api/v1/messages/count_tokens') })
    expect((await emu.get(URL_PATH, emu.keys.standard)).body).toEqual(anthropicError('not_found_error', 'Not Found: no route for GET /api/v1/messages'))
    // The rest of the gateway keeps its own envelope.
    expect((await emu.get('/api/v1/nothing')).body).toEqual({ error: { code: 404, message: 'Not Found: no route for GET /api/v1/nothing' } })
  })

  it('answers a malformed body, a body too large and a wrong content type in Anthropic’s words', async () => {
    const emu = await testEmulator()
    const headers = { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' }
    const malformed = await emu.request({ method: 'POST', url: URL_PATH, headers, payload: '{"model": ' })
    expect(malformed).toMatchObject({ status: 400, body: anthropicError('invalid_request_error', /^Malformed JSON body/) })
    const large = await emu.request({ method: 'POST', url: URL_PATH, headers, payload: `{"model":"${'x'.repeat(33 * 1024 * 1024)}"}` })
    expect(large.status).toBe(413)
    expect(large.body).toEqual({
      ...anthropicError('invalid_request_error', 'Request payload too large: this route takes bodies up to 32 MB'),
      metadata: { limit_bytes: 32 * 1024 * 1024 },
    })
    expect(large.body.error.error_type).toBe('payload_too_large')
    const text = await emu.request({ method: 'POST', url: URL_PATH, headers: { ...headers, 'content-type': 'text/plain' }, payload: 'hello' })
    expect(text).toMatchObject({ status: 400, body: anthropicError('invalid_request_error', /^Unsupported Content-Type/) })
  })

  it('answers fault statuses with their Anthropic types, and a rate limit with rate_limit_error', async () => {
    const emu = await testEmulator()
    const faulted = (status: string) =>
      emu.request({
        method: 'POST',
        url: URL_PATH,
        headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json', 'x-emulator-fault': status },
        payload: { model: MODEL, max_tokens: 10, messages: USER },
      })
    const limited = await faulted('429')
    expect(limited).toMatchObject({ status: 429, body: anthropicError('rate_limit_error', 'Rate limit exceeded') })
    expect(limited.headers['retry-after']).toBe('1')
    expect(limited.body.metadata).toMatchObject({ emulator_fault: 'header' })
    for (const [status, type] of [
      ['400', 'invalid_request_error'],
      ['402', 'billing_error'],
      ['403', 'permission_error'],
      ['500', 'api_error'],
      ['502', 'api_error'],
      ['503', 'overloaded_error'],
      ['529', 'overloaded_error'],
    ] as const) {
      const res = await faulted(status)
      expect(res.status).toBe(Number(status))
      expect(res.body.type).toBe('error')
      expect(res.body.error.type, status).toBe(type)
    }
    const badHeader = await faulted('soon')
    expect(badHeader).toMatchObject({
      status: 400,
      body: anthropicError('invalid_request_error', 'Header X-Emulator-Fault must be an HTTP status from 400 to 599'),
    })

    await emu.send('PUT', '/_emulator/api/rate-limits', { keyPerMinute: 1 })
    expect((await message(emu, { max_tokens: 10 })).status).toBe(200)
    const over = await message(emu, { max_tokens: 10 })
    expect(over.status).toBe(429)
    expect(over.body.error.type).toBe('rate_limit_error')
    expect(usageRows(emu)).toBe(1)
  })
})

describe('the ledger', () => {
  it('moves key usage and credits by the billed cost, and records the generation under the message id', async () => {
    const emu = await testEmulator()
    const res = await message(emu, { metadata: { user_id: 'user-42' } }, emu.keys.standard)
    const cost = res.body.usage.cost as number
    const endpoint = emu.ctx.services.catalog
      .get()
      .find(MODEL)!
      .endpoints.find((e) => e.provider_name === res.body.provider)!
    expect(cost).toBeCloseTo(
      res.body.usage.input_tokens * Number(endpoint.pricing.prompt) + res.body.usage.output_tokens * Number(endpoint.pricing.completion),
      12,
    )
    const key = (await emu.get('/api/v1/keys', emu.keys.management)).body.data.find((k: { hash: string }) => k.hash === sha256Hex(emu.keys.standard))
    expect(key.usage).toBeCloseTo(cost, 12)
    expect((await emu.get('/api/v1/credits', emu.keys.standard)).body.data.total_usage).toBeCloseTo(cost, 12)
    const generation = await emu.get(`/api/v1/generation?id=gen-${res.body.id.slice('msg_'.length)}`, emu.keys.standard)
    expect(generation.body.data).toMatchObject({
      model: MODEL,
      total_cost: cost,
      tokens_prompt: res.body.usage.input_tokens,
      tokens_completion: res.body.usage.output_tokens,
      streamed: false,
      finish_reason: 'stop',
      api_type: 'completions',
      external_user: 'user-42',
    })
  })

  it('402 (billing_error) before anything is sent, billing nothing', async () => {
    const emu = await testEmulator()
    const broke = (await emu.send('POST', '/_emulator/api/accounts', {})).body.data
    const poor = await message(emu, {}, broke.standard_key)
    expect(poor.status).toBe(402)
    expect(poor.body).toEqual({
      ...anthropicError('billing_error', /Insufficient credits/),
      metadata: expect.objectContaining({ limit_source: 'openrouter_credits' }),
    })
    const stream = await emu.app.inject({
      method: 'POST',
      url: URL_PATH,
      headers: { authorization: `Bearer ${broke.standard_key}`, 'content-type': 'application/json' },
      payload: { model: MODEL, max_tokens: 10, messages: USER, stream: true },
    })
    expect(stream.statusCode).toBe(402)
    expect(stream.headers['content-type']).toMatch(/^application\/json/)
    expect(usageRows(emu)).toBe(0)
    expect((await emu.get('/api/v1/credits', broke.standard_key)).body.data.total_usage).toBe(0)
  })

  it('answers with a chat fixture (text, tool calls or an error) when one matches', async () => {
    const emu = await testEmulator()
    const account = emu.ctx.services.accounts.list()[0]!.id
    const fixture = (match: Record<string, unknown>, answer: Record<string, unknown>) =>
      emu.send('POST', `/_emulator/api/accounts/${account}/chat-fixtures`, { match, answer })
    await fixture({ last_user_regex: 'order #\\d+' }, { content: 'Your order ships tomorrow.' })
    await fixture({ last_user: 'refund' }, { tool_calls: [{ name: 'get_weather', arguments: { city: 'Oslo', unit: 'celsius' } }] })
    await fixture({ last_user: 'explode' }, { error: { status: 529 } })
    const fixed = await message(emu, { messages: [{ role: 'user', content: 'Where is order #12?' }] })
    expect(fixed.body.content).toEqual([{ type: 'text', text: 'Your order ships tomorrow.', citations: null }])
    expect(fixed.body.stop_reason).toBe('end_turn')
    const called = await message(emu, { tools: [WEATHER_TOOL], messages: [{ role: 'user', content: 'I want a refund' }] })
    expect(called.body.content).toEqual([
      { type: 'tool_use', id: expect.stringMatching(/^toolu_/), name: 'get_weather', input: { city: 'Oslo', unit: 'celsius' }, caller: { type: 'direct' } },
    ])
    const exploded = await message(emu, { messages: [{ role: 'user', content: 'explode' }] })
    expect(exploded.status).toBe(529)
    expect(exploded.body.error.type).toBe('overloaded_error')
  })
})

describe('streaming', () => {
  it('sends Anthropic’s named events in order, with the same message as the JSON answer', async () => {
    const emu = await testEmulator()
    const whole = await message(emu, { thinking: { type: 'enabled', budget_tokens: 32 } })
    const { res, events, data } = await streamed(emu, { thinking: { type: 'enabled', budget_tokens: 32 } })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('text/event-stream')
    expect(res.headers['x-generation-id']).toMatch(/^gen-/)
    for (const [i, event] of events.entries()) expect(event.event).toBe(data[i]!.type)
    const names = events.map((e) => e.event)
    expect(names.slice(0, 3)).toEqual(['message_start', 'ping', 'content_block_start'])
    expect(names.slice(-2)).toEqual(['message_delta', 'message_stop'])
    expect(data[0]!.message).toMatchObject({
      id: `msg_${String(res.headers['x-generation-id']).slice(4)}`,
      content: [],
      stop_reason: null,
      usage: { output_tokens: 0 },
    })

    const thinking = data.filter((d) => d.delta?.type === 'thinking_delta').map((d) => d.delta.thinking as string)
    const text = data.filter((d) => d.delta?.type === 'text_delta').map((d) => d.delta.text as string)
    expect(thinking.join('')).toBe(whole.body.content[0].thinking)
    expect(text.join('')).toBe(whole.body.content[1].text)
    expect(data.find((d) => d.delta?.type === 'signature_delta')!.delta.signature).toBe(whole.body.content[0].signature)
    // Each block: start, its deltas, stop, by index.
    const starts = data.filter((d) => d.type === 'content_block_start')
    expect(starts.map((d) => [d.index, d.content_block.type])).toEqual([
      [0, 'thinking'],
      [1, 'text'],
    ])
    expect(starts[1]!.content_block).toEqual({ type: 'text', text: '', citations: null })
    expect(data.filter((d) => d.type === 'content_block_stop').map((d) => d.index)).toEqual([0, 1])
    const delta = data.at(-2)!
    expect(delta.delta).toEqual({ stop_reason: 'end_turn', stop_sequence: null, stop_details: null, container: null })
    expect(delta.usage).toEqual(whole.body.usage)
    const generation = (await emu.get(`/api/v1/generation?id=${String(res.headers['x-generation-id'])}`, emu.keys.standard)).body.data
    expect(generation.streamed).toBe(true)
  })

  it('streams a tool call as input_json_delta pieces of its input, and a stop sequence in message_delta', async () => {
    const emu = await testEmulator()
    const body = { tools: [WEATHER_TOOL], tool_choice: { type: 'any' } }
    const whole = await message(emu, body)
    const { data } = await streamed(emu, body)
    const start = data.find((d) => d.type === 'content_block_start')!
    expect(start.content_block).toEqual({ ...whole.body.content[0], input: {} })
    const json = data.filter((d) => d.delta?.type === 'input_json_delta').map((d) => d.delta.partial_json as string)
    expect(json.length).toBeGreaterThan(0)
    expect(JSON.parse(json.join(''))).toEqual(whole.body.content[0].input)
    expect(data.at(-2)!.delta.stop_reason).toBe('tool_use')

    const plain = await message(emu, {})
    const word = (plain.body.content[0].text as string).split(' ')[3]!
    const stopped = await streamed(emu, { stop_sequences: [word] })
    expect(stopped.data.at(-2)!.delta).toMatchObject({ stop_reason: 'stop_sequence', stop_sequence: word })
  })

  it('a fault rule breaks the stream part way with event: error; only what was sent is billed', async () => {
    const emu = await testEmulator()
    const whole = await message(emu, {})
    const rule = await emu.send('POST', '/_emulator/api/faults', {
      match: { operation: 'messages.create' },
      action: { status: 529, message: 'Overloaded', stream: { after_chunks: 5 } },
    })
    expect(rule.status).toBe(201)
    const { res, events, data } = await streamed(emu, {})
    expect(res.statusCode).toBe(200)
    expect(events).toHaveLength(6)
    expect(events.at(-1)!.event).toBe('error')
    expect(data.at(-1)).toEqual({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded', error_type: 'provider_overloaded' } })
    expect(events.map((e) => e.event)).not.toContain('message_stop')
    const sent = data.filter((d) => d.delta?.type === 'text_delta').map((d) => d.delta.text as string)
    expect(sent).toHaveLength(2)
    expect(whole.body.content[0].text.startsWith(sent.join(''))).toBe(true)
    const generation = (await emu.get(`/api/v1/generation?id=${String(res.headers['x-generation-id'])}`, emu.keys.standard)).body.data
    expect(generation).toMatchObject({ finish_reason: 'error', tokens_completion: 2 })
    expect((await emu.get('/api/v1/credits', emu.keys.standard)).body.data.total_usage).toBeCloseTo(whole.body.usage.cost + generation.total_cost, 12)
    // A request that does not stream gets the status at once, as JSON.
    const plain = await message(emu, {})
    expect(plain).toMatchObject({ status: 529, body: anthropicError('overloaded_error', 'Overloaded') })
  })
})
