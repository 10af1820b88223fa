// The catalog document (fixtures/catalog/catalog.json, the admin API) and the query of the models list.
// Fields the API does not show (categories, embedding_dimensions, zdr, regions, provider) drive the
// filters, the EU listener and embeddings.
import { Type, type Static } from 'typebox'
import { Nullable, StringEnum } from '../../http/schemas.ts'

export const CATEGORIES = [
  'programming',
  'roleplay',
  'marketing',
  'marketing/seo',
  'technology',
  'science',
  'translation',
  'legal',
  'finance',
  'health',
  'trivia',
  'academia',
] as const

export const OUTPUT_MODALITIES = ['text', 'image', 'audio', 'embeddings'] as const
export const REGIONS = ['eu', 'us'] as const
export type Region = (typeof REGIONS)[number]

const Price = Type.String({ pattern: '^-?\\d+(\\.\\d+)?$' })
const Percentiles = Nullable(Type.Object({ p50: Type.Number(), p75: Type.Number(), p90: Type.Number(), p99: Type.Number() }))

const PricingFields = {
  prompt: Price,
  completion: Price,
  request: Type.Optional(Price),
  image: Type.Optional(Price),
  image_token: Type.Optional(Price),
  image_output: Type.Optional(Price),
  audio: Type.Optional(Price),
  audio_output: Type.Optional(Price),
  input_audio_cache: Type.Optional(Price),
  web_search: Type.Optional(Price),
  internal_reasoning: Type.Optional(Price),
  input_cache_read: Type.Optional(Price),
  input_cache_write: Type.Optional(Price),
}
export const PRICING_KEYS = Object.keys(PricingFields) as Array<keyof typeof PricingFields>

export const Pricing = Type.Object(PricingFields)

export const CatalogEndpoint = Type.Object({
  id: Type.String({ minLength: 1 }),
  provider: Type.String({ minLength: 1 }),
  provider_name: Type.String({ minLength: 1 }),
  tag: Type.String(),
  quantization: Nullable(Type.String()),
  context_length: Type.Integer({ minimum: 0 }),
  max_completion_tokens: Nullable(Type.Integer({ minimum: 0 })),
  max_prompt_tokens: Nullable(Type.Integer({ minimum: 0 })),
  pricing: Pricing,
  supported_parameters: Type.Array(Type.String()),
  status: Type.Integer(),
  uptime_last_30m: Nullable(Type.Number()),
  uptime_last_5m: Nullable(Type.Number()),
  uptime_last_1d: Nullable(Type.Number()),
  supports_implicit_caching: Type.Boolean(),
  latency_last_30m: Percentiles,
  throughput_last_30m: Percentiles,
  supports_tool_choice: Type.Object({ auto: Type.Boolean(), function: Type.Boolean(), none: Type.Boolean(), required: Type.Boolean() }),
  zdr: Type.Boolean(),
  regions: Type.Array(StringEnum(REGIONS)),
})

export const CatalogModel = Type.Object({
  id: Type.String({ pattern: '^[^/\\s]+/[^/\\s]+$' }),
  canonical_slug: Type.String({ pattern: '^[^/\\s]+/[^/\\s]+$' }),
  hugging_face_id: Nullable(Type.String()),
  name: Type.String({ minLength: 1 }),
  created: Type.Integer({ minimum: 0 }),
  description: Type.String(),
  context_length: Type.Integer({ minimum: 0 }),
  architecture: Type.Object({
    modality: Nullable(Type.String()),
    input_modalities: Type.Array(Type.String()),
    output_modalities: Type.Array(Type.String(), { minItems: 1 }),
    tokenizer: Type.String(),
    instruct_type: Nullable(Type.String()),
  }),
  pricing: Pricing,
  top_provider: Type.Object({
    context_length: Nullable(Type.Integer({ minimum: 0 })),
    max_completion_tokens: Nullable(Type.Integer({ minimum: 0 })),
    is_moderated: Type.Boolean(),
  }),
  per_request_limits: Nullable(Type.Object({ prompt_tokens: Type.Number(), completion_tokens: Type.Number() })),
  supported_parameters: Type.Array(Type.String()),
  default_parameters: Nullable(Type.Record(Type.String(), Nullable(Type.Number()))),
  supported_voices: Nullable(Type.Array(Type.String())),
  knowledge_cutoff: Nullable(Type.String()),
  expiration_date: Nullable(Type.String()),
  categories: Type.Array(StringEnum(CATEGORIES)),
  embedding_dimensions: Nullable(Type.Integer({ minimum: 1 })),
  endpoints: Type.Array(CatalogEndpoint, { minItems: 1 }),
})

export const CatalogDocument = Type.Object({
  version: Type.Literal(1),
  models: Type.Array(CatalogModel),
})

/** An extension: models added to (or replacing by id) those of the base catalog. */
export const CatalogExtension = Type.Object({ models: Type.Array(CatalogModel, { minItems: 1 }) })

export type CatalogModel = Static<typeof CatalogModel>
export type CatalogEndpoint = Static<typeof CatalogEndpoint>
export type CatalogDocument = Static<typeof CatalogDocument>

const booleanFlag = Type.Optional(Type.Boolean())

export const ListModelsQuery = Type.Object({
  category: Type.Optional(StringEnum(CATEGORIES)),
  supported_parameters: Type.Optional(Type.String()),
  output_modalities: Type.Optional(Type.String()),
  region: Type.Optional(StringEnum(REGIONS)),
  use_rss: booleanFlag,
  use_rss_chat_links: booleanFlag,
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  offset: Type.Optional(Type.Integer({ minimum: 0 })),
})
export type ListModelsQuery = Static<typeof ListModelsQuery>

export const ModelPathParams = Type.Object({ author: Type.String({ minLength: 1 }), slug: Type.String({ minLength: 1 }) })
