// POST /api/v1/responses: the response object's shape, input as a string or as items (every part and
// item kind, a tool round trip, reasoning passed back), every bad-input rule (status and error body,
// nothing billed), the ledger (key usage, credits, the generation record, 402), chat fixtures, faults
// (the header, and a rule that breaks a stream part way), determinism, and streaming as named events.
import { createParser, type EventSourceMessage } from 'eventsource-parser'
import { describe, expect, it } from 'vitest'
import { sha256Hex } from '../../../src/emulator/core/rng.ts'
import { listeningEmulator, testEmulator, type TestEmulator } from '../../helpers/emulator.ts'

const MODEL = 'openai/gpt-4o-mini'
const REASONING_MODEL = 'openai/o4-mini'
const INPUT = 'Tell me about lighthouses'
const WEATHER_TOOL = {
  type: 'function',
  name: 'get_weather',
  description: 'The weather in a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  strict: true,
}

const create = (emu: TestEmulator, body: Record<string, unknown>, key = emu.keys.standard) =>
  emu.send('POST', '/api/v1/responses', { model: MODEL, input: INPUT, ...body }, key)

interface Streamed {
  status: number
  headers: Record<string, unknown>
  events: EventSourceMessage[]
  /** The data of each named event, parsed. */
  data: Array<Record<string, any>>
  comments: string[]
  body: string
}

/** A streamed response's events, parsed as a browser's EventSource parses them. */
async function streamed(emu: TestEmulator, body: Record<string, unknown>, headers: Record<string, string> = {}, key = emu.keys.standard): Promise<Streamed> {
  const res = await emu.app.inject({
    method: 'POST',
    url: '/api/v1/responses',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
    payload: { model: MODEL, input: INPUT, stream: true, ...body },
  })
  const events: EventSourceMessage[] = []
  const comments: string[] = []
  createParser({ onEvent: (e) => events.push(e), onComment: (c) => comments.push(c) }).feed(res.body)
  const data = events.filter((e) => e.data !== '[DONE]').map((e) => JSON.parse(e.data) as Record<string, any>)
  return { status: res.statusCode, headers: res.headers, events, data, comments, body: res.body }
}

const totalUsage = async (emu: TestEmulator, key = emu.keys.standard): Promise<number> => (await emu.get('/api/v1/credits', key)).body.data.total_usage

/** The text of a response's message items. */
const textOf = (response: { output: Array<Record<string, any>> }): string =>
  response.output
    .filter((item) => item.type === 'message')
    .flatMap((item) => item.content.map((part: { text: string }) => part.text))
    .join('')

describe('the response object', () => {
  it('answers a string input with one completed message, usage and cost, the id in a header', async () => {
    const emu = await testEmulator()
    const res = await create(emu, {})
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    const body = res.body
    expect(body).toMatchObject({
      object: 'response',
      model: MODEL,
      status: 'completed',
      error: null,
      incomplete_details: null,
      instructions: null,
      tools: [],
      tool_choice: 'auto',
      parallel_tool_calls: true,
      temperature: null,
      top_p: null,
      metadata: null,
      store: false,
    })
    expect(body.id).toMatch(/^gen-\d+-[A-Za-z0-9]{20}$/)
    expect(res.headers['x-generation-id']).toBe(body.id)
    expect(body.created_at).toBe(Date.parse('2026-03-04T10:00:00Z') / 1000)
    expect(body.completed_at).toBeGreaterThanOrEqual(body.created_at)
    expect(body.output).toHaveLength(1)
    const [message] = body.output
    expect(message).toMatchObject({ type: 'message', role: 'assistant', status: 'completed' })
    expect(message.id).toMatch(/^msg_[0-9a-f]{32}$/)
    expect(message.content).toEqual([{ type: 'output_text', text: expect.stringMatching(/lighthouses/), annotations: [], logprobs: [] }])
    const usage = body.usage
    expect(usage.input_tokens).toBeGreaterThan(0)
    expect(usage.output_tokens).toBeGreaterThan(10)
    expect(usage.total_tokens).toBe(usage.input_tokens + usage.output_tokens)
    expect(usage.input_tokens_details).toEqual({ cached_tokens: 0 })
    expect(usage.output_tokens_details).toEqual({ reasoning_tokens: 0 })
    expect(usage.cost).toBeGreaterThan(0)
    expect(usage.cost_details.upstream_inference_input_cost + usage.cost_details.upstream_inference_output_cost).toBeCloseTo(usage.cost, 12)
  })

  it('echoes the request: instructions, tools, tool_choice, text format, reasoning, metadata, sampling settings', async () => {
    const emu = await testEmulator()
    const format = { type: 'json_object' }
    const res = await create(emu, {
      instructions: 'Answer briefly.',
      tools: [WEATHER_TOOL],
      tool_choice: 'none',
      text: { format },
      max_output_tokens: 300,
      temperature: 0.5,
      top_p: 0.9,
      metadata: { run: 'a1' },
      parallel_tool_calls: false,
      user: 'user-7',
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body).toMatchObject({
      instructions: 'Answer briefly.',
      tools: [{ type: 'function', name: 'get_weather', description: 'The weather in a city', parameters: WEATHER_TOOL.parameters, strict: true }],
      tool_choice: 'none',
      text: { format },
      max_output_tokens: 300,
      temperature: 0.5,
      top_p: 0.9,
      metadata: { run: 'a1' },
      parallel_tool_calls: false,
      user: 'user-7',
    })
    expect(JSON.parse(textOf(res.body))).toHaveProperty('answer')
  })

  it('reads items: every content part, instructions and developer messages, an assistant turn and reasoning passed back', async () => {
    const emu = await testEmulator()
    const image = 'data:image/png;base64,iVBORw0KGgo='
    const res = await create(emu, {
      instructions: 'Be kind.',
      input: [
        { role: 'developer', content: 'Use metric units.' },
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Earlier question' }] },
        { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Thinking.' }] },
        { type: 'message', role: 'assistant', id: 'msg_1', status: 'completed', content: [{ type: 'output_text', text: 'Earlier answer', annotations: [] }] },
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'Describe these submarines' },
            { type: 'input_image', image_url: image, detail: 'low' },
            { type: 'input_file', filename: 'a.pdf', file_data: 'data:application/pdf;base64,JVBERi0=' },
            { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
            { type: 'input_video', video_url: 'https://example.com/v.mp4' },
          ],
        },
      ],
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(textOf(res.body)).toMatch(/submarines/)
    // Four media parts count as four low-detail images (85 tokens each).
    const textOnly = await create(emu, { input: [{ role: 'user', content: 'Describe these submarines' }] })
    expect(res.body.usage.input_tokens).toBeGreaterThan(textOnly.body.usage.input_tokens + 4 * 85)
  })

  it('calls a function tool the input names, then answers in text after its output: a full round trip', async () => {
    const emu = await testEmulator()
    const question = { role: 'user', content: 'What is the weather in Oslo?' }
    const first = await create(emu, { input: [question], tools: [WEATHER_TOOL] })
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    expect(first.body.status).toBe('completed')
    const [call] = first.body.output
    expect(call).toMatchObject({ type: 'function_call', name: 'get_weather', status: 'completed' })
    expect(call.id).toMatch(/^fc_/)
    expect(call.call_id).toMatch(/^call_/)
    expect(typeof JSON.parse(call.arguments).city).toBe('string')

    const second = await create(emu, {
      tools: [WEATHER_TOOL],
      input: [question, call, { type: 'function_call_output', call_id: call.call_id, output: '{"sky":"clear","celsius":4}' }],
    })
    expect(second.status, JSON.stringify(second.body)).toBe(200)
    expect(second.body.output.map((item: { type: string }) => item.type)).toEqual(['message'])
    expect(textOf(second.body).length).toBeGreaterThan(0)
    // The whole conversation is the prompt.
    expect(second.body.usage.input_tokens).toBeGreaterThan(first.body.usage.input_tokens)
  })

  it('tool_choice: required calls a tool, a named choice calls that one, none answers in text', async () => {
    const emu = await testEmulator()
    const tools = ['alpha', 'beta'].map((name) => ({ type: 'function', name, parameters: { type: 'object', properties: { n: { type: 'integer' } } } }))
    const required = await create(emu, { tools, tool_choice: 'required' })
    expect(required.body.output[0].type).toBe('function_call')
    const named = await create(emu, { tools, tool_choice: { type: 'function', name: 'beta' } })
    expect(named.body.output.map((item: { name?: string }) => item.name)).toEqual(['beta'])
    const none = await create(emu, { tools, tool_choice: 'none', input: 'call alpha please' })
    expect(none.body.output.map((item: { type: string }) => item.type)).toEqual(['message'])
  })

  it('text.format json_schema answers JSON valid against the schema', async () => {
    const emu = await testEmulator()
    const schema = {
      type: 'object',
      properties: { title: { type: 'string' }, score: { type: 'integer', minimum: 1, maximum: 5 } },
      required: ['title', 'score'],
      additionalProperties: false,
    }
    const res = await create(emu, { text: { format: { type: 'json_schema', name: 'review', schema, strict: true } } })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const value = JSON.parse(textOf(res.body))
    expect(typeof value.title).toBe('string')
    expect(value.score).toBeGreaterThanOrEqual(1)
    expect(value.score).toBeLessThanOrEqual(5)
  })

  it('is incomplete, with its reason, when cut at max_output_tokens', async () => {
    const emu = await testEmulator()
    const res = await create(emu, { max_output_tokens: 5 })
    expect(res.body).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, max_output_tokens: 5 })
    expect(res.body.output[0].status).toBe('incomplete')
    expect(res.body.usage.output_tokens).toBe(5)
    expect((await emu.get(`/api/v1/generation?id=${res.body.id}`, emu.keys.standard)).body.data.finish_reason).toBe('length')
  })

  it('reasons only where asked and the model reasons: a reasoning item first, its tokens counted and billed', async () => {
    const emu = await testEmulator()
    const plain = await create(emu, { model: REASONING_MODEL, seed: 3 })
    expect(plain.body.output.map((item: { type: string }) => item.type)).toEqual(['message'])
    const asked = await create(emu, { model: REASONING_MODEL, seed: 3, reasoning: { effort: 'low' } })
    expect(asked.body.output.map((item: { type: string }) => item.type)).toEqual(['reasoning', 'message'])
    const [reasoning] = asked.body.output
    expect(reasoning.id).toMatch(/^rs_/)
    expect(reasoning.summary).toEqual([])
    expect(reasoning.content).toEqual([{ type: 'reasoning_text', text: expect.stringMatching(/^The question is about /) }])
    const reasoningTokens = asked.body.usage.output_tokens_details.reasoning_tokens
    expect(reasoningTokens).toBeGreaterThan(0)
    expect(reasoningTokens).toBeLessThanOrEqual(32)
    expect(asked.body.usage.output_tokens).toBe(plain.body.usage.output_tokens + reasoningTokens)
    expect(asked.body.usage.cost).toBeGreaterThan(plain.body.usage.cost)
    expect(textOf(asked.body)).toBe(textOf(plain.body))
    expect(asked.body.reasoning).toEqual({ effort: 'low', summary: null })

    const summarized = await create(emu, { model: REASONING_MODEL, reasoning: { effort: 'low', summary: 'auto' } })
    const summary = summarized.body.output[0].summary
    expect(summary).toEqual([{ type: 'summary_text', text: expect.stringMatching(/^The question is about lighthouses\.$/) }])
    const detailed = await create(emu, { model: REASONING_MODEL, reasoning: { effort: 'low', summary: 'detailed' } })
    expect(detailed.body.output[0].summary[0].text).toBe(detailed.body.output[0].content[0].text)

    expect((await create(emu, { model: REASONING_MODEL, reasoning: { effort: 'none' } })).body.output).toHaveLength(1)
    expect((await create(emu, { model: REASONING_MODEL, reasoning: { enabled: false } })).body.output).toHaveLength(1)
    // A model that does not reason writes none, asked or not.
    const other = await create(emu, { reasoning: { effort: 'high', summary: 'auto' } })
    expect(other.body.output.map((item: { type: string }) => item.type)).toEqual(['message'])
    expect(other.body.usage.output_tokens_details.reasoning_tokens).toBe(0)
  })

  it('takes the first text model of `models`, and routes by `provider`', async () => {
    const emu = await testEmulator()
    const res = await emu.send('POST', '/api/v1/responses', { models: ['openai/text-embedding-3-small', MODEL], input: INPUT }, emu.keys.standard)
    expect(res.status).toBe(200)
    expect(res.body.model).toBe(MODEL)
    const none = await create(emu, { provider: { only: ['nobody'] } })
    expect(none.status).toBe(404)
    expect(none.body.error.message).toBe('No endpoints found that match your provider preferences')
  })
})

describe('determinism', () => {
  it('the same seed and request give the same response; another seed or input another', async () => {
    const a = await testEmulator({ seed: 7 })
    const b = await testEmulator({ seed: 7 })
    const c = await testEmulator({ seed: 8 })
    const body = { model: REASONING_MODEL, reasoning: { effort: 'low' } }
    const [first, second, third] = await Promise.all([create(a, body), create(b, body), create(c, body)])
    expect(second.body).toEqual(first.body)
    expect(textOf(third.body)).not.toBe(textOf(first.body))
    expect(textOf((await create(a, { seed: 1 })).body)).not.toBe(textOf((await create(a, {})).body))
    expect(textOf((await create(a, { input: 'And about submarines?' })).body)).toMatch(/submarines/)
  })
})

describe('bad input: a 400 naming the field, nothing billed', () => {
  const user = (content: unknown) => ({
    input: [
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content },
    ],
  })
  const call = { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{}' }
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['no model', { model: undefined }, 'Field `model` is required (or `models`, a list to try in order)'],
    ['no input', { input: undefined }, 'Field `input` is required: a string, or an array of input items'],
    ['an input that is a number', { input: 7 }, 'Field `input` must be a string or an array of input items'],
    ['an empty input', { input: [] }, 'Field `input` must not be empty'],
    ['an item that is no object', { input: ['hi'] }, 'Field `input[0]` must be an input item object (a message with `role`, or an item with `type`)'],
    [
      'an item of an unknown type',
      { input: [{ type: 'computer_call_output' }] },
      'Field `input[0].type` must be one of message, function_call, function_call_output, reasoning, web_search_call, file_search_call, image_generation_call, code_interpreter_call',
    ],
    [
      'a message of an unknown role',
      { input: [{ type: 'message', role: 'tool', content: 'x' }] },
      'Field `input[0].role` must be one of system, developer, user, assistant',
    ],
    ['content that is a number', user(5), 'Field `input[2].content` must be a string or an array of content parts'],
    ['a part that is no object', user(['x']), 'Field `input[2].content[0]` must be a content part object with `type`'],
    [
      'a part of an unknown type',
      user([{ type: 'text', text: 'x' }]),
      'Field `input[2].content[0].type` must be one of input_text, input_image, input_file, input_audio, input_video',
    ],
    [
      "a user message with the model's output_text",
      user([{ type: 'output_text', text: 'x' }]),
      'Field `input[2].content[0].type` must be one of input_text, input_image, input_file, input_audio, input_video',
    ],
    ['input_text without text', user([{ type: 'input_text' }]), 'Field `input[2].content[0].text` must be a string'],
    [
      'input_image without a URL',
      user([
        { type: 'input_text', text: 'x' },
        { type: 'input_image', detail: 'auto' },
      ]),
      'Field `input[2].content[1].image_url` must be a non-empty string (an image URL or data URI)',
    ],
    [
      'input_image with an unknown detail',
      user([{ type: 'input_image', image_url: 'https://x/y.png', detail: 'huge' }]),
      'Field `input[2].content[0].detail` must be one of auto, high, low, original',
    ],
    [
      'input_file with no file',
      user([{ type: 'input_file', filename: 'a.pdf' }]),
      'Field `input[2].content[0]` needs `file_data` (a data URI), `file_url` or `file_id`',
    ],
    [
      'input_audio without data',
      user([{ type: 'input_audio', input_audio: { format: 'wav' } }]),
      'Field `input[2].content[0].input_audio.data` must be a non-empty string (base64 audio)',
    ],
    [
      'input_audio of an unknown format',
      user([{ type: 'input_audio', input_audio: { data: 'AAA=', format: 'ogg' } }]),
      'Field `input[2].content[0].input_audio.format` must be one of mp3, wav',
    ],
    [
      'input_video without a URL',
      user([{ type: 'input_video' }]),
      'Field `input[2].content[0].video_url` must be a non-empty string (a video URL or data URI)',
    ],
    [
      'an assistant part of an unknown type',
      { input: [{ role: 'assistant', content: [{ type: 'input_image', image_url: 'https://x/y.png' }] }] },
      'Field `input[0].content[0].type` must be one of output_text, refusal, input_text',
    ],
    ['output_text without text', { input: [{ role: 'assistant', content: [{ type: 'output_text' }] }] }, 'Field `input[0].content[0].text` must be a string'],
    ['a refusal without its words', { input: [{ role: 'assistant', content: [{ type: 'refusal' }] }] }, 'Field `input[0].content[0].refusal` must be a string'],
    ['a function_call without call_id', { input: [{ ...call, call_id: '' }] }, 'Field `input[0].call_id` must be a non-empty string'],
    [
      'a function_call without name',
      { input: [{ ...call, name: undefined }] },
      'Field `input[0].name` must be a non-empty string: the name of the function called',
    ],
    ['a function_call with object arguments', { input: [{ ...call, arguments: { city: 'Oslo' } }] }, 'Field `input[0].arguments` must be a string (JSON)'],
    ['two function_calls with one call_id', { input: [call, call] }, 'Field `input[1].call_id` repeats call_1, the id of an earlier function_call'],
    [
      'a function_call_output without call_id',
      { input: [call, { type: 'function_call_output', output: 'x' }] },
      'Field `input[1].call_id` must be a non-empty string',
    ],
    [
      'a function_call_output for no call',
      { input: [call, { type: 'function_call_output', call_id: 'call_2', output: 'x' }] },
      'Field `input[1].call_id` names call_2, which no earlier function_call item in `input` has',
    ],
    [
      'a function_call_output before its call',
      { input: [{ type: 'function_call_output', call_id: 'call_1', output: 'x' }, call] },
      'Field `input[0].call_id` names call_1, which no earlier function_call item in `input` has',
    ],
    [
      'a function_call_output without output',
      { input: [call, { type: 'function_call_output', call_id: 'call_1' }] },
      'Field `input[1].output` is required: a string, or an array of content parts',
    ],
    [
      'a function_call_output with an audio part',
      { input: [call, { type: 'function_call_output', call_id: 'call_1', output: [{ type: 'input_audio', input_audio: { data: 'A', format: 'wav' } }] }] },
      'Field `input[1].output[0].type` must be one of input_text, input_image, input_file',
    ],
    ['a reasoning item without summary', { input: [{ type: 'reasoning', id: 'rs_1' }] }, 'Field `input[0].summary` must be an array of summary_text parts'],
    [
      'a reasoning item with a bad summary part',
      { input: [{ type: 'reasoning', id: 'rs_1', summary: [{ type: 'text', text: 'x' }] }] },
      'Field `input[0].summary[0]` must be {"type": "summary_text", "text": "..."}',
    ],
    ['a tool that is no object', { tools: ['get_weather'] }, 'Field `tools[0]` must be an object'],
    ['a tool of an unknown type', { tools: [{ type: 'retrieval' }] }, 'Field `tools[0].type` must be one of function, custom, namespace, web_search, '],
    ["chat's tool shape", { tools: [{ type: 'function', function: { name: 'f' } }] }, 'Field `tools[0].name` must be 1 to 64 letters, digits, _ or -'],
    ['a tool with a bad name', { tools: [{ ...WEATHER_TOOL, name: 'get weather' }] }, 'Field `tools[0].name` must be 1 to 64 letters, digits, _ or -'],
    ['two tools with one name', { tools: [WEATHER_TOOL, WEATHER_TOOL] }, 'Field `tools[1].name` repeats the name get_weather'],
    [
      'a tool whose parameters are no schema',
      { tools: [{ ...WEATHER_TOOL, parameters: { type: 'banana' } }] },
      'Field `tools[0].parameters` is not a valid JSON Schema',
    ],
    [
      'a tool whose parameters are a string',
      { tools: [{ ...WEATHER_TOOL, parameters: 'object' }] },
      'Field `tools[0].parameters` must be a JSON Schema object',
    ],
    [
      'a tool whose parameters cannot be filled (an unresolved $ref)',
      { tools: [{ ...WEATHER_TOOL, parameters: { $ref: '#/definitions/missing' } }], tool_choice: 'required' },
      'Field `tools[0].parameters` cannot be filled with a value: Unresolved $ref: #/definitions/missing',
    ],
    ['a tool with a numeric description', { tools: [{ ...WEATHER_TOOL, description: 5 }] }, 'Field `tools[0].description` must be a string'],
    ['a tool with a textual strict', { tools: [{ ...WEATHER_TOOL, strict: 'yes' }] }, 'Field `tools[0].strict` must be a boolean'],
    ['tool_choice required without tools', { tool_choice: 'required' }, 'Field `tool_choice` is "required" but the request has no `tools`'],
    [
      'tool_choice naming an unknown tool',
      { tools: [WEATHER_TOOL], tool_choice: { type: 'function', name: 'get_time' } },
      "Field `tool_choice.name` names get_time, which is not among the request's `tools`",
    ],
    [
      "tool_choice in chat's shape",
      { tools: [WEATHER_TOOL], tool_choice: { type: 'function', function: { name: 'get_weather' } } },
      'Field `tool_choice.name` must be the name of one of the request’s `tools`',
    ],
    [
      'tool_choice of an unknown kind',
      { tool_choice: 'always' },
      'Field `tool_choice` must be "auto", "none", "required", {"type":"function","name":"..."}, {"type":"allowed_tools","mode","tools"} or {"type": one of web_search_preview, web_search_preview_2025_03_11, apply_patch, shell}',
    ],
    ['a text format that is a string', { text: { format: 'json' } }, 'Field `text.format` must be an object with `type`'],
    ['a text format of an unknown type', { text: { format: { type: 'yaml' } } }, 'Field `text.format.type` must be one of text, json_object, json_schema'],
    [
      'a json_schema format without a name',
      { text: { format: { type: 'json_schema', schema: { type: 'object' } } } },
      'Field `text.format.name` must be 1 to 64 letters, digits, _ or -',
    ],
    [
      "chat's json_schema shape",
      { text: { format: { type: 'json_schema', name: 'x', json_schema: { schema: {} } } } },
      'Field `text.format.schema` is required: the JSON Schema the answer follows',
    ],
    [
      'a json_schema format whose schema is no schema',
      { text: { format: { type: 'json_schema', name: 'x', schema: { type: 'banana' } } } },
      'Field `text.format.schema` is not a valid JSON Schema',
    ],
    [
      'a json_schema format that cannot be filled (an unresolved $ref)',
      { text: { format: { type: 'json_schema', name: 'x', schema: { type: 'object', properties: { a: { $ref: '#/$defs/nope' } }, required: ['a'] } } } },
      'Field `text.format.schema` cannot be filled with a value: Unresolved $ref: #/$defs/nope',
    ],
    ['an unknown verbosity', { text: { verbosity: 'loud' } }, 'Field `text.verbosity` must be one of low, medium, high, xhigh, max, null'],
    [
      'an unknown reasoning effort',
      { reasoning: { effort: 'extreme' } },
      'Field `reasoning.effort` must be one of max, xhigh, high, medium, low, minimal, none, null',
    ],
    ['an unknown reasoning summary', { reasoning: { summary: 'long' } }, 'Field `reasoning.summary` must be one of auto, concise, detailed, null'],
    ['max_output_tokens of 0', { max_output_tokens: 0 }, 'Field `max_output_tokens` must be >= 1'],
    ['a temperature over 2', { temperature: 3 }, 'Field `temperature` must be <= 2'],
    ['a metadata value that is no string', { metadata: { n: 1 } }, 'Field `metadata.n` must be a string'],
    ['a metadata value over 512 characters', { metadata: { n: 'v'.repeat(513) } }, 'Field `metadata.n` must be at most 512 characters'],
    [
      'metadata with 17 keys',
      { metadata: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v'])) },
      'Field `metadata` must have at most 16 keys',
    ],
    ['a metadata key over 64 characters', { metadata: { ['k'.repeat(65)]: 'v' } }, 'Field `metadata` has a key longer than 64 characters: kkkkkkkkkkkkkkkk…'],
    ['a user over 256 characters', { user: 'u'.repeat(257) }, 'Field `user` must be at most 256 characters'],
    ['a streaming flag of null', { stream: null }, 'Field `stream` must be a boolean'],
    [
      'a previous response',
      { previous_response_id: 'resp_1' },
      'Field `previous_response_id` is not supported: the Responses API is stateless, no response is stored to refer to. Send the whole conversation in `input` instead',
    ],
    ['store: true', { store: true }, 'Field `store` must be false: the Responses API is stateless and stores no response'],
    [
      'a stored prompt',
      { prompt: { id: 'pmpt_1' } },
      'Field `prompt` is not supported: no prompt templates are stored here. Send the text in `instructions` and `input` instead',
    ],
    ['an unknown model', { model: 'nobody/nothing' }, 'nobody/nothing is not a valid model ID'],
    ['an embeddings model', { model: 'openai/text-embedding-3-small' }, 'openai/text-embedding-3-small is an embeddings model: call it on /api/v1/embeddings'],
  ]
  it.each(cases)('%s', async (_name, body, message) => {
    const emu = await testEmulator()
    const res = await create(emu, body)
    expect(res.status, JSON.stringify(res.body)).toBe(400)
    expect(res.body.error.code).toBe(400)
    expect(res.body.error.message.startsWith(message), res.body.error.message).toBe(true)
    expect(await totalUsage(emu)).toBe(0)
  })

  it('every field rule names its field in the metadata too', async () => {
    const emu = await testEmulator()
    const res = await create(emu, user([{ type: 'input_text' }]))
    expect(res.body.error.metadata).toEqual({ field: 'input[2].content[0].text', location: 'body', issue: 'must be a string' })
  })

  it('input over its bounds: 4096 items, 4,000,000 characters', async () => {
    const emu = await testEmulator()
    const many = await create(emu, { input: Array.from({ length: 4097 }, () => ({ role: 'user', content: 'x' })) })
    expect(many.status).toBe(400)
    expect(many.body.error.message).toBe('Field `input` must have at most 4096 items')
    const long = await create(emu, { input: 'x'.repeat(4_000_001) })
    expect(long.status).toBe(400)
    expect(long.body.error.message).toBe('Field `input` must be at most 4000000 characters')
  })

  it('a prompt past the context: 400 with the real message; tools where no endpoint takes them: 404', async () => {
    const emu = await testEmulator()
    const long = await create(emu, { model: 'microsoft/phi-4', max_output_tokens: 16_000, input: 'word '.repeat(1000) })
    expect(long.status).toBe(400)
    expect(long.body.error.message).toMatch(/^This endpoint's maximum context length is 16384 tokens\. However, you requested about \d+ tokens/)
    const tools = await create(emu, { model: 'microsoft/phi-4', tools: [WEATHER_TOOL] })
    expect(tools.status).toBe(404)
    expect(tools.body.error.message).toBe(
      'No endpoints found that support tool use. To learn more about provider routing, visit: https://openrouter.ai/docs/provider-routing',
    )
    expect(await totalUsage(emu)).toBe(0)
  })
})

describe('the ledger', () => {
  it("moves the caller's key usage and credits by the returned cost, and records the generation under the response's id", async () => {
    const emu = await testEmulator()
    const res = await create(emu, { user: 'user-9' }, emu.keys.standard)
    const cost = res.body.usage.cost as number
    expect(cost).toBeGreaterThan(0)
    const key = (await emu.get('/api/v1/keys', emu.keys.management)).body.data.find((k: { hash: string }) => k.hash === sha256Hex(emu.keys.standard))
    expect(key.usage).toBeCloseTo(cost, 12)
    expect(await totalUsage(emu)).toBeCloseTo(cost, 12)
    const generation = await emu.get(`/api/v1/generation?id=${res.body.id}`, emu.keys.standard)
    expect(generation.status).toBe(200)
    expect(generation.body.data).toMatchObject({
      id: res.body.id,
      model: MODEL,
      total_cost: cost,
      tokens_prompt: res.body.usage.input_tokens,
      tokens_completion: res.body.usage.output_tokens,
      streamed: false,
      finish_reason: 'stop',
      api_type: 'completions',
      external_user: 'user-9',
    })
    const journal = (await emu.get('/_emulator/api/journal')).body.data as Array<{ path: string; operation: string }>
    expect(journal.find((entry) => entry.path === '/api/v1/responses')!.operation).toBe('responses.create')
  })

  it('a broke account gets a 402 before anything is sent, streamed or not, and is billed nothing', async () => {
    const emu = await testEmulator()
    const broke = (await emu.send('POST', '/_emulator/api/accounts', {})).body.data
    const poor = await create(emu, {}, broke.standard_key)
    expect(poor.status).toBe(402)
    expect(poor.body.error.code).toBe(402)
    expect(poor.body.error.metadata.limit_source).toBe('openrouter_credits')
    const poorStream = await streamed(emu, {}, {}, broke.standard_key)
    expect(poorStream.status).toBe(402)
    expect(poorStream.headers['content-type']).toMatch(/^application\/json/)
    expect(await totalUsage(emu, broke.standard_key)).toBe(0)
    const usageRows = emu.ctx.db.prepare('SELECT COUNT(*) AS n FROM usage WHERE account_id = ?').get(broke.id) as { n: number }
    expect(usageRows.n).toBe(0)
  })
})

describe('chat fixtures answer Responses requests too', () => {
  async function withFixture(answer: Record<string, unknown>, match: Record<string, unknown> = { last_user: 'capital of france' }) {
    const emu = await testEmulator()
    const account = (await emu.send('POST', '/_emulator/api/accounts', { credits_usd: 10 })).body.data
    const added = await emu.send('POST', `/_emulator/api/accounts/${account.id}/chat-fixtures`, { match, answer })
    expect(added.status, JSON.stringify(added.body)).toBe(201)
    return { emu, key: account.standard_key as string, fixture: added.body.data.id as string }
  }

  it('with its text, matched by the last user message and by the instructions', async () => {
    const { emu, key } = await withFixture({ content: 'Paris.' })
    const res = await create(emu, { input: [{ role: 'user', content: [{ type: 'input_text', text: 'What is the capital of France?' }] }] }, key)
    expect(res.status).toBe(200)
    expect(textOf(res.body)).toBe('Paris.')
    expect(textOf((await create(emu, { input: 'What is the capital of Spain?' }, key)).body)).not.toBe('Paris.')

    const pirate = await withFixture({ content: 'Arr.' }, { system: 'pirate' })
    expect(textOf((await create(pirate.emu, { instructions: 'Talk like a pirate.' }, pirate.key)).body)).toBe('Arr.')
  })

  it('with its tool calls, as function_call items, streamed the same way', async () => {
    const { emu, key } = await withFixture({ tool_calls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] }, { tool: 'get_weather' })
    const res = await create(emu, { tools: [WEATHER_TOOL] }, key)
    expect(res.body.output).toMatchObject([{ type: 'function_call', name: 'get_weather', arguments: '{"city":"Oslo"}', status: 'completed' }])
    const stream = await streamed(emu, { tools: [WEATHER_TOOL] }, {}, key)
    const args = stream.data.filter((d) => d.type === 'response.function_call_arguments.delta').map((d) => d.delta as string)
    expect(args.join('')).toBe('{"city":"Oslo"}')
  })

  it('with its error, in the envelope, billing nothing', async () => {
    const { emu, key, fixture } = await withFixture({ error: { status: 429 } })
    const res = await create(emu, { input: 'the capital of France' }, key)
    expect(res.status).toBe(429)
    expect(res.body.error).toMatchObject({ code: 429, message: 'Rate limit exceeded', metadata: { emulator_fixture: fixture } })
    expect(await totalUsage(emu, key)).toBe(0)
  })
})

describe('faults', () => {
  it('the X-Emulator-Fault header answers in the envelope, streamed or not, and bills nothing', async () => {
    const emu = await testEmulator()
    const res = await emu.request({
      method: 'POST',
      url: '/api/v1/responses',
      headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json', 'x-emulator-fault': '503' },
      payload: { model: MODEL, input: INPUT },
    })
    expect(res.status).toBe(503)
    expect(res.body.error.code).toBe(503)
    const stream = await streamed(emu, {}, { 'x-emulator-fault': '429' })
    expect(stream.status).toBe(429)
    expect(JSON.parse(stream.body).error.code).toBe(429)
    expect(await totalUsage(emu)).toBe(0)
  })

  it('a rule breaks a stream after N events: an error event and response.failed (HTTP 200 already sent), and only what was sent is billed', async () => {
    const emu = await testEmulator()
    const whole = await create(emu, {})
    const rule = await emu.send('POST', '/_emulator/api/faults', {
      match: { operation: 'responses.create' },
      action: { status: 502, stream: { after_chunks: 7 } },
    })
    expect(rule.status).toBe(201)
    const broken = await streamed(emu, {})
    expect(broken.status).toBe(200)
    expect(broken.events.map((e) => e.data)).not.toContain('[DONE]')
    expect(broken.events.map((e) => e.event)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.delta',
      'error',
      'response.failed',
    ])
    expect(broken.data.map((d) => d.sequence_number)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8])
    const [error, failed] = broken.data.slice(-2)
    expect(error).toEqual({ type: 'error', sequence_number: 7, code: 'server_error', message: 'Provider returned error', param: null })
    expect(failed!.response).toMatchObject({
      id: broken.headers['x-generation-id'],
      status: 'failed',
      error: { code: 'server_error', message: 'Provider returned error' },
      error_type: 'provider_unavailable',
    })
    const sent = broken.data.filter((d) => d.type === 'response.output_text.delta').map((d) => d.delta as string)
    expect(textOf(whole.body).startsWith(sent.join(''))).toBe(true)
    const generation = (await emu.get(`/api/v1/generation?id=${String(broken.headers['x-generation-id'])}`, emu.keys.standard)).body.data
    expect(generation).toMatchObject({ finish_reason: 'error', tokens_completion: 3, streamed: true })
    expect(generation.total_cost).toBeLessThan(whole.body.usage.cost)
    expect(await totalUsage(emu)).toBeCloseTo(whole.body.usage.cost + generation.total_cost, 12)
    // A request that does not stream gets the status at once.
    expect((await create(emu, {})).status).toBe(502)
  })

  it('a fault past the end of a short answer breaks it at its end, when the frozen clock passes the point', async () => {
    const emu = await listeningEmulator()
    await emu.send('POST', '/_emulator/api/faults', { match: { operation: 'responses.create' }, action: { status: 429, stream: { after_ms: 5000 } } })
    const res = await fetch(`${emu.url}/api/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, input: INPUT, stream: true }),
    })
    expect(res.status).toBe(200)
    const body = res.text()
    await emu.clock.advance('5s')
    const events: EventSourceMessage[] = []
    createParser({ onEvent: (e) => events.push(e) }).feed(await body)
    const data = events.map((e) => JSON.parse(e.data) as Record<string, any>)
    expect(data.at(-3)!.type).toBe('response.completed')
    expect(data.at(-2)).toMatchObject({ type: 'error', code: 'rate_limit_exceeded', message: 'Rate limit exceeded' })
    expect(data.at(-1)!.response).toMatchObject({ status: 'failed', error_type: 'rate_limit_exceeded' })
    expect(data.map((d) => d.sequence_number)).toEqual(data.map((_, i) => i))
  })
})

describe('streaming', () => {
  it('sends the events in order, numbered, named as their type; the completed response equals the JSON one', async () => {
    const emu = await testEmulator()
    const whole = await create(emu, {})
    const stream = await streamed(emu, {})
    expect(stream.status).toBe(200)
    expect(stream.headers['content-type']).toBe('text/event-stream')
    expect(stream.comments).toEqual(['OPENROUTER PROCESSING'])
    expect(stream.events.at(-1)!.data).toBe('[DONE]')
    for (const [i, d] of stream.data.entries()) {
      expect(d.sequence_number).toBe(i)
      expect(stream.events[i]!.event).toBe(d.type)
    }
    const types = stream.data.map((d) => d.type as string)
    const deltas = types.filter((t) => t === 'response.output_text.delta').length
    expect(deltas).toBeGreaterThan(5)
    expect(types).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      ...Array.from({ length: deltas }, () => 'response.output_text.delta'),
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ])
    const id = stream.headers['x-generation-id']
    expect(stream.data[0]!.response).toMatchObject({ id, status: 'in_progress', output: [], completed_at: null })
    expect(stream.data[0]!.response).not.toHaveProperty('usage')
    const text = stream.data.filter((d) => d.type === 'response.output_text.delta').map((d) => d.delta as string)
    expect(text.join('')).toBe(textOf(whole.body))
    const completed = stream.data.at(-1)!.response
    expect(completed.id).toBe(id)
    // The same answer; only the ids (of the response and so of its items) differ.
    const withoutIds = (r: Record<string, any>) => ({ ...r, id: null, output: r.output.map((item: Record<string, unknown>) => ({ ...item, id: null })) })
    expect(withoutIds(completed)).toEqual(withoutIds(whole.body))
    expect((await emu.get(`/api/v1/generation?id=${String(id)}`, emu.keys.standard)).body.data.streamed).toBe(true)
  })

  it('streams reasoning (text and summary) before the message, and function-call arguments in pieces', async () => {
    const emu = await testEmulator()
    const reasoning = await streamed(emu, { model: REASONING_MODEL, reasoning: { effort: 'low', summary: 'concise' } })
    const types = reasoning.data.map((d) => d.type as string)
    const distinct = types.filter((t, i) => t !== types[i - 1])
    expect(distinct).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.reasoning_text.delta',
      'response.reasoning_text.done',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ])
    // The reasoning item comes with its (empty) reasoning_text part, which the deltas fill.
    expect(reasoning.data[2]!.item).toMatchObject({ type: 'reasoning', summary: [], content: [{ type: 'reasoning_text', text: '' }] })
    const final = reasoning.data.at(-1)!.response
    const thought = reasoning.data.filter((d) => d.type === 'response.reasoning_text.delta').map((d) => d.delta as string)
    expect(thought.join('')).toBe(final.output[0].content[0].text)
    expect(reasoning.data.find((d) => d.type === 'response.reasoning_summary_part.done')!.part).toEqual(final.output[0].summary[0])
    expect(reasoning.data.filter((d) => d.type === 'response.output_item.added').map((d) => [d.output_index, d.item.type])).toEqual([
      [0, 'reasoning'],
      [1, 'message'],
    ])

    const plan = {
      type: 'function',
      name: 'plan',
      parameters: { type: 'object', properties: { steps: { type: 'array', items: { type: 'string' }, minItems: 3 } }, required: ['steps'] },
    }
    const whole = await create(emu, { tools: [plan], tool_choice: 'required' })
    const calls = await streamed(emu, { tools: [plan], tool_choice: 'required' })
    const added = calls.data.find((d) => d.type === 'response.output_item.added')!
    expect(added.item).toMatchObject({ type: 'function_call', name: 'plan', arguments: '', status: 'in_progress' })
    const pieces = calls.data.filter((d) => d.type === 'response.function_call_arguments.delta')
    expect(pieces.length).toBeGreaterThan(1)
    expect(pieces.every((d) => d.item_id === added.item.id && d.output_index === 0)).toBe(true)
    const args = pieces.map((d) => d.delta as string).join('')
    expect(args).toBe(whole.body.output[0].arguments)
    expect(calls.data.find((d) => d.type === 'response.function_call_arguments.done')).toMatchObject({ name: 'plan', arguments: args })
  })

  it('ends an answer cut at max_output_tokens with response.incomplete', async () => {
    const emu = await testEmulator()
    const stream = await streamed(emu, { max_output_tokens: 4 })
    const last = stream.data.at(-1)!
    expect(last.type).toBe('response.incomplete')
    expect(last.response).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } })
    expect(stream.data.find((d) => d.type === 'response.output_item.done')!.item.status).toBe('incomplete')
  })
})
