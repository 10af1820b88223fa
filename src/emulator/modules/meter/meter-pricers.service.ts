// The pricers: the one place a catalog price (USD per token, image, second or request, a decimal
// string) and what a call used become a charge in nano-USD, or an estimate in USD. Pure functions of
// their arguments, so each is tested on its own (test/unit/meter/pricers.test.ts). Each amount is
// rounded once, where the comment says; the order of the sums is part of the result (floating point),
// so a pricer is changed only with its tests.
import { priceUsd, usdToNanos } from '../../core/money.ts'

/** The prices a pricer reads: a catalog endpoint's (or model's) `pricing`, absent ones free. */
export interface Prices {
  prompt?: string | undefined
  completion?: string | undefined
  request?: string | undefined
  image?: string | undefined
  audio?: string | undefined
  audio_output?: string | undefined
  input_cache_read?: string | undefined
  input_cache_write?: string | undefined
  /** Per reasoning token (part of the completion), where it differs from the completion price. */
  internal_reasoning?: string | undefined
  /** Per web search. */
  web_search?: string | undefined
  /** Long-context tiers: where the prompt has more tokens than `min_prompt_tokens`, these keys replace the base ones. */
  overrides?: ReadonlyArray<TierPrices & { min_prompt_tokens: number }> | undefined
}

/** The keys a long-context tier may change. */
type TierPrices = Pick<Prices, 'prompt' | 'completion' | 'input_cache_read' | 'input_cache_write'>

/** Tokens of a call. `prompt` counts every prompt token, those read from or written to a cache among them. */
export interface TokenCounts {
  prompt: number
  completion?: number
  /** Prompt tokens read from the provider's cache: at `input_cache_read` (else the prompt price). */
  cacheRead?: number
  /** Prompt tokens written to the provider's cache: at `input_cache_write` (else the prompt price). */
  cacheWrite?: number
  /** Completion tokens spent reasoning: at `internal_reasoning` (else the completion price). */
  reasoning?: number
}

/**
 * The prices a prompt of `promptTokens` pays: the base ones, with every long-context tier it passes
 * (strictly more prompt tokens than the tier's `min_prompt_tokens`, cached ones included) laid over
 * them in order, so a later tier wins a key and a key no tier names keeps its base price.
 */
export function pricesFor(prices: Prices, promptTokens: number): Prices {
  if (prices.overrides === undefined) return prices
  let out = prices
  for (const tier of prices.overrides) {
    if (promptTokens <= tier.min_prompt_tokens) continue
    out = { ...out }
    if (tier.prompt !== undefined) out.prompt = tier.prompt
    if (tier.completion !== undefined) out.completion = tier.completion
    if (tier.input_cache_read !== undefined) out.input_cache_read = tier.input_cache_read
    if (tier.input_cache_write !== undefined) out.input_cache_write = tier.input_cache_write
  }
  return out
}

/**
 * Tokens at their per-token prices (the long-context tier the prompt reaches, if any), rounded once on
 * the sum (so no part loses half a nano). Without cached or reasoning tokens: the prompt at its price,
 * plus the completion at its own where there is any.
 */
export function tokensNanos(base: Prices, tokens: TokenCounts): number {
  const prices = pricesFor(base, tokens.prompt)
  const cacheRead = tokens.cacheRead ?? 0
  const cacheWrite = tokens.cacheWrite ?? 0
  const completion = tokens.completion ?? 0
  let usd = (tokens.prompt - cacheRead - cacheWrite) * priceUsd(prices.prompt)
  if (cacheRead > 0) usd += cacheRead * priceUsd(prices.input_cache_read ?? prices.prompt)
  if (cacheWrite > 0) usd += cacheWrite * priceUsd(prices.input_cache_write ?? prices.prompt)
  const reasoning = prices.internal_reasoning === undefined ? 0 : Math.min(tokens.reasoning ?? 0, completion)
  if (reasoning > 0) return usdToNanos(usd + (completion - reasoning) * priceUsd(prices.completion) + reasoning * priceUsd(prices.internal_reasoning))
  return usdToNanos(completion === 0 ? usd : usd + completion * priceUsd(prices.completion))
}

/** Web searches at the endpoint's price per search (none listed: free), rounded. */
export const webSearchNanos = (prices: Prices, searches: number): number => usdToNanos(searches * priceUsd(prices.web_search))

/** The endpoint's price per request (whatever the request used), rounded. */
export const requestNanos = (prices: Prices): number => usdToNanos(priceUsd(prices.request))

/**
 * A text answer (chat, text completions, Responses, Messages; a proxied one the upstream gave no cost
 * for): its tokens, the request price, and `images` drawn at the per-image price where it made any
 * (a number, even 0, adds the term; left out, none).
 */
export function textNanos(prices: Prices, tokens: TokenCounts & { images?: number }): number {
  const base = tokensNanos(prices, tokens) + requestNanos(prices)
  return tokens.images === undefined ? base : base + tokens.images * usdToNanos(priceUsd(prices.image))
}

/** `count` images at the per-image price, and the prompt at the prompt price where there is one. */
export function imagesNanos(prices: Prices, count: number, promptTokens: number): number {
  return count * usdToNanos(priceUsd(prices.image)) + tokensNanos(prices, { prompt: promptTokens })
}

/**
 * Speech: the text's tokens at the prompt price, the audio's tokens at the audio output price
 * (`audio_output`, else `audio`, as the catalog gives TTS models, else `completion`), and the request
 * price, rounded once.
 */
export function speechNanos(prices: Prices, textTokens: number, audioTokens: number): number {
  const audioPrice = priceUsd(prices.audio_output ?? prices.audio ?? prices.completion)
  return usdToNanos(textTokens * priceUsd(prices.prompt) + audioTokens * audioPrice + priceUsd(prices.request))
}

/**
 * A transcription: its `audio` price per second of input (as the catalog prices transcription models),
 * the text's tokens at the completion price, and the request price, rounded once.
 */
export function transcriptionNanos(prices: Prices, seconds: number, outputTokens: number): number {
  return usdToNanos(seconds * priceUsd(prices.audio) + outputTokens * priceUsd(prices.completion) + priceUsd(prices.request))
}

/**
 * A video: its seconds times a per-second price (a SKU's USD, a decimal string; none is free). Nanos
 * per second first: whole numbers, so 8 s at $0.40 is exactly $3.20.
 */
export function videoSecondsNanos(perSecondUsd: string | undefined, seconds: number): number {
  return usdToNanos(Number(perSecondUsd ?? '0')) * seconds
}

/** The video router's credits at the configured USD per credit, rounded. */
export const videoCreditsNanos = (credits: number, creditUsd: number): number => usdToNanos(credits * creditUsd)

/** Rerank: its request price per search unit and its prompt price per token, each rounded. */
export function searchNanos(prices: Prices, searchUnits: number, tokens: number): number {
  return usdToNanos(searchUnits * priceUsd(prices.request)) + tokensNanos(prices, { prompt: tokens })
}

/** A cost said in USD (a recording's, an upstream's), rounded. */
export const recordedNanos = (costUsd: number): number => usdToNanos(costUsd)

/** `nanos` shared out by tokens: `part` of `whole` tokens, rounded (none for a call of no tokens). */
export const shareNanos = (nanos: number, part: number, whole: number): number => (whole === 0 ? 0 : Math.round((nanos * part) / whole))

/** What a text answer cost, and how it was priced: at the endpoint's prices, or a recorded figure. */
export interface PricedText {
  recorded: boolean
  prices: Prices
  costNanos: number
  promptTokens: number
  completionTokens: number
  images: number
  /** Prompt tokens read from and written to the cache (absent: none). */
  cacheRead?: number
  cacheWrite?: number
}

/**
 * The prompt's part of a text answer's cost, as the answer's cost details report it: its tokens at the
 * prompt price, or (a recorded cost, one figure) the prompt's share of the tokens.
 */
export function promptPartNanos(text: PricedText): number {
  return text.recorded
    ? shareNanos(text.costNanos, text.promptTokens, text.promptTokens + text.completionTokens)
    : tokensNanos(text.prices, { prompt: text.promptTokens, ...cachedOf(text) })
}

/** A text answer's cached tokens, as the token pricer takes them (none: nothing, so its sums stay as they were). */
const cachedOf = (text: PricedText): Pick<TokenCounts, 'cacheRead' | 'cacheWrite'> =>
  text.cacheRead === undefined ? {} : { cacheRead: text.cacheRead, cacheWrite: text.cacheWrite ?? 0 }

/**
 * A text answer broken part way (a fault): the prompt, the completion tokens that were sent and the
 * images drawn (made before the stream started, as a provider charges for them); a recorded cost bills
 * the share of its tokens that was sent.
 */
export function brokenStreamNanos(text: PricedText, sentTokens: number): number {
  if (text.recorded) return shareNanos(text.costNanos, text.promptTokens + sentTokens, text.promptTokens + text.completionTokens)
  return textNanos(text.prices, { prompt: text.promptTokens, completion: sentTokens, images: text.images, ...cachedOf(text) })
}

/**
 * An estimate in USD, not rounded (the datasets' figures): prompt tokens (fractional, a `cachedShare`
 * of them read from the cache at `input_cache_read`, else the prompt price) and completion tokens.
 */
export function estimateUsd(base: Prices, tokens: { prompt: number; completion: number; cachedShare?: number }): number {
  const prices = pricesFor(base, tokens.prompt)
  const prompt = priceUsd(prices.prompt)
  const share = tokens.cachedShare ?? 0
  const cacheRead = prices.input_cache_read === undefined ? prompt : priceUsd(prices.input_cache_read)
  const promptPrice = share === 0 ? prompt : (1 - share) * prompt + share * cacheRead
  return tokens.prompt * promptPrice + tokens.completion * priceUsd(prices.completion)
}
