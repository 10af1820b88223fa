// POST /api/v1/embeddings. The body schema checks the simple fields; `input` has five shapes and is
// checked by hand (embeddings.input.ts) so that each problem names its exact place.
import { Type, type Static } from 'typebox'
import { StringEnum } from '../../http/schemas.ts'

const Providers = Type.Array(Type.String({ minLength: 1 }))

/** Routing preferences; other keys of the real schema (sort, max_price...) are accepted and ignored. */
export const ProviderPreferences = Type.Object({
  order: Type.Optional(Providers),
  only: Type.Optional(Providers),
  ignore: Type.Optional(Providers),
  allow_fallbacks: Type.Optional(Type.Boolean()),
  data_collection: Type.Optional(StringEnum(['allow', 'deny'] as const)),
  zdr: Type.Optional(Type.Boolean()),
})
export type ProviderPreferences = Static<typeof ProviderPreferences>

export const EmbeddingsBody = Type.Object({
  model: Type.String({ minLength: 1 }),
  input: Type.Unknown(),
  encoding_format: Type.Optional(StringEnum(['float', 'base64'] as const)),
  dimensions: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
  user: Type.Optional(Type.String()),
  provider: Type.Optional(ProviderPreferences),
  input_type: Type.Optional(Type.String()),
})
export type EmbeddingsBody = Static<typeof EmbeddingsBody>

/** At most this many inputs in one request. */
export const MAX_INPUTS = 2048
