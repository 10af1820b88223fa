// POST /api/v1/embeddings. The body schema checks the simple fields; `input` has five shapes and is
// checked by hand (embeddings.input.ts) so that each problem names its exact place.
import { Type, type Static } from 'typebox'
import { ErrorEnvelope, StringEnum } from '../../http/schemas.ts'
import { ProviderPreferences } from '../catalog/catalog-routing.service.ts'

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

// ---- Answer --------------------------------------------------------------------------------------

export const EmbeddingObject = Type.Object({
  object: Type.Literal('embedding'),
  embedding: Type.Union([Type.Array(Type.Number()), Type.String()], {
    description:
      'The unit vector: numbers rounded to 9 decimals (`encoding_format: "float"`, the default), or with `"base64"` the base64 of its float32 little-endian bytes',
  }),
  index: Type.Integer({ description: "The input's position in `input`" }),
})

export const EmbeddingsResult = Type.Object({
  id: Type.String({ description: '`gen-emb-<unix seconds>-<id>`' }),
  object: Type.Literal('list'),
  data: Type.Array(EmbeddingObject),
  model: Type.String({ description: "The model as its provider names it (e.g. `text-embedding-3-small`), not the request's id" }),
  provider: Type.String({ description: 'The provider that served the request' }),
  usage: Type.Object({
    prompt_tokens: Type.Integer(),
    total_tokens: Type.Integer(),
    cost: Type.Number({ description: 'USD charged' }),
  }),
})
export type EmbeddingsResult = Static<typeof EmbeddingsResult>

// The service writes this body as bytes: each vector is encoded once and cached, its numbers with 9
// fixed decimals (-0.008875800), which JSON.stringify and fast-json-stringify would both print another
// way (-0.0088758), and more slowly. Fastify sends bytes as they are, so this schema documents the
// answer without serialising it.
export const EmbeddingsResponse = {
  200: { description: 'One embedding per input, in input order', content: { 'application/json': { schema: EmbeddingsResult } } },
  '4xx': ErrorEnvelope,
}
