// Web search with citations through every client a user points at the emulator: the official SDKs
// (openai, @openrouter/sdk), the AI SDK's providers, LangChain and the OpenAI Agents SDK, each asking the
// way it knows (the `web` plugin, a web search tool, a `:online` model). Each gets its cited pages back
// where that client shows them: url_citation annotations, the AI SDK's sources, content blocks.
import { createOpenAI } from '@ai-sdk/openai'
import { ChatOpenAI } from '@langchain/openai'
import { Agent, OpenAIProvider, Runner, webSearchTool } from '@openai/agents'
import { createOpenRouter } from '@openrouter/ai-sdk-provider'
import { OpenRouter } from '@openrouter/sdk'
import { generateText } from 'ai'
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { listeningEmulator } from '../../helpers/emulator.ts'

const MODEL = 'openai/gpt-4o'
const QUESTION = 'Tell me about lighthouses'

interface Citation {
  type: 'url_citation'
  url?: string
  url_citation?: { url: string }
  start_index?: number
  end_index?: number
}

/** Where the pages a citation names sit: reserved example domains, never the network. */
const urlOf = (citation: Citation): string => citation.url ?? citation.url_citation!.url
const expectExamplePages = (urls: string[], count: number) => {
  expect(urls).toHaveLength(count)
  for (const url of urls) expect(url).toMatch(/^https:\/\/[a-z]+\.example\/lighthouses-[0-9a-f]{6}$/)
}

async function setup() {
  const emu = await listeningEmulator()
  const baseURL = `${emu.url}/api/v1`
  const openai = new OpenAI({ baseURL, apiKey: emu.keys.standard, maxRetries: 0 })
  return { emu, baseURL, key: emu.keys.standard, openai }
}

describe('web search with citations, through every client', () => {
  it('openai: chat with the web plugin (message annotations) and Responses with a web_search tool (output_text annotations)', async () => {
    const { openai } = await setup()
    const chat = await openai.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: QUESTION }],
      plugins: [{ id: 'web', max_results: 2 }],
    } as OpenAI.ChatCompletionCreateParamsNonStreaming)
    const message = chat.choices[0]!.message as OpenAI.ChatCompletionMessage & { annotations: Citation[] }
    expectExamplePages(message.annotations.map(urlOf), 2)
    for (const citation of message.annotations)
      expect(message.content!.slice(citation.url_citation!.start_index, citation.url_citation!.end_index)).toContain(urlOf(citation))

    const response = await openai.responses.create({ model: MODEL, input: QUESTION, tools: [{ type: 'web_search' }] })
    const text = response.output.flatMap((item) => (item.type === 'message' ? item.content : [])).find((part) => part.type === 'output_text')
    expectExamplePages(
      (text?.annotations ?? []).map((a) => urlOf(a as Citation)),
      5,
    )
  })

  it('@openrouter/sdk: Responses with the web plugin, annotations typed by the SDK', async () => {
    const { baseURL, key } = await setup()
    const client = new OpenRouter({ apiKey: key, serverURL: baseURL, retryConfig: { strategy: 'none' } })
    const response = await client.beta.responses.send({
      responsesRequest: { model: MODEL, input: QUESTION, plugins: [{ id: 'web', maxResults: 3 }], stream: false },
    })
    if (!('output' in response)) throw new Error('expected a whole response, not a stream')
    const parts = response.output.flatMap((item) => (item.type === 'message' ? (item.content as Array<{ type: string; annotations?: Citation[] }>) : []))
    expectExamplePages((parts.find((part) => part.type === 'output_text')?.annotations ?? []).map(urlOf), 3)
  })

  it('AI SDK: @ai-sdk/openai web search tool and @openrouter/ai-sdk-provider web plugin give sources', async () => {
    const { baseURL, key } = await setup()
    const openai = createOpenAI({ baseURL, apiKey: key })
    const searched = await generateText({ model: openai.responses(MODEL), prompt: QUESTION, tools: { web_search: openai.tools.webSearch({}) } })
    expectExamplePages(
      searched.sources.flatMap((s) => (s.sourceType === 'url' ? [s.url] : [])),
      5,
    )

    const openrouter = createOpenRouter({ baseURL, apiKey: key })
    const plugin = await generateText({ model: openrouter.chat(MODEL, { plugins: [{ id: 'web', max_results: 2 }] }), prompt: QUESTION })
    expectExamplePages(
      plugin.sources.flatMap((s) => (s.sourceType === 'url' ? [s.url] : [])),
      2,
    )
  })

  it('LangChain: ChatOpenAI on the Responses API with a web_search tool, annotations on the text block', async () => {
    const { baseURL, key } = await setup()
    const model = new ChatOpenAI({ model: MODEL, apiKey: key, configuration: { baseURL }, useResponsesApi: true, maxRetries: 0 })
    const message = await model.invoke(QUESTION, { tools: [{ type: 'web_search' }] })
    const blocks = message.content as Array<{ type: string; annotations?: Citation[] }>
    expectExamplePages((blocks.find((block) => block.type === 'text')?.annotations ?? []).map(urlOf), 5)
  })

  it('OpenAI Agents SDK: an agent with the hosted web search tool answers citing the pages', async () => {
    const { openai } = await setup()
    const runner = new Runner({ modelProvider: new OpenAIProvider({ openAIClient: openai }), tracingDisabled: true })
    const result = await runner.run(new Agent({ name: 'researcher', model: MODEL, tools: [webSearchTool()] }), QUESTION)
    const message = result.newItems.find((item) => item.type === 'message_output_item')
    if (!message) throw new Error('the agent wrote no message')
    const content = (message.rawItem as { content: Array<{ type: string; providerData?: { annotations?: Citation[] }; annotations?: Citation[] }> }).content
    const text = content.find((part) => part.type === 'output_text')!
    expectExamplePages((text.annotations ?? text.providerData?.annotations ?? []).map(urlOf), 5)
    expect(result.finalOutput).toMatch(/Sources:\n1\. \[/)
  })
})
