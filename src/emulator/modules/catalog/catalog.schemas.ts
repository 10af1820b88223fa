// The catalog document (fixtures/catalog/catalog.json, the admin API), the query of the models list,
// and the catalog's answers. Fields the API does not show (categories, embedding_dimensions, zdr,
// regions, provider) drive the filters, the EU listener and embeddings.
import { Type, type Static } from 'typebox'
import { ErrorEnvelope, Nullable, Shape, StringEnum } from '../../http/schemas.ts'

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

/** The real document's OutputModality enum. */
export const OUTPUT_MODALITIES = ['text', 'image', 'embeddings', 'audio', 'video', 'rerank', 'speech', 'transcription'] as const
export const REGIONS = ['eu', 'us'] as const
export type Region = (typeof REGIONS)[number]

/** USD as a decimal string, never a float: "0.00000015" per token. */
// A decimal number string, as the real document writes prices: "0.0000025", "1.5e-7"; "-1" marks a
// price the real gateway settles elsewhere (its router models), billed here as nothing.
const Price = Type.String({ pattern: '^-?(\\d+(\\.\\d*)?|\\.\\d+)([eE][-+]?\\d+)?$', description: 'USD, a decimal number string such as 0.0000025 or 1.5e-7' })
const Percentiles = Nullable(Type.Object({ p50: Type.Number(), p75: Type.Number(), p90: Type.Number(), p99: Type.Number() }))
const SupportsToolChoice = Type.Object({ auto: Type.Boolean(), function: Type.Boolean(), none: Type.Boolean(), required: Type.Boolean() })

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

/** A long-context tier: past `min_prompt_tokens` prompt tokens (strictly more), these keys cost this much. */
export const PricingOverride = Type.Object({
  min_prompt_tokens: Type.Integer({ minimum: 0, description: 'The tier applies when the prompt has strictly more tokens than this' }),
  prompt: Type.Optional(Price),
  completion: Type.Optional(Price),
  input_cache_read: Type.Optional(Price),
  input_cache_write: Type.Optional(Price),
})
export type PricingOverride = Static<typeof PricingOverride>

const PricedFields = {
  ...PricingFields,
  overrides: Type.Optional(
    Type.Array(PricingOverride, { description: 'Long-context tiers, by `min_prompt_tokens`; keys absent from an entry keep the base price' }),
  ),
}

export const Pricing = Type.Object(PricedFields)

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
  supports_tool_choice: SupportsToolChoice,
  zdr: Type.Boolean(),
  regions: Type.Array(StringEnum(REGIONS)),
})

const Architecture = Type.Object({
  modality: Nullable(Type.String({ description: 'Inputs and outputs in one line, e.g. `text+image->text`' })),
  input_modalities: Type.Array(Type.String()),
  output_modalities: Type.Array(Type.String(), { minItems: 1 }),
  tokenizer: Type.String({ description: 'The tokenizer family, e.g. `GPT` or `Claude`' }),
  instruct_type: Nullable(Type.String()),
})

const TopProvider = Type.Object(
  {
    context_length: Nullable(Type.Integer({ minimum: 0 })),
    max_completion_tokens: Nullable(Type.Integer({ minimum: 0 })),
    is_moderated: Type.Boolean(),
  },
  { description: "The limits of the model's main endpoint" },
)

const PerRequestLimits = Nullable(Type.Object({ prompt_tokens: Type.Number(), completion_tokens: Type.Number() }))

/** Sampling defaults by parameter name (temperature, top_p...); null when the model sets none. */
const DefaultParameters = Nullable(Type.Record(Type.String(), Nullable(Type.Number())))

/** A model's own fields: what a catalog file holds and what GET /models shows, declared once. */
const ModelFields = {
  id: Type.String({ pattern: '^[^/\\s]+/[^/\\s]+$', description: 'The id requests name, e.g. `openai/gpt-4o` (a `:free` suffix is the free variant)' }),
  canonical_slug: Type.String({ pattern: '^[^/\\s]+/[^/\\s]+$', description: 'The permanent slug of this version of the model' }),
  hugging_face_id: Nullable(Type.String()),
  name: Type.String({ minLength: 1 }),
  created: Type.Integer({ minimum: 0, description: 'Unix time (seconds) the model was added' }),
  description: Type.String(),
  context_length: Type.Integer({ minimum: 0 }),
  architecture: Architecture,
  pricing: Pricing,
  top_provider: TopProvider,
  per_request_limits: PerRequestLimits,
  supported_parameters: Type.Array(Type.String()),
  default_parameters: DefaultParameters,
  supported_voices: Nullable(Type.Array(Type.String(), { description: 'Voices of a text-to-speech model; null for the others' })),
  knowledge_cutoff: Nullable(Type.String({ description: 'YYYY-MM-DD, or null when unknown' })),
  expiration_date: Nullable(Type.String({ description: 'YYYY-MM-DD after which the model may go, or null' })),
}

/** A model as a catalog file holds it: its own fields, and what the emulator needs to serve it. */
export const CatalogModel = Type.Object({
  ...ModelFields,
  categories: Type.Array(StringEnum(CATEGORIES)),
  embedding_dimensions: Nullable(Type.Integer({ minimum: 1 })),
  endpoints: Type.Array(CatalogEndpoint, { minItems: 1 }),
})

export const CatalogDocument = Type.Object({
  version: Type.Literal(1),
  /** Where the document came from (the generator writes the pinned sources' versions); shown, never read. */
  sources: Type.Optional(Type.Record(Type.String(), Type.String())),
  /** Other ids of a model (dated ids, `:beta`), each to the id of a model of the document. */
  aliases: Type.Optional(Type.Record(Type.String(), Type.String({ minLength: 1 }))),
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

// ---- Answers -------------------------------------------------------------------------------------
// The list, endpoints and ZDR bodies are serialised once per catalog (or per distinct query) and sent
// as bytes, so their schemas document them rather than drive Fastify's serializer (which would only
// redo, per request, work already done); test/emulator/openapi-gateway.test.ts re-serialises served
// bodies through them to prove they describe every field.

/** A model as GET /models and /models/user show it. */
export const ModelObject = Type.Object({
  ...ModelFields,
  links: Type.Object({ details: Type.String({ description: 'The path of this model’s endpoints list' }) }),
})
export type ModelObject = Static<typeof ModelObject>

export const ModelListBody = Type.Object({
  data: Type.Array(ModelObject),
  total_count: Type.Integer({ description: 'Models matching the filters, across all pages' }),
  links: Type.Object({ next: Nullable(Type.String({ description: 'The next page (offset and limit), or null on the last page' })) }),
})

/** An endpoint's prices: the ZDR preview lists every key (unset ones as "0") and adds `discount`. */
export const EndpointPricing = Type.Object({
  ...PricedFields,
  discount: Type.Optional(Type.Number({ description: 'Fraction taken off the prices (0 = none); only in the ZDR preview' })),
})

/** One provider's endpoint of a model. */
export const EndpointObject = Type.Object({
  name: Type.String({ description: '`<provider name> | <canonical slug>`' }),
  model_id: Type.String(),
  model_name: Type.String(),
  context_length: Type.Integer(),
  pricing: EndpointPricing,
  provider_name: Type.String(),
  tag: Type.String({ description: 'The provider tag that routing preferences name' }),
  quantization: Nullable(Type.String()),
  max_completion_tokens: Nullable(Type.Integer()),
  max_prompt_tokens: Nullable(Type.Integer()),
  supported_parameters: Type.Array(Type.String()),
  status: Type.Integer({ description: '0 when healthy; negative (down to -10) the more degraded it is' }),
  uptime_last_30m: Nullable(Type.Number({ description: 'Percent of successful requests' })),
  uptime_last_5m: Nullable(Type.Number()),
  uptime_last_1d: Nullable(Type.Number()),
  supports_implicit_caching: Type.Boolean(),
  latency_last_30m: Percentiles,
  throughput_last_30m: Percentiles,
  supports_tool_choice: SupportsToolChoice,
})
export type EndpointObject = Static<typeof EndpointObject>
export type EndpointPricing = Static<typeof EndpointPricing>

export const ModelEndpointsBody = Type.Object({
  data: Type.Object({
    id: Type.String(),
    name: Type.String(),
    created: Type.Integer(),
    description: Type.String(),
    architecture: Architecture,
    endpoints: Type.Array(EndpointObject),
  }),
})
export type ModelEndpointsBody = Static<typeof ModelEndpointsBody>

const json = <T>(schema: T) => ({ 'application/json': { schema } })
/** What `use_rss=true` answers instead of JSON. */
const RSS = { 'application/rss+xml': { schema: Type.String({ description: 'An RSS 2.0 feed of the same models' }) } }

export const ModelListResponse = {
  200: {
    description: 'The models, one page of them with `limit`; an RSS feed with `use_rss=true`',
    headers: { 'cache-control': Type.String({ description: 'The list is public: `public, max-age=120, stale-while-revalidate=3600, stale-if-error=3600`' }) },
    content: { ...json(ModelListBody), ...RSS },
  },
  '4xx': ErrorEnvelope,
}
export const UserModelListResponse = {
  200: { description: "The models the caller's key may use (its guardrails and region applied)", content: { ...json(ModelListBody), ...RSS } },
  '4xx': ErrorEnvelope,
}
/** GET /embeddings/models: paged only when asked (both omitted: the whole list). */
export const EmbeddingsModelsQuery = Type.Object({
  offset: Type.Optional(Nullable(Type.Integer({ minimum: 0, description: 'Models to skip; with neither offset nor limit, the whole list' }))),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'At most this many (500 when only offset is given)' })),
})
export type EmbeddingsModelsQuery = Static<typeof EmbeddingsModelsQuery>
export const EmbeddingsModelsResponse = {
  200: { description: 'The embeddings models', content: json(ModelListBody) },
  '4xx': ErrorEnvelope,
}
export const ModelResponse = {
  200: { description: 'One model, as the lists show it', content: json(Type.Object({ data: ModelObject })) },
  '4xx': ErrorEnvelope,
}
// ---- Providers -----------------------------------------------------------------------------------

const CountryCode = Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' })

export const ProviderObject = Type.Object({
  slug: Type.String({ minLength: 1 }),
  name: Type.String({ minLength: 1 }),
  headquarters: Nullable(CountryCode),
  datacenters: Nullable(Type.Array(CountryCode)),
  privacy_policy_url: Nullable(Type.String()),
  terms_of_service_url: Nullable(Type.String()),
  status_page_url: Nullable(Type.String()),
})
export type ProviderObject = Static<typeof ProviderObject>

export const ProvidersResponse = {
  200: { description: 'The providers behind the catalog’s endpoints', content: json(Type.Object({ data: Type.Array(ProviderObject) })) },
  '4xx': ErrorEnvelope,
}
export const ModelCountResponse = {
  200: Type.Object(
    { data: Type.Object({ count: Type.Integer({ description: 'Models matching the filters (paging ignored)' }) }) },
    { description: 'How many models the list would show' },
  ),
  '4xx': ErrorEnvelope,
}
export const ModelEndpointsResponse = {
  200: { description: "The model and its providers' endpoints", content: json(ModelEndpointsBody) },
  '4xx': ErrorEnvelope,
}
export const ZdrEndpointsResponse = {
  200: { description: 'Every zero-data-retention endpoint of the catalog', content: json(Type.Object({ data: Type.Array(EndpointObject) })) },
  '4xx': ErrorEnvelope,
}

// ---- Admin answers -------------------------------------------------------------------------------

/** The catalog's size after a change. */
export const CatalogSummary = Shape({ models: Type.Integer(), endpoints: Type.Integer() })
