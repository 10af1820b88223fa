// Tool calls as a model makes them (issue 38): a prompt naming several of the offered tools gets one
// call per tool named, in the order named, each with its own id and arguments from its schema (chat,
// Responses and Messages, through openai, @anthropic-ai/sdk and the AI SDK provider); parallel calls
// turned off keep one; `tool_choice` in each surface's forms; Responses' custom tools called with
// freeform text and their output sent back; every input item type of the real document accepted back.
import Anthropic from '@anthropic-ai/sdk'
import { createOpenRouter } from '@openrouter/ai-sdk-provider'
import { generateText, tool } from 'ai'
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { listeningEmulator, testEmulator, type TestEmulator } from '../../helpers/emulator.ts'

const MODEL = 'openai/gpt-4o-mini'
const CLAUDE = 'anthropic/claude-sonnet-4'
const TWO = 'Please call get_time and get_weather for Lisbon'

const WEATHER = {
  type: 'object',
  properties: { city: { type: 'string', minLength: 2 }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
  required: ['city', 'unit'],
  additionalProperties: false,
} as const
const TIME = {
  type: 'object',
  properties: { zone: { type: 'string', enum: ['UTC', 'Europe/Lisbon'] } },
  required: ['zone'],
  additionalProperties: false,
} as const

const chatTools: OpenAI.Chat.ChatCompletionTool[] = [
  { type: 'function', function: { name: 'get_weather', description: 'The weather in a city', parameters: WEATHER } },
  { type: 'function', function: { name: 'get_time', description: 'The time in a zone', parameters: TIME } },
  { type: 'function', function: { name: 'search_docs', description: 'Searches documents', parameters: { type: 'object', properties: {} } } },
]
const responsesTools: OpenAI.Responses.FunctionTool[] = chatTools.map((t) => ({
  type: 'function',
  name: (t as OpenAI.Chat.ChatCompletionFunctionTool).function.name,
  description: (t as OpenAI.Chat.ChatCompletionFunctionTool).function.description ?? null,
  parameters: (t as OpenAI.Chat.ChatCompletionFunctionTool).function.parameters as Record<string, unknown>,
  strict: false,
}))

/** A request as raw HTTP, for the exact status and error body. */
const post = (emu: TestEmulator, path: string, body: unknown) => emu.send('POST', path, body, emu.keys.standard)

async function openai() {
  const emu = await listeningEmulator()
  return { emu, client: new OpenAI({ apiKey: emu.keys.standard, baseURL: `${emu.url}/api/v1`, maxRetries: 0 }) }
}

describe('chat: parallel tool calls', () => {
  it('calls each tool the prompt names, in the order named, with distinct ids and arguments from each schema', async () => {
    const { client } = await openai()
    const completion = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: TWO }], tools: chatTools })
    const calls = completion.choices[0]!.message.tool_calls as OpenAI.Chat.ChatCompletionMessageFunctionToolCall[]
    expect(completion.choices[0]!.finish_reason).toBe('tool_calls')
    expect(calls.map((c) => c.function.name)).toEqual(['get_time', 'get_weather'])
    expect(new Set(calls.map((c) => c.id)).size).toBe(2)
    expect(JSON.parse(calls[0]!.function.arguments)).toEqual({ zone: expect.stringMatching(/^(UTC|Europe\/Lisbon)$/) })
    expect(JSON.parse(calls[1]!.function.arguments)).toEqual({ city: expect.any(String), unit: expect.stringMatching(/^(celsius|fahrenheit)$/) })
  })

  it('streams the calls at two tool call indexes, each with its id once', async () => {
    const { client } = await openai()
    const stream = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: TWO }], tools: chatTools, stream: true })
    const ids = new Map<number, string>()
    const names = new Map<number, string>()
    for await (const chunk of stream)
      for (const delta of chunk.choices[0]?.delta.tool_calls ?? []) {
        if (delta.id) ids.set(delta.index, delta.id)
        if (delta.function?.name) names.set(delta.index, delta.function.name)
      }
    expect([...names.entries()]).toEqual([
      [0, 'get_time'],
      [1, 'get_weather'],
    ])
    expect(new Set(ids.values()).size).toBe(2)
  })

  it('makes one call with parallel_tool_calls: false: the first named tool in the order of `tools`', async () => {
    const { client } = await openai()
    const completion = await client.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: TWO }],
      tools: chatTools,
      parallel_tool_calls: false,
    })
    const calls = completion.choices[0]!.message.tool_calls as OpenAI.Chat.ChatCompletionMessageFunctionToolCall[]
    expect(calls.map((c) => c.function.name)).toEqual(['get_weather'])
  })

  it('keeps one call where one tool is named, and a named tool_choice calls that one alone', async () => {
    const { client } = await openai()
    const one = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'What is the weather in Porto?' }], tools: chatTools })
    expect(one.choices[0]!.message.tool_calls!.map((c) => (c as OpenAI.Chat.ChatCompletionMessageFunctionToolCall).function.name)).toEqual(['get_weather'])
    const forced = await client.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: TWO }],
      tools: chatTools,
      tool_choice: { type: 'function', function: { name: 'search_docs' } },
    })
    expect(forced.choices[0]!.message.tool_calls!.map((c) => (c as OpenAI.Chat.ChatCompletionMessageFunctionToolCall).function.name)).toEqual(['search_docs'])
    const none = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: TWO }], tools: chatTools, tool_choice: 'none' })
    expect(none.choices[0]!.message.tool_calls ?? []).toEqual([])
    const required = await client.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'Go ahead' }],
      tools: chatTools,
      tool_choice: 'required',
    })
    expect(required.choices[0]!.message.tool_calls).toHaveLength(1)
  })

  it('takes a listed server tool forced by its type (a text answer), and refuses tool_choice naming what is not offered', async () => {
    const emu = await testEmulator()
    const body = { model: MODEL, messages: [{ role: 'user', content: TWO }], tools: [...chatTools, { type: 'openrouter:datetime' }] }
    const forced = await post(emu, '/api/v1/chat/completions', { ...body, tool_choice: { type: 'openrouter:datetime' } })
    expect(forced.status).toBe(200)
    expect(forced.body.choices[0].message.tool_calls).toBeUndefined()
    const server = await post(emu, '/api/v1/chat/completions', { ...body, tool_choice: { type: 'openrouter:web_search' } })
    expect(server.status).toBe(400)
    expect(server.body.error.message).toBe("Field `tool_choice.type` names openrouter:web_search, which is not among the request's `tools`")
    const fn = await post(emu, '/api/v1/chat/completions', { ...body, tool_choice: { type: 'function', function: { name: 'book_flight' } } })
    expect(fn.status).toBe(400)
    expect(fn.body.error.message).toBe("Field `tool_choice.function.name` names book_flight, which is not among the request's `tools`")
  })
})

describe('Responses: parallel and custom tool calls', () => {
  it('gives two function_call items, one per tool named; parallel_tool_calls: false gives one', async () => {
    const { client } = await openai()
    const response = await client.responses.create({ model: MODEL, input: TWO, tools: responsesTools })
    const calls = response.output.filter((item) => item.type === 'function_call')
    expect(calls.map((c) => c.name)).toEqual(['get_time', 'get_weather'])
    expect(new Set(calls.map((c) => c.call_id)).size).toBe(2)
    expect(new Set(calls.map((c) => c.id)).size).toBe(2)
    const single = await client.responses.create({ model: MODEL, input: TWO, tools: responsesTools, parallel_tool_calls: false })
    expect(single.output.filter((item) => item.type === 'function_call').map((c) => (c as OpenAI.Responses.ResponseFunctionToolCall).name)).toEqual([
      'get_weather',
    ])
  })

  it('calls a custom tool with freeform input, streamed as custom_tool_call_input events, and takes its output back', async () => {
    const { client } = await openai()
    const tools: OpenAI.Responses.Tool[] = [
      ...responsesTools,
      { type: 'custom', name: 'apply_patch', description: 'Applies a patch', format: { type: 'grammar', syntax: 'lark', definition: 'start: /.+/' } },
    ]
    const input = 'Use apply_patch to fix the typo in the README'
    const response = await client.responses.create({ model: MODEL, input, tools })
    const call = response.output.find((item) => item.type === 'custom_tool_call')!
    expect(call).toMatchObject({ type: 'custom_tool_call', name: 'apply_patch', status: 'completed', call_id: expect.stringMatching(/^call_/) })
    expect(typeof call.input).toBe('string')
    expect(call.input.length).toBeGreaterThan(0)

    const stream = await client.responses.create({ model: MODEL, input, tools, stream: true })
    let deltas = ''
    let done: string | undefined
    for await (const event of stream) {
      if (event.type === 'response.custom_tool_call_input.delta') deltas += event.delta
      if (event.type === 'response.custom_tool_call_input.done') done = event.input
    }
    expect(done).toBe(call.input)
    expect(deltas).toBe(call.input)

    const next = await client.responses.create({
      model: MODEL,
      tools,
      input: [
        { role: 'user', content: input },
        { type: 'custom_tool_call', call_id: call.call_id, name: call.name, input: call.input },
        { type: 'custom_tool_call_output', call_id: call.call_id, output: 'patch applied' },
      ],
    })
    expect(next.status).toBe('completed')
    expect(next.output.map((item) => item.type)).toEqual(['message'])
  })

  it('takes tool_choice {type: "custom"}, a hosted tool by type and allowed_tools with a custom tool', async () => {
    const emu = await testEmulator()
    const tools = [...responsesTools, { type: 'custom', name: 'apply_patch' }, { type: 'file_search', vector_store_ids: ['vs_1'] }]
    const custom = await post(emu, '/api/v1/responses', { model: MODEL, input: TWO, tools, tool_choice: { type: 'custom', name: 'apply_patch' } })
    expect(custom.status).toBe(200)
    expect(custom.body.output.map((item: { type: string }) => item.type)).toEqual(['custom_tool_call'])
    const hosted = await post(emu, '/api/v1/responses', { model: MODEL, input: TWO, tools, tool_choice: { type: 'file_search' } })
    expect(hosted.status).toBe(200)
    // A forced file search: its made-up call before the message (responses-forced-tools.test.ts).
    expect(hosted.body.output.map((item: { type: string }) => item.type)).toEqual(['file_search_call', 'message'])
    const allowed = await post(emu, '/api/v1/responses', {
      model: MODEL,
      input: 'Go ahead',
      tools,
      tool_choice: { type: 'allowed_tools', mode: 'required', tools: [{ type: 'custom', name: 'apply_patch' }] },
    })
    expect(allowed.status).toBe(200)
    expect(allowed.body.output.map((item: { type: string; name: string }) => [item.type, item.name])).toEqual([['custom_tool_call', 'apply_patch']])
    const wrongKind = await post(emu, '/api/v1/responses', {
      model: MODEL,
      input: TWO,
      tools,
      tool_choice: { type: 'allowed_tools', mode: 'auto', tools: [{ type: 'custom', name: 'get_time' }] },
    })
    expect(wrongKind.status).toBe(400)
    expect(wrongKind.body.error.message).toBe("Field `tool_choice.tools[0].name` must name one of the request's custom `tools`")
  })

  it('accepts back every input item type of the real document (checked for its required fields, not read)', async () => {
    const emu = await testEmulator()
    const items = [
      { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'lisbon' } },
      { type: 'file_search_call', id: 'fs_1', queries: ['q'], status: 'completed' },
      { type: 'computer_call', call_id: 'cc_1', status: 'completed', pending_safety_checks: [], action: { type: 'screenshot' } },
      { type: 'image_generation_call', id: 'ig_1', status: 'completed' },
      { type: 'code_interpreter_call', id: 'ci_1', status: 'completed' },
      { type: 'local_shell_call', id: 'ls_1', call_id: 'lsc_1', action: { type: 'exec', command: ['ls'] }, status: 'completed' },
      { type: 'local_shell_call_output', id: 'lso_1', output: 'README.md' },
      { type: 'shell_call', call_id: 'sh_1', action: { commands: ['ls'] } },
      { type: 'shell_call_output', call_id: 'sh_1', output: [] },
      { type: 'apply_patch_call', call_id: 'ap_1', status: 'completed', operation: { type: 'update_file', path: 'a', diff: '' } },
      { type: 'apply_patch_call_output', call_id: 'ap_1', status: 'completed' },
      { type: 'mcp_list_tools', id: 'ml_1', server_label: 'docs', tools: [] },
      { type: 'mcp_approval_request', id: 'ma_1', name: 'x', arguments: '{}', server_label: 'docs' },
      { type: 'mcp_approval_response', approval_request_id: 'ma_1', approve: true },
      { type: 'mcp_call', id: 'mc_1', name: 'x', arguments: '{}', server_label: 'docs' },
      { type: 'item_reference', id: 'msg_1' },
      { type: 'compaction', encrypted_content: 'abc' },
      { type: 'openrouter:datetime', status: 'completed', datetime: '2026-01-01T00:00:00Z', timezone: 'UTC' },
      { type: 'openrouter:web_search', status: 'completed' },
      { type: 'reasoning', id: 'rs_1', summary: [] },
      { role: 'user', content: 'And now the summary' },
    ]
    const response = await post(emu, '/api/v1/responses', { model: MODEL, input: items })
    expect(response.status).toBe(200)
    expect(response.body.output.map((item: { type: string }) => item.type)).toEqual(['message'])
    const missing = await post(emu, '/api/v1/responses', { model: MODEL, input: [{ type: 'mcp_call', id: 'mc_1', name: 'x', arguments: '{}' }] })
    expect(missing.status).toBe(400)
    expect(missing.body.error.message).toBe('Field `input[0].server_label` is required for a mcp_call item')
  })
})

describe('Messages: parallel tool_use blocks', () => {
  const tools: Anthropic.Tool[] = [
    { name: 'get_weather', description: 'The weather in a city', input_schema: WEATHER as unknown as Anthropic.Tool.InputSchema },
    { name: 'get_time', description: 'The time in a zone', input_schema: TIME as unknown as Anthropic.Tool.InputSchema },
  ]
  const clientFor = (url: string, key: string): Anthropic => new Anthropic({ baseURL: `${url}/api`, authToken: key, apiKey: null, maxRetries: 0 })

  it('answers with two tool_use blocks; disable_parallel_tool_use keeps one', async () => {
    const emu = await listeningEmulator()
    const client = clientFor(emu.url, emu.keys.standard)
    const message = await client.messages.create({ model: CLAUDE, max_tokens: 1024, tools, messages: [{ role: 'user', content: TWO }] })
    const uses = message.content.filter((block) => block.type === 'tool_use')
    expect(message.stop_reason).toBe('tool_use')
    expect(uses.map((u) => u.name)).toEqual(['get_time', 'get_weather'])
    expect(new Set(uses.map((u) => u.id)).size).toBe(2)
    const single = await client.messages.create({
      model: CLAUDE,
      max_tokens: 1024,
      tools,
      tool_choice: { type: 'auto', disable_parallel_tool_use: true },
      messages: [{ role: 'user', content: TWO }],
    })
    expect(single.content.filter((block) => block.type === 'tool_use').map((u) => u.name)).toEqual(['get_weather'])
  })

  it('takes tool_choice any, tool and none, and refuses a tool it is not offered', async () => {
    const emu = await listeningEmulator()
    const client = clientFor(emu.url, emu.keys.standard)
    const ask = (tool_choice: Anthropic.ToolChoice) =>
      client.messages.create({ model: CLAUDE, max_tokens: 1024, tools, tool_choice, messages: [{ role: 'user', content: TWO }] })
    expect((await ask({ type: 'tool', name: 'get_time' })).content.filter((b) => b.type === 'tool_use').map((u) => u.name)).toEqual(['get_time'])
    expect((await ask({ type: 'any' })).content.filter((b) => b.type === 'tool_use')).toHaveLength(2)
    expect((await ask({ type: 'none' })).content.filter((b) => b.type === 'tool_use')).toEqual([])
    const refused = await ask({ type: 'tool', name: 'book_flight' }).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(Anthropic.BadRequestError)
    expect((refused as InstanceType<typeof Anthropic.BadRequestError>).message).toMatch(/tool_choice\.name/)
  })
})

describe('AI SDK: generateText with two tools', () => {
  it('gets two tool calls in one step', async () => {
    const emu = await listeningEmulator()
    const openrouter = createOpenRouter({ apiKey: emu.keys.standard, baseURL: `${emu.url}/api/v1` })
    const result = await generateText({
      model: openrouter(MODEL),
      prompt: TWO,
      tools: {
        get_weather: tool({ description: 'The weather in a city', inputSchema: z.object({ city: z.string() }) }),
        get_time: tool({ description: 'The time in a zone', inputSchema: z.object({ zone: z.string() }) }),
      },
      maxRetries: 0,
    })
    expect(result.toolCalls.map((call) => call.toolName)).toEqual(['get_time', 'get_weather'])
    expect(new Set(result.toolCalls.map((call) => call.toolCallId)).size).toBe(2)
    expect(result.finishReason).toBe('tool-calls')
  })
})
