// Chat completions through the clients a user points at the emulator, unmodified, over real HTTP:
// openai (create, stream, tools, structured outputs with its zod helper), @openrouter/sdk (send and
// stream, through its own schema validation) and the AI SDK provider (generateText, streamText,
// generateObject and a tool loop of several steps).
import { OpenRouter } from '@openrouter/sdk'
import { createOpenRouter } from '@openrouter/ai-sdk-provider'
import { Ajv } from 'ajv'
import { generateObject, generateText, stepCountIs, streamText, tool } from 'ai'
import OpenAI from 'openai'
import { zodResponseFormat } from 'openai/helpers/zod'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { listeningEmulator } from '../../helpers/emulator.ts'

const MODEL = 'openai/gpt-4o-mini'

const WEATHER = {
  type: 'object',
  properties: {
    city: { type: 'string', minLength: 2 },
    unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
    days: { type: 'integer', minimum: 1, maximum: 7 },
    when: { type: 'string', format: 'date-time' },
  },
  required: ['city', 'unit', 'days'],
  additionalProperties: false,
} as const

const ajv = new Ajv({ strict: false })

describe('openai', () => {
  it('answers the same request the same way, as JSON and as a stream, and bills it', async () => {
    const emu = await listeningEmulator()
    const client = new OpenAI({ apiKey: emu.keys.standard, baseURL: `${emu.url}/api/v1`, maxRetries: 0 })
    const request = { model: MODEL, messages: [{ role: 'user' as const, content: 'Tell me about lighthouses' }] }
    const first = await client.chat.completions.create(request)
    const again = await client.chat.completions.create(request)
    expect(first.choices[0]!.message.content).toBe(again.choices[0]!.message.content)
    expect(first.choices[0]!.message.content).toMatch(/lighthouses/)
    expect(first.id).toMatch(/^gen-\d+-[A-Za-z0-9]{20}$/)
    expect(first.usage!.completion_tokens).toBeGreaterThan(10)
    const other = await client.chat.completions.create({ ...request, messages: [{ role: 'user', content: 'And about submarines?' }] })
    expect(other.choices[0]!.message.content).not.toBe(first.choices[0]!.message.content)

    const stream = await client.chat.completions.create({ ...request, stream: true })
    let text = ''
    let finish: string | null = null
    let usage: OpenAI.CompletionUsage | undefined
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? ''
      finish = chunk.choices[0]?.finish_reason ?? finish
      usage = chunk.usage ?? usage
    }
    expect(text).toBe(first.choices[0]!.message.content)
    expect(finish).toBe('stop')
    expect(usage).toEqual(first.usage)
  })

  it('cuts at max_tokens with finish_reason "length", and at a stop sequence', async () => {
    const emu = await listeningEmulator()
    const client = new OpenAI({ apiKey: emu.keys.standard, baseURL: `${emu.url}/api/v1`, maxRetries: 0 })
    const messages = [{ role: 'user' as const, content: 'Tell me a long story' }]
    const cut = await client.chat.completions.create({ model: MODEL, messages, max_tokens: 5 })
    expect(cut.choices[0]!.finish_reason).toBe('length')
    expect(cut.usage!.completion_tokens).toBe(5)
    const whole = await client.chat.completions.create({ model: MODEL, messages })
    const word = whole.choices[0]!.message.content!.split(' ')[3]!
    const stopped = await client.chat.completions.create({ model: MODEL, messages, stop: [word] })
    expect(stopped.choices[0]!.finish_reason).toBe('stop')
    expect(stopped.choices[0]!.message.content).not.toContain(word)
  })

  it('calls a tool with arguments valid against its schema, streamed the same way', async () => {
    const emu = await listeningEmulator()
    const client = new OpenAI({ apiKey: emu.keys.standard, baseURL: `${emu.url}/api/v1`, maxRetries: 0 })
    const request = {
      model: MODEL,
      messages: [{ role: 'user' as const, content: 'Plan my week' }],
      tools: [{ type: 'function' as const, function: { name: 'get_forecast', parameters: WEATHER } }],
      tool_choice: 'required' as const,
    }
    const res = await client.chat.completions.create(request)
    expect(res.choices[0]!.finish_reason).toBe('tool_calls')
    const call = res.choices[0]!.message.tool_calls![0]!
    if (call.type !== 'function') throw new Error('expected a function call')
    expect(call.function.name).toBe('get_forecast')
    expect(ajv.validate(WEATHER, JSON.parse(call.function.arguments)), ajv.errorsText()).toBe(true)

    const streamed = await client.chat.completions.stream(request).finalChatCompletion()
    expect(streamed.choices[0]!.message.tool_calls).toEqual(res.choices[0]!.message.tool_calls)
  })

  it('parses a structured output with its zod helper', async () => {
    const emu = await listeningEmulator()
    const client = new OpenAI({ apiKey: emu.keys.standard, baseURL: `${emu.url}/api/v1`, maxRetries: 0 })
    const Event = z.object({ name: z.string(), date: z.string(), attendees: z.array(z.string()).max(5), priority: z.enum(['low', 'high']) })
    const res = await client.chat.completions.parse({
      model: MODEL,
      messages: [{ role: 'user', content: 'Alice and Bob meet on Friday for the launch review' }],
      response_format: zodResponseFormat(Event, 'event'),
    })
    expect(Event.safeParse(res.choices[0]!.message.parsed).success).toBe(true)
  })

  it('a fault part way through a stream reaches the client as an error, not a quiet success', async () => {
    const emu = await listeningEmulator()
    await emu.send('POST', '/_emulator/api/faults', { match: { operation: 'chat.create' }, action: { status: 429, stream: { after_chunks: 3 } } })
    const client = new OpenAI({ apiKey: emu.keys.standard, baseURL: `${emu.url}/api/v1`, maxRetries: 0 })
    const stream = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Tell me a story' }], stream: true })
    let chunks = 0
    const failure = await (async () => {
      for await (const _chunk of stream) chunks++
    })().catch((e: unknown) => e)
    expect(failure).toBeInstanceOf(OpenAI.APIError)
    expect((failure as Error).message).toContain('Rate limit exceeded')
    expect(chunks).toBe(3)
  })

  it('names the field of a bad request in a 400', async () => {
    const emu = await listeningEmulator()
    const client = new OpenAI({ apiKey: emu.keys.standard, baseURL: `${emu.url}/api/v1`, maxRetries: 0 })
    const err = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'wizard' as 'user', content: 'x' }] }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(OpenAI.BadRequestError)
    expect((err as Error).message).toBe('400 Field `messages[0].role` must be one of system, developer, user, assistant, tool')
  })
})

describe('@openrouter/sdk', () => {
  it('sends and streams through its own schema validation', async () => {
    const emu = await listeningEmulator()
    const client = new OpenRouter({ apiKey: emu.keys.standard, serverURL: `${emu.url}/api/v1`, retryConfig: { strategy: 'none' } })
    const chatRequest = { model: MODEL, messages: [{ role: 'user' as const, content: 'What is a lighthouse?' }] }
    const res = await client.chat.send({ chatRequest: { ...chatRequest, stream: false } })
    if (res instanceof ReadableStream) throw new Error('expected JSON, got a stream')
    expect(res.object).toBe('chat.completion')
    const content = res.choices[0]!.message.content
    expect(typeof content).toBe('string')
    expect(res.usage?.cost).toBeGreaterThan(0)

    const stream = await client.chat.send({ chatRequest: { ...chatRequest, stream: true } })
    if (!(stream instanceof ReadableStream)) throw new Error('expected a stream, got JSON')
    let text = ''
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? ''
    expect(text).toBe(content)
  })
})

describe('@openrouter/ai-sdk-provider with ai', () => {
  it('generateText and streamText give the same text', async () => {
    const emu = await listeningEmulator()
    const openrouter = createOpenRouter({ apiKey: emu.keys.standard, baseURL: `${emu.url}/api/v1` })
    const generated = await generateText({ model: openrouter(MODEL), prompt: 'Describe a harbour at night', maxRetries: 0 })
    expect(generated.text).toMatch(/harbour/)
    expect(generated.finishReason).toBe('stop')
    const streamed = streamText({ model: openrouter(MODEL), prompt: 'Describe a harbour at night', maxRetries: 0 })
    expect(await streamed.text).toBe(generated.text)
  })

  it('generateObject returns an object that matches the schema', async () => {
    const emu = await listeningEmulator()
    const openrouter = createOpenRouter({ apiKey: emu.keys.standard, baseURL: `${emu.url}/api/v1` })
    const Recipe = z.object({ title: z.string(), minutes: z.number().int().min(1).max(240), steps: z.array(z.string()).min(1).max(6) })
    const { object } = await generateObject({ model: openrouter(MODEL), schema: Recipe, prompt: 'A pancake recipe', maxRetries: 0 })
    expect(Recipe.safeParse(object).success).toBe(true)
  })

  it('streamText surfaces a broken stream as an error with finishReason "error"', async () => {
    const emu = await listeningEmulator()
    await emu.send('POST', '/_emulator/api/faults', { match: { operation: 'chat.create' }, action: { status: 502, stream: { after_chunks: 4 } } })
    const openrouter = createOpenRouter({ apiKey: emu.keys.standard, baseURL: `${emu.url}/api/v1` })
    const errors: unknown[] = []
    const result = streamText({
      model: openrouter(MODEL),
      prompt: 'Describe a harbour at night',
      maxRetries: 0,
      onError: ({ error }) => void errors.push(error),
    })
    for await (const _part of result.fullStream) {
      // read to the end
    }
    expect(await result.finishReason).toBe('error')
    expect(errors.length).toBeGreaterThan(0)
  })

  it('runs a tool loop to its end: a tool call, the result sent back, then a text answer', async () => {
    const emu = await listeningEmulator()
    const openrouter = createOpenRouter({ apiKey: emu.keys.standard, baseURL: `${emu.url}/api/v1` })
    const calls: unknown[] = []
    const result = await generateText({
      model: openrouter(MODEL),
      prompt: 'What is the weather in Lisbon?',
      tools: {
        weather: tool({
          description: 'The weather in a city',
          inputSchema: z.object({ city: z.string() }),
          execute: async (input) => {
            calls.push(input)
            return { temperature: 21, sky: 'clear' }
          },
        }),
      },
      stopWhen: stepCountIs(5),
      maxRetries: 0,
    })
    expect(calls).toHaveLength(1)
    expect(result.steps).toHaveLength(2)
    expect(result.steps[0]!.finishReason).toBe('tool-calls')
    expect(result.finishReason).toBe('stop')
    expect(result.text.length).toBeGreaterThan(0)
  })
})
