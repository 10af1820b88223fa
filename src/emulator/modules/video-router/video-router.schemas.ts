// The video router's bodies in TypeBox: what each create operation takes (checked by Fastify before the
// handler, a failure answered in the vendor's words by video-router.input.ts) and what every route answers
// (the vendor's documented shapes, real-services.md A3-A5). What depends on the model, the template or
// an image's bytes is checked after the schema, in code (video-router.input.ts).
import { Type, type Static, type TSchema } from 'typebox'
import { VIDEO_TASK_STATES } from '../../core/types.ts'
import { Iso, Nullable, RouterErrorSchema, Shape, StringEnum } from '../../http/schemas.ts'
import { ASPECT_RATIOS, MODELS, MOVEMENT_AMPLITUDES, OPERATIONS, RESOLUTIONS, STYLES, TASK_TYPE, type Operation } from './video-router.models.ts'

export const MAX_PROMPT = 2000
export const MAX_PAYLOAD = 1_048_576
export const MAX_KEYFRAMES = 9
/** A multiframe segment's duration in seconds. */
export const SEGMENT = { min: 2, max: 7, default: 5 }

// ---- Create bodies ----
// Unknown fields are ignored, as the vendor does. An optional field may also be null, and an optional
// string '' (clients send both for "not given"): either means the default. Properties keep the order
// the checks have always run in (the common fields first), so a body with several faults is mostly
// answered about the same one; a missing required field now comes before any other fault.

/** Optional; null is "not given" too. */
const Maybe = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema))
/** One of `values`, or '' / null for the default. */
const Choice = <const T extends readonly string[]>(values: T, description: string) =>
  Type.Optional(Nullable(StringEnum([...values, ''] as const, { description })))

const Image = Type.String({
  // Not minLength: 1, which counts every character of a 67 MB string (a third of a second).
  not: { const: '' },
  description:
    'An image: an http(s) URL (taken as is, never fetched), a data URI (`data:image/png;base64,...`) or raw base64. ' +
    'Inline images must be PNG, JPEG or WebP (read from the bytes), at most 50 MB, with an aspect ratio strictly between 1:4 and 4:1',
})

const Prompt = Type.String({ minLength: 1, maxLength: MAX_PROMPT, description: `At most ${MAX_PROMPT} characters` })
const OptionalPrompt = Maybe(Type.String({ maxLength: MAX_PROMPT, description: `At most ${MAX_PROMPT} characters` }))

const SEED_DESCRIPTION = 'An integer >= 0 or a string of digits; 0 (or none) picks a random seed'
const Seed = Type.Unsafe<number | string>({
  type: ['integer', 'string'],
  minimum: 0,
  maximum: Number.MAX_SAFE_INTEGER,
  minLength: 1,
  pattern: '^[0-9]+$',
  description: SEED_DESCRIPTION,
})
const OptionalSeed = Type.Optional(
  Type.Unsafe<number | string | null>({
    type: ['integer', 'string', 'null'],
    minimum: 0,
    maximum: Number.MAX_SAFE_INTEGER,
    pattern: '^[0-9]*$',
    description: SEED_DESCRIPTION,
  }),
)

/** The fields every operation takes, checked first. */
const Common = {
  off_peak: Maybe(Type.Boolean({ description: 'Queue off-peak: cheaper, finished within 48 hours. Default false' })),
  bgm: Maybe(Type.Boolean({ description: 'Add background music. Default false' })),
  watermark: Maybe(Type.Boolean({ description: 'Serve the watermarked video at the plain URL too. Default false' })),
  payload: Maybe(Type.String({ description: `Passed through to the task and its callbacks; at most ${MAX_PAYLOAD} characters` })),
  callback_url: Maybe(Type.String({ description: 'An http(s) URL that is POSTed the task at processing, success and failed; not the emulator itself' })),
}

const Model = (operation: Exclude<Operation, 'template2video'>) =>
  StringEnum(Object.keys(MODELS[operation]), { description: 'The model; it decides the durations, resolutions and aspect ratios allowed' })

/** The fields of the operations that make a video from a prompt or images with one model. */
const ModelFields = (operation: Exclude<Operation, 'template2video' | 'multiframe'>) => ({
  model: Model(operation),
  movement_amplitude: Choice(MOVEMENT_AMPLITUDES, 'Default auto'),
  seed: OptionalSeed,
  audio: Maybe(Type.Boolean({ description: 'Answer with sound; default true on the q3 models, false otherwise' })),
})

const Duration = Maybe(Type.Integer({ description: 'Seconds; what is allowed, and the default, depend on the model (videoq2: 1 to 10, default 5)' }))
const Resolution = Choice(RESOLUTIONS, 'What is allowed, and the default, depend on the model and the duration')
const AspectRatio = Choice(ASPECT_RATIOS, 'Default 16:9; what is allowed depends on the model')
/** Exactly `count` images (the frames decide the video's shape). */
const Frames = (count: number, description: string) => Type.Array(Image, { minItems: count, maxItems: count, description })

export const Text2VideoBody = Type.Object({
  ...Common,
  ...ModelFields('text2video'),
  prompt: Prompt,
  duration: Duration,
  style: Choice(STYLES, 'Default general'),
  resolution: Resolution,
  aspect_ratio: AspectRatio,
})

export const Img2VideoBody = Type.Object({
  ...Common,
  ...ModelFields('img2video'),
  images: Frames(1, 'The first frame'),
  prompt: OptionalPrompt,
  duration: Duration,
  resolution: Resolution,
})

export const StartEnd2VideoBody = Type.Object({
  ...Common,
  ...ModelFields('start-end2video'),
  images: Frames(2, "The first and the last frame; inline frames' width/height ratios within 0.8 to 1.25 of each other"),
  prompt: OptionalPrompt,
  duration: Duration,
  resolution: Resolution,
})

export const Reference2VideoBody = Type.Object({
  ...Common,
  ...ModelFields('reference2video'),
  images: Type.Array(Image, { minItems: 1, description: 'Reference images: 1 to 7 (1 to 3 for video2.0 and video1.5)' }),
  prompt: Prompt,
  duration: Duration,
  resolution: Resolution,
  aspect_ratio: AspectRatio,
})

const KeyFrame = Type.Object({
  key_image: Image,
  prompt: OptionalPrompt,
  duration: Maybe(Type.Integer({ minimum: SEGMENT.min, maximum: SEGMENT.max, description: `The segment's seconds. Default ${SEGMENT.default}` })),
})

/** `minKeyFrames`: the --multiframe-min-key-frames setting; above 0, image_settings must be given too. */
export const multiframeBody = (minKeyFrames: number) =>
  Type.Object({
    ...Common,
    model: Model('multiframe'),
    start_image: Image,
    image_settings: Maybe(
      Type.Array(KeyFrame, {
        minItems: minKeyFrames,
        maxItems: MAX_KEYFRAMES,
        description:
          minKeyFrames > 0
            ? `Required: ${minKeyFrames} to ${MAX_KEYFRAMES} key frames, one segment each`
            : `Up to ${MAX_KEYFRAMES} key frames, one segment each; none makes one segment from the start image`,
      }),
    ),
    resolution: Choice(['540p', '720p', '1080p'] as const, 'Default 720p'),
  })

export const Template2VideoBody = Type.Object({
  ...Common,
  template: Type.String({ minLength: 1, description: 'A template name (GET /router/v1/video/templates)' }),
  images: Type.Array(Image, { minItems: 1, description: "As many images as the template's images_min to images_max" }),
  aspect_ratio: Maybe(Type.String({ description: "One of the template's aspect_ratios. Default 16:9" })),
  prompt: Prompt,
  seed: Seed,
})

export type Text2VideoBody = Static<typeof Text2VideoBody>
export type Img2VideoBody = Static<typeof Img2VideoBody>
export type StartEnd2VideoBody = Static<typeof StartEnd2VideoBody>
export type Reference2VideoBody = Static<typeof Reference2VideoBody>
export type MultiframeBody = Static<ReturnType<typeof multiframeBody>>
export type Template2VideoBody = Static<typeof Template2VideoBody>

export interface CreateBodies {
  multiframe: MultiframeBody
  text2video: Text2VideoBody
  img2video: Img2VideoBody
  reference2video: Reference2VideoBody
  'start-end2video': StartEnd2VideoBody
  template2video: Template2VideoBody
}

/** Each operation's body schema, for one emulator's settings. */
export const createBodies = (minKeyFrames: number): Record<Operation, TSchema> => ({
  multiframe: multiframeBody(minKeyFrames),
  text2video: Text2VideoBody,
  img2video: Img2VideoBody,
  reference2video: Reference2VideoBody,
  'start-end2video': StartEnd2VideoBody,
  template2video: Template2VideoBody,
})

// ---- Answers ----

export const TaskState = StringEnum(VIDEO_TASK_STATES)
export type TaskState = Static<typeof TaskState>

const TaskId = Type.String({ description: 'The task id: 18 digits' })
const TaskType = StringEnum(Object.values(TASK_TYPE), { description: "The vendor's task type; absent for multiframe and template tasks" })

/** A create answer: the task id and state, then exactly the fields of the vendor's table for the operation. */
const created = <T extends Record<string, TSchema>>(fields: T) =>
  Type.Object({ task_id: TaskId, state: TaskState, ...fields }, { description: 'The new task, with the fields the vendor documents for this operation' })

export const CreatedResponses = {
  multiframe: created({ model: Type.String(), resolution: Type.String() }),
  text2video: created({
    type: Type.Literal('text2video'),
    model: Type.String(),
    prompt: Type.String(),
    duration: Type.Integer(),
    resolution: Type.String(),
    off_peak: Type.Boolean(),
  }),
  img2video: created({ type: Type.Literal('img2video'), model: Type.String(), duration: Type.Integer(), resolution: Type.String(), off_peak: Type.Boolean() }),
  reference2video: created({ type: Type.Literal('reference2video'), model: Type.String() }),
  'start-end2video': created({ type: Type.Literal('headtailimg2video'), model: Type.String(), duration: Type.Integer(), resolution: Type.String() }),
  template2video: created({ template: Type.String(), resolution: Type.String(), duration: Type.Integer() }),
} satisfies Record<Operation, TSchema>

export const Creation = Type.Object({
  id: Type.String({ description: 'The creation id' }),
  url: Type.String({ description: 'The video (MP4); no key needed to fetch it' }),
  cover_url: Type.String({ description: 'Its cover image (JPEG)' }),
  watermarked_url: Type.String({ description: 'The watermarked video (MP4)' }),
  video: Type.Object({
    duration: Type.Number({ description: 'Seconds' }),
    fps: Type.Integer(),
    resolution: Type.Object({ width: Type.Integer(), height: Type.Integer() }),
  }),
})

/** A task as the query (Fetch V2) answers it and as callbacks carry it. */
export const TaskView = Type.Object(
  {
    id: TaskId,
    type: Type.Optional(TaskType),
    model: Type.Optional(Type.String({ description: 'Absent for template tasks' })),
    state: TaskState,
    err_code: Type.String({ description: "'' unless failed: then ModelUnavailable, UserCancelled, CreationPolicyViolation..." }),
    credits: Type.Integer({ description: 'Credits charged; 0 once refunded' }),
    payload: Type.String({ description: "The create request's payload" }),
    bgm: Type.Boolean(),
    off_peak: Type.Boolean(),
    progress: Type.Integer({ minimum: 0, maximum: 100, description: 'Percent: 100 on success, rising while processing' }),
    creations: Type.Array(Creation, { description: 'Empty until success' }),
  },
  { description: 'The task' },
)
export type TaskView = Static<typeof TaskView>

/** A listed task: the query's fields, and the request's own. */
export const ListedTask = Type.Object({
  ...TaskView.properties,
  template: Type.Optional(Type.String({ description: 'Template tasks only' })),
  prompt: Nullable(Type.String()),
  images: Type.Array(Type.String({ description: 'An image URL, or a note of an inline image and its length' })),
  duration: Type.Number(),
  resolution: Type.String(),
  aspect_ratio: Nullable(Type.String()),
})

export const TaskList = Type.Object(
  {
    tasks: Type.Array(ListedTask, { description: 'Newest first' }),
    next_page_token: Type.String({ description: "The next page's number, or '' on the last page" }),
  },
  { description: "The caller's tasks, a page of them" },
)

export const Template = Type.Object({
  template: Type.String(),
  images_min: Type.Integer(),
  images_max: Type.Integer(),
  tier: Type.String({ description: 'The price tier (standard, premium, advanced)' }),
  duration: Type.Integer({ description: 'Seconds' }),
  resolution: Type.String(),
  aspect_ratios: Type.Array(Type.String()),
})
export type Template = Static<typeof Template>

/** A file answered as bytes, documented by its media types (and never serialized as JSON). */
const bytes = (description: string) => ({
  description,
  content: Object.fromEntries(['video/mp4', 'image/jpeg'].map((type) => [type, { schema: { type: 'string', format: 'binary' } }])),
})

export const RouterResponses = {
  created: (operation: Operation) => ({ 200: CreatedResponses[operation], '4xx': RouterErrorSchema }),
  task: { 200: TaskView, '4xx': RouterErrorSchema },
  cancel: {
    200: Type.Object({}, { additionalProperties: false, description: 'Cancelled (failed as UserCancelled, refunded): an empty object, as the vendor answers' }),
    '4xx': RouterErrorSchema,
  },
  list: { 200: TaskList, '4xx': RouterErrorSchema },
  templates: { 200: Type.Object({ templates: Type.Array(Template) }, { description: 'The templates template2video takes' }), '4xx': RouterErrorSchema },
  media: {
    200: bytes('The file: video.mp4 and watermarked.mp4 are MP4 videos, cover.jpg is a JPEG'),
    206: bytes('The part of the file a `Range: bytes=a-b` header asked for'),
    // A range past the end of the file is a 416 in the router's envelope, its Content-Range naming the size.
    '4xx': RouterErrorSchema,
  },
}

// ---- Admin answers -------------------------------------------------------------------------------

export const VideoTaskOutcome = StringEnum(['success', 'failed', 'stuck'] as const)
export type VideoTaskOutcome = Static<typeof VideoTaskOutcome>
export const VideoCreation = Shape({
  id: Type.String(),
  url: Type.String(),
  cover_url: Type.String(),
  watermarked_url: Type.String(),
  video: Shape({ duration: Type.Number(), fps: Type.Number(), resolution: Shape({ width: Type.Integer(), height: Type.Integer() }) }),
})
export type VideoCreation = Static<typeof VideoCreation>
export const VideoTask = Shape({
  id: Type.String(),
  type: Type.Optional(Type.String()),
  model: Type.Optional(Type.String()),
  template: Type.Optional(Type.String()),
  state: TaskState,
  err_code: Type.String(),
  credits: Type.Number(),
  payload: Type.String(),
  bgm: Type.Optional(Type.Boolean()),
  off_peak: Type.Boolean(),
  progress: Type.Number(),
  creations: Type.Array(VideoCreation),
  created_at: Iso(),
  account_id: Type.String(),
  key_hash: Nullable(Type.String()),
  operation: Type.String(),
  prompt: Nullable(Type.String({ description: "The request's prompt (multiframe: its key frames' prompts, joined by ' / '); null when it had none" })),
  duration: Type.Number({ description: 'Seconds requested (the default filled in), as the task reports them' }),
  request: Type.Unknown({ description: 'The create request as it was checked' }),
  callback_url: Nullable(Type.String()),
  planned_outcome: VideoTaskOutcome,
  next_transition_at: Nullable(Iso()),
  timeline: Type.Array(Shape({ state: TaskState, at: Iso() })),
})
export type VideoTask = Static<typeof VideoTask>

/** The video task settings in force. */
export const VideoSettings = Shape({
  created_ms: Type.Integer(),
  queueing_ms: Type.Integer(),
  processing_ms: Type.Integer(),
  off_peak_queueing_ms: Type.Integer(),
  failure_rate: Type.Number(),
  model_failure_rates: Type.Record(Type.String(), Type.Number()),
  fail_code: Type.String(),
})

// ---- A task's stored request, as an import must carry it ----------------------------------------

/** A video task's `request` as the create route stores it: every field the task engine and views read. */
export const StoredVideoRequest = Type.Object({
  operation: StringEnum(OPERATIONS),
  model: Nullable(Type.String()),
  template: Nullable(Type.String()),
  prompt: Nullable(Type.String()),
  images: Type.Array(Type.String()),
  duration: Type.Number({ minimum: 0 }),
  resolution: StringEnum(RESOLUTIONS),
  aspect_ratio: Nullable(StringEnum(ASPECT_RATIOS)),
  style: Nullable(Type.String()),
  movement_amplitude: Nullable(Type.String()),
  seed: Type.Integer(),
  off_peak: Type.Boolean(),
  audio: Type.Boolean(),
  bgm: Type.Boolean(),
  watermark: Type.Boolean(),
  payload: Type.String(),
  callback_url: Nullable(Type.String()),
  segments: Nullable(Type.Array(Type.Object({ prompt: Nullable(Type.String()), duration: Type.Number({ minimum: 0 }) }))),
})
export type StoredVideoRequest = Static<typeof StoredVideoRequest>

// ---- Tasks of the gateway's own video API (modules/videos) ----------------------------------------
// POST /api/v1/videos runs its jobs on this engine, as tasks of their own operation: the router's
// routes never show them, and their stored request is the gateway's.

/** The `operation` of a task made through the gateway's POST /api/v1/videos. */
export const GATEWAY_OPERATION = 'gateway'

/** Such a task's `request`, as modules/videos stores it: what the engine, the admin views and the gateway's answers read. */
export const StoredGatewayVideoRequest = Type.Object({
  operation: Type.Literal(GATEWAY_OPERATION),
  model: Type.String({ minLength: 1 }),
  prompt: Nullable(Type.String()),
  duration: Type.Integer({ minimum: 1 }),
  // frameSize reads the number before the unit.
  resolution: Type.String({ pattern: '^[0-9]+[pK]$' }),
  aspect_ratio: Type.String({ pattern: '^[0-9]+:[0-9]+$' }),
  size: Nullable(Type.String()),
  seed: Type.Integer(),
  generate_audio: Type.Boolean(),
  frame_images: Type.Array(Type.Object({ frame_type: Type.String(), url: Type.String() })),
  input_references: Type.Array(Type.Object({ type: Type.String(), url: Type.String() })),
  callback_url: Nullable(Type.String()),
  generation_id: Type.String({ minLength: 1 }),
})
export type StoredGatewayVideoRequest = Static<typeof StoredGatewayVideoRequest>

/** Any task's stored request: the gateway's for its operation, the router's otherwise (each checked with its own schema). */
export const StoredTaskRequest = Type.Unsafe<StoredVideoRequest | StoredGatewayVideoRequest>({
  if: { type: 'object', properties: { operation: { const: GATEWAY_OPERATION } }, required: ['operation'] },
  // oxlint-disable-next-line unicorn/no-thenable -- JSON Schema's keyword, in a schema object nothing awaits
  then: StoredGatewayVideoRequest,
  else: StoredVideoRequest,
})
