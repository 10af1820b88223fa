// Prompt caching and parallel tool calls through the clients the official-SDK tests
// (prompt-cache.clients.test.ts, parallel-tools.clients.test.ts) leave out: @openrouter/sdk, the AI SDK's
// OpenAI, Anthropic and OpenRouter providers, LangChain and the OpenAI Agents SDK. A long prompt asked
// twice is read from the cache the second time and billed at the cache read price (checked on the
// ledger through GET /generation); a question naming two tools gets both called in one answer.
import { createAnthropic } from '@ai-sdk/anthropic'
import { createOpenAI } from '@ai-sdk/openai'
import { ChatOpenAI } from '@langchain/openai'
import { Agent, OpenAIProvider, Runner, tool as agentTool } from '@openai/agents'
import { createOpenRouter } from '@openrouter/ai-sdk-provider'
import { OpenRouter } from '@openrouter/sdk'
import { generateText, jsonSchema, tool, type ModelMessage } from 'ai'
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { listeningEmulator, type TestEmulator } from '../../helpers/emulator.ts'

const OPENAI_MODEL = 'openai/gpt-4o-mini'
const CLAUDE = 'anthropic/claude-sonnet-4'
// About 1,500 tokens of instructions: past the 1,024 an openai model's provider caches from.
const LONG = Array.from({ length: 300 }, (_, i) => `Rule ${i}: answer plainly.`).join(' ')
const TWO_TOOLS = 'Call get_weather and get_time for Paris'

async function setup() {
  const emu = await listeningEmulator()
  return { emu, baseURL: `${emu.url}/api/v1`, key: emu.keys.standard }
}

interface Generation {
  native_tokens_prompt: number
  native_tokens_completion: number
  native_tokens_cached: number
  total_cost: number
}

/**
 * The generation the ledger holds for `id`: its cached tokens read, and its cost with them at the
 * model's cache read price (USD per token: prompt, cache read, completion).
 */
async function expectReadFromCache(emu: TestEmulator, id: string, prices: { prompt: number; read: number; completion: number }) {
  const res = await emu.get(`/api/v1/generation?id=${id}`, emu.keys.standard)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  const generation = res.body.data as Generation
  expect(generation.native_tokens_cached).toBeGreaterThan(1000)
  const uncached = generation.native_tokens_prompt - generation.native_tokens_cached
  expect(generation.total_cost).toBeCloseTo(
    uncached * prices.prompt + generation.native_tokens_cached * prices.read + generation.native_tokens_completion * prices.completion,
    12,
  )
}

const GPT_4O_MINI = { prompt: 0.15e-6, read: 0.075e-6, completion: 0.6e-6 }

describe('a cached second call priced at the cache price, through every client', () => {
  it('@openrouter/sdk chat: cachedTokens parsed by the SDK, the cost at the read price', async () => {
    const { emu, baseURL, key } = await setup()
    const client = new OpenRouter({ apiKey: key, serverURL: baseURL, retryConfig: { strategy: 'none' } })
    const ask = async (question: string) => {
      const chat = await client.chat.send({
        chatRequest: {
          model: OPENAI_MODEL,
          messages: [
            { role: 'system', content: LONG },
            { role: 'user', content: question },
          ],
          stream: false,
        },
      })
      if (!('choices' in chat)) throw new Error('expected a whole answer, not a stream')
      return chat
    }
    expect((await ask('Say hello.')).usage?.promptTokensDetails?.cachedTokens).toBe(0)
    const second = await ask('Say goodbye.')
    expect(second.usage?.promptTokensDetails?.cachedTokens).toBeGreaterThan(1000)
    await expectReadFromCache(emu, second.id, GPT_4O_MINI)
  })

  it('AI SDK: @ai-sdk/openai and @openrouter/ai-sdk-provider read cached input tokens', async () => {
    const { emu, baseURL, key } = await setup()
    const messages = (question: string): ModelMessage[] => [{ role: 'user', content: question }]
    const openai = createOpenAI({ baseURL, apiKey: key })
    await generateText({ model: openai.chat(OPENAI_MODEL), instructions: LONG, messages: messages('Say hello.') })
    const second = await generateText({ model: openai.chat(OPENAI_MODEL), instructions: LONG, messages: messages('Say goodbye.') })
    expect(second.usage.inputTokenDetails.cacheReadTokens).toBeGreaterThan(1000)
    await expectReadFromCache(emu, second.response.id, GPT_4O_MINI)

    const openrouter = createOpenRouter({ baseURL, apiKey: key })
    const third = await generateText({ model: openrouter.chat(OPENAI_MODEL), instructions: LONG, messages: messages('Say it again.') })
    expect(third.usage.inputTokenDetails.cacheReadTokens).toBeGreaterThan(1000)
    await expectReadFromCache(emu, third.response.id, GPT_4O_MINI)
  })

  it('AI SDK (@ai-sdk/anthropic): a cacheControl breakpoint writes the system prompt, the next call reads it', async () => {
    const { emu, baseURL, key } = await setup()
    const anthropic = createAnthropic({ baseURL, authToken: key })
    const ask = (question: string) =>
      generateText({
        model: anthropic(CLAUDE),
        instructions: { role: 'system', content: LONG, providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } } },
        messages: [{ role: 'user', content: question }],
      })
    const first = await ask('Say hello.')
    expect(first.usage.inputTokenDetails.cacheWriteTokens).toBeGreaterThan(1000)
    const second = await ask('Say goodbye.')
    expect(second.usage.inputTokenDetails.cacheReadTokens).toBe(first.usage.inputTokenDetails.cacheWriteTokens)
    // claude-sonnet-4: $3/M prompt, $0.30/M cache read, $15/M completion. A message's id is its own: the
    // generation's is in the X-Generation-Id header.
    await expectReadFromCache(emu, second.response.headers!['x-generation-id']!, { prompt: 3e-6, read: 0.3e-6, completion: 15e-6 })
  })

  it('LangChain ChatOpenAI: usage_metadata.input_token_details.cache_read', async () => {
    const { emu, baseURL, key } = await setup()
    const model = new ChatOpenAI({ model: OPENAI_MODEL, apiKey: key, configuration: { baseURL }, maxRetries: 0 })
    await model.invoke([
      ['system', LONG],
      ['user', 'Say hello.'],
    ])
    const second = await model.invoke([
      ['system', LONG],
      ['user', 'Say goodbye.'],
    ])
    expect(second.usage_metadata?.input_token_details?.cache_read).toBeGreaterThan(1000)
    await expectReadFromCache(emu, second.id!, GPT_4O_MINI)
  })

  it('OpenAI Agents SDK: the second run of the same long instructions reads them from the cache', async () => {
    const { emu, baseURL, key } = await setup()
    const runner = new Runner({
      modelProvider: new OpenAIProvider({ openAIClient: new OpenAI({ baseURL, apiKey: key, maxRetries: 0 }) }),
      tracingDisabled: true,
    })
    const agent = new Agent({ name: 'rules', model: OPENAI_MODEL, instructions: LONG })
    await runner.run(agent, 'Say hello.')
    const second = await runner.run(agent, 'Say goodbye.')
    const response = second.rawResponses.at(-1)!
    expect(response.usage.inputTokensDetails[0]?.cached_tokens).toBeGreaterThan(1000)
    await expectReadFromCache(emu, response.responseId!, GPT_4O_MINI)
  })
})

describe('two parallel tool calls, through every client', () => {
  const cityParameters: { type: 'object'; properties: Record<string, { type: 'string' }>; required: string[] } = {
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
  }

  it('@openrouter/sdk chat: two toolCalls with their own ids', async () => {
    const { baseURL, key } = await setup()
    const client = new OpenRouter({ apiKey: key, serverURL: baseURL, retryConfig: { strategy: 'none' } })
    const chat = await client.chat.send({
      chatRequest: {
        model: OPENAI_MODEL,
        messages: [{ role: 'user', content: TWO_TOOLS }],
        tools: ['get_weather', 'get_time'].map((name) => ({ type: 'function' as const, function: { name, parameters: cityParameters } })),
        stream: false,
      },
    })
    if (!('choices' in chat)) throw new Error('expected a whole answer, not a stream')
    const calls = chat.choices[0]!.message.toolCalls ?? []
    expect(calls.map((call) => call.function.name)).toEqual(['get_weather', 'get_time'])
    expect(new Set(calls.map((call) => call.id)).size).toBe(2)
  })

  it('AI SDK: @ai-sdk/openai (chat and Responses) and @ai-sdk/anthropic get both tools called in one step', async () => {
    const { baseURL, key } = await setup()
    const tools = {
      get_weather: tool({ description: 'Weather of a city', inputSchema: jsonSchema<{ city: string }>(cityParameters) }),
      get_time: tool({ description: 'Time in a city', inputSchema: jsonSchema<{ city: string }>(cityParameters) }),
    }
    const openai = createOpenAI({ baseURL, apiKey: key })
    const anthropic = createAnthropic({ baseURL, authToken: key })
    for (const model of [openai.chat(OPENAI_MODEL), openai.responses(OPENAI_MODEL), anthropic(CLAUDE)]) {
      const result = await generateText({ model, prompt: TWO_TOOLS, tools })
      expect(result.toolCalls.map((call) => call.toolName)).toEqual(['get_weather', 'get_time'])
      expect(new Set(result.toolCalls.map((call) => call.toolCallId)).size).toBe(2)
    }
  })

  it('LangChain ChatOpenAI with bound tools: two tool_calls', async () => {
    const { baseURL, key } = await setup()
    const model = new ChatOpenAI({ model: OPENAI_MODEL, apiKey: key, configuration: { baseURL }, maxRetries: 0 })
    const bound = model.bindTools(['get_weather', 'get_time'].map((name) => ({ type: 'function' as const, function: { name, parameters: cityParameters } })))
    const message = await bound.invoke(TWO_TOOLS)
    expect(message.tool_calls?.map((call) => call.name)).toEqual(['get_weather', 'get_time'])
  })

  it('OpenAI Agents SDK: one model response calls both tools, the run then answers with their results', async () => {
    const { baseURL, key } = await setup()
    const runner = new Runner({
      modelProvider: new OpenAIProvider({ openAIClient: new OpenAI({ baseURL, apiKey: key, maxRetries: 0 }) }),
      tracingDisabled: true,
    })
    const city = z.object({ city: z.string() })
    const agent = new Agent({
      name: 'planner',
      model: OPENAI_MODEL,
      tools: [
        agentTool({ name: 'get_weather', description: 'Weather of a city', parameters: city, execute: ({ city: at }) => `Sunny in ${at}` }),
        agentTool({ name: 'get_time', description: 'Time in a city', parameters: city, execute: ({ city: at }) => `Noon in ${at}` }),
      ],
    })
    const result = await runner.run(agent, TWO_TOOLS)
    const first = result.rawResponses[0]!.output.flatMap((item) => (item.type === 'function_call' ? [item.name] : []))
    expect(first).toEqual(['get_weather', 'get_time'])
    expect(result.newItems.filter((item) => item.type === 'tool_call_output_item')).toHaveLength(2)
    expect(typeof result.finalOutput).toBe('string')
  })
})
