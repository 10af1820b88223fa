// Embeddings: checks the model and dimensions, routes to a provider by the caller's preferences,
// bills through the ledger, then makes the vectors. Nothing is billed for a request that fails.
import { ownedCopy, PiecesBody } from '../../core/buffers.ts'
import { ApiError, fieldError } from '../../core/errors.ts'
import { nanosToUsd, tokenCostNanos } from '../../core/money.ts'
import type { EmulatorContext } from '../../context.ts'
import type { AuthContext } from '../../http/auth.ts'
import type { CatalogEndpoint, CatalogModel, Region } from '../catalog/catalog.schemas.ts'
import { bill, healthiest } from '../ledger/ledger.service.ts'
import { checkRequestTokens, parseInput, type EmbeddingItem } from './embeddings.input.ts'
import type { EmbeddingsBody, EmbeddingsResult, ProviderPreferences } from './embeddings.schemas.ts'
import { loadTokenizer } from './tokens.ts'
import { embedFeatures, jsonVectorCapacity, writeJsonVector } from './vectors.ts'

/** Used when a catalog model does not say its native size. */
const DEFAULT_DIMENSIONS = 1536
/** Used when a catalog model does not say its context length (the text-embedding-3 family's). */
const DEFAULT_CONTEXT_TOKENS = 8192

export function embeddingsModel(ctx: EmulatorContext, id: string): CatalogModel {
  const model = ctx.catalog.get().find(id)
  if (!model) throw new ApiError(400, `${id} is not a valid model ID`, { metadata: { field: 'model', location: 'body' } })
  if (!model.architecture.output_modalities.includes('embeddings')) {
    throw new ApiError(
      400,
      `${id} is not an embeddings model (it outputs ${model.architecture.output_modalities.join(', ')}); choose a model whose output is embeddings`,
      {
        metadata: { field: 'model', location: 'body' },
      },
    )
  }
  return model
}

const named = (list: readonly string[], e: CatalogEndpoint): boolean =>
  list.some((p) => [e.provider, e.provider_name].some((n) => n.toLowerCase() === p.trim().toLowerCase()))

/**
 * Picks the serving endpoint by the request's provider preferences: `only`, `ignore` and `zdr` (or
 * `data_collection: "deny"`) narrow the choice; `order` goes first, then, unless `allow_fallbacks` is
 * false, the rest by health. Deterministic: the same preferences always pick the same endpoint.
 */
export function routeByPreferences(model: CatalogModel, prefs: ProviderPreferences = {}) {
  return (allowed: readonly CatalogEndpoint[]): CatalogEndpoint => {
    let candidates = allowed.filter(
      (e) => (!prefs.only || named(prefs.only, e)) && !(prefs.ignore && named(prefs.ignore, e)) && !((prefs.zdr || prefs.data_collection === 'deny') && !e.zdr),
    )
    if (prefs.order && prefs.order.length > 0) {
      const rank = (e: CatalogEndpoint) => prefs.order!.findIndex((p) => named([p], e))
      const ordered = candidates.filter((e) => rank(e) >= 0).sort((a, b) => rank(a) - rank(b))
      if (ordered.length > 0) return ordered[0]!
      if (prefs.allow_fallbacks === false) candidates = []
    }
    if (candidates.length === 0) {
      throw new ApiError(404, 'No endpoints found that match your provider preferences', {
        metadata: { model: model.id, provider: prefs, available: allowed.map((e) => e.provider) },
      })
    }
    return healthiest(candidates)
  }
}

// Recently made vectors, by (model, dimensions, input), with their JSON and base64 encodings made on
// first use: apps re-embed the same texts all the time (an index rebuilt on every run), a vector is a
// pure function of those three, and writing 1536 numbers out costs more than everything else a request
// does. Least recently used goes first once the cache holds more than its bytes.
const CACHE_MAX_BYTES = 24 * 1024 * 1024

interface CachedVector {
  vector: Float64Array
  tokens: number
  json?: Buffer
  base64?: Buffer
}

const vectorCache = new Map<string, CachedVector>()
let cachedBytes = 0

// A key holds its whole input (up to 128 KB of text): it counts, at two bytes a character (V8 keeps
// a string in one or two bytes a character), or small vectors of long texts would hold unbounded memory.
const keyBytes = (key: string): number => 2 * key.length

function evictOverBudget(): void {
  for (const [oldest, entry] of vectorCache) {
    if (cachedBytes <= CACHE_MAX_BYTES) break
    vectorCache.delete(oldest)
    cachedBytes -= keyBytes(oldest) + entry.vector.byteLength + (entry.json?.length ?? 0) + (entry.base64?.length ?? 0)
  }
}

/** What the vector cache holds now, and its bound (GET /_emulator/api/stats). */
export const vectorCacheStats = (): { entries: number; bytes: number; limit_bytes: number } => ({
  entries: vectorCache.size,
  bytes: cachedBytes,
  limit_bytes: CACHE_MAX_BYTES,
})

function vectorOf(model: string, dimensions: number, item: EmbeddingItem): CachedVector {
  const key = `${model}\u0000${dimensions}\u0000${item.identity}`
  const hit = vectorCache.get(key)
  if (hit) {
    // Re-inserting marks this one as the most recently used.
    vectorCache.delete(key)
    vectorCache.set(key, hit)
    return hit
  }
  const { features, tokens } = item.prepare()
  const entry: CachedVector = { vector: embedFeatures(model, features, dimensions, item.identity), tokens }
  cachedBytes += keyBytes(key) + entry.vector.byteLength
  vectorCache.set(key, entry)
  evictOverBudget()
  return entry
}

/**
 * The vector as it appears in a response: a JSON array of numbers, or a quoted base64 string of its
 * float32 little-endian bytes (what the openai client decodes).
 */
function encodedVector(entry: CachedVector, base64: boolean): Buffer {
  let bytes = base64 ? entry.base64 : entry.json
  if (bytes) return bytes
  if (base64) {
    bytes = entry.base64 = ownedCopy(Buffer.from(`"${Buffer.from(new Float32Array(entry.vector).buffer).toString('base64')}"`, 'latin1'))
  } else {
    const out = Buffer.allocUnsafe(jsonVectorCapacity(entry.vector.length))
    // A copy of exactly the written bytes, so the cache does not hold the spare capacity.
    bytes = entry.json = ownedCopy(out.subarray(0, writeJsonVector(entry.vector, out, 0)))
  }
  cachedBytes += bytes.length
  evictOverBudget()
  return bytes
}

/** The name the provider knows the model by, as the real service echoes it. */
const upstreamName = (model: CatalogModel): string => model.hugging_face_id ?? model.id.split('/')[1]!.replace(/:free$/, '')

export async function createEmbeddings(ctx: EmulatorContext, caller: AuthContext, body: EmbeddingsBody, region: Region | null): Promise<PiecesBody> {
  const model = embeddingsModel(ctx, body.model)
  const native = model.embedding_dimensions ?? DEFAULT_DIMENSIONS
  const dimensions = body.dimensions || native
  if (dimensions > native) throw fieldError('dimensions', `must be <= ${native}, the native size of ${model.id}`)
  await loadTokenizer()
  const limits = { model: model.id, contextTokens: model.context_length ?? DEFAULT_CONTEXT_TOKENS, numbers: ctx.config.embeddingsNumbers }
  const items = parseInput(body.input, limits)
  const computed = items.map((item) => vectorOf(model.id, dimensions, item))
  checkRequestTokens(
    items.map((item, i) => ({ field: item.field, tokens: computed[i]!.tokens })),
    limits,
  )
  const tokens = computed.reduce((n, c) => n + c.tokens, 0)

  ctx.rateLimiter.admit(caller.key.hash, caller.account.id, ctx.clock.now())
  const billed = bill(ctx, {
    caller,
    operation: 'embeddings.create',
    model: { id: model.id, canonical_slug: model.canonical_slug },
    endpoints: model.endpoints,
    region,
    route: routeByPreferences(model, body.provider),
    price: (endpoint) => ({ prompt_tokens: tokens, cost_nanos: tokenCostNanos(endpoint.pricing, tokens) }),
  })

  const vectors = computed.map((c) => encodedVector(c, body.encoding_format === 'base64'))
  const head: Pick<EmbeddingsResult, 'id' | 'object'> = {
    id: `gen-emb-${Math.floor(ctx.clock.now() / 1000)}-${ctx.ids.generation(`emb:${billed.usage_id}`)}`,
    object: 'list',
  }
  const tail: Pick<EmbeddingsResult, 'model' | 'provider' | 'usage'> = {
    model: upstreamName(model),
    provider: billed.endpoint.provider_name,
    usage: { prompt_tokens: tokens, total_tokens: tokens, cost: nanosToUsd(billed.charge.cost_nanos) },
  }
  return writeResponse(head, vectors, tail)
}

/**
 * The response written as bytes: the same JSON as JSON.stringify would give, without its cost (it scans
 * every character of 16 base64 strings, and formats 24,000 floats slowly); the vectors come encoded.
 */
function writeResponse(head: object, vectors: readonly Buffer[], tail: object): PiecesBody {
  const parts: Buffer[] = [Buffer.from(`${JSON.stringify(head).slice(0, -1)},"data":[`)]
  vectors.forEach((vector, index) => {
    parts.push(Buffer.from(`${index > 0 ? ',' : ''}{"object":"embedding","embedding":`, 'latin1'), vector, Buffer.from(`,"index":${index}}`, 'latin1'))
  })
  parts.push(Buffer.from(`],${JSON.stringify(tail).slice(1)}`))
  return new PiecesBody(parts)
}
