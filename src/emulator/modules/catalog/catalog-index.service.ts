// The model catalog in memory: indexed once, with its API views built once, and list responses
// serialised once per distinct query (a catalog is immutable; a change builds a new one).
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { markShared } from '../../core/buffers.ts'
import { BUNDLED_FIXTURES } from '../../config.ts'
import { compileCheck } from '../../http/validation.ts'
import {
  CatalogDocument,
  CatalogExtension,
  PRICING_KEYS,
  type CatalogEndpoint,
  type CatalogModel,
  type EndpointObject,
  type EndpointPricing,
  type ModelEndpointsBody,
  type ModelObject,
} from './catalog.schemas.ts'
import { hasAvailableEndpoint, type EndpointPolicy } from './catalog-policy.service.ts'

export class CatalogError extends Error {
  override name = 'CatalogError'
  readonly field: string | null
  constructor(message: string, field: string | null = null) {
    super(message)
    this.field = field
  }
}

// Compiled once per process, on first use: the catalog is checked at every start and every change.
let checkDocument: ReturnType<typeof compileCheck> | undefined
let checkExtension: ReturnType<typeof compileCheck> | undefined

/** Checks a whole catalog document: its shape, then that ids are unique. Throws CatalogError naming the field. */
export function validateCatalog(value: unknown, where: string): CatalogDocument {
  checkDocument ??= compileCheck(CatalogDocument)
  const problem = checkDocument(value)
  if (problem) throw new CatalogError(`${where}: \`${problem.field || '(document)'}\` ${problem.issue}`, problem.field)
  const doc = value as CatalogDocument
  checkUnique(doc.models, where)
  checkAliases(doc, where)
  return doc
}

/** Each alias names a model of the document and is no model's own id. */
function checkAliases(doc: CatalogDocument, where: string): void {
  if (doc.aliases === undefined) return
  const ids = new Set(doc.models.map((m) => m.id))
  for (const [alias, target] of Object.entries(doc.aliases)) {
    const field = `aliases.${alias}`
    if (!/^[^/\s]+\/[^/\s]+$/.test(alias)) throw new CatalogError(`${where}: \`${field}\` an alias is an id of the form author/slug`, field)
    if (ids.has(alias)) throw new CatalogError(`${where}: \`${field}\` is the id of a model of the catalog, not an alias`, field)
    if (!ids.has(target)) throw new CatalogError(`${where}: \`${field}\` names ${target}, which is no model of the catalog`, field)
  }
}

function checkUnique(models: readonly CatalogModel[], where: string): void {
  const modelIds = new Set<string>()
  const endpointIds = new Set<string>()
  models.forEach((m, i) => {
    if (modelIds.has(m.id)) throw new CatalogError(`${where}: \`models[${i}].id\` ${m.id} appears twice`, `models[${i}].id`)
    modelIds.add(m.id)
    m.endpoints.forEach((e, j) => {
      const field = `models[${i}].endpoints[${j}].id`
      if (endpointIds.has(e.id)) throw new CatalogError(`${where}: \`${field}\` ${e.id} appears twice`, field)
      endpointIds.add(e.id)
    })
  })
}

/** Adds the extension's models to the base, replacing any with the same id; keeps the list sorted by id. */
export function mergeCatalog(base: CatalogDocument, models: readonly CatalogModel[]): CatalogDocument {
  const byId = new Map(base.models.map((m) => [m.id, m]))
  for (const m of models) byId.set(m.id, m)
  const merged = [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  // An extension's model may take an alias's id: the model wins, as an id always does.
  const aliases = base.aliases && Object.fromEntries(Object.entries(base.aliases).filter(([alias]) => !byId.has(alias)))
  return { version: 1, ...(base.sources && { sources: base.sources }), ...(aliases && { aliases }), models: merged }
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    throw new CatalogError(`catalog ${path}: ${(error as Error).message}`)
  }
}

/**
 * The catalog of a fixtures directory: its `catalog/catalog.json` (or the bundled one) replaced or
 * extended by every other `catalog/*.json` in that directory, in name order.
 */
export function loadCatalogDocument(fixturesDir: string): CatalogDocument {
  const ownDir = join(fixturesDir, 'catalog')
  let files: string[] = []
  try {
    files = readdirSync(ownDir)
      .filter((f) => f.endsWith('.json'))
      .sort()
  } catch {
    // No catalog folder of its own: the bundled catalog as it is.
  }
  const own = files.includes('catalog.json') && resolve(ownDir, 'catalog.json') !== BUNDLED_CATALOG
  const basePath = own ? join(ownDir, 'catalog.json') : BUNDLED_CATALOG
  // The bundled catalog is checked by the test suite; skipping its schema check keeps start-up fast.
  let doc = own ? validateCatalog(readJson(basePath), `catalog ${basePath}`) : bundledCatalog()
  for (const file of files.filter((f) => f !== 'catalog.json')) {
    const path = join(ownDir, file)
    const value = readJson(path)
    checkExtension ??= compileCheck(CatalogExtension)
    const problem = checkExtension(value)
    if (problem) throw new CatalogError(`catalog ${path}: \`${problem.field || '(document)'}\` ${problem.issue}`, problem.field)
    doc = mergeCatalog(doc, (value as { models: CatalogModel[] }).models)
    checkUnique(doc.models, `catalog ${path}`)
  }
  return doc
}

export const BUNDLED_CATALOG = resolve(BUNDLED_FIXTURES, 'catalog', 'catalog.json')

let bundled: CatalogDocument | undefined

/** Freezes `value` and everything in it. */
function deepFreeze<T extends object>(value: T): T {
  // Index loops and for...in rather than Object.values: a tenth of the time on a parsed document of
  // several hundred models (no array of values per object), which a cold start pays.
  Object.freeze(value)
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const child: unknown = value[i]
      if (typeof child === 'object' && child !== null) deepFreeze(child)
    }
  } else {
    for (const key in value) {
      const child: unknown = value[key]
      if (typeof child === 'object' && child !== null) deepFreeze(child)
    }
  }
  return value
}

/**
 * The bundled catalog, read once per process (every emulator of a test suite starts from it) and
 * frozen, since they all share it: a catalog is never changed in place, a change builds another.
 */
function bundledCatalog(): CatalogDocument {
  return (bundled ??= deepFreeze(readJson(BUNDLED_CATALOG) as CatalogDocument))
}

// ---- API views -----------------------------------------------------------------------------------

function modelView(m: CatalogModel): ModelObject {
  return {
    id: m.id,
    canonical_slug: m.canonical_slug,
    hugging_face_id: m.hugging_face_id,
    name: m.name,
    created: m.created,
    description: m.description,
    context_length: m.context_length,
    architecture: m.architecture,
    pricing: m.pricing,
    top_provider: m.top_provider,
    per_request_limits: m.per_request_limits,
    supported_parameters: m.supported_parameters,
    default_parameters: m.default_parameters,
    supported_voices: m.supported_voices,
    knowledge_cutoff: m.knowledge_cutoff,
    expiration_date: m.expiration_date,
    links: { details: `/api/v1/models/${detailsSlug(m)}/endpoints` },
  }
}

/** A variant (`:free`, `:thinking`...) shares its canonical slug with its model, so its own id names its endpoints. */
const detailsSlug = (m: CatalogModel): string => (m.id.includes(':') ? m.id : m.canonical_slug)

export function endpointView(m: CatalogModel, e: CatalogEndpoint, pricing: EndpointPricing = e.pricing): EndpointObject {
  return {
    name: `${e.provider_name} | ${m.canonical_slug}`,
    model_id: m.id,
    model_name: m.name,
    context_length: e.context_length,
    pricing,
    provider_name: e.provider_name,
    tag: e.tag,
    quantization: e.quantization,
    max_completion_tokens: e.max_completion_tokens,
    max_prompt_tokens: e.max_prompt_tokens,
    supported_parameters: e.supported_parameters,
    status: e.status,
    uptime_last_30m: e.uptime_last_30m,
    uptime_last_5m: e.uptime_last_5m,
    uptime_last_1d: e.uptime_last_1d,
    supports_implicit_caching: e.supports_implicit_caching,
    latency_last_30m: e.latency_last_30m,
    throughput_last_30m: e.throughput_last_30m,
    supports_tool_choice: e.supports_tool_choice,
  }
}

/** The ZDR preview lists every pricing key, unset ones as "0", plus the numeric discount. */
function fullPricing(e: CatalogEndpoint): EndpointPricing {
  const out: Record<string, string> = {}
  for (const key of PRICING_KEYS) out[key] = e.pricing[key] ?? '0'
  return { ...(out as Required<Omit<CatalogEndpoint['pricing'], 'overrides'>>), ...(e.pricing.overrides && { overrides: e.pricing.overrides }), discount: 0 }
}

function endpointsView(m: CatalogModel, endpoints: readonly CatalogEndpoint[]): ModelEndpointsBody['data'] {
  return {
    id: m.id,
    name: m.name,
    created: m.created,
    description: m.description,
    architecture: {
      modality: m.architecture.modality,
      input_modalities: m.architecture.input_modalities,
      output_modalities: m.architecture.output_modalities,
      tokenizer: m.architecture.tokenizer,
      instruct_type: m.architecture.instruct_type,
    },
    endpoints: endpoints.map((e) => endpointView(m, e)),
  }
}

// ---- Filters and lists ---------------------------------------------------------------------------

export interface ModelFilters {
  category?: string | undefined
  /** Every one of these must be supported. */
  supportedParameters: readonly string[]
  /** Any of these among the model's outputs; 'all' = no filter. */
  outputModalities: readonly string[] | 'all'
  limit?: number | undefined
  offset?: number | undefined
}

export interface ModelListPage {
  /** The serialised `{data, total_count, links}` body, encoded once. */
  body: Buffer
  models: readonly CatalogModel[]
}

/**
 * Bytes of list and memoised bodies a catalog keeps (each of its two caches): a full list of the
 * bundled catalog is about 0.6 MB, so 256 distinct queries held by count could have kept 160 MB.
 * Past it a cache is cleared and fills again with what is asked.
 */
export const LIST_CACHE_BYTES = 16 * 1024 * 1024

export interface Catalog {
  readonly document: CatalogDocument
  readonly models: readonly CatalogModel[]
  /** By exact id, then by canonical slug (the model before its variants). */
  find(idOrSlug: string): CatalogModel | undefined
  endpoint(endpointId: string): { model: CatalogModel; endpoint: CatalogEndpoint } | undefined
  filter(filters: ModelFilters, policies?: readonly EndpointPolicy[]): CatalogModel[]
  /** The models list response, serialised once per distinct (filters, policies). */
  list(filters: ModelFilters, policies?: readonly EndpointPolicy[], nextBase?: string): ModelListPage
  endpointsJson(model: CatalogModel, endpoints?: readonly CatalogEndpoint[]): string
  /** One model as the lists show it, serialised once per catalog. */
  modelJson(model: CatalogModel): string
  readonly zdrBody: Buffer
  /** Memoises a response body of this catalog by a key (a request URL); cleared when it fills up. */
  memo(key: string, make: () => Buffer): Buffer
  /** The bodies its list cache and its memo hold, and their bytes (each at most LIST_CACHE_BYTES). */
  cached(): { entries: number; bytes: number }
}

const shared = new WeakMap<CatalogDocument, Catalog>()

/**
 * The catalog of a frozen document (the bundled one), built once per process and shared by every
 * emulator in it: its index, its models' JSON and its list bodies are the same for all of them, and a
 * catalog never changes (what it caches is keyed by everything a body depends on). Any other document
 * (an admin's replacement, a fixtures folder's own) is built for its emulator alone.
 */
export function sharedCatalog(document: CatalogDocument): Catalog {
  if (!Object.isFrozen(document)) return buildCatalog(document)
  let catalog = shared.get(document)
  if (catalog === undefined) {
    catalog = Object.freeze(buildCatalog(document))
    shared.set(document, catalog)
  }
  return catalog
}

export function buildCatalog(document: CatalogDocument): Catalog {
  const models = document.models
  const byId = new Map(models.map((m) => [m.id, m]))
  const bySlug = new Map<string, CatalogModel>()
  for (const m of models) if (!bySlug.has(m.canonical_slug) || bySlug.get(m.canonical_slug)!.id.includes(':')) bySlug.set(m.canonical_slug, m)
  const endpoints = new Map<string, { model: CatalogModel; endpoint: CatalogEndpoint }>()
  for (const model of models) for (const endpoint of model.endpoints) endpoints.set(endpoint.id, { model, endpoint })
  // Each model's JSON once, on first use (a start that serves no list pays nothing for it); list
  // bodies are joined from these strings.
  const modelJson = new Map<string, string>()
  const jsonOf = (m: CatalogModel): string => {
    let json = modelJson.get(m.id)
    if (json === undefined) {
      json = JSON.stringify(modelView(m))
      if (byId.get(m.id) === m) modelJson.set(m.id, json)
    }
    return json
  }
  const listCache = new Map<string, ModelListPage>()
  const bodies = new Map<string, Buffer>()
  let listBytes = 0
  let bodiesBytes = 0

  const filter = (f: ModelFilters, policies: readonly EndpointPolicy[] = []): CatalogModel[] =>
    models.filter((m) => {
      if (f.category !== undefined && !m.categories.includes(f.category as never)) return false
      if (f.outputModalities !== 'all' && !f.outputModalities.some((o) => m.architecture.output_modalities.includes(o))) return false
      if (f.supportedParameters.length > 0 && !f.supportedParameters.every((p) => m.supported_parameters.includes(p))) return false
      return hasAvailableEndpoint(m, policies)
    })

  let zdrBody: Buffer | undefined

  return {
    document,
    models,
    find: (idOrSlug) => byId.get(idOrSlug) ?? bySlug.get(idOrSlug),
    endpoint: (id) => endpoints.get(id),
    filter,
    list(f, policies = [], nextBase = '/api/v1/models') {
      const key = JSON.stringify([f.category, f.supportedParameters, f.outputModalities, f.limit, f.offset, policies, nextBase])
      const cached = listCache.get(key)
      if (cached) return cached
      const matching = filter(f, policies)
      const offset = f.offset ?? 0
      const page = f.limit === undefined ? matching.slice(offset) : matching.slice(offset, offset + f.limit)
      const hasMore = f.limit !== undefined && offset + f.limit < matching.length
      const next = hasMore ? `${nextBase}${nextBase.includes('?') ? '&' : '?'}offset=${offset + f.limit!}&limit=${f.limit}` : null
      const json = `{"data":[${page.map(jsonOf).join(',')}],"total_count":${matching.length},"links":{"next":${JSON.stringify(next)}}}`
      const result = { body: Buffer.from(json), models: page }
      if (listBytes + result.body.length > LIST_CACHE_BYTES) {
        listCache.clear()
        listBytes = 0
      }
      listCache.set(key, result)
      listBytes += result.body.length
      return result
    },
    endpointsJson: (model, list = model.endpoints) => JSON.stringify({ data: endpointsView(model, list) }),
    modelJson: jsonOf,
    get zdrBody() {
      zdrBody ??= markShared(
        Buffer.from(JSON.stringify({ data: models.flatMap((m) => m.endpoints.filter((e) => e.zdr).map((e) => endpointView(m, e, fullPricing(e)))) })),
      )
      return zdrBody
    },
    cached: () => ({ entries: listCache.size + bodies.size, bytes: listBytes + bodiesBytes }),
    memo(key, make) {
      let body = bodies.get(key)
      if (body === undefined) {
        body = markShared(make())
        if (bodiesBytes + body.length > LIST_CACHE_BYTES) {
          bodies.clear()
          bodiesBytes = 0
        }
        bodies.set(key, body)
        bodiesBytes += body.length
      }
      return body
    },
  }
}
