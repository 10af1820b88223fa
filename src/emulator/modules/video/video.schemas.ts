// The video router's bodies in TypeBox: what every route answers (the vendor's documented shapes,
// real-services.md A3-A5).
import { Type, type Static, type TSchema } from 'typebox'
import { RouterErrorSchema } from '../../http/openapi.ts'
import { Nullable, StringEnum } from '../../http/schemas.ts'
import { TASK_TYPE, type Operation } from './video.models.ts'

export const TaskState = StringEnum(['created', 'queueing', 'processing', 'success', 'failed'] as const)
export type TaskState = Static<typeof TaskState>

const TaskId = Type.String({ description: 'The task id: 18 digits' })
const TaskType = StringEnum(Object.values(TASK_TYPE) as string[], { description: "The vendor's task type; absent for multiframe and template tasks" })

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
    416: { description: 'The range starts past the end of the file: no body; Content-Range names the size', type: 'null' },
    '4xx': RouterErrorSchema,
  },
}
