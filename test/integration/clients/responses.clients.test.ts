// The Responses API through the clients a user points at the emulator, unmodified, over real HTTP:
// openai (create, a raw event stream and its stream helper, a function tool round trip, a structured
// output parsed with its zod helper, a fault part way, a refused request) and @openrouter/sdk (send
// and stream, through its own schema validation of every answer and event).
import { OpenRouter } from '@openrouter/sdk'
import { Ajv } from 'ajv'
import OpenAI from 'openai'
import { zodTextFormat } from 'openai/helpers/zod'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { listeningEmulator } from '../../helpers/emulator.ts'

const MODEL = 'openai/gpt-4o-mini'

const FORECAST = {
  type: 'object',
  properties: {
    city: { type: 'string', minLength: 2 },
    unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
    days: { type: 'integer', minimum: 1, maximum: 7 },
  },
  required: ['city', 'unit', 'days'],
  additionalProperties: false,
} as const

const ajv = new Ajv({ strict: false })

async function openai() {
  const emu = await listeningEmulator()
  return { emu, client: new OpenAI({ apiKey: emu.keys.standard, baseURL: `${emu.url}/api/v1`, maxRetries: 0 }) }
}

describe('openai', () => {
  it('creates a response: the same request answers the same way, and is billed', async () => {
    const { emu, client } = await openai()
    const request = { model: MODEL, input: 'Tell me about lighthouses', instructions: 'Be brief.' }
    const first = await client.responses.create(request)
    const again = await client.responses.create(request)
    expect(first.status).toBe('completed')
    expect(first.output_text).toMatch(/lighthouses/)
    expect(first.output_text).toBe(again.output_text)
    expect(first.id).toMatch(/^gen-\d+-[A-Za-z0-9]{20}$/)
    expect(first.usage!.output_tokens).toBeGreaterThan(10)
    expect(first.usage!.total_tokens).toBe(first.usage!.input_tokens + first.usage!.output_tokens)
    const credits = (await emu.get('/api/v1/credits', emu.keys.standard)).body.data.total_usage
    const costs = [first, again].map((r) => (r.usage as unknown as { cost: number }).cost)
    expect(credits).toBeCloseTo(costs[0]! + costs[1]!, 12)
  })

  it('streams the events in order, and the stream helper finishes with the same response', async () => {
    const { client } = await openai()
    const request = { model: MODEL, input: 'Tell me about lighthouses' }
    const whole = await client.responses.create(request)

    const stream = await client.responses.create({ ...request, stream: true })
    const types: string[] = []
    const numbers: number[] = []
    let text = ''
    let completed: OpenAI.Responses.Response | undefined
    for await (const event of stream) {
      types.push(event.type)
      numbers.push(event.sequence_number)
      if (event.type === 'response.output_text.delta') text += event.delta
      if (event.type === 'response.completed') completed = event.response
    }
    expect(types.slice(0, 4)).toEqual(['response.created', 'response.in_progress', 'response.output_item.added', 'response.content_part.added'])
    expect(types.slice(-4)).toEqual(['response.output_text.done', 'response.content_part.done', 'response.output_item.done', 'response.completed'])
    expect(numbers).toEqual(numbers.map((_, i) => i))
    expect(text).toBe(whole.output_text)
    expect(completed!.usage).toEqual(whole.usage)

    const helped = client.responses.stream(request)
    const deltas: string[] = []
    helped.on('response.output_text.delta', (event) => deltas.push(event.delta))
    const final = await helped.finalResponse()
    expect(final.status).toBe('completed')
    expect(final.output_text).toBe(whole.output_text)
    expect(deltas.join('')).toBe(whole.output_text)
    expect(final.output.map((item) => item.type)).toEqual(['message'])
  })

  it('calls a function tool with valid arguments, takes its output back, and answers in text', async () => {
    const { client } = await openai()
    const tools: OpenAI.Responses.FunctionTool[] = [
      { type: 'function', name: 'get_forecast', description: 'The forecast of a city', parameters: FORECAST, strict: true },
    ]
    const input: OpenAI.Responses.ResponseInput = [{ role: 'user', content: 'What is the forecast for Oslo?' }]
    const first = await client.responses.create({ model: MODEL, input, tools })
    const call = first.output.find((item) => item.type === 'function_call')
    if (call?.type !== 'function_call') throw new Error(`expected a function call, got ${JSON.stringify(first.output)}`)
    expect(call.name).toBe('get_forecast')
    expect(ajv.validate(FORECAST, JSON.parse(call.arguments)), ajv.errorsText()).toBe(true)

    // Streamed, the helper builds the same call from its argument deltas.
    const streamed = await client.responses.stream({ model: MODEL, input, tools }).finalResponse()
    const streamedCall = streamed.output.find((item) => item.type === 'function_call')
    expect(streamedCall).toMatchObject({ name: call.name, arguments: call.arguments, call_id: call.call_id })

    const answer = await client.responses.create({
      model: MODEL,
      tools,
      input: [...input, call, { type: 'function_call_output', call_id: call.call_id, output: JSON.stringify({ sky: 'clear', celsius: 4 }) }],
    })
    expect(answer.status).toBe('completed')
    expect(answer.output.map((item) => item.type)).toEqual(['message'])
    expect(answer.output_text.length).toBeGreaterThan(0)
  })

  it('parses a structured output (text.format json_schema) with its zod helper, valid against the schema', async () => {
    const { client } = await openai()
    const Event = z.object({ name: z.string(), date: z.string(), attendees: z.array(z.string()).max(5), priority: z.enum(['low', 'high']) })
    const format = zodTextFormat(Event, 'event')
    const res = await client.responses.parse({
      model: MODEL,
      input: [{ role: 'user', content: 'Alice and Bob meet on Friday for the launch review' }],
      text: { format },
    })
    expect(res.status).toBe('completed')
    expect(Event.safeParse(res.output_parsed).success).toBe(true)
    expect(ajv.validate(format.schema, JSON.parse(res.output_text)), ajv.errorsText()).toBe(true)
  })

  it('reports reasoning as a reasoning item before the message', async () => {
    const { client } = await openai()
    const res = await client.responses.create({ model: 'openai/o4-mini', input: 'Why is the sky blue?', reasoning: { effort: 'low', summary: 'auto' } })
    const [reasoning, message] = res.output
    if (reasoning?.type !== 'reasoning') throw new Error('expected a reasoning item first')
    expect(reasoning.summary[0]!.text.length).toBeGreaterThan(0)
    expect(reasoning.content![0]!.text.startsWith(reasoning.summary[0]!.text)).toBe(true)
    expect(message?.type).toBe('message')
    expect(res.usage!.output_tokens_details.reasoning_tokens).toBeGreaterThan(0)
    const streamed = await client.responses
      .stream({ model: 'openai/o4-mini', input: 'Why is the sky blue?', reasoning: { effort: 'low', summary: 'auto' } })
      .finalResponse()
    expect(streamed.output[0]).toEqual({ ...reasoning, id: streamed.output[0]!.id })
  })

  it('a fault part way through a stream reaches the client as an error, not a quiet success', async () => {
    const { emu, client } = await openai()
    await emu.send('POST', '/_emulator/api/faults', { match: { operation: 'responses.create' }, action: { status: 429, stream: { after_chunks: 5 } } })
    const stream = await client.responses.create({ model: MODEL, input: 'Tell me a story', stream: true })
    const seen: string[] = []
    const failure = await (async () => {
      for await (const event of stream) seen.push(event.type)
    })().catch((e: unknown) => e)
    expect(failure).toBeInstanceOf(OpenAI.APIError)
    expect((failure as Error).message).toContain('Rate limit exceeded')
    expect(seen).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
    ])

    const helper = client.responses.stream({ model: MODEL, input: 'Tell me a story' })
    await expect(helper.finalResponse()).rejects.toBeInstanceOf(OpenAI.APIError)
  })

  it('names the field of a bad request in a 400', async () => {
    const { client } = await openai()
    const err = await client.responses
      .create({ model: MODEL, input: [{ role: 'user', content: [{ type: 'input_text' } as OpenAI.Responses.ResponseInputText] }] })
      .catch((e: unknown) => e)
    expect(err).toBeInstanceOf(OpenAI.BadRequestError)
    expect((err as Error).message).toBe('400 Field `input[0].content[0].text` must be a string')
  })
})

describe('@openrouter/sdk', () => {
  it('sends and streams a response through its own schema validation', async () => {
    const emu = await listeningEmulator()
    const client = new OpenRouter({ apiKey: emu.keys.standard, serverURL: `${emu.url}/api/v1`, retryConfig: { strategy: 'none' } })
    const request = { model: MODEL, input: 'What is a lighthouse?', reasoning: { effort: 'low' as const } }
    const res = await client.responses.send({ responsesRequest: { ...request, stream: false } })
    if (res instanceof ReadableStream) throw new Error('expected JSON, got a stream')
    expect(res.object).toBe('response')
    expect(res.status).toBe('completed')
    const message = res.output.find((item) => item.type === 'message')
    if (message?.type !== 'message') throw new Error('expected a message')
    const part = message.content[0]
    if (part?.type !== 'output_text') throw new Error('expected output_text')
    expect(res.usage?.cost).toBeGreaterThan(0)

    const stream = await client.responses.send({ responsesRequest: { ...request, stream: true } })
    if (!(stream instanceof ReadableStream)) throw new Error('expected a stream, got JSON')
    let text = ''
    let last = ''
    for await (const event of stream) {
      last = event.type
      if (event.type === 'response.output_text.delta') text += event.delta
    }
    expect(text).toBe(part.text)
    expect(last).toBe('response.completed')
  })
})
