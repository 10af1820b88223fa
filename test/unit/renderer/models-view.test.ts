// The Models view's pure parts: the catalog read into rows (author, prices per million tokens, free),
// what each filter keeps, the choices the filters offer, and the words prices, sizes and conditional
// prices are said in.
import { describe, expect, it } from 'vitest'
import type { CatalogModel } from '../../../src/emulator/admin/types.ts'
import {
  applyFilters,
  filterChoices,
  isFiltered,
  modelRows,
  NO_FILTERS,
  overrideCondition,
  overridesOf,
  perMillion,
  perMillionText,
  priceLimit,
  priceLines,
  sameFilters,
  tokensText,
  usd,
  type ModelFilters,
} from '../../../src/renderer/src/features/models/models.ts'

/** A model with only what the rows read set; the rest is the catalog's shape, not looked at here. */
function model(
  id: string,
  over: { name?: string; inputs?: string[]; outputs?: string[]; context?: number; pricing?: Record<string, string> } = {},
): CatalogModel {
  return {
    id,
    name: over.name ?? id,
    context_length: over.context ?? 128_000,
    architecture: {
      modality: null,
      input_modalities: over.inputs ?? ['text'],
      output_modalities: over.outputs ?? ['text'],
      tokenizer: 'GPT',
      instruct_type: null,
    },
    pricing: { prompt: '0.0000025', completion: '0.00001', ...over.pricing },
  } as CatalogModel
}

const CATALOG = {
  version: 1 as const,
  models: [
    model('openai/gpt-4o', { name: 'OpenAI: GPT-4o', inputs: ['text', 'image', 'file'] }),
    model('openai/gpt-4o-mini', { name: 'OpenAI: GPT-4o-mini', inputs: ['text', 'image'], pricing: { prompt: '0.00000015', completion: '0.0000006' } }),
    model('anthropic/claude-sonnet-4', { name: 'Anthropic: Claude Sonnet 4', context: 200_000, pricing: { prompt: '0.000003', completion: '0.000015' } }),
    model('google/gemini-2.5-flash', {
      name: 'Google: Gemini 2.5 Flash',
      context: 1_048_576,
      inputs: ['text', 'image', 'audio', 'video'],
      pricing: { prompt: '3e-7' },
    }),
    model('qwen/qwen3-coder:free', { name: 'Qwen: Qwen3 Coder (free)', pricing: { prompt: '0', completion: '0', request: '0' } }),
    model('openai/dall-e-3', { name: 'OpenAI: DALL-E 3', outputs: ['image'], context: 4_000, pricing: { prompt: '0', completion: '0', image: '0.04' } }),
    model('openrouter/auto', { name: 'Auto Router', context: 2_000_000, pricing: { prompt: '-1', completion: '-1' } }),
  ],
}
const rows = modelRows(CATALOG)
const ids = (f: Partial<ModelFilters>) => applyFilters(rows, { ...NO_FILTERS, ...f }).map((r) => r.id)

describe('the catalog as rows', () => {
  it('sorts by id and reads the author, the prices per million tokens and whether nothing is paid', () => {
    expect(rows.map((r) => r.id)).toEqual([
      'anthropic/claude-sonnet-4',
      'google/gemini-2.5-flash',
      'openai/dall-e-3',
      'openai/gpt-4o',
      'openai/gpt-4o-mini',
      'openrouter/auto',
      'qwen/qwen3-coder:free',
    ])
    const mini = rows.find((r) => r.id === 'openai/gpt-4o-mini')!
    expect([mini.author, mini.promptPerMillion, mini.completionPerMillion, mini.free]).toEqual(['openai', 0.15, 0.6, false])
    // A router's "-1" is a price settled elsewhere: no number; free means every listed price is zero.
    expect(rows.find((r) => r.id === 'openrouter/auto')!.promptPerMillion).toBeNull()
    expect(rows.filter((r) => r.free).map((r) => r.id)).toEqual(['qwen/qwen3-coder:free'])
  })

  it('takes the float noise off a price per million tokens', () => {
    expect(perMillion('0.0000025')).toBe(2.5)
    expect(perMillion('3e-7')).toBe(0.3)
    expect(perMillion('0.0000000375')).toBe(0.0375)
    expect(perMillion('-1')).toBeNull()
    expect(perMillion('abc')).toBeNull()
    expect(perMillion(undefined)).toBeNull()
  })
})

describe('the filters', () => {
  it('keep the models whose id or name has every word, in any case', () => {
    expect(ids({ text: 'GPT 4o' })).toEqual(['openai/gpt-4o', 'openai/gpt-4o-mini'])
    expect(ids({ text: 'sonnet' })).toEqual(['anthropic/claude-sonnet-4'])
    expect(ids({ text: '  ' })).toHaveLength(rows.length)
  })

  it('keep an author, an input or an output modality', () => {
    expect(ids({ author: 'openai' })).toEqual(['openai/dall-e-3', 'openai/gpt-4o', 'openai/gpt-4o-mini'])
    expect(ids({ input: 'audio' })).toEqual(['google/gemini-2.5-flash'])
    expect(ids({ input: 'image', author: 'openai' })).toEqual(['openai/gpt-4o', 'openai/gpt-4o-mini'])
    expect(ids({ output: 'image' })).toEqual(['openai/dall-e-3'])
  })

  it('keep prompt prices up to the limit, in dollars per million tokens; an unknown price is never under it', () => {
    expect(ids({ maxPrompt: '0.3' })).toEqual(['google/gemini-2.5-flash', 'openai/dall-e-3', 'openai/gpt-4o-mini', 'qwen/qwen3-coder:free'])
    expect(ids({ maxPrompt: '0' })).toEqual(['openai/dall-e-3', 'qwen/qwen3-coder:free'])
    // Not a price: no limit (the form says so beside the field).
    expect(priceLimit('abc')).toBeNull()
    expect(priceLimit('-2')).toBeNull()
    expect(ids({ maxPrompt: 'abc' })).toHaveLength(rows.length)
    expect(isFiltered({ ...NO_FILTERS, maxPrompt: 'abc' })).toBe(false)
  })

  it('keep contexts from the floor up, and free models only', () => {
    expect(ids({ minContext: 200_000 })).toEqual(['anthropic/claude-sonnet-4', 'google/gemini-2.5-flash', 'openrouter/auto'])
    expect(ids({ minContext: 1_000_000 })).toEqual(['google/gemini-2.5-flash', 'openrouter/auto'])
    expect(ids({ freeOnly: true })).toEqual(['qwen/qwen3-coder:free'])
    expect(isFiltered(NO_FILTERS)).toBe(false)
    expect(isFiltered({ ...NO_FILTERS, freeOnly: true })).toBe(true)
  })

  it('are the same when every field is, whichever object holds them', () => {
    expect(sameFilters(NO_FILTERS, { ...NO_FILTERS })).toBe(true)
    expect(sameFilters(NO_FILTERS, { ...NO_FILTERS, text: 'gpt' })).toBe(false)
    expect(sameFilters({ ...NO_FILTERS, minContext: 8_000 }, { ...NO_FILTERS, minContext: 8_000 })).toBe(true)
  })

  it('offer the authors and modalities the catalog has, each with its count', () => {
    const choices = filterChoices(rows)
    expect(choices.authors).toEqual([
      { value: 'anthropic', count: 1 },
      { value: 'google', count: 1 },
      { value: 'openai', count: 3 },
      { value: 'openrouter', count: 1 },
      { value: 'qwen', count: 1 },
    ])
    expect(choices.inputs.map((c) => `${c.value} ${c.count}`)).toEqual(['audio 1', 'file 1', 'image 3', 'text 7', 'video 1'])
    expect(choices.outputs.map((c) => `${c.value} ${c.count}`)).toEqual(['image 1', 'text 6'])
  })
})

describe('prices and sizes in words', () => {
  it('says dollars to the cent at least, finer prices as they are', () => {
    expect([usd(2.5), usd(10), usd(0.075), usd(3.125), usd(0.1), usd(0), usd(2.4999999999999996)]).toEqual([
      '$2.50',
      '$10.00',
      '$0.075',
      '$3.125',
      '$0.10',
      '$0',
      '$2.50',
    ])
    expect([perMillionText(null), perMillionText(0), perMillionText(15)]).toEqual(['varies', '$0', '$15.00'])
  })

  it('says token counts in short', () => {
    expect([tokensText(512), tokensText(8_192), tokensText(131_072), tokensText(200_000), tokensText(1_048_576), tokensText(2_000_000)]).toEqual([
      '512',
      '8.2K',
      '131K',
      '200K',
      '1.05M',
      '2M',
    ])
  })

  it('lists the prices set, per million tokens or per thing, leaving out the zeros beyond prompt and completion', () => {
    const lines = priceLines({
      prompt: '0.000003',
      completion: '0',
      request: '0',
      image: '0.04',
      input_cache_read: '0.0000003',
      input_cache_write: '0.00000375',
      web_search: '0.01',
      overrides: [],
    })
    expect(lines.map((l) => `${l.label}: ${l.text}`)).toEqual([
      'Prompt: $3.00 / M tokens',
      'Completion: $0',
      'Cache read: $0.30 / M tokens',
      'Cache write: $3.75 / M tokens',
      'Input image: $0.04 / image',
      'Web search: $0.01 / search',
    ])
    expect(priceLines({ prompt: '-1', completion: '-1' }).map((l) => l.text)).toEqual(['varies', 'varies'])
  })

  it('says when a conditional price applies: over a prompt size, in a daily UTC window', () => {
    const pricing = {
      prompt: '0.00000125',
      completion: '0.00001',
      overrides: [
        { min_prompt_tokens: 200_000, prompt: '0.0000025', completion: '0.000015' },
        { utc_start: 100, utc_end: 430, prompt: '0.000001' },
      ],
    }
    const overrides = overridesOf(pricing)
    expect(overrides.map(overrideCondition)).toEqual(['Over 200K prompt tokens', 'From 01:00 to 04:30 UTC'])
    expect(priceLines(overrides[0]!).map((l) => l.text)).toEqual(['$2.50 / M tokens', '$15.00 / M tokens'])
    expect(overridesOf({ prompt: '0' })).toEqual([])
  })
})
