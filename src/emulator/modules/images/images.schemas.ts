// POST /api/v1/images (the real document's ImageGenerationRequest and ImageGenerationResponse), POST
// /api/v1/images/generations (OpenAI's shape, the path the openai client's images.generate calls) and
// the image models list and endpoints. Answers are written by the service as JSON text; these schemas
// document them.
import { Type, type Static } from 'typebox'
import { ErrorEnvelope, Nullable, StringEnum } from '../../http/schemas.ts'
import { ASPECT_RATIOS, BACKGROUNDS, QUALITIES, RESOLUTIONS } from './images.models.ts'

/** Characters of a prompt, at most (far beyond any model's context; the context length is checked in tokens). */
export const MAX_PROMPT_CHARS = 128_000
/** Images one request may ask for (the real document's bound). */
export const MAX_N = 10
export const MAX_REFERENCES = 16

const ProviderList = Nullable(Type.Array(Type.String({ minLength: 1, maxLength: 256 }), { maxItems: 64 }))

/** The real ImageGenerationProviderPreferences: routing by `order`, `only`, `ignore`; `options` and `sort` are accepted and change nothing. */
export const ImageProviderPreferences = Type.Object({
  order: Type.Optional(ProviderList),
  only: Type.Optional(ProviderList),
  ignore: Type.Optional(ProviderList),
  allow_fallbacks: Type.Optional(Nullable(Type.Boolean())),
  options: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  sort: Type.Optional(Type.Unknown()),
})
export type ImageProviderPreferences = Static<typeof ImageProviderPreferences>

const ContentPartImage = Type.Object({
  type: Type.Literal('image_url'),
  image_url: Type.Object({ url: Type.String({ minLength: 1, description: 'A data URL (data:image/png;base64,...) or an http(s) URL, never fetched' }) }),
})

export const ImagesBody = Type.Object({
  model: Type.String({ minLength: 1, maxLength: 256 }),
  prompt: Type.String({ minLength: 1, maxLength: MAX_PROMPT_CHARS }),
  n: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_N, description: "At most the model's own bound (its `n` range)" })),
  size: Type.Optional(Type.String({ minLength: 1, maxLength: 32, description: 'A tier (`2K`), explicit pixels (`2048x2048`) or `auto`' })),
  resolution: Type.Optional(StringEnum(RESOLUTIONS)),
  aspect_ratio: Type.Optional(StringEnum([...ASPECT_RATIOS, 'auto'] as const)),
  output_format: Type.Optional(StringEnum(['png', 'jpeg', 'webp', 'svg'] as const)),
  output_compression: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
  quality: Type.Optional(StringEnum(QUALITIES)),
  background: Type.Optional(StringEnum(BACKGROUNDS)),
  seed: Type.Optional(Type.Integer()),
  input_references: Type.Optional(Type.Array(ContentPartImage, { maxItems: MAX_REFERENCES })),
  provider: Type.Optional(ImageProviderPreferences),
  stream: Type.Optional(
    Type.Boolean({ description: 'Accepted and ignored: no endpoint here streams, so the answer is buffered, as the real router does for such providers' }),
  ),
})
export type ImagesBody = Static<typeof ImagesBody>

/** OpenAI's image generation body, with `seed` and `provider` of the gateway's. */
export const OpenAiImagesBody = Type.Object({
  model: Type.String({ minLength: 1, maxLength: 256 }),
  prompt: Type.String({ minLength: 1, maxLength: MAX_PROMPT_CHARS }),
  n: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: MAX_N }))),
  size: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 32 }))),
  quality: Type.Optional(Nullable(StringEnum(['auto', 'low', 'medium', 'high', 'standard', 'hd', 'xhigh', 'max'] as const))),
  response_format: Type.Optional(Nullable(StringEnum(['url', 'b64_json'] as const))),
  output_format: Type.Optional(Nullable(StringEnum(['png', 'jpeg', 'webp'] as const))),
  output_compression: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 100 }))),
  background: Type.Optional(Nullable(StringEnum(['transparent', 'opaque', 'auto'] as const))),
  moderation: Type.Optional(Nullable(StringEnum(['low', 'auto'] as const))),
  style: Type.Optional(Nullable(StringEnum(['vivid', 'natural'] as const))),
  user: Type.Optional(Type.String({ maxLength: 1024 })),
  safety_identifier: Type.Optional(Nullable(Type.String({ maxLength: 1024 }))),
  stream: Type.Optional(Nullable(Type.Boolean())),
  partial_images: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 3 }))),
  seed: Type.Optional(Type.Integer()),
  provider: Type.Optional(ImageProviderPreferences),
})
export type OpenAiImagesBody = Static<typeof OpenAiImagesBody>

// ---- Answers -------------------------------------------------------------------------------------

const Usage = Type.Object(
  {
    prompt_tokens: Type.Integer(),
    completion_tokens: Type.Integer({ description: 'Always 0: images are billed per image, not per token' }),
    total_tokens: Type.Integer(),
    cost: Type.Number({ description: 'USD charged: images x the endpoint’s per-image price, plus the prompt’s tokens where priced' }),
    is_byok: Type.Boolean(),
  },
  { additionalProperties: true },
)

export const ImagesResult = Type.Object({
  created: Type.Integer(),
  data: Type.Array(
    Type.Object({
      b64_json: Type.String({ description: 'The image file, base64' }),
      media_type: Type.String({
        description: '`image/png`, `image/jpeg` or `image/webp`: what was made (a format the model lacks is made in its default one)',
      }),
    }),
  ),
  usage: Usage,
})

export const ImagesResponse = {
  200: {
    description: 'The images; the generation id (for GET /api/v1/generation) is in the `X-Generation-Id` header',
    content: { 'application/json': { schema: ImagesResult } },
  },
  '4xx': ErrorEnvelope,
  '5xx': ErrorEnvelope,
}

export const OpenAiImagesResult = Type.Object({
  created: Type.Integer(),
  data: Type.Array(
    Type.Object({
      b64_json: Type.Optional(Type.String({ description: 'The image file, base64 (the default)' })),
      url: Type.Optional(Type.String({ description: 'With `response_format: "url"`: the image as a data URL (nothing is hosted)' })),
    }),
  ),
  background: StringEnum(['transparent', 'opaque'] as const),
  output_format: StringEnum(['png', 'jpeg', 'webp'] as const),
  quality: StringEnum(['low', 'medium', 'high'] as const),
  size: Type.String({ description: 'WIDTHxHEIGHT of the images made' }),
  usage: Type.Object(
    {
      input_tokens: Type.Integer(),
      input_tokens_details: Type.Object({ image_tokens: Type.Integer(), text_tokens: Type.Integer() }),
      output_tokens: Type.Integer(),
      output_tokens_details: Type.Object({ image_tokens: Type.Integer(), text_tokens: Type.Integer() }),
      total_tokens: Type.Integer(),
      cost: Type.Number({ description: 'USD charged (the gateway’s addition)' }),
    },
    { additionalProperties: true },
  ),
})

export const OpenAiImagesResponse = {
  200: { description: 'The images, in OpenAI’s shape', content: { 'application/json': { schema: OpenAiImagesResult } } },
  '4xx': ErrorEnvelope,
  '5xx': ErrorEnvelope,
}

const Capabilities = Type.Record(
  Type.String(),
  Type.Object(
    { type: StringEnum(['enum', 'range', 'boolean'] as const) },
    { additionalProperties: true, description: 'values (enum), or min and max (range)' },
  ),
)

export const ImageModelItem = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  created: Type.Integer(),
  architecture: Type.Object({ input_modalities: Type.Array(Type.String()), output_modalities: Type.Array(Type.String()) }),
  supported_parameters: Capabilities,
  supports_streaming: Type.Boolean(),
  endpoints: Type.String({ description: 'The path of its endpoints' }),
})

export const ImageModelsResponse = {
  200: { description: 'Every model that makes images', content: { 'application/json': { schema: Type.Object({ data: Type.Array(ImageModelItem) }) } } },
  '4xx': ErrorEnvelope,
}

export const ImageEndpointItem = Type.Object({
  provider_name: Type.String(),
  provider_slug: Type.String(),
  provider_tag: Nullable(Type.String()),
  supported_parameters: Capabilities,
  allowed_passthrough_parameters: Type.Array(Type.String()),
  supports_streaming: Type.Boolean(),
  pricing: Type.Array(
    Type.Object({
      billable: StringEnum(['output_image', 'input_text'] as const),
      unit: StringEnum(['image', 'token'] as const),
      cost_usd: Type.Number(),
    }),
  ),
})

export const ImageModelEndpointsResponse = {
  200: {
    description: 'The endpoints of one image model',
    content: { 'application/json': { schema: Type.Object({ id: Type.String(), endpoints: Type.Array(ImageEndpointItem) }) } },
  },
  '4xx': ErrorEnvelope,
}
