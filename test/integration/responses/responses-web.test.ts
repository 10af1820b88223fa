// Web search on Responses, through the official `openai` client: the `web` plugin and the web search tools
// give the message's output_text seeded `url_citation` annotations whose indexes frame their links in the
// text, streamed as `response.output_text.annotation.added` events, billed one search through the meter.
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { priceUsd } from '../../../src/emulator/core/money.ts'
import { listeningEmulator } from '../../helpers/emulator.ts'

const INPUT = 'What is new in lighthouse engineering?'

interface Citation {
  type: string
  url: string
  title: string
  start_index: number
  end_index: number
}

function expectCited(text: string, annotations: readonly Citation[], count: number): void {
  expect(annotations).toHaveLength(count)
  for (const a of annotations) {
    expect(a.type).toBe('url_citation')
    expect(a.url).toMatch(/^https:\/\/[a-z]+\.example\/[a-z0-9-]+$/)
    expect(text.slice(a.start_index, a.end_index)).toBe(`[${a.title}](${a.url})`)
  }
}

const textPart = (response: OpenAI.Responses.Response) => {
  const message = response.output.find((item) => item.type === 'message')! as OpenAI.Responses.ResponseOutputMessage
  return message.content[0] as OpenAI.Responses.ResponseOutputText
}

describe('Responses web search', () => {
  it('the web plugin and a web_search tool cite max_results pages, billed one search, streamed as annotation events', async () => {
    const emu = await listeningEmulator()
    const openai = new OpenAI({ baseURL: `${emu.url}/api/v1`, apiKey: emu.keys.standard, maxRetries: 0 })
    const body = { model: 'x-ai/grok-4', input: INPUT, plugins: [{ id: 'web', max_results: 2 }] } as OpenAI.Responses.ResponseCreateParamsNonStreaming
    const cited = await openai.responses.create(body)
    const part = textPart(cited)
    expectCited(part.text, part.annotations as Citation[], 2)
    const plain = await openai.responses.create({ model: 'x-ai/grok-4', input: INPUT })
    expect(textPart(plain).annotations).toEqual([])
    // The response does not name its provider: the cost is one endpoint's tokens and its one search.
    const usage = cited.usage as unknown as { cost: number; input_tokens: number; output_tokens: number }
    const costs = emu.ctx.services.catalog
      .get()
      .find('x-ai/grok-4')!
      .endpoints.map(
        (e) => usage.input_tokens * priceUsd(e.pricing.prompt) + usage.output_tokens * priceUsd(e.pricing.completion) + priceUsd(e.pricing.web_search),
      )
    expect(costs.some((cost) => Math.abs(cost - usage.cost) < 1e-12)).toBe(true)
    expect(usage.cost - (plain.usage as unknown as { cost: number }).cost).toBeGreaterThan(0.025)

    const tool = await openai.responses.create({ model: 'openai/gpt-4o', input: INPUT, tools: [{ type: 'web_search' }] })
    expectCited(textPart(tool).text, textPart(tool).annotations as Citation[], 5)

    const stream = await openai.responses.create({ ...body, stream: true })
    const annotations: Citation[] = []
    let text = ''
    for await (const event of stream) {
      if (event.type === 'response.output_text.delta') text += event.delta
      if (event.type === 'response.output_text.annotation.added') annotations.push(event.annotation as Citation)
    }
    expect(text).toBe(part.text)
    expect(annotations).toEqual(part.annotations)
  })

  it('a bad max_results is a 400 naming the field', async () => {
    const emu = await listeningEmulator()
    const res = await emu.send(
      'POST',
      '/api/v1/responses',
      { model: 'openai/gpt-4o', input: INPUT, tools: [{ type: 'openrouter:web_search', parameters: { max_results: 0 } }] },
      emu.keys.standard,
    )
    expect(res.status).toBe(400)
    expect(res.body.error.metadata.field).toBe('tools[0].parameters.max_results')
  })
})
