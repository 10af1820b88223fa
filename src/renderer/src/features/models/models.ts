// The Models view's pure parts: the catalog read once into rows that filter fast (the search text
// lowercased, prices as numbers per million tokens), the filters and what each keeps, and the words
// prices and sizes are said in. Several hundred models are filtered in memory on every keystroke, so
// everything a filter compares is worked out here once per catalog, not per keystroke. Nothing of the
// DOM or of React here.
import type { CatalogDocument, CatalogModel } from '../../../../emulator/admin/types.ts'

export interface ModelRow {
  id: string
  name: string
  /** The id's first part: `openai` of `openai/gpt-4o`. */
  author: string
  /** Id and name, lowercased: what the text filter searches. */
  haystack: string
  inputs: readonly string[]
  outputs: readonly string[]
  context: number
  /** USD per million prompt tokens; null when the gateway settles the price elsewhere (a router's "-1"). */
  promptPerMillion: number | null
  completionPerMillion: number | null
  /** Nothing to pay: every price the catalog lists for it is zero. */
  free: boolean
  model: CatalogModel
}

/** USD per million tokens of a per-token price string; null for a negative (unknown) or malformed one. */
export function perMillion(price: string | undefined): number | null {
  if (price === undefined) return null
  const n = Number(price)
  if (!Number.isFinite(n) || n < 0) return null
  // Six significant digits take off the float noise of the multiplication (2.4999999999999996).
  return Number((n * 1e6).toPrecision(6))
}

function rowOf(model: CatalogModel): ModelRow {
  const promptPerMillion = perMillion(model.pricing.prompt)
  const completionPerMillion = perMillion(model.pricing.completion)
  return {
    id: model.id,
    name: model.name,
    author: model.id.slice(0, model.id.indexOf('/')),
    haystack: `${model.id}\n${model.name}`.toLowerCase(),
    inputs: model.architecture.input_modalities,
    outputs: model.architecture.output_modalities,
    context: model.context_length,
    promptPerMillion,
    completionPerMillion,
    free: Object.values(model.pricing).every((price) => typeof price !== 'string' || Number(price) === 0),
    model,
  }
}

const byId = (a: ModelRow, b: ModelRow) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

/** The catalog's models as rows, by id. */
export const modelRows = (catalog: CatalogDocument): ModelRow[] => catalog.models.map(rowOf).sort(byId)

export interface Choice {
  value: string
  count: number
}

/** The distinct values of a field over the rows, each with how many rows have it, by value. */
function choices(rows: readonly ModelRow[], valuesOf: (row: ModelRow) => readonly string[]): Choice[] {
  const counts = new Map<string, number>()
  for (const row of rows) for (const value of valuesOf(row)) counts.set(value, (counts.get(value) ?? 0) + 1)
  return [...counts].map(([value, count]) => ({ value, count })).sort((a, b) => (a.value < b.value ? -1 : 1))
}

/** What the filters offer: the authors and the input and output modalities the catalog has. */
export function filterChoices(rows: readonly ModelRow[]) {
  return {
    authors: choices(rows, (r) => [r.author]),
    inputs: choices(rows, (r) => r.inputs),
    outputs: choices(rows, (r) => r.outputs),
  }
}

export interface ModelFilters {
  /** Words that must all appear in the id or the name. */
  text: string
  author: string
  input: string
  output: string
  /** The highest prompt price, USD per million tokens, as typed ('' for any). */
  maxPrompt: string
  /** The smallest context length in tokens (0 for any). */
  minContext: number
  freeOnly: boolean
}
export const NO_FILTERS: ModelFilters = { text: '', author: '', input: '', output: '', maxPrompt: '', minContext: 0, freeOnly: false }

/** The context-length floors the filter offers. */
export const CONTEXT_FLOORS = [8_000, 32_000, 128_000, 200_000, 400_000, 1_000_000, 2_000_000]

/** A typed price limit, or null when none is set or it is not a number of dollars. */
export function priceLimit(text: string): number | null {
  if (text.trim() === '') return null
  const n = Number(text)
  return Number.isFinite(n) && n >= 0 ? n : null
}

/** The filters as one test, everything that does not depend on a row worked out once. */
export function modelMatcher(f: ModelFilters): (row: ModelRow) => boolean {
  const words = f.text.toLowerCase().split(/\s+/).filter(Boolean)
  const maxPrompt = priceLimit(f.maxPrompt)
  return (r) =>
    (f.author === '' || r.author === f.author) &&
    (f.input === '' || r.inputs.includes(f.input)) &&
    (f.output === '' || r.outputs.includes(f.output)) &&
    (maxPrompt === null || (r.promptPerMillion !== null && r.promptPerMillion <= maxPrompt)) &&
    r.context >= f.minContext &&
    (!f.freeOnly || r.free) &&
    words.every((w) => r.haystack.includes(w))
}

export const applyFilters = (rows: readonly ModelRow[], f: ModelFilters): ModelRow[] => rows.filter(modelMatcher(f))

/** Whether two sets of filters keep the same models: the same value in every field. */
export const sameFilters = (a: ModelFilters, b: ModelFilters): boolean => (Object.keys(a) as Array<keyof ModelFilters>).every((k) => a[k] === b[k])

export const isFiltered = (f: ModelFilters): boolean =>
  f.text.trim() !== '' || f.author !== '' || f.input !== '' || f.output !== '' || priceLimit(f.maxPrompt) !== null || f.minContext > 0 || f.freeOnly

// ---- Words ---------------------------------------------------------------------------------------

/** Dollars as a person reads a price: `$2.50`, `$0.075`, `$0` (never `2.4999999999999996`). */
export function usd(n: number): string {
  if (n === 0) return '$0'
  const shown = Number(n.toPrecision(6))
  const text = String(shown)
  // Cents at least: $2.50, $0.10; finer prices as they are ($0.075, $3.125).
  const decimals = text.includes('.') ? text.length - text.indexOf('.') - 1 : 0
  return `$${decimals < 2 && !text.includes('e') ? shown.toFixed(2) : text}`
}

/** A per-million price for a table cell: `$2.50`, `$0` or `varies` (the gateway settles it elsewhere). */
export const perMillionText = (n: number | null): string => (n === null ? 'varies' : usd(n))

/** A token count in short: `128K`, `1M`, `1.05M`, `200`. */
export function tokensText(n: number): string {
  if (n >= 1_000_000) return `${Number((n / 1_000_000).toFixed(2))}M`
  if (n >= 1_000) return `${Number((n / 1_000).toFixed(n >= 100_000 ? 0 : 1))}K`
  return String(n)
}

/** What a price key costs per: most per token (shown per million), some per thing. */
const PRICE_KEYS: ReadonlyArray<[key: string, label: string, per: 'token' | string]> = [
  ['prompt', 'Prompt', 'token'],
  ['completion', 'Completion', 'token'],
  ['input_cache_read', 'Cache read', 'token'],
  ['input_cache_write', 'Cache write', 'token'],
  ['input_cache_write_1h', 'Cache write (1 hour)', 'token'],
  ['internal_reasoning', 'Reasoning', 'token'],
  ['image_token', 'Image tokens', 'token'],
  ['audio', 'Audio input', 'token'],
  ['audio_output', 'Audio output', 'token'],
  ['input_audio_cache', 'Audio cache read', 'token'],
  ['image', 'Input image', 'image'],
  ['image_output', 'Output image', 'image'],
  ['request', 'Request', 'request'],
  ['web_search', 'Web search', 'search'],
]

export interface PriceLine {
  key: string
  label: string
  /** `$2.50 / M tokens`, `$0.04 / image`, `$0`, `varies`. */
  text: string
}

/** A price of one key in words, per million tokens or per thing. */
function priceText(price: string, per: string): string {
  const n = Number(price)
  if (!Number.isFinite(n) || n < 0) return 'varies'
  if (n === 0) return '$0'
  return per === 'token' ? `${usd(perMillion(price)!)} / M tokens` : `${usd(n)} / ${per}`
}

/** Always shown, even at zero; any other price is shown only when it costs something. */
const MAIN_PRICES = new Set(['prompt', 'completion'])

/** The prices a pricing object sets, in a fixed order, each in words (a zero beyond the main two says nothing: left out). */
export function priceLines(pricing: Partial<Record<string, unknown>>): PriceLine[] {
  return PRICE_KEYS.flatMap(([key, label, per]) => {
    const price = pricing[key]
    if (typeof price !== 'string' || (Number(price) === 0 && !MAIN_PRICES.has(key))) return []
    return [{ key, label, text: priceText(price, per) }]
  })
}

/** A conditional price (the real document's PricingOverride): long-context tiers, time windows. */
export interface PricingOverride {
  min_prompt_tokens?: number
  utc_start?: number
  utc_end?: number
  [price: string]: unknown
}

const clock = (hhmm: number) => `${String(Math.floor(hhmm / 100)).padStart(2, '0')}:${String(hhmm % 100).padStart(2, '0')}`

/** When an override applies, in words: `Over 200K prompt tokens`, `From 01:00 to 04:00 UTC`. */
export function overrideCondition(o: PricingOverride): string {
  const parts: string[] = []
  if (o.min_prompt_tokens !== undefined) parts.push(`over ${tokensText(o.min_prompt_tokens)} prompt tokens`)
  if (o.utc_start !== undefined && o.utc_end !== undefined) parts.push(`from ${clock(o.utc_start)} to ${clock(o.utc_end)} UTC`)
  const text = parts.join(', ') || 'always'
  return text[0]!.toUpperCase() + text.slice(1)
}

/** A pricing object's overrides, if it has any (the catalog's pricing may carry `overrides`). */
export const overridesOf = (pricing: object): PricingOverride[] => {
  const overrides = (pricing as { overrides?: unknown }).overrides
  return Array.isArray(overrides) ? (overrides as PricingOverride[]) : []
}
