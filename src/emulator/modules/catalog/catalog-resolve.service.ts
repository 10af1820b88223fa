// Model ids as the real gateway reads them: the one way every surface (chat, Responses, Messages,
// embeddings, images, audio, rerank, videos) turns the `model` it was sent into a catalog model.
// In order: the router (`openrouter/auto`), a catalog id or an alias of the catalog (dated ids, `:beta`),
// a family's newest (`~author/x-latest`), a variant (`:online`, `:nitro`, `:floor`, `:exacto`,
// `:thinking`; `:free` only where the catalog lists the free model), a client's bare name
// (`claude-opus-5-5`, `gpt-5.6-sol`), a dated id the catalog knows undated, then, when the setting
// allows it, a generic model for any well-formed `author/slug`. Anything else is the real 400,
// `<id> is not a valid model ID`, with the nearest known ids. docs/models.md says why each rule is so.
import { deriveUnit, sha256Hex } from '../../core/rng.ts'
import type { Catalog } from './catalog-index.service.ts'
import type { CatalogEndpoint, CatalogModel } from './catalog.schemas.ts'
import { autoRouterFoundNone, invalidModelId } from './catalog.errors.ts'

/** What a route serves: the output its models must have. */
export type ModelKind = 'text' | 'embeddings' | 'image' | 'speech' | 'transcription' | 'rerank' | 'video'

/** The variants any model id may carry, and what each asks for. */
export const VARIANTS = ['free', 'online', 'nitro', 'floor', 'exacto', 'thinking'] as const
export type Variant = (typeof VARIANTS)[number]

/** How a variant orders a model's providers: `:nitro` by throughput, `:floor` by price, `:exacto` by tool-calling quality. */
export type ProviderSort = 'throughput' | 'price' | 'exacto'

/** The router id that picks a model from the request. */
export const AUTO_ROUTER = 'openrouter/auto'

/** The longest id compared with the catalog's for "did you mean" (longer ids get no suggestion). */
export const SUGGEST_MAX_ID_CHARS = 200
/** Suggestions at most, nearest first. */
export const SUGGESTIONS = 3
/** The most edits a suggestion may be from the id asked (fewer for short ids: a third of its length). */
const SUGGEST_MAX_EDITS = 8

export interface ResolvedModel {
  model: CatalogModel
  /** The id as the request named it. */
  asked: string
  /** Which rule found it. */
  via: 'id' | 'alias' | 'latest' | 'name' | 'router' | 'generic'
  /** The provider order the variant asks for, or null (the healthiest first). */
  sort: ProviderSort | null
  /** `:online`: the web plugin is on for this request. */
  web: boolean
  /** `:thinking`: reasoning is on (the model reasons). */
  thinking: boolean
  /** The router that chose the model (`openrouter/auto`), or null. */
  router: string | null
}

/** What the router reads of a request: its content, the request's own seed, its auto-router plugin. */
export interface RouterInput {
  /** The request's text (messages, tool names), which decides the choice. */
  content: string
  seed: number | null
  /** Only models with tools, when the request has tools. */
  needsTools: boolean
  /** The auto-router plugin's model patterns (`anthropic/*`), or none. */
  allowed: readonly string[]
  excluded: readonly string[]
}

export interface ResolveOptions {
  kind: ModelKind
  /** The emulator's seed: the router's choice is fixed by it and the request. */
  seed: number
  /** Whether an unknown well-formed `author/slug` is served as a generic model (the catalog's setting). */
  generic: boolean
  /** The request, for the router (text routes only). */
  router?: RouterInput | undefined
}

// ---- Per catalog: the alias table, the families, the ids to suggest --------------------------------

interface ResolveIndex {
  aliases: ReadonlyMap<string, CatalogModel>
  /** Models by their slug (the id without its author), the first id of each: a bare id names its model so. */
  bySlug: ReadonlyMap<string, CatalogModel>
  /** Every id a request may name (models and aliases), for suggestions. */
  known: readonly string[]
  /** The newest model of each `~author/x-latest` id, worked out on first use. */
  latest: Map<string, CatalogModel>
  generic: Map<string, CatalogModel>
}

const indexes = new WeakMap<Catalog, ResolveIndex>()

function indexOf(catalog: Catalog): ResolveIndex {
  let index = indexes.get(catalog)
  if (!index) {
    const aliases = new Map<string, CatalogModel>()
    for (const [alias, target] of Object.entries(catalog.document.aliases ?? {})) {
      const model = catalog.find(target)
      if (model) aliases.set(alias, model)
    }
    const bySlug = new Map<string, CatalogModel>()
    for (const m of catalog.models) {
      const slug = m.id.slice(m.id.indexOf('/') + 1)
      if (!bySlug.has(slug)) bySlug.set(slug, m)
    }
    index = { aliases, bySlug, known: [...catalog.models.map((m) => m.id), ...aliases.keys()], latest: new Map(), generic: new Map() }
    indexes.set(catalog, index)
  }
  return index
}

// ---- Resolution --------------------------------------------------------------------------------------

const found = (model: CatalogModel, asked: string, via: ResolvedModel['via']): ResolvedModel => ({
  model,
  asked,
  via,
  sort: null,
  web: false,
  thinking: false,
  router: null,
})

/** The model `asked` names, or a 400 in the real gateway's words with the nearest known ids. */
export function resolveModel(catalog: Catalog, asked: string, options: ResolveOptions): ResolvedModel {
  const resolved = tryResolveModel(catalog, asked, options)
  if (resolved) return resolved
  throw invalidModelId(asked, suggestModels(catalog, asked))
}

/** The model `asked` names, or undefined (a list of fallbacks tries the next). */
export function tryResolveModel(catalog: Catalog, asked: string, options: ResolveOptions): ResolvedModel | undefined {
  if (asked === AUTO_ROUTER && options.kind === 'text' && options.router) return autoRoute(catalog, options.router, options.seed)
  const named = byName(catalog, asked)
  if (named) return named
  const variant = /^(.+):([a-z]+)$/.exec(asked)
  if (variant) return withVariant(catalog, asked, variant[1]!, variant[2]!)
  // The router's id is never a generic model: on a route it does not serve, it is refused.
  if (options.generic && options.kind !== 'video' && asked !== AUTO_ROUTER && GENERIC_ID.test(asked))
    return found(genericModel(catalog, asked, options.kind), asked, 'generic')
  return undefined
}

/** An id without a variant: the catalog's, an alias, a family's newest, a bare id, a client's name, a dated id. */
function byName(catalog: Catalog, asked: string): ResolvedModel | undefined {
  const direct = exact(catalog, asked)
  if (direct) return direct
  // A bare id the list has under its author (`mythalion-13b` is `pygmalionai/mythalion-13b`), as the source matches it.
  const twin = asked.includes('/') ? undefined : indexOf(catalog).bySlug.get(asked)
  if (twin) return listedVariant({ ...exact(catalog, twin.id)!, asked, via: 'name' })
  for (const candidate of nameCandidates(asked)) {
    const model = exact(catalog, candidate)
    if (model) return { ...model, asked, via: 'name' }
  }
  return undefined
}

function exact(catalog: Catalog, id: string): ResolvedModel | undefined {
  const model = catalog.find(id)
  if (model) return listedVariant(model.id.startsWith('~') ? found(newestOfFamily(catalog, model), id, 'latest') : found(model, id, 'id'))
  const aliased = indexOf(catalog).aliases.get(id)
  return aliased ? listedVariant(found(aliased, id, 'alias')) : undefined
}

/** An id the catalog lists with a variant's suffix (a `...:thinking` model or alias) still asks for what the variant does. */
function listedVariant(resolved: ResolvedModel): ResolvedModel {
  const suffix = /:([a-z]+)$/.exec(resolved.asked)?.[1]
  if (suffix === undefined || suffix === 'free' || !(VARIANTS as readonly string[]).includes(suffix)) return resolved
  return applyVariant(resolved, suffix as Exclude<Variant, 'free'>) ?? resolved
}

/** A variant on a model id: refused (undefined) when it is unknown or the model cannot take it. */
function withVariant(catalog: Catalog, asked: string, base: string, suffix: string): ResolvedModel | undefined {
  // `:free` (and `:beta`, `:extended`...) name models of their own: found above when the catalog has them.
  if (!(VARIANTS as readonly string[]).includes(suffix) || suffix === 'free') return undefined
  const resolved = byName(catalog, base)
  return resolved ? applyVariant({ ...resolved, asked }, suffix as Exclude<Variant, 'free'>) : undefined
}

/** What a variant changes; undefined where the model cannot take it (`:thinking` on a model that does not reason). */
function applyVariant(out: ResolvedModel, suffix: Exclude<Variant, 'free'>): ResolvedModel | undefined {
  switch (suffix) {
    case 'online':
      return { ...out, web: true }
    case 'nitro':
      return { ...out, sort: 'throughput' }
    case 'floor':
      return { ...out, sort: 'price' }
    case 'exacto':
      return { ...out, sort: 'exacto' }
    case 'thinking':
      return reasons(out.model) ? { ...out, thinking: true } : undefined
  }
}

const reasons = (model: CatalogModel): boolean => model.supported_parameters.includes('reasoning')

// ---- Names the clients send --------------------------------------------------------------------------

/** Bare model names (as the vendors' own clients send them) and the author the gateway files them under. */
const AUTHORS_OF_BARE_NAMES: ReadonlyArray<readonly [RegExp, string]> = [
  [/^(gpt-|chatgpt-|o\d|codex-|text-embedding-|dall-e|whisper|tts-|sora-)/, 'openai'],
  [/^claude-/, 'anthropic'],
  [/^(gemini-|gemma-|veo-)/, 'google'],
  [/^grok-/, 'x-ai'],
  [/^(mistral-|codestral|devstral|magistral|ministral|pixtral|voxtral)/, 'mistralai'],
  [/^deepseek-/, 'deepseek'],
  [/^(command-|embed-|rerank-)/, 'cohere'],
  [/^llama-/, 'meta-llama'],
  [/^(qwen|qwq)/, 'qwen'],
  [/^kimi-/, 'moonshotai'],
]

/** A date at the end of an id: 20250929, 2025-09-29, and OpenAI's and Google's 0125, 05-20. */
const DATE_SUFFIX = /-(\d{8}|\d{4}-\d{2}-\d{2}|\d{4}|\d{2}-\d{2})$/

/**
 * Other spellings of an id the catalog may know it by, in the order tried: the author added to a bare
 * name; Anthropic's API names with dots for its versions (`claude-opus-4-1-20250805` is
 * `anthropic/claude-opus-4.1`, `claude-sonnet-4-0` is `anthropic/claude-sonnet-4`); a dated id without its date.
 */
export function nameCandidates(asked: string): string[] {
  if (asked.length > SUGGEST_MAX_ID_CHARS) return []
  const slash = asked.indexOf('/')
  const bare = slash === -1
  const author = bare ? AUTHORS_OF_BARE_NAMES.find(([pattern]) => pattern.test(asked))?.[1] : asked.slice(0, slash)
  if (author === undefined) return []
  const slug = bare ? asked : asked.slice(slash + 1)
  const out: string[] = []
  const add = (s: string) => {
    const id = `${author}/${s}`
    if (id !== asked && !out.includes(id)) out.push(id)
  }
  add(slug)
  const undated = slug.replace(DATE_SUFFIX, '').replace(/-latest$/, '')
  if (slug.startsWith('claude-')) {
    // Anthropic writes versions with dashes (claude-3-5-sonnet, claude-sonnet-4-5); the gateway with dots.
    const dotted = undated.replace(/-(\d+)-(\d{1,2})(?=-|$)/, '-$1.$2')
    add(dotted)
    add(dotted.replace(/-(\d+)\.0(?=-|$)/, '-$1'))
  }
  add(undated)
  return out
}

// ---- ~author/x-latest --------------------------------------------------------------------------------

const VERSION_WORD = /^[a-z]?\d+(\.\d+)*[a-z]?$/

/** The words of a slug that name its family: not its version, nor `preview` (`gemini-3.1-pro-preview` is a gemini pro). */
const familyWords = (slug: string): string =>
  slug
    .split('-')
    .filter((w) => !VERSION_WORD.test(w) && w !== 'preview')
    .join('-')

/** The version words of a slug: `gemini-3.1-pro-preview` -> 3.1. */
const versionOf = (id: string): string =>
  id
    .slice(id.indexOf('/') + 1)
    .split('-')
    .filter((w) => VERSION_WORD.test(w))
    .join('-')

/** Compares models by their versions, numbers as numbers (5.10 after 5.9). */
const byVersion = (a: string, b: string): number => versionOf(a).localeCompare(versionOf(b), 'en', { numeric: true })

/**
 * The model a `~author/x-latest` id serves: of the author's models of that family (the same words
 * but for the version), those the data prices as the `~` id is priced (the source prices a `~` id as
 * the model it stands for), else all of them; of these the highest version (a catalog's `created` is
 * the emulator's own where no source has it), then the newest. The `~` model itself when it has no family.
 */
function newestOfFamily(catalog: Catalog, latest: CatalogModel): CatalogModel {
  const index = indexOf(catalog)
  const cached = index.latest.get(latest.id)
  if (cached) return cached
  const [author, slug] = latest.id.slice(1).split('/') as [string, string]
  const family = familyWords(slug.replace(/-latest$/, ''))
  const members = catalog.models.filter((m) => {
    if (m.id.startsWith('~') || m.id.includes(':')) return false
    const [a, s] = m.id.split('/') as [string, string]
    return a === author && familyWords(s) === family
  })
  const samePrice = members.filter((m) => m.pricing.prompt === latest.pricing.prompt && m.pricing.completion === latest.pricing.completion)
  const pool = samePrice.length > 0 ? samePrice : members
  const newest = pool.reduce<CatalogModel | undefined>((best, m) => {
    if (!best) return m
    const order = byVersion(m.id, best.id) || m.created - best.created
    return order > 0 ? m : best
  }, undefined)
  const chosen = newest ?? latest
  index.latest.set(latest.id, chosen)
  return chosen
}

// ---- openrouter/auto ---------------------------------------------------------------------------------

/** A model pattern of the auto-router plugin: `*` matches any run of characters. */
function matches(pattern: string, id: string): boolean {
  if (!pattern.includes('*')) return pattern === id
  const parts = pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
  return new RegExp(`^${parts.join('.*')}$`).test(id)
}

/** Models the router may choose: text models with a price of their own (no router, free or `~` id). */
const routable = (m: CatalogModel): boolean =>
  m.architecture.output_modalities.includes('text') &&
  !m.id.includes(':') &&
  !m.id.startsWith('~') &&
  !m.id.startsWith('openrouter/') &&
  !m.pricing.prompt.startsWith('-')

/**
 * The router's choice: a draw fixed by the emulator's seed, the request's seed and its content among
 * the models it may choose (in catalog order), so the same request always gets the same model.
 */
function autoRoute(catalog: Catalog, input: RouterInput, seed: number): ResolvedModel {
  const candidates = catalog.models.filter(
    (m) =>
      routable(m) &&
      (input.allowed.length === 0 || input.allowed.some((p) => matches(p, m.id))) &&
      !input.excluded.some((p) => matches(p, m.id)) &&
      (!input.needsTools || m.supported_parameters.includes('tools')),
  )
  if (candidates.length === 0) throw autoRouterFoundNone(input.allowed, input.excluded)
  const draw = deriveUnit(seed, `auto-router:${input.seed ?? ''}:${sha256Hex(input.content)}`)
  const model = candidates[Math.floor(draw * candidates.length)]!
  return { ...found(model, AUTO_ROUTER, 'router'), router: AUTO_ROUTER }
}

// ---- A generic model for ids the snapshot lacks --------------------------------------------------------

/** A well-formed model id: `author/slug`, lower-case letters, digits, `.`, `_` and `-`. */
const GENERIC_ID = /^[a-z0-9][a-z0-9._-]{0,63}\/[a-z0-9][a-z0-9._-]{0,127}$/

/** The generic models kept per catalog (the oldest are dropped past this). */
export const GENERIC_KEPT = 256

/**
 * The prices of a generic model, by kind, USD as the catalog writes them: text $1 per million prompt
 * tokens and $2 per million completion tokens, embeddings $0.10 per million, an image $0.04, a
 * rerank $0.002 a request, speech and transcription as text. docs/models.md lists them.
 */
export const GENERIC_PRICES: Record<Exclude<ModelKind, 'video'>, CatalogEndpoint['pricing']> = {
  text: { prompt: '0.000001', completion: '0.000002' },
  embeddings: { prompt: '0.0000001', completion: '0' },
  image: { prompt: '0', completion: '0', image: '0.04' },
  rerank: { prompt: '0', completion: '0', request: '0.002' },
  speech: { prompt: '0.000001', completion: '0.000002' },
  transcription: { prompt: '0', completion: '0.000002', audio: '0.0001' },
}

/** The context of a generic model, and the most it writes. */
const GENERIC_CONTEXT = 128_000
const GENERIC_MAX_COMPLETION = 16_384

function genericModel(catalog: Catalog, id: string, kind: Exclude<ModelKind, 'video'>): CatalogModel {
  const kept = indexOf(catalog).generic
  const key = `${kind}\u0000${id}`
  const cached = kept.get(key)
  if (cached) return cached
  const pricing = GENERIC_PRICES[kind]
  const parameters =
    kind === 'text' ? ['max_tokens', 'temperature', 'top_p', 'stop', 'seed', 'tools', 'tool_choice', 'response_format', 'structured_outputs'] : []
  const [author] = id.split('/') as [string]
  const endpoint: CatalogEndpoint = {
    id: `generic-${sha256Hex(key).slice(0, 24)}`,
    provider: 'generic',
    provider_name: 'Generic',
    tag: 'generic',
    quantization: 'unknown',
    context_length: GENERIC_CONTEXT,
    max_completion_tokens: kind === 'text' ? GENERIC_MAX_COMPLETION : null,
    max_prompt_tokens: null,
    pricing,
    supported_parameters: parameters,
    status: 0,
    uptime_last_30m: 100,
    uptime_last_5m: 100,
    uptime_last_1d: 100,
    supports_implicit_caching: false,
    latency_last_30m: { p50: 0.5, p75: 0.7, p90: 0.9, p99: 1.5 },
    throughput_last_30m: { p50: 50, p75: 40, p90: 30, p99: 20 },
    supports_tool_choice: { auto: kind === 'text', function: kind === 'text', none: kind === 'text', required: kind === 'text' },
    zdr: false,
    regions: ['eu', 'us'],
  }
  const output = kind === 'image' ? ['image'] : [kind]
  const model: CatalogModel = {
    id,
    canonical_slug: id,
    hugging_face_id: null,
    name: `${author}: ${id.slice(author.length + 1)} (generic)`,
    created: 0,
    description: 'A model the catalog snapshot does not have, served as a generic one (the `generic-models` setting).',
    context_length: GENERIC_CONTEXT,
    architecture: { modality: `text->${output[0]}`, input_modalities: ['text'], output_modalities: output, tokenizer: 'Other', instruct_type: null },
    pricing,
    top_provider: { context_length: GENERIC_CONTEXT, max_completion_tokens: endpoint.max_completion_tokens, is_moderated: false },
    per_request_limits: null,
    supported_parameters: parameters,
    default_parameters: null,
    supported_voices: kind === 'speech' ? ['alloy'] : null,
    knowledge_cutoff: null,
    expiration_date: null,
    categories: [],
    embedding_dimensions: kind === 'embeddings' ? 1536 : null,
    endpoints: [endpoint],
  }
  if (kept.size >= GENERIC_KEPT) kept.delete(kept.keys().next().value!)
  kept.set(key, model)
  return model
}

// ---- Did you mean ------------------------------------------------------------------------------------

/**
 * The known ids nearest to `asked` (at most SUGGESTIONS, nearest first, then by id), each at most a
 * third of its length in edits (and SUGGEST_MAX_EDITS); none for an id longer than SUGGEST_MAX_ID_CHARS.
 * A bounded edit distance: the work is at most (known ids) x (id length) x (2 x bound + 1) steps.
 */
export function suggestModels(catalog: Catalog, asked: string): string[] {
  if (asked.length > SUGGEST_MAX_ID_CHARS || asked.length < 3) return []
  const bound = Math.min(SUGGEST_MAX_EDITS, Math.floor(asked.length / 3))
  const needle = asked.toLowerCase()
  const scored: Array<{ id: string; distance: number }> = []
  for (const id of indexOf(catalog).known) {
    if (Math.abs(id.length - needle.length) > bound) continue
    const distance = boundedDistance(needle, id.toLowerCase(), bound)
    if (distance <= bound) scored.push({ id, distance })
  }
  scored.sort((a, b) => a.distance - b.distance || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  return scored.slice(0, SUGGESTIONS).map((s) => s.id)
}

/** Levenshtein distance of a and b, or bound + 1 once it must exceed bound (only a band of the table is filled). */
export function boundedDistance(a: string, b: string, bound: number): number {
  const over = bound + 1
  if (Math.abs(a.length - b.length) > bound) return over
  // Two rows of the table; outside the band a cell counts as `over`.
  let previous = new Int32Array(b.length + 1)
  let current = new Int32Array(b.length + 1)
  for (let j = 0; j <= b.length; j++) previous[j] = Math.min(j, over)
  for (let i = 1; i <= a.length; i++) {
    const from = Math.max(1, i - bound)
    const to = Math.min(b.length, i + bound)
    current[0] = Math.min(i, over)
    if (from > 1) current[from - 1] = over
    let best = from === 1 ? current[0] : over
    const code = a.charCodeAt(i - 1)
    for (let j = from; j <= to; j++) {
      const diagonal = previous[j - 1]! + (code === b.charCodeAt(j - 1) ? 0 : 1)
      const up = j <= i - 1 + bound ? previous[j]! + 1 : over
      const value = Math.min(diagonal, up, current[j - 1]! + 1, over)
      current[j] = value
      if (value < best) best = value
    }
    if (best > bound) return over
    ;[previous, current] = [current, previous]
  }
  return Math.min(previous[b.length]!, over)
}
