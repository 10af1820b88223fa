// The server tools a Messages request offers, run by the emulator, through the official `@anthropic-ai/sdk`:
// a web search tool (`web_search_20250305`, `openrouter:web_search`) answers with a server_tool_use block
// (the query), its web_search_tool_result (the seeded pages) and a text block citing them
// (web_search_result_location), `usage.server_tool_use.web_search_requests` 1 and one search in the cost;
// streamed the same; `openrouter:datetime` states the virtual clock's time. A next turn sending the blocks
// back is accepted.
import Anthropic from '@anthropic-ai/sdk'
import { describe, expect, it } from 'vitest'
import { priceUsd } from '../../../src/emulator/core/money.ts'
import { listeningEmulator } from '../../helpers/emulator.ts'

type TestEmulator = Awaited<ReturnType<typeof listeningEmulator>>

const MODEL = 'anthropic/claude-sonnet-4'
/** A model whose endpoints price a web search. */
const PRICED = 'x-ai/grok-4'
const QUESTION = 'What is new in lighthouse engineering?'
const WEB_TOOL = { type: 'web_search_20250305' as const, name: 'web_search' as const, max_uses: 3 }

const client = (emu: TestEmulator) => new Anthropic({ baseURL: `${emu.url}/api`, apiKey: emu.keys.standard, maxRetries: 0 })

/** The cost of the message's tokens at its provider's prices, and of one search there. */
function prices(emu: TestEmulator, message: Anthropic.Message): { tokens: number; search: number } {
  const provider = (message as unknown as { provider: string }).provider
  const endpoint = emu.ctx.services.catalog
    .get()
    .find(message.model)!
    .endpoints.find((e) => e.provider_name === provider)!
  const { input_tokens, output_tokens } = message.usage
  return {
    tokens: input_tokens * priceUsd(endpoint.pricing.prompt) + output_tokens * priceUsd(endpoint.pricing.completion),
    search: priceUsd(endpoint.pricing.web_search),
  }
}

describe('Messages server tools', () => {
  it('a web search tool gives server_tool_use, web_search_tool_result and a text citing the pages, one search counted and billed', async () => {
    const emu = await listeningEmulator()
    const anthropic = client(emu)
    const message = await anthropic.messages.create({ model: MODEL, max_tokens: 400, messages: [{ role: 'user', content: QUESTION }], tools: [WEB_TOOL] })
    expect(message.content.map((b) => b.type)).toEqual(['server_tool_use', 'web_search_tool_result', 'text'])
    const [use, result, text] = message.content as [Anthropic.ServerToolUseBlock, Anthropic.WebSearchToolResultBlock, Anthropic.TextBlock]
    expect(use.id).toMatch(/^srvtoolu_[0-9a-f]{24}$/)
    expect(use.name).toBe('web_search')
    expect((use.input as { query: string }).query).toMatch(/lighthouse/)
    expect(result.tool_use_id).toBe(use.id)
    const pages = result.content as Anthropic.WebSearchResultBlock[]
    expect(pages).toHaveLength(5)
    for (const page of pages) {
      expect(page.type).toBe('web_search_result')
      expect(page.url).toMatch(/^https:\/\/[a-z]+\.example\/[a-z0-9-]+$/)
      expect(page.encrypted_content).not.toBe('')
    }
    const citations = text.citations as Anthropic.CitationsWebSearchResultLocation[]
    expect(citations.map((c) => c.type)).toEqual(pages.map(() => 'web_search_result_location'))
    expect(citations.map((c) => c.url)).toEqual(pages.map((p) => p.url))
    expect(message.usage.server_tool_use).toEqual({ web_search_requests: 1, web_fetch_requests: 0 })

    // The cost is the tokens' and one search's, at the serving endpoint's prices (the catalog gives
    // Anthropic's endpoints no web_search price; Grok's has one, and any text model answers here).
    for (const asked of [
      message,
      await anthropic.messages.create({ model: PRICED, max_tokens: 400, messages: [{ role: 'user', content: QUESTION }], tools: [WEB_TOOL] }),
    ]) {
      const { tokens, search } = prices(emu, asked)
      expect((asked.usage as unknown as { cost: number }).cost).toBeCloseTo(tokens + search, 9)
      if (asked.model === PRICED) expect(search).toBeGreaterThan(0.001)
    }

    // Without the tool: a text without citations, no server tool usage, no search billed.
    const plain = await anthropic.messages.create({ model: MODEL, max_tokens: 400, messages: [{ role: 'user', content: QUESTION }] })
    expect(plain.content.map((b) => b.type)).toEqual(['text'])
    expect((plain.content[0] as Anthropic.TextBlock).citations).toBeNull()
    expect(plain.usage.server_tool_use).toBeNull()

    // A next turn sends the blocks back, as Claude Code does: accepted.
    const next = await anthropic.messages.create({
      model: MODEL,
      max_tokens: 200,
      messages: [
        { role: 'user', content: QUESTION },
        { role: 'assistant', content: message.content as unknown as Anthropic.ContentBlockParam[] },
        { role: 'user', content: 'And in bridges?' },
      ],
      tools: [WEB_TOOL],
    })
    expect(next.stop_reason).toBe('end_turn')
  })

  it('streams the same blocks: the search whole, citations_delta before the text, the usage in message_delta', async () => {
    const emu = await listeningEmulator()
    const anthropic = client(emu)
    const body = {
      model: MODEL,
      max_tokens: 400,
      messages: [{ role: 'user' as const, content: QUESTION }],
      tools: [{ type: 'openrouter:web_search', parameters: { max_results: 2 } }] as unknown as Anthropic.ToolUnion[],
    }
    const whole = await anthropic.messages.create(body)
    const streamed = await anthropic.messages.stream(body).finalMessage()
    const withoutIds = (m: Anthropic.Message) => JSON.parse(JSON.stringify(m.content).replaceAll(/srvtoolu_[0-9a-f]+/g, 'srvtoolu'))
    expect(withoutIds(streamed)).toEqual(withoutIds(whole))
    expect((whole.content[1] as Anthropic.WebSearchToolResultBlock).content).toHaveLength(2)
    expect(streamed.usage.server_tool_use).toEqual({ web_search_requests: 1, web_fetch_requests: 0 })
  })

  it('openrouter:datetime states the virtual clock’s time; a bad zone is a 400 naming the field', async () => {
    const emu = await listeningEmulator()
    const anthropic = client(emu)
    const tools = [{ type: 'openrouter:datetime', parameters: { timezone: 'Europe/Paris' } }] as unknown as Anthropic.ToolUnion[]
    const message = await anthropic.messages.create({ model: MODEL, max_tokens: 300, messages: [{ role: 'user', content: 'What time is it?' }], tools })
    expect((message.content[0] as Anthropic.TextBlock).text).toMatch(/^The current date and time is .+ \(Europe\/Paris\)\. /)

    const bad = await emu.send(
      'POST',
      '/api/v1/messages',
      {
        model: MODEL,
        max_tokens: 300,
        messages: [{ role: 'user', content: 'What time is it?' }],
        tools: [{ type: 'openrouter:datetime', parameters: { timezone: 7 } }],
      },
      emu.keys.standard,
    )
    expect(bad.status).toBe(400)
    expect(JSON.stringify(bad.body)).toContain('tools[0].parameters.timezone')
  })

  it('a web fetch tool reads a made-up page for an example domain’s url (never fetched), refuses other hosts, counted in usage', async () => {
    const emu = await listeningEmulator()
    const anthropic = client(emu)
    const tools = [{ type: 'web_fetch_20250910', name: 'web_fetch', max_uses: 1 }] as unknown as Anthropic.ToolUnion[]
    const ask = (content: string) => anthropic.messages.create({ model: MODEL, max_tokens: 300, messages: [{ role: 'user', content }], tools })
    const message = await ask('Summarize https://docs.example/lighthouse-lenses please')
    expect(message.content.map((b) => b.type)).toEqual(['server_tool_use', 'web_fetch_tool_result', 'text'])
    const use = message.content[0] as Anthropic.ServerToolUseBlock
    expect(use).toMatchObject({ name: 'web_fetch', input: { url: 'https://docs.example/lighthouse-lenses' } })
    const result = message.content[1] as unknown as { tool_use_id: string; content: { type: string; url: string; content: { source: { data: string } } } }
    expect(result.tool_use_id).toBe(use.id)
    expect(result.content.type).toBe('web_fetch_result')
    expect(result.content.content.source.data).toMatch(/lighthouse lenses: an emulated fetch/)
    expect(message.usage.server_tool_use).toEqual({ web_search_requests: 0, web_fetch_requests: 1 })

    const refused = await ask('Summarize https://internal.corp.test/secrets')
    expect((refused.content[1] as unknown as { content: unknown }).content).toEqual({ type: 'web_fetch_tool_result_error', error_code: 'url_not_allowed' })

    // No url in the question: no fetch, as without the tool.
    const none = await ask('Tell me about lighthouses')
    expect(none.content.map((b) => b.type)).toEqual(['text'])
    expect(none.usage.server_tool_use).toBeNull()
  })
})
