// The pricers (modules/meter/meter-pricers.service.ts): what each kind of call costs, in nano-USD, rounded once
// where the real figures are. Each is pinned by values worked out by hand, and by the formula it replaced
// on the surfaces, so a served cost stays the same to the nano.
import { describe, expect, it } from 'vitest'
import { priceUsd, usdToNanos } from '../../../src/emulator/core/money.ts'
import {
  brokenStreamNanos,
  estimateUsd,
  imagesNanos,
  promptPartNanos,
  recordedNanos,
  requestNanos,
  searchNanos,
  shareNanos,
  speechNanos,
  textNanos,
  pricesFor,
  tokensNanos,
  transcriptionNanos,
  videoCreditsNanos,
  videoSecondsNanos,
  webSearchNanos,
  type PricedText,
} from '../../../src/emulator/modules/meter/meter-pricers.service.ts'

/** Prices with no common factor, so a term added in another order or rounded apart shows. */
const PRICES = {
  prompt: '0.0000003',
  completion: '0.0000017',
  request: '0.0013',
  image: '0.039',
  audio: '0.00011',
  audio_output: '0.0000107',
  input_cache_read: '0.00000003',
  input_cache_write: '0.000000375',
}

describe('tokens', () => {
  it('cost in nanos, rounding once on the sum of prompt and completion', () => {
    expect(tokensNanos({ prompt: '0.00000002', completion: '0' }, { prompt: 1000 })).toBe(20_000)
    expect(tokensNanos({ prompt: '0.00000013', completion: '0' }, { prompt: 302 })).toBe(39_260)
    // 0.4 + 0.4 nano is one nano; rounding each part would give none.
    expect(tokensNanos({ prompt: '0.0000000004', completion: '0.0000000004' }, { prompt: 1, completion: 1 })).toBe(1)
    expect(tokensNanos({ prompt: '0.0000004', completion: '0.0000016' }, { prompt: 1200, completion: 300 })).toBe(960_000)
    expect(tokensNanos({ prompt: '0.0000004' }, { prompt: 1000, completion: 10 })).toBe(400_000)
    expect(tokensNanos({ prompt: '0', completion: '0' }, { prompt: 0, completion: 0 })).toBe(0)
    // The largest embeddings request: 8192 tokens for each of 2048 inputs at a high price.
    expect(tokensNanos({ prompt: '0.00000013' }, { prompt: 8192 * 2048 })).toBe(2_181_038_080)
  })

  it('price cache reads and writes at their own prices, the rest of the prompt at the prompt price', () => {
    // 800 uncached at 0.3 nano-USD... (800 * 300 + 150 * 30 + 50 * 375 + 100 * 1700) nanos-of-a-thousand
    expect(tokensNanos(PRICES, { prompt: 1000, cacheRead: 150, cacheWrite: 50, completion: 100 })).toBe(240_000 + 4_500 + 18_750 + 170_000)
    // A cache price the catalog lacks is the prompt price.
    expect(tokensNanos({ prompt: '0.0000003' }, { prompt: 1000, cacheRead: 400 })).toBe(tokensNanos({ prompt: '0.0000003' }, { prompt: 1000 }))
    // None cached: exactly the plain tokens.
    expect(tokensNanos(PRICES, { prompt: 1234, cacheRead: 0, cacheWrite: 0, completion: 77 })).toBe(tokensNanos(PRICES, { prompt: 1234, completion: 77 }))
  })

  it('match the formula the engine used, to the nano', () => {
    for (const [prompt, completion] of [
      [0, 0],
      [1, 0],
      [17, 3],
      [4096, 1],
      [123_457, 8191],
    ] as const) {
      const before = usdToNanos(
        completion === 0 ? prompt * priceUsd(PRICES.prompt) : prompt * priceUsd(PRICES.prompt) + completion * priceUsd(PRICES.completion),
      )
      expect(tokensNanos(PRICES, { prompt, completion })).toBe(before)
    }
  })
})

describe('a text answer', () => {
  it('is its tokens, the request price and the images it drew', () => {
    const tokens = tokensNanos(PRICES, { prompt: 12, completion: 30 })
    expect(textNanos(PRICES, { prompt: 12, completion: 30 })).toBe(tokens + 1_300_000)
    expect(textNanos(PRICES, { prompt: 12, completion: 30, images: 2 })).toBe(tokens + 1_300_000 + 78_000_000)
    expect(textNanos(PRICES, { prompt: 12, completion: 30, images: 0 })).toBe(tokens + 1_300_000)
    expect(requestNanos({})).toBe(0)
  })

  const generated: PricedText = { recorded: false, prices: PRICES, costNanos: 0, promptTokens: 40, completionTokens: 60, images: 1 }
  const recorded: PricedText = { recorded: true, prices: PRICES, costNanos: 1_000_001, promptTokens: 40, completionTokens: 60, images: 0 }

  it('splits its prompt part: at the prompt price, or the recorded cost shared by tokens', () => {
    expect(promptPartNanos(generated)).toBe(12_000)
    expect(promptPartNanos(recorded)).toBe(400_000)
    expect(promptPartNanos({ ...recorded, promptTokens: 0, completionTokens: 0 })).toBe(0)
  })

  it('broken part way bills the prompt, what was sent and the images; a recorded cost its share', () => {
    expect(brokenStreamNanos(generated, 10)).toBe(textNanos(PRICES, { prompt: 40, completion: 10, images: 1 }))
    expect(brokenStreamNanos(generated, 0)).toBe(12_000 + 1_300_000 + 39_000_000)
    expect(brokenStreamNanos(recorded, 10)).toBe(Math.round((1_000_001 * 50) / 100))
    expect(brokenStreamNanos({ ...recorded, promptTokens: 0, completionTokens: 0 }, 0)).toBe(0)
    expect(shareNanos(7, 1, 3)).toBe(2)
  })
})

describe('media and retrieval', () => {
  it('images: per image, and the prompt at its price', () => {
    expect(imagesNanos(PRICES, 3, 100)).toBe(3 * 39_000_000 + 30_000)
    expect(imagesNanos({ image: '0.04' }, 1, 1000)).toBe(40_000_000)
  })

  it('speech: text tokens at the prompt price, audio tokens at the audio output price, the request price', () => {
    expect(speechNanos(PRICES, 10, 200)).toBe(usdToNanos(10 * 0.0000003 + 200 * 0.0000107 + 0.0013))
    // No audio_output: audio, else completion.
    expect(speechNanos({ prompt: '0', audio: '0.00001' }, 0, 100)).toBe(1_000_000)
    expect(speechNanos({ prompt: '0', completion: '0.00002' }, 0, 100)).toBe(2_000_000)
  })

  it('transcription: per second of audio, the text at the completion price, the request price', () => {
    expect(transcriptionNanos(PRICES, 12.5, 40)).toBe(usdToNanos(12.5 * 0.00011 + 40 * 0.0000017 + 0.0013))
    expect(transcriptionNanos({ audio: '0.0001' }, 60, 0)).toBe(6_000_000)
  })

  it('video: per second of the SKU, exact in whole nanos; the router per credit', () => {
    expect(videoSecondsNanos('0.40', 8)).toBe(3_200_000_000)
    expect(videoSecondsNanos(undefined, 8)).toBe(0)
    expect(videoSecondsNanos('0.1', 3)).toBe(300_000_000)
    expect(videoCreditsNanos(25, 0.01)).toBe(250_000_000)
  })

  it('rerank: per search unit at the request price, each rounded, and the tokens', () => {
    expect(searchNanos({ request: '0.002', prompt: '0' }, 2, 500)).toBe(4_000_000)
    expect(searchNanos(PRICES, 3, 1000)).toBe(usdToNanos(3 * 0.0013) + 300_000)
  })

  it('a recorded cost: its USD, rounded', () => {
    expect(recordedNanos(0.0000123454)).toBe(12_345)
    expect(recordedNanos(0)).toBe(0)
  })
})

describe('estimates', () => {
  it('price a share of the prompt at the cache read price, not rounded', () => {
    const p = 0.0000003
    const cr = 0.00000003
    const c = 0.0000017
    expect(estimateUsd(PRICES, { prompt: 1234.5, completion: 321, cachedShare: 0.35 })).toBe(1234.5 * ((1 - 0.35) * p + 0.35 * cr) + 321 * c)
    expect(estimateUsd(PRICES, { prompt: 1000 * 0.8, completion: 1000 * 0.2 })).toBe(1000 * 0.8 * p + 1000 * 0.2 * c)
    // Without a cache read price, the cached share costs the prompt price.
    expect(estimateUsd({ prompt: '0.000001', completion: '0' }, { prompt: 10, completion: 0, cachedShare: 0.5 })).toBeCloseTo(0.00001, 15)
  })
})

describe('long-context tiers', () => {
  const TIERED = {
    prompt: '0.000003',
    completion: '0.000015',
    input_cache_read: '0.0000003',
    overrides: [
      { min_prompt_tokens: 200_000, prompt: '0.000006', completion: '0.0000225' },
      { min_prompt_tokens: 500_000, prompt: '0.00001' },
    ],
  }

  it('apply where the prompt has strictly more tokens than the threshold, cached ones included', () => {
    expect(pricesFor(TIERED, 200_000)).toBe(TIERED)
    expect(pricesFor(TIERED, 200_001)).toMatchObject({ prompt: '0.000006', completion: '0.0000225', input_cache_read: '0.0000003' })
    expect(tokensNanos(TIERED, { prompt: 200_000, completion: 1000 })).toBe(615_000_000)
    expect(tokensNanos(TIERED, { prompt: 200_001, cacheRead: 100_000, completion: 1000 })).toBe(100_001 * 6000 + 100_000 * 300 + 1000 * 22_500)
  })

  it('lay a later tier over an earlier one, key by key, and keep the base of a key no tier names', () => {
    expect(pricesFor(TIERED, 600_000)).toMatchObject({ prompt: '0.00001', completion: '0.0000225', input_cache_read: '0.0000003' })
  })
})

describe('reasoning and web searches', () => {
  it('bill reasoning tokens at internal_reasoning, the rest of the completion at its price; without it, all at the completion price', () => {
    const prices = { prompt: '0.000002', completion: '0.000008', internal_reasoning: '0.000003' }
    expect(tokensNanos(prices, { prompt: 1000, completion: 5000, reasoning: 4000 })).toBe(2_000_000 + 8_000_000 + 12_000_000)
    expect(tokensNanos({ prompt: '0.000002', completion: '0.000008' }, { prompt: 1000, completion: 5000, reasoning: 4000 })).toBe(42_000_000)
    // Never more reasoning tokens than the completion has.
    expect(tokensNanos(prices, { prompt: 0, completion: 10, reasoning: 50 })).toBe(30_000)
  })

  it('bill web searches per search', () => {
    expect(webSearchNanos({ web_search: '0.01' }, 2)).toBe(20_000_000)
    expect(webSearchNanos({ web_search: '0.01' }, 0)).toBe(0)
  })
})
