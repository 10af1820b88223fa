// Embeddings: checks the model and dimensions, routes to a provider by the caller's preferences,
// bills through the meter, then makes the vectors. Nothing is billed for a request that fails.
import { PiecesBody } from '../../core/buffers.ts'
import { fieldError } from '../../core/errors.ts'
import { nanosToUsd } from '../../core/money.ts'
import type { EmulatorContext } from '../module.ts'
import type { AuthContext } from '../../http/auth.ts'
import type { CatalogModel, Region } from '../catalog/catalog.schemas.ts'
import { tokensNanos } from '../meter/meter-pricers.service.ts'
import { meter } from '../meter/meter.service.ts'
import { notAnEmbeddingsModel } from './embeddings.errors.ts'
import { routeByPreferences } from '../catalog/catalog-routing.service.ts'
import { checkRequestTokens, parseInput, type EmbeddingItem } from './embeddings.input.ts'
import type { EmbeddingsBody, EmbeddingsResult } from './embeddings.schemas.ts'
import { loadTokenizer } from '../../core/tokens.ts'
import { cachedVector, dataMember, shelf, type CachedVector, type InputKind, type Shelf } from './embeddings-cache.service.ts'
import { embedFeatures } from './embeddings-vectors.service.ts'

/** Used when a catalog model does not say its native size. */
const DEFAULT_DIMENSIONS = 1536
/** Used when a catalog model does not say its context length (the text-embedding-3 family's). */
const DEFAULT_CONTEXT_TOKENS = 8192

export function embeddingsModel(ctx: EmulatorContext, id: string): CatalogModel {
  const { model } = ctx.services.catalog.resolve(id, 'embeddings')
  if (!model.architecture.output_modalities.includes('embeddings')) {
    throw notAnEmbeddingsModel(id, model.architecture.output_modalities)
  }
  return model
}

/** Each item's vector, from the cache or made now (and cached). */
function vectorsOf(model: string, dimensions: number, items: readonly EmbeddingItem[]): CachedVector[] {
  let kind: InputKind | undefined
  let on: Shelf | undefined
  return items.map((item) => {
    if (item.kind !== kind) on = shelf(model, dimensions, (kind = item.kind))
    return cachedVector(on!, item.input, () => {
      const { features, tokens } = item.prepare()
      return { vector: embedFeatures(model, features, dimensions, `${item.kind}:${item.input}`), tokens }
    })
  })
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
  const computed = vectorsOf(model.id, dimensions, items)
  checkRequestTokens(
    items.map((item, i) => ({ field: item.field, tokens: computed[i]!.tokens })),
    limits,
  )
  const tokens = computed.reduce((n, c) => n + c.tokens, 0)

  // No generation row: an embeddings call is its usage row (its id is made from it).
  const billed = meter(ctx, {
    caller,
    operation: 'embeddings.create',
    model: { id: model.id, canonical_slug: model.canonical_slug },
    endpoints: model.endpoints,
    region,
    route: routeByPreferences(model, body.provider),
    tokens: { prompt: tokens },
    price: (endpoint) => tokensNanos(endpoint.pricing, { prompt: tokens }),
    generation: null,
  })

  const data = dataMember(computed, body.encoding_format === 'base64')
  const head: Pick<EmbeddingsResult, 'id' | 'object'> = {
    id: `gen-emb-${Math.floor(ctx.clock.now() / 1000)}-${ctx.ids.generation(`emb:${billed.usage_id}`)}`,
    object: 'list',
  }
  const tail: Pick<EmbeddingsResult, 'model' | 'provider' | 'usage'> = {
    model: upstreamName(model),
    provider: billed.endpoint.provider_name,
    usage: { prompt_tokens: tokens, total_tokens: tokens, cost: nanosToUsd(billed.charge.cost_nanos) },
  }
  return new PiecesBody([Buffer.from(`${JSON.stringify(head).slice(0, -1)},`), ...data, Buffer.from(`,${JSON.stringify(tail).slice(1)}`)])
}
