// Real calls on models of the generated catalog, through the official clients, cost what the catalog's
// source says: the ledger's cost (GET /api/v1/generation, the key's usage) is @pydantic/genai-prices'
// calcPrice of the tokens the answer reports, to the nano.
import Anthropic from '@anthropic-ai/sdk'
import { calcPrice } from '@pydantic/genai-prices'
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { usdToNanos } from '../../../src/emulator/core/money.ts'
import { PRICE_SNAPSHOT_DATE } from '../../../scripts/catalog-sources.ts'
import { listeningEmulator } from '../../helpers/emulator.ts'

/** The source's cost of these tokens on this model, in nanos. */
function sourceNanos(model: string, usage: { input_tokens: number; output_tokens: number; output_reasoning_tokens?: number }): number {
  const price = calcPrice(usage, model, { providerId: 'openrouter', timestamp: new Date(`${PRICE_SNAPSHOT_DATE}T12:00:00Z`) })
  expect(price?.model.id, `genai-prices lists ${model}`).toBe(model)
  return usdToNanos(price!.total_price)
}

describe('a call on a model of the source costs the source’s price', () => {
  it('through chat (openai), with and without reasoning, on models of several authors', async () => {
    const emu = await listeningEmulator()
    const openai = new OpenAI({ baseURL: `${emu.url}/api/v1`, apiKey: emu.keys.standard, maxRetries: 0 })
    const calls: Array<[string, Record<string, unknown>]> = [
      ['anthropic/claude-haiku-4.5', {}],
      ['google/gemini-3-flash-preview', { reasoning: { effort: 'low' } }],
      ['x-ai/grok-4-fast', {}],
      ['z-ai/glm-4.6', {}],
      ['perplexity/sonar-deep-research', { reasoning: { effort: 'high' } }],
      ['~anthropic/claude-opus-latest', {}],
    ]
    for (const [model, extra] of calls) {
      const completion = await openai.chat.completions.create({
        model,
        max_tokens: 200,
        messages: [
          { role: 'system', content: 'You are terse.' },
          { role: 'user', content: `What does ${model} cost? Answer in a few sentences, please.` },
        ],
        ...extra,
      } as OpenAI.ChatCompletionCreateParamsNonStreaming)
      expect(completion.model).toBe(model)
      const usage = completion.usage!
      const reasoning = usage.completion_tokens_details?.reasoning_tokens ?? 0
      // Reasoning tokens at the source's own reasoning price (Sonar Deep Research: $3 per million, output $8).
      if (model === 'perplexity/sonar-deep-research') expect(reasoning).toBeGreaterThan(0)
      const want = sourceNanos(model, { input_tokens: usage.prompt_tokens, output_tokens: usage.completion_tokens, output_reasoning_tokens: reasoning })
      const generation = (await emu.get(`/api/v1/generation?id=${completion.id}`, emu.keys.standard)).body.data
      expect(usdToNanos(generation.total_cost), model).toBe(want)
      expect(want).toBeGreaterThan(0)
    }
  })

  it('through Messages (@anthropic-ai/sdk), on Claude models the old catalog lacked', async () => {
    const emu = await listeningEmulator()
    const anthropic = new Anthropic({ baseURL: `${emu.url}/api`, authToken: emu.keys.standard, apiKey: null, maxRetries: 0 })
    const usage = async () => (await emu.get('/api/v1/key', emu.keys.standard)).body.data.usage as number
    for (const model of ['anthropic/claude-sonnet-4.5', 'anthropic/claude-opus-4.5', 'anthropic/claude-haiku-4.5']) {
      const before = await usage()
      const message = await anthropic.messages.create({ model, max_tokens: 150, messages: [{ role: 'user', content: 'Tell me about the sea.' }] })
      const want = sourceNanos(model, { input_tokens: message.usage.input_tokens, output_tokens: message.usage.output_tokens })
      expect(usdToNanos((await usage()) - before), model).toBe(want)
    }
  })
})
