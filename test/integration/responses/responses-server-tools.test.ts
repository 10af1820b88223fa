// The server tools a Responses request offers, run by the emulator, through the official `openai` client:
// a web search (tool or plugin) is a `web_search_call` output item before the message (the query and the
// pages found as its action's sources), streamed with its in_progress, searching and completed events, and
// counted in `usage.server_tool_use_details`; `openrouter:datetime` states the virtual clock's time; a next
// turn sending the call items back is accepted. Requests without a server tool keep their output as it was.
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { listeningEmulator } from '../../helpers/emulator.ts'

const INPUT = 'What is new in lighthouse engineering?'
const MODEL = 'openai/gpt-4o'

interface SearchCall {
  type: 'web_search_call'
  id: string
  status: string
  action: { type: string; query: string; sources: Array<{ type: string; url: string }> }
}

const details = (response: OpenAI.Responses.Response) =>
  (response.usage as unknown as { server_tool_use_details?: Record<string, number> }).server_tool_use_details

/** A stream's event types in order, and the response its `response.completed` event holds. */
async function collected(
  stream: AsyncIterable<OpenAI.Responses.ResponseStreamEvent>,
): Promise<{ types: string[]; completed: OpenAI.Responses.Response | null }> {
  const types: string[] = []
  let completed: OpenAI.Responses.Response | null = null
  for await (const event of stream) {
    types.push(event.type)
    if (event.type === 'response.completed') completed = event.response
  }
  return { types, completed }
}

describe('Responses server tools', () => {
  it('a web_search tool gives a web_search_call item before the message, its sources the pages cited, counted in usage', async () => {
    const emu = await listeningEmulator()
    const openai = new OpenAI({ baseURL: `${emu.url}/api/v1`, apiKey: emu.keys.standard, maxRetries: 0 })
    const response = await openai.responses.create({ model: MODEL, input: INPUT, tools: [{ type: 'web_search' }] })
    expect(response.output.map((item) => item.type)).toEqual(['web_search_call', 'message'])
    const call = response.output[0] as unknown as SearchCall
    expect(call.id).toMatch(/^ws_[0-9a-f]{32}$/)
    expect(call.status).toBe('completed')
    expect(call.action.type).toBe('search')
    expect(call.action.query).toMatch(/lighthouse/)
    const message = response.output[1] as OpenAI.Responses.ResponseOutputMessage
    const cited = (message.content[0] as OpenAI.Responses.ResponseOutputText).annotations.map((a) => (a as { url: string }).url)
    expect(call.action.sources.map((s) => s.url)).toEqual(cited)
    expect(call.action.sources.every((s) => s.type === 'url' && /^https:\/\/[a-z]+\.example\//.test(s.url))).toBe(true)
    expect(details(response)).toEqual({ tool_calls_requested: 1, tool_calls_executed: 1, web_search_requests: 1 })

    // The web plugin searches natively: a search counted, no server tool call.
    const plugin = await openai.responses.create({
      model: MODEL,
      input: INPUT,
      plugins: [{ id: 'web', max_results: 2 }],
    } as OpenAI.Responses.ResponseCreateParamsNonStreaming)
    expect(plugin.output.map((item) => item.type)).toEqual(['web_search_call', 'message'])
    expect((plugin.output[0] as unknown as SearchCall).action.sources).toHaveLength(2)
    expect(details(plugin)).toEqual({ web_search_requests: 1 })

    const plain = await openai.responses.create({ model: MODEL, input: INPUT })
    expect(plain.output.map((item) => item.type)).toEqual(['message'])
    expect(details(plain)).toBeUndefined()

    // tool_choice "none": the model calls no tool, the search tool included.
    const none = await openai.responses.create({ model: MODEL, input: INPUT, tools: [{ type: 'web_search' }], tool_choice: 'none' })
    expect(none.output.map((item) => item.type)).toEqual(['message'])
    expect(details(none)).toBeUndefined()

    // A next turn sends the call item back, as Codex does: accepted, nothing in it run.
    const next = await openai.responses.create({
      model: MODEL,
      input: [{ role: 'user', content: INPUT }, ...response.output, { role: 'user', content: 'And in bridges?' }] as OpenAI.Responses.ResponseInput,
    })
    expect(next.status).toBe('completed')
  })

  it('streams the web_search_call item with in_progress, searching and completed events, ending as the response holds it', async () => {
    const emu = await listeningEmulator()
    const openai = new OpenAI({ baseURL: `${emu.url}/api/v1`, apiKey: emu.keys.standard, maxRetries: 0 })
    const body = { model: MODEL, input: INPUT, tools: [{ type: 'openrouter:web_search' }] } as unknown as OpenAI.Responses.ResponseCreateParamsNonStreaming
    const whole = await openai.responses.create(body)
    const { types, completed } = await collected(await openai.responses.create({ ...body, stream: true }))
    const first = types.indexOf('response.output_item.added')
    expect(types.slice(first, first + 5)).toEqual([
      'response.output_item.added',
      'response.web_search_call.in_progress',
      'response.web_search_call.searching',
      'response.web_search_call.completed',
      'response.output_item.done',
    ])
    // The same search as the whole answer's (ids follow each response's own).
    expect({ ...completed!.output[0], id: '' }).toEqual({ ...whole.output[0], id: '' })
  })

  it('openrouter:datetime states the virtual clock’s time in the zone asked, counted as a server tool call', async () => {
    const emu = await listeningEmulator()
    const openai = new OpenAI({ baseURL: `${emu.url}/api/v1`, apiKey: emu.keys.standard, maxRetries: 0 })
    const tools = [{ type: 'openrouter:datetime', parameters: { timezone: 'Asia/Tokyo' } }] as unknown as OpenAI.Responses.Tool[]
    const response = await openai.responses.create({ model: MODEL, input: 'What time is it?', tools })
    expect(response.output_text).toMatch(/^The current date and time is .+ \(Asia\/Tokyo\)\. /)
    expect(details(response)).toEqual({ tool_calls_requested: 1, tool_calls_executed: 1 })

    const bad = await emu.send(
      'POST',
      '/api/v1/responses',
      { model: MODEL, input: 'What time is it?', tools: [{ type: 'openrouter:datetime', parameters: { timezone: 'Mars/Olympus' } }] },
      emu.keys.standard,
    )
    expect(bad.status).toBe(400)
    expect(bad.body.error.metadata.field).toBe('tools[0].parameters.timezone')
  })

  it('a server tool call item sent back without its id is a 400 naming the field', async () => {
    const emu = await listeningEmulator()
    const input = [
      { role: 'user', content: INPUT },
      { type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'x' } },
    ]
    const res = await emu.send('POST', '/api/v1/responses', { model: MODEL, input }, emu.keys.standard)
    expect(res.status).toBe(400)
    expect(res.body.error.metadata.field).toBe('input[1].id')
  })
})

describe('Responses image_generation tool', () => {
  it('draws one PNG as an image_generation_call item, billed at the image model’s price, streamed with its events', async () => {
    const emu = await listeningEmulator()
    const openai = new OpenAI({ baseURL: `${emu.url}/api/v1`, apiKey: emu.keys.standard, maxRetries: 0 })
    const body = {
      model: MODEL,
      input: 'Draw a lighthouse at dusk',
      tools: [{ type: 'image_generation' }],
    } as OpenAI.Responses.ResponseCreateParamsNonStreaming
    const response = await openai.responses.create(body)
    expect(response.output.map((item) => item.type)).toEqual(['image_generation_call', 'message'])
    const call = response.output[0] as OpenAI.Responses.ResponseOutputItem.ImageGenerationCall
    expect(call.id).toMatch(/^ig_[0-9a-f]{32}$/)
    expect(call.status).toBe('completed')
    const png = Buffer.from(call.result!, 'base64')
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    expect(details(response)).toEqual({ tool_calls_requested: 1, tool_calls_executed: 1 })

    // The same question without the tool costs one gpt-image-1 picture less.
    const plain = await openai.responses.create({ model: MODEL, input: 'Draw a lighthouse at dusk' })
    const image = emu.ctx.services.catalog.get().find('openai/gpt-image-1')!.endpoints[0]!.pricing.image
    const cost = (r: OpenAI.Responses.Response) => (r.usage as unknown as { cost: number }).cost
    const sameTokens = plain.usage!.output_tokens === response.usage!.output_tokens
    if (sameTokens) expect(cost(response) - cost(plain)).toBeCloseTo(Number(image), 9)
    expect(cost(response) - cost(plain)).toBeGreaterThan(Number(image) * 0.9)

    const { types, completed } = await collected(await openai.responses.create({ ...body, stream: true }))
    const first = types.indexOf('response.output_item.added')
    expect(types.slice(first, first + 5)).toEqual([
      'response.output_item.added',
      'response.image_generation_call.in_progress',
      'response.image_generation_call.generating',
      'response.image_generation_call.completed',
      'response.output_item.done',
    ])
    expect((completed!.output[0] as OpenAI.Responses.ResponseOutputItem.ImageGenerationCall).result).toBe(call.result)
  })

  it('the gateway’s openrouter:image_generation draws with its default model; a model that makes no images is a 400 naming the field', async () => {
    const emu = await listeningEmulator()
    const tools = [{ type: 'openrouter:image_generation' }] as unknown as OpenAI.Responses.Tool[]
    const openai = new OpenAI({ baseURL: `${emu.url}/api/v1`, apiKey: emu.keys.standard, maxRetries: 0 })
    const response = await openai.responses.create({ model: MODEL, input: 'Draw a lighthouse', tools })
    expect(response.output[0]!.type).toBe('image_generation_call')

    const bad = await emu.send(
      'POST',
      '/api/v1/responses',
      { model: MODEL, input: 'Draw a lighthouse', tools: [{ type: 'image_generation', model: 'openai/gpt-4o' }] },
      emu.keys.standard,
    )
    expect(bad.status).toBe(400)
    expect(bad.body.error.metadata.field).toBe('tools[0].model')
  })
})

describe('stop_server_tools_when', () => {
  const STOP = [
    { type: 'step_count_is', step_count: 5 },
    { type: 'max_cost', max_cost_in_dollars: 0.5 },
    { type: 'has_tool_call', tool_name: 'openrouter:web_search' },
    { type: 'max_tokens_used', max_tokens: 1000 },
    { type: 'finish_reason_is', reason: 'length' },
  ]

  it('is taken on chat, Responses and Messages (one step of server tools: no condition changes the answer)', async () => {
    const emu = await listeningEmulator()
    const openai = new OpenAI({ baseURL: `${emu.url}/api/v1`, apiKey: emu.keys.standard, maxRetries: 0 })
    const tools = [{ type: 'web_search' as const }]
    const stopped = await openai.responses.create({
      model: MODEL,
      input: INPUT,
      tools,
      stop_server_tools_when: STOP,
    } as OpenAI.Responses.ResponseCreateParamsNonStreaming)
    const free = await openai.responses.create({ model: MODEL, input: INPUT, tools })
    expect(stopped.output.map((item) => item.type)).toEqual(free.output.map((item) => item.type))
    expect(stopped.output_text).toBe(free.output_text)
    const chat = await emu.send(
      'POST',
      '/api/v1/chat/completions',
      { model: MODEL, messages: [{ role: 'user', content: INPUT }], stop_server_tools_when: STOP },
      emu.keys.standard,
    )
    expect(chat.status).toBe(200)
    const messages = await emu.send(
      'POST',
      '/api/v1/messages',
      { model: MODEL, max_tokens: 100, messages: [{ role: 'user', content: INPUT }], stop_server_tools_when: STOP },
      emu.keys.standard,
    )
    expect(messages.status).toBe(200)
  })

  it.each([
    ['not an array', { type: 'step_count_is', step_count: 2 }, 'stop_server_tools_when'],
    ['empty', [], 'stop_server_tools_when'],
    ['an unknown condition', [{ type: 'never' }], 'stop_server_tools_when[0].type'],
    ['a step count of 1.5', [{ type: 'step_count_is', step_count: 1.5 }], 'stop_server_tools_when[0].step_count'],
    ['a cost that is not a number', [STOP[0], { type: 'max_cost', max_cost_in_dollars: '1' }], 'stop_server_tools_when[1].max_cost_in_dollars'],
    ['a tool call without its name', [{ type: 'has_tool_call' }], 'stop_server_tools_when[0].tool_name'],
  ])('%s is a 400 naming the field', async (_name, stop, field) => {
    const emu = await listeningEmulator()
    const res = await emu.send('POST', '/api/v1/responses', { model: MODEL, input: INPUT, stop_server_tools_when: stop }, emu.keys.standard)
    expect(res.status).toBe(400)
    expect(res.body.error.metadata.field).toBe(field)
    const chat = await emu.send(
      'POST',
      '/api/v1/chat/completions',
      { model: MODEL, messages: [{ role: 'user', content: INPUT }], stop_server_tools_when: stop },
      emu.keys.standard,
    )
    expect(chat.status).toBe(400)
    expect(chat.body.error.metadata.field).toBe(field)
  })
})
