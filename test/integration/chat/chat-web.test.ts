// Web search on chat completions, through the official `openai` client: `:online`, the `web` plugin and the
// web search tools give seeded results on example domains as `url_citation` annotations whose indexes
// frame their links in the text (also on stream deltas), billed one search at the endpoint's price; a
// bad plugin shape is a 400 naming the field.
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { priceUsd } from '../../../src/emulator/core/money.ts'
import { listeningEmulator, testEmulator, type TestEmulator } from '../../helpers/emulator.ts'

const QUESTION = 'What is new in lighthouse engineering?'
const MESSAGES = [{ role: 'user' as const, content: QUESTION }]

interface Citation {
  type: string
  url_citation: { url: string; title: string; content?: string; start_index: number; end_index: number }
}

/** Each annotation is a url_citation on an example domain whose indexes frame its link in the text. */
function expectCited(content: string, annotations: Citation[], count: number): void {
  expect(annotations).toHaveLength(count)
  for (const { type, url_citation: c } of annotations) {
    expect(type).toBe('url_citation')
    expect(c.url).toMatch(/^https:\/\/[a-z]+\.example\/[a-z0-9-]+$/)
    expect(c.title).not.toBe('')
    expect(c.start_index).toBeGreaterThanOrEqual(0)
    expect(c.end_index).toBeLessThanOrEqual(content.length)
    expect(content.slice(c.start_index, c.end_index)).toBe(`[${c.title}](${c.url})`)
  }
  expect(annotations.map((a) => a.url_citation.url).join(' ')).toMatch(/lighthouse|engineering/)
}

function tokensCost(emu: TestEmulator, provider: string, usage: OpenAI.CompletionUsage, modelId: string): { cost: number; webSearch: number } {
  const endpoint = emu.ctx.services.catalog
    .get()
    .find(modelId)!
    .endpoints.find((e) => e.provider_name === provider)!
  return {
    cost: usage.prompt_tokens * priceUsd(endpoint.pricing.prompt) + usage.completion_tokens * priceUsd(endpoint.pricing.completion),
    webSearch: priceUsd(endpoint.pricing.web_search),
  }
}

describe('chat web search', () => {
  it(':online and the web plugin cite max_results pages, billed one search, the same twice', async () => {
    const emu = await listeningEmulator()
    const openai = new OpenAI({ baseURL: `${emu.url}/api/v1`, apiKey: emu.keys.standard, maxRetries: 0 })
    const online = await openai.chat.completions.create({ model: 'x-ai/grok-4:online', messages: MESSAGES })
    const message = online.choices[0]!.message as OpenAI.ChatCompletionMessage & { annotations: Citation[] }
    expectCited(message.content!, message.annotations, 5)
    const { cost, webSearch } = tokensCost(emu, (online as unknown as { provider: string }).provider, online.usage!, 'x-ai/grok-4')
    expect(webSearch).toBe(0.025)
    expect((online.usage as unknown as { cost: number }).cost).toBeCloseTo(cost + webSearch, 12)

    const body = { model: 'x-ai/grok-4', messages: MESSAGES, plugins: [{ id: 'web', max_results: 2 }] }
    const plugin = await openai.chat.completions.create(body as OpenAI.ChatCompletionCreateParamsNonStreaming)
    const cited = plugin.choices[0]!.message as OpenAI.ChatCompletionMessage & { annotations: Citation[] }
    expectCited(cited.content!, cited.annotations, 2)
    expect((plugin.usage as unknown as { cost: number }).cost).toBeCloseTo(
      tokensCost(emu, (plugin as unknown as { provider: string }).provider, plugin.usage!, 'x-ai/grok-4').cost + 0.025,
      12,
    )
    const again = await openai.chat.completions.create(body as OpenAI.ChatCompletionCreateParamsNonStreaming)
    expect((again.choices[0]!.message as unknown as { annotations: Citation[] }).annotations).toEqual(cited.annotations)
    expect(again.choices[0]!.message.content).toBe(cited.content)
    // A request without web search cites nothing; with it, the same text with its sources after.
    const plain = await openai.chat.completions.create({ model: 'x-ai/grok-4', messages: MESSAGES })
    expect(plain.choices[0]!.message).not.toHaveProperty('annotations')
    expect(cited.content!.startsWith(plain.choices[0]!.message.content!)).toBe(true)
  })

  it('streams the annotations as a delta after the text, the same as the answer', async () => {
    const emu = await listeningEmulator()
    const openai = new OpenAI({ baseURL: `${emu.url}/api/v1`, apiKey: emu.keys.standard, maxRetries: 0 })
    const body = { model: 'openai/gpt-4o', messages: MESSAGES, plugins: [{ id: 'web', max_results: 2 }], seed: 3 }
    const whole = await openai.chat.completions.create(body as OpenAI.ChatCompletionCreateParamsNonStreaming)
    const stream = await openai.chat.completions.create({ ...body, stream: true } as OpenAI.ChatCompletionCreateParamsStreaming)
    let content = ''
    const annotations: Citation[] = []
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta as (OpenAI.ChatCompletionChunk.Choice.Delta & { annotations?: Citation[] }) | undefined
      content += delta?.content ?? ''
      annotations.push(...(delta?.annotations ?? []))
    }
    expect(content).toBe(whole.choices[0]!.message.content)
    expectCited(content, annotations, 2)
    expect(annotations).toEqual((whole.choices[0]!.message as unknown as { annotations: Citation[] }).annotations)
  })

  it('the web search tools ask for it too; enabled false turns the plugin off', async () => {
    const emu = await testEmulator()
    const send = (body: Record<string, unknown>) =>
      emu.send('POST', '/api/v1/chat/completions', { model: 'openai/gpt-4o', messages: MESSAGES, ...body }, emu.keys.standard)
    const tool = await send({ tools: [{ type: 'openrouter:web_search', parameters: { max_results: 3 } }] })
    expect(tool.status).toBe(200)
    expectCited(tool.body.choices[0].message.content, tool.body.choices[0].message.annotations, 3)
    const shorthand = await send({ tools: [{ type: 'web_search_preview' }] })
    expect(shorthand.body.choices[0].message.annotations).toHaveLength(5)
    const off = await send({ plugins: [{ id: 'web', enabled: false }] })
    expect(off.status).toBe(200)
    expect(off.body.choices[0].message).not.toHaveProperty('annotations')
  })

  it('a bad max_results is a 400 naming the field, nothing billed', async () => {
    const emu = await testEmulator()
    const send = (body: Record<string, unknown>) =>
      emu.send('POST', '/api/v1/chat/completions', { model: 'x-ai/grok-4', messages: MESSAGES, ...body }, emu.keys.standard)
    const message = 'must be an integer from 1 to 20 (results per search; 5 when absent)'
    for (const [body, field] of [
      [{ plugins: [{ id: 'auto-router' }, { id: 'web', max_results: 0 }] }, 'plugins[1].max_results'],
      [{ plugins: [{ id: 'web', max_results: 1000 }] }, 'plugins[0].max_results'],
      [{ plugins: [{ id: 'web', max_results: 2.5 }] }, 'plugins[0].max_results'],
      [{ tools: [{ type: 'openrouter:web_search', parameters: { max_results: -1 } }] }, 'tools[0].parameters.max_results'],
    ] as const) {
      const res = await send(body)
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ error: { code: 400, message: `Field \`${field}\` ${message}`, metadata: { field, issue: message, location: 'body' } } })
    }
    const enabled = await send({ plugins: [{ id: 'web', enabled: 'yes' }] })
    expect(enabled.status).toBe(400)
    expect(enabled.body.error.metadata.field).toBe('plugins[0].enabled')
    const usage = emu.ctx.db.prepare('SELECT COUNT(*) AS n FROM usage').get() as { n: number }
    expect(usage.n).toBe(0)
  })
})
