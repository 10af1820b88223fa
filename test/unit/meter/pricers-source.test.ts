// The pricers against the catalog's source: for every model the source prices, what the meter bills at
// the model's top endpoint (the one a call goes to) is what @pydantic/genai-prices' own calcPrice says
// the same tokens cost, to the nano: cache reads and writes, long-context tiers on both sides of their
// threshold, reasoning tokens, and the dated prices as of the catalog's snapshot date.
import { readFileSync } from 'node:fs'
import { calcPrice } from '@pydantic/genai-prices'
import { describe, expect, it } from 'vitest'
import { usdToNanos } from '../../../src/emulator/core/money.ts'
import { tokensNanos, webSearchNanos } from '../../../src/emulator/modules/meter/meter-pricers.service.ts'
import type { CatalogDocument, CatalogModel } from '../../../src/emulator/modules/catalog/catalog.schemas.ts'
import { PRICE_SNAPSHOT_DATE } from '../../../scripts/catalog-sources.ts'

const DOC = JSON.parse(readFileSync(new URL('../../../fixtures/catalog/catalog.json', import.meta.url), 'utf8')) as CatalogDocument
const AT = new Date(`${PRICE_SNAPSHOT_DATE}T12:00:00Z`)

type Usage = {
  input_tokens: number
  output_tokens: number
  cache_read_tokens?: number
  cache_write_tokens?: number
  output_reasoning_tokens?: number
}

/**
 * What the source says these tokens cost on this model, in nanos; null where it does not list the model
 * (calcPrice would price a model it does not list as its nearest one: `openai/gpt-4o-audio-preview` as
 * `openai/gpt-4o`). A bare id of the source is the model of its author (`arcee-blitz`).
 */
function sourceNanos(id: string, usage: Usage): number | null {
  const result = calcPrice(usage, id, { providerId: 'openrouter', timestamp: AT })
  if (result === null || (result.model.id !== id && !id.endsWith(`/${result.model.id}`))) return null
  return usdToNanos(result.total_price)
}

const billed = (m: CatalogModel, u: Usage): number =>
  tokensNanos(m.endpoints[0]!.pricing, {
    prompt: u.input_tokens,
    completion: u.output_tokens,
    cacheRead: u.cache_read_tokens ?? 0,
    cacheWrite: u.cache_write_tokens ?? 0,
    reasoning: u.output_reasoning_tokens ?? 0,
  })

/** The source's paid models in the catalog (free variants cost nothing on both sides). */
const priced = DOC.models.filter((m) => !m.id.endsWith(':free') && sourceNanos(m.id, { input_tokens: 1_000_000, output_tokens: 1_000_000 }) !== null)

describe('the meter bills what genai-prices says', () => {
  it('covers most of the catalog', () => {
    expect(priced.length).toBeGreaterThan(400)
  })

  it('for plain prompt and completion tokens on every priced model', () => {
    const wrong = priced.flatMap((m) => {
      const usage = { input_tokens: 12_345, output_tokens: 678 }
      const [want, got] = [sourceNanos(m.id, usage), billed(m, usage)]
      return Math.abs(want! - got) <= 1 ? [] : [`${m.id}: source ${want}, billed ${got}`]
    })
    expect(wrong).toEqual([])
  })

  it('with cache reads and writes where the model prices them', () => {
    const cached = priced.filter((m) => m.endpoints[0]!.pricing.input_cache_read !== undefined)
    expect(cached.length).toBeGreaterThan(100)
    expect(cached.filter((m) => m.endpoints[0]!.pricing.input_cache_write !== undefined).length).toBeGreaterThan(30)
    const wrong = cached.flatMap((m) => {
      const usage = { input_tokens: 50_000, cache_read_tokens: 30_000, cache_write_tokens: 8_000, output_tokens: 2_000 }
      const [want, got] = [sourceNanos(m.id, usage), billed(m, usage)]
      return Math.abs(want! - got) <= 1 ? [] : [`${m.id}: source ${want}, billed ${got}`]
    })
    expect(wrong).toEqual([])
  })

  it('at the long-context tier only past its threshold (the prompt, cached tokens included, strictly above it)', () => {
    const tiered = priced.filter((m) => m.endpoints[0]!.pricing.overrides !== undefined)
    expect(tiered.map((m) => m.id)).toEqual(expect.arrayContaining(['anthropic/claude-sonnet-4.5', 'openai/gpt-5.4']))
    const wrong = tiered.flatMap((m) => {
      const threshold = m.endpoints[0]!.pricing.overrides![0]!.min_prompt_tokens
      return [threshold, threshold + 1, threshold + 50_000].flatMap((prompt) => {
        const usage = { input_tokens: prompt, cache_read_tokens: 10_000, output_tokens: 3_000 }
        const [want, got] = [sourceNanos(m.id, usage), billed(m, usage)]
        return Math.abs(want! - got) <= 1 ? [] : [`${m.id} at ${prompt}: source ${want}, billed ${got}`]
      })
    })
    expect(wrong).toEqual([])
    const sonnet = priced.find((m) => m.id === 'anthropic/claude-sonnet-4.5')!
    // $3 then $6 per million prompt tokens, $15 then $22.50 per million completion tokens.
    expect(billed(sonnet, { input_tokens: 200_000, output_tokens: 1000 })).toBe(615_000_000)
    expect(billed(sonnet, { input_tokens: 200_001, output_tokens: 1000 })).toBe(1_222_506_000)
  })

  it('with reasoning tokens at internal_reasoning where the model lists it', () => {
    const model = priced.find((m) => m.id === 'perplexity/sonar-deep-research')!
    expect(model.endpoints[0]!.pricing.internal_reasoning).toBe('0.000003')
    const usage = { input_tokens: 1000, output_tokens: 5000, output_reasoning_tokens: 4000 }
    expect(billed(model, usage)).toBe(sourceNanos(model.id, usage))
    expect(billed(model, usage)).toBe(1000 * 2000 + 1000 * 8000 + 4000 * 3000)
  })

  it('at the price a dated entry gives on the snapshot date', () => {
    const model = DOC.models.find((m) => m.id === '~anthropic/claude-opus-latest')!
    expect(model.pricing.prompt).toBe('0.000004')
    const usage = { input_tokens: 7000, output_tokens: 700 }
    expect(billed(model, usage)).toBe(sourceNanos(model.id, usage))
  })

  it('web searches at the per-search price the source gives per thousand', () => {
    const model = DOC.models.find((m) => m.id === 'openai/gpt-6-sol')!
    expect(model.endpoints[0]!.pricing.web_search).toBe('0.01')
    expect(webSearchNanos(model.endpoints[0]!.pricing, 3)).toBe(30_000_000)
    expect(webSearchNanos({}, 3)).toBe(0)
  })
})
