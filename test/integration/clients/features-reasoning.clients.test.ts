// Reasoning details carried over two turns through the clients not covered by reasoning.clients.test.ts:
// @openrouter/sdk (chat's parsed reasoningDetails, Responses' reasoning item with encrypted_content),
// the AI SDK's @ai-sdk/openai (Responses) and @ai-sdk/anthropic (thinking with its signature), LangChain's
// ChatOpenAI (Responses, created and streamed) and the OpenAI Agents SDK (with and without a tool call). Each client is used as a user
// would, over real HTTP; a fetch that keeps each request body shows what the client sent back.
import { createAnthropic } from '@ai-sdk/anthropic'
import { createOpenAI } from '@ai-sdk/openai'
import { type AIMessageChunk, HumanMessage } from '@langchain/core/messages'
import { ChatOpenAI } from '@langchain/openai'
import { Agent, OpenAIProvider, Runner, tool, user } from '@openai/agents'
import { OpenRouter } from '@openrouter/sdk'
import { HTTPClient } from '@openrouter/sdk/lib/http.js'
import { generateText, type ModelMessage } from 'ai'
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { listeningEmulator } from '../../helpers/emulator.ts'

const CLAUDE = 'anthropic/claude-sonnet-4'
const O4 = 'openai/o4-mini'
const QUESTION = 'Why do lighthouses flash in patterns?'
const FOLLOW_UP = 'And in fog?'
type Body = Record<string, unknown>
type Item = Record<string, unknown>

async function setup() {
  const emu = await listeningEmulator()
  const sent: Body[] = []
  // A fetch that keeps each JSON request body it passes on: what the client sends, unchanged.
  // (@openrouter/sdk hands over a Request, the others a URL and the body in init.)
  const keeping: typeof fetch = async (input, init) => {
    const body = input instanceof Request ? await input.clone().text() : init?.body
    if (typeof body === 'string' && body !== '') sent.push(JSON.parse(body) as Body)
    return fetch(input, init)
  }
  return { emu, key: emu.keys.standard, baseURL: `${emu.url}/api/v1`, sent, keeping }
}

/** The items of a Responses request's input of one type. */
const inputItems = (body: Body, type: string): Item[] => (body.input as Item[]).filter((item) => item.type === type)

describe('reasoning details over two turns, through every client', () => {
  it('@openrouter/sdk: chat.send parses reasoningDetails, sent back on the next turn; Responses sends back its reasoning item', async () => {
    const { emu, key, baseURL, sent, keeping } = await setup()
    const httpClient = new HTTPClient({ fetcher: (input, init) => keeping(input, init) })
    const client = new OpenRouter({ apiKey: key, serverURL: baseURL, retryConfig: { strategy: 'none' }, httpClient })
    const messages = [{ role: 'user' as const, content: QUESTION }]
    const first = await client.chat.send({ chatRequest: { model: CLAUDE, messages, reasoning: { effort: 'low' as const }, stream: false as const } })
    if (first instanceof ReadableStream) throw new Error('expected JSON, got a stream')
    const message = first.choices[0]!.message
    expect(message.reasoningDetails).toEqual([
      { type: 'reasoning.text', text: message.reasoning, signature: expect.any(String), format: 'anthropic-claude-v1', index: 0 },
    ])
    // The details as the gateway gave them (the same request answers the same), before the SDK parsed them.
    const given = (await emu.send('POST', '/api/v1/chat/completions', sent[0]!, key)).body.choices[0].message.reasoning_details
    const next = await client.chat.send({
      chatRequest: {
        model: CLAUDE,
        messages: [
          ...messages,
          { role: 'assistant', content: message.content, reasoningDetails: message.reasoningDetails },
          { role: 'user', content: FOLLOW_UP },
        ],
        reasoning: { effort: 'low' as const },
        stream: false as const,
      },
    })
    if (next instanceof ReadableStream) throw new Error('expected JSON, got a stream')
    expect(next.choices[0]!.message.content).toBeTruthy()
    const assistant = (sent.at(-1)!.messages as Item[]).find((m) => m.role === 'assistant')!
    expect(assistant.reasoning_details).toEqual(given)

    const input = [{ role: 'user' as const, content: QUESTION }]
    const request = {
      model: O4,
      reasoning: { effort: 'low' as const, summary: 'auto' as const },
      include: ['reasoning.encrypted_content' as const],
      store: false as const,
      stream: false as const,
    }
    const response = await client.beta.responses.send({ responsesRequest: { ...request, input } })
    if (!('output' in response)) throw new Error('expected a whole response, not a stream')
    const reasoning = response.output[0]!
    if (reasoning.type !== 'reasoning') throw new Error(`expected a reasoning item first, got ${reasoning.type}`)
    expect(reasoning.encryptedContent).toMatch(/^[A-Za-z0-9+/]{40,}=*$/)
    const again = await client.beta.responses.send({
      responsesRequest: { ...request, input: [...input, ...(response.output as never[]), { role: 'user', content: FOLLOW_UP }] },
    })
    if (!('output' in again)) throw new Error('expected a whole response, not a stream')
    expect(again.status).toBe('completed')
    expect(inputItems(sent.at(-1)!, 'reasoning')).toEqual([expect.objectContaining({ id: reasoning.id, encrypted_content: reasoning.encryptedContent })])
  })

  it('@openrouter/sdk: a Gemini tool call carries a reasoning.encrypted detail, sent back with the tool result', async () => {
    const { emu, key, baseURL, sent, keeping } = await setup()
    const httpClient = new HTTPClient({ fetcher: (input, init) => keeping(input, init) })
    const client = new OpenRouter({ apiKey: key, serverURL: baseURL, retryConfig: { strategy: 'none' }, httpClient })
    const tools = [
      {
        type: 'function' as const,
        function: { name: 'get_weather', description: 'The weather in a city', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
      },
    ]
    const messages = [{ role: 'user' as const, content: 'What is the weather in Paris? Use the get_weather tool.' }]
    const request = { model: 'google/gemini-2.5-pro', tools, reasoning: { effort: 'low' as const }, stream: false as const }
    const first = await client.chat.send({ chatRequest: { ...request, messages } })
    if (first instanceof ReadableStream) throw new Error('expected JSON, got a stream')
    const message = first.choices[0]!.message
    const call = message.toolCalls![0]!
    expect(message.reasoningDetails).toContainEqual({ type: 'reasoning.encrypted', data: expect.any(String), format: 'google-gemini-v1', index: 1 })
    const given = (await emu.send('POST', '/api/v1/chat/completions', sent[0]!, key)).body.choices[0].message.reasoning_details

    const next = await client.chat.send({
      chatRequest: {
        ...request,
        messages: [
          ...messages,
          { role: 'assistant', content: message.content ?? '', toolCalls: message.toolCalls, reasoningDetails: message.reasoningDetails },
          { role: 'tool', toolCallId: call.id, content: 'Sunny, 21 °C' },
        ],
      },
    })
    if (next instanceof ReadableStream) throw new Error('expected JSON, got a stream')
    expect(next.choices[0]!.message.content).toBeTruthy()
    const assistant = (sent.at(-1)!.messages as Item[]).find((m) => m.role === 'assistant')!
    expect(assistant.reasoning_details).toEqual(given)
  })

  it('@ai-sdk/openai: generateText on the Responses API, then a turn with its response messages: the reasoning item goes back as given', async () => {
    const { emu, key, baseURL, sent, keeping } = await setup()
    const openai = createOpenAI({ apiKey: key, baseURL, fetch: keeping })
    const providerOptions = {
      // The AI SDK knows reasoning models by OpenAI's own names ("o4-mini"); a gateway's "openai/o4-mini" needs forceReasoning.
      openai: { forceReasoning: true, reasoningEffort: 'low', store: false, include: ['reasoning.encrypted_content'], reasoningSummary: 'auto' },
    }
    const model = openai.responses(O4)
    const first = await generateText({ model, prompt: QUESTION, providerOptions })
    expect(first.reasoningText).toMatch(/^The question is about /)
    const messages: ModelMessage[] = [{ role: 'user', content: QUESTION }, ...first.response.messages, { role: 'user', content: FOLLOW_UP }]
    const second = await generateText({ model, messages, providerOptions })
    expect(second.text).toBeTruthy()
    expect(sent).toHaveLength(2)
    // The item as the gateway gave it (the same request answers the same but for the item's id).
    const given = (await emu.send('POST', '/api/v1/responses', sent[0]!, key)).body as { output: Item[] }
    const reasoning = given.output.find((item) => item.type === 'reasoning')!
    expect(inputItems(sent[1]!, 'reasoning')).toEqual([
      {
        type: 'reasoning',
        id: first.reasoning[0]!.providerMetadata!.openai!.itemId,
        encrypted_content: reasoning.encrypted_content,
        summary: reasoning.summary,
      },
    ])
  })

  it('@ai-sdk/openai with its default store: the next turn refers to the reasoning and message by id, accepted', async () => {
    const { key, baseURL, sent, keeping } = await setup()
    const openai = createOpenAI({ apiKey: key, baseURL, fetch: keeping })
    const providerOptions = { openai: { forceReasoning: true, reasoningEffort: 'low', reasoningSummary: 'auto' } }
    const model = openai.responses(O4)
    const first = await generateText({ model, prompt: QUESTION, providerOptions })
    const messages: ModelMessage[] = [{ role: 'user', content: QUESTION }, ...first.response.messages, { role: 'user', content: FOLLOW_UP }]
    const second = await generateText({ model, messages, providerOptions })
    expect(second.text).toBeTruthy()
    // The gateway's Responses API keeps nothing to resolve them by: accepted, and not part of the prompt.
    expect(inputItems(sent[1]!, 'item_reference').map((item) => item.id)).toEqual([
      first.reasoning[0]!.providerMetadata!.openai!.itemId,
      expect.stringMatching(/^msg_/),
    ])
  })

  it('@ai-sdk/anthropic: thinking on the messages API, then a turn with its response messages: the thinking block goes back with its signature', async () => {
    const { emu, key, baseURL, sent, keeping } = await setup()
    const anthropic = createAnthropic({ baseURL, authToken: key, fetch: keeping })
    const providerOptions = { anthropic: { thinking: { type: 'enabled', budgetTokens: 64 } } }
    const model = anthropic(CLAUDE)
    const first = await generateText({ model, prompt: QUESTION, providerOptions, maxOutputTokens: 512 })
    expect(first.reasoningText).toMatch(/^The question is about /)
    const messages: ModelMessage[] = [{ role: 'user', content: QUESTION }, ...first.response.messages, { role: 'user', content: FOLLOW_UP }]
    const second = await generateText({ model, messages, providerOptions, maxOutputTokens: 512 })
    expect(second.text).toBeTruthy()
    expect(sent).toHaveLength(2)
    const given = (await emu.send('POST', '/api/v1/messages', sent[0]!, key)).body as { content: Item[] }
    const thinking = given.content.find((block) => block.type === 'thinking')!
    const assistant = (sent[1]!.messages as Item[]).find((m) => m.role === 'assistant')!
    expect((assistant.content as Item[])[0]).toEqual({ type: 'thinking', thinking: thinking.thinking, signature: thinking.signature })
  })

  it('LangChain: ChatOpenAI on the Responses API, the first AIMessage in the history: its reasoning item goes back', async () => {
    const { key, baseURL, sent, keeping } = await setup()
    const responses = new ChatOpenAI({
      model: O4,
      apiKey: key,
      configuration: { baseURL, fetch: keeping },
      useResponsesApi: true,
      // LangChain sends `reasoning` only for OpenAI's own model names ("o4-mini"), so for a gateway's
      // "openai/o4-mini" it goes in modelKwargs; zdrEnabled is store false, the reasoning sent back whole.
      modelKwargs: { reasoning: { effort: 'low', summary: 'auto' }, include: ['reasoning.encrypted_content'] },
      zdrEnabled: true,
      maxRetries: 0,
    })
    const question = new HumanMessage(QUESTION)
    const first = await responses.invoke([question])
    const reasoning = (first.additional_kwargs.reasoning ?? {}) as Item
    expect(reasoning.type).toBe('reasoning')
    expect(first.contentBlocks.find((block) => block.type === 'reasoning')?.reasoning).toMatch(/^The question is about /)
    const second = await responses.invoke([question, first, new HumanMessage(FOLLOW_UP)])
    expect(second.text).toBeTruthy()
    expect(inputItems(sent[1]!, 'reasoning')).toEqual([
      expect.objectContaining({ id: reasoning.id, encrypted_content: reasoning.encrypted_content, summary: reasoning.summary }),
    ])
    expect(reasoning.encrypted_content).toMatch(/^[A-Za-z0-9+/]{40,}=*$/)

    // Streamed, LangChain gathers the item from the stream's events: the same item goes back.
    let streamed: AIMessageChunk | undefined
    for await (const chunk of await responses.stream([question])) streamed = streamed ? streamed.concat(chunk) : chunk
    await responses.invoke([question, streamed!, new HumanMessage(FOLLOW_UP)])
    expect(inputItems(sent.at(-1)!, 'reasoning')).toEqual([
      expect.objectContaining({ encrypted_content: reasoning.encrypted_content, summary: reasoning.summary }),
    ])
  })

  it('OpenAI Agents SDK: a reasoning agent run twice, the second with the first history: its reasoning item is sent back and accepted', async () => {
    const { emu, key, baseURL, sent, keeping } = await setup()
    const openAIClient = new OpenAI({ apiKey: key, baseURL, maxRetries: 0, fetch: keeping })
    const runner = new Runner({ modelProvider: new OpenAIProvider({ openAIClient }), tracingDisabled: true })
    const agent = new Agent({
      name: 'keeper',
      model: O4,
      modelSettings: { reasoning: { effort: 'low', summary: 'auto' }, store: false, providerData: { include: ['reasoning.encrypted_content'] } },
    })
    const first = await runner.run(agent, QUESTION)
    const reasoning = first.newItems.find((item) => item.type === 'reasoning_item')
    if (!reasoning) throw new Error('the agent gave no reasoning item')
    const second = await runner.run(agent, [...first.history, user(FOLLOW_UP)])
    expect(second.finalOutput).toBeTruthy()
    const given = (await emu.send('POST', '/api/v1/responses', sent[0]!, key)).body as { output: Item[] }
    const item = given.output.find((output) => output.type === 'reasoning')!
    expect(item.encrypted_content).toMatch(/^[A-Za-z0-9+/]{40,}=*$/)
    expect(inputItems(sent.at(-1)!, 'reasoning')).toEqual([
      expect.objectContaining({ id: reasoning.rawItem.id, encrypted_content: item.encrypted_content, summary: item.summary }),
    ])
  })

  it('OpenAI Agents SDK: a Claude agent thinks, calls a tool, thinks again; the next run sends both reasoning items back, accepted', async () => {
    const { emu, key, baseURL, sent, keeping } = await setup()
    const openAIClient = new OpenAI({ apiKey: key, baseURL, maxRetries: 0, fetch: keeping })
    const runner = new Runner({ modelProvider: new OpenAIProvider({ openAIClient }), tracingDisabled: true })
    const getWeather = tool({
      name: 'get_weather',
      description: 'The weather in a city',
      parameters: z.object({ city: z.string() }),
      execute: async () => 'Sunny, 21 °C',
    })
    const agent = new Agent({
      name: 'forecaster',
      model: CLAUDE,
      tools: [getWeather],
      modelSettings: { reasoning: { effort: 'low' }, store: false, providerData: { include: ['reasoning.encrypted_content'] } },
    })
    const first = await runner.run(agent, 'What is the weather in Paris? Use the get_weather tool.')
    expect(first.newItems.map((item) => item.type)).toEqual([
      'reasoning_item',
      'tool_call_item',
      'tool_call_output_item',
      'reasoning_item',
      'message_output_item',
    ])
    const second = await runner.run(agent, [...first.history, user('And in Rome?')])
    expect(second.finalOutput).toBeTruthy()
    const given = await Promise.all(
      sent.slice(0, 2).map(async (body) => ((await emu.send('POST', '/api/v1/responses', body, key)).body as { output: Item[] }).output[0]!),
    )
    const back = inputItems(sent[2]!, 'reasoning')
    expect(given.map((item) => item.encrypted_content)).toEqual([expect.stringMatching(/^[A-Za-z0-9+/]{40,}=*$/), expect.any(String)])
    expect(back.map((item) => item.encrypted_content)).toEqual(given.map((item) => item.encrypted_content))
  })
})
