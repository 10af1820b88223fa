// The gateway's own asynchronous video API in TypeBox, after the real document: the create body
// (VideoGenerationRequest), the job (VideoGenerationResponse), the video models (VideoModel) and the
// fixture file that describes what each video model accepts. What depends on the model is checked
// after the schema, in code (videos.input.ts).
import { Type, type Static } from 'typebox'
import { ErrorEnvelope, Nullable, StringEnum } from '../../http/schemas.ts'

/** The real document's enums. */
export const RESOLUTIONS = ['480p', '720p', '768p', '1080p', '1K', '2K', '4K'] as const
export const ASPECT_RATIOS = ['16:9', '9:16', '1:1', '4:3', '3:4', '3:2', '2:3', '21:9', '9:21'] as const
export const FRAME_TYPES = ['first_frame', 'last_frame'] as const
export const REFERENCE_TYPES = ['image_url', 'audio_url', 'video_url'] as const
export const JOB_STATUSES = ['pending', 'in_progress', 'completed', 'failed', 'cancelled', 'expired'] as const
export type JobStatus = (typeof JOB_STATUSES)[number]

export const MAX_PROMPT = 10_000
/** Durations are the model's to allow; this only bounds the number before that check. */
export const MAX_DURATION = 600
export const MAX_FRAME_IMAGES = FRAME_TYPES.length
export const MAX_INPUT_REFERENCES = 16
export const MAX_URL = 8192
/** The emulator's bound on a seed: a JSON number that is still an exact integer. */
const MAX_SEED = Number.MAX_SAFE_INTEGER

// ---- The create body -----------------------------------------------------------------------------
// Unknown fields are ignored. A URL's own length is checked in code: a schema's maxLength counts every
// character of a 60 MB data URI.

const Url = Type.Object({ url: Type.String({ description: 'An http(s) URL (never fetched) or a data: URI' }) })

const FrameImage = Type.Object({
  type: StringEnum(['image_url'] as const),
  image_url: Url,
  frame_type: StringEnum(FRAME_TYPES, { description: 'Which frame of the video the image is; each at most once, as the model allows' }),
})

const InputReference = Type.Object({
  type: StringEnum(REFERENCE_TYPES, {
    description: 'image_url references guide the video; audio and video references are accepted and ignored, as by most providers',
  }),
  image_url: Type.Optional(Url),
  audio_url: Type.Optional(Url),
  video_url: Type.Optional(Url),
})

export const VideoGenerationBody = Type.Object({
  model: Type.String({ minLength: 1, maxLength: 200, description: 'A video model of GET /api/v1/videos/models' }),
  prompt: Type.Optional(
    Type.String({
      maxLength: MAX_PROMPT,
      description: `What the video shows; at most ${MAX_PROMPT} characters. Optional when frame_images or input_references are given`,
    }),
  ),
  duration: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_DURATION, description: "Seconds: one of the model's supported_durations" })),
  resolution: Type.Optional(StringEnum(RESOLUTIONS, { description: "One of the model's supported_resolutions" })),
  aspect_ratio: Type.Optional(StringEnum(ASPECT_RATIOS, { description: "One of the model's supported_aspect_ratios" })),
  size: Type.Optional(
    Type.String({
      pattern: '^[0-9]{1,5}x[0-9]{1,5}$',
      description: 'WIDTHxHEIGHT, one of the model’s supported_sizes: instead of resolution and aspect_ratio (given with them, it must agree)',
    }),
  ),
  seed: Type.Optional(Type.Integer({ minimum: -MAX_SEED, maximum: MAX_SEED })),
  generate_audio: Type.Optional(
    Type.Boolean({ description: "Default: the model's generate_audio; priced per second at pricing_skus.generate_with_audio where the model has it" }),
  ),
  frame_images: Type.Optional(Type.Array(FrameImage, { maxItems: MAX_FRAME_IMAGES, description: 'The first and/or last frame' })),
  input_references: Type.Optional(
    Type.Array(InputReference, { maxItems: MAX_INPUT_REFERENCES, description: "Reference assets; the model's own bound applies" }),
  ),
  callback_url: Type.Optional(Type.String({ description: 'An http(s) URL POSTed the job when it completes, fails or is cancelled; not the emulator itself' })),
  provider: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'Provider passthrough options: accepted and ignored' })),
  creativity: Type.Optional(Type.Integer({ description: 'For video upscaling models only: refused here' })),
  upscale_factor: Type.Optional(Type.Number({ description: 'For video upscaling models only: refused here' })),
})
export type VideoGenerationBody = Static<typeof VideoGenerationBody>

export const OUTCOME_HEADER = 'x-emulator-video-outcome'

// ---- The job -------------------------------------------------------------------------------------

export const VideoJob = Type.Object({
  id: Type.String(),
  polling_url: Type.String({ description: 'Where to poll the job: GET it with the key that created it' }),
  status: StringEnum(JOB_STATUSES),
  generation_id: Type.Optional(Type.String({ description: 'The generation GET /api/v1/generation answers for' })),
  unsigned_urls: Type.Optional(Type.Array(Type.String(), { description: 'Once completed: the content URL of each video (GET it with the key)' })),
  usage: Type.Optional(Type.Object({ cost: Nullable(Type.Number({ description: 'USD charged' })), is_byok: Type.Boolean() })),
  error: Type.Optional(Type.String({ description: 'Why the job failed or was cancelled' })),
})
export type VideoJob = Static<typeof VideoJob>

export const JobParams = Type.Object({ jobId: Type.String({ minLength: 1 }) })
export const ContentQuery = Type.Object({
  index: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 1_000_000, description: 'Which video of the job; it has one (index 0)' }))),
})

export const CreateResponses = { 202: VideoJob, '4xx': ErrorEnvelope }
export const JobResponses = { 200: VideoJob, '4xx': ErrorEnvelope }
export const ContentResponses = {
  200: { description: 'The video (MP4)', content: { 'video/mp4': { schema: { type: 'string', format: 'binary' } } } },
  206: { description: 'The part a `Range: bytes=a-b` header asked for', content: { 'video/mp4': { schema: { type: 'string', format: 'binary' } } } },
  '4xx': ErrorEnvelope,
}

// ---- Video models --------------------------------------------------------------------------------

/** What fixtures/videos/models.json says of one video model: the VideoModel fields the catalog does not hold, and the emulator's rules. */
export const VideoModelFixture = Type.Object({
  id: Type.String({ minLength: 1 }),
  supported_resolutions: Type.Array(StringEnum(RESOLUTIONS), { minItems: 1 }),
  supported_aspect_ratios: Type.Array(StringEnum(ASPECT_RATIOS), { minItems: 1 }),
  supported_sizes: Nullable(Type.Array(Type.String({ pattern: '^[0-9]{1,5}x[0-9]{1,5}$' }), { minItems: 1 })),
  supported_durations: Type.Array(Type.Integer({ minimum: 1, maximum: MAX_DURATION }), { minItems: 1 }),
  supported_frame_images: Type.Array(StringEnum(FRAME_TYPES)),
  upscale_factor: Nullable(Type.Object({ min: Nullable(Type.Number()), max: Nullable(Type.Number()) })),
  creativity: Nullable(Type.Array(Type.Integer())),
  generate_audio: Nullable(Type.Boolean()),
  seed: Nullable(Type.Boolean()),
  allowed_passthrough_parameters: Type.Array(Type.String()),
  /** USD per generated second: `generate`, and `generate_with_audio` when audio is generated. */
  pricing_skus: Type.Record(Type.String(), Type.String({ pattern: '^[0-9]+(\\.[0-9]+)?$' })),
  defaults: Type.Object({ duration: Type.Integer({ minimum: 1 }), resolution: StringEnum(RESOLUTIONS), aspect_ratio: StringEnum(ASPECT_RATIOS) }),
  max_input_references: Type.Integer({ minimum: 0, maximum: MAX_INPUT_REFERENCES }),
})
export type VideoModelFixture = Static<typeof VideoModelFixture>

export const VideoModelsFixture = Type.Object({ models: Type.Array(VideoModelFixture) })

export const VideoModel = Type.Object({
  id: Type.String(),
  canonical_slug: Type.String(),
  hugging_face_id: Nullable(Type.String()),
  name: Type.String(),
  created: Type.Integer(),
  description: Type.String(),
  supported_resolutions: Nullable(Type.Array(StringEnum(RESOLUTIONS))),
  supported_aspect_ratios: Nullable(Type.Array(StringEnum(ASPECT_RATIOS))),
  supported_sizes: Nullable(Type.Array(Type.String())),
  supported_durations: Nullable(Type.Array(Type.Integer())),
  supported_frame_images: Nullable(Type.Array(StringEnum(FRAME_TYPES))),
  upscale_factor: Nullable(Type.Object({ min: Nullable(Type.Number()), max: Nullable(Type.Number()) })),
  creativity: Nullable(Type.Array(Type.Integer())),
  generate_audio: Nullable(Type.Boolean()),
  seed: Nullable(Type.Boolean()),
  allowed_passthrough_parameters: Type.Array(Type.String()),
  pricing_skus: Nullable(Type.Record(Type.String(), Type.String())),
})
export type VideoModel = Static<typeof VideoModel>

export const ModelsResponses = { 200: Type.Object({ data: Type.Array(VideoModel) }), '4xx': ErrorEnvelope }
