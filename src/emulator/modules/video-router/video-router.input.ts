// Validation of the six create operations, answered in the vendor's terms: FieldLacking,
// FieldInvalid, FieldItemCountOutOfRange, ImageFormatInvalid, PageSizeOutOfRange, each message naming
// the field. Each body's schema (video-router.schemas.ts) is checked first, by Fastify, and its first failure
// is worded here as the vendor's checks word it (schemaError); what a schema cannot say (what the
// model or the template allows, the callback URL, the images' bytes, the settings) is checked after,
// by validateCreate. Unknown fields are ignored, as the vendor does.
import type { ErrorObject } from 'ajv'
import type { FastifySchemaCompiler } from 'fastify'
import type { ApiError } from '../../core/errors.ts'
import { badRequest, countOutOfRange, invalid, lacking, routerError } from './video-router.errors.ts'
import type { OwnAddresses } from '../../http/own-addresses.ts'
import { validatorCompiler } from '../../http/validation.ts'
import { ImageProblem, inspectImage, type InspectedImage } from '../../media/image-inspect.ts'
import { describeDurations, durationAllowed, MODELS, type ModelRule, type Operation } from './video-router.models.ts'
import { MAX_PAYLOAD, SEGMENT, type CreateBodies, type Template, type Text2VideoBody } from './video-router.schemas.ts'

/** A create request, checked and with every default filled in. */
export interface VideoRequest {
  operation: Operation
  model: string | null
  template: string | null
  prompt: string | null
  images: string[]
  duration: number
  resolution: string
  aspect_ratio: string | null
  style: string | null
  movement_amplitude: string | null
  /** null = "random": the task picks one from the seed. */
  seed: number | null
  off_peak: boolean
  audio: boolean
  bgm: boolean
  watermark: boolean
  payload: string
  callback_url: string | null
  /** Multi-frame: each segment's prompt and duration. */
  segments: Array<{ prompt: string | null; duration: number }> | null
}

/** Start and end frames should have about the same shape: their width/height ratios within this. */
const START_END_RATIO = { min: 0.8, max: 1.25 }
const SEED_ISSUE = 'must be an integer >= 0 or a string of digits'

const IMAGES = ['image', 'images'] as const

/** "exactly 2 images", "1 to 7 images", "at most 9 key frames". */
function countRange(min: number, max: number, [one, many]: readonly [string, string]): string {
  if (min === max) return `exactly ${min} ${min === 1 ? one : many}`
  return min > 0 ? `${min} to ${max} ${many}` : `at most ${max} ${many}`
}

// ---- A body that fails its schema ----

/** The parts of a body schema the wording reads. */
interface SchemaNode {
  type?: string | string[]
  properties?: Record<string, SchemaNode>
  items?: SchemaNode
  required?: string[]
  minItems?: number
  maxItems?: number
}

/** The vendor's words where the generic ones (issueOf) differ; by field, `[]` standing for any index. */
const ISSUES: Record<string, string> = {
  seed: SEED_ISSUE,
  duration: 'must be an integer number of seconds',
  images: 'must be a list of image URLs or base64 images',
  image_settings: 'must be a list of key frames',
  'image_settings[]': 'must be an object with key_image',
  'image_settings[].duration': `must be an integer from ${SEGMENT.min} to ${SEGMENT.max} seconds`,
}
/** Images: anything but a non-empty string is "missing or empty", as the vendor's image check says. */
const IMAGE_FIELDS = new Set(['images[]', 'start_image', 'image_settings[].key_image'])
/** What the items of a counted list are called. */
const ITEM_NAMES: Record<string, readonly [string, string]> = { images: IMAGES, image_settings: ['key frame', 'key frames'] }

const typesOf = (node: SchemaNode): string[] => [node.type ?? []].flat()

/** A required field sent as null, '' (a string) or [] (a list) is as missing as an absent one. */
const isEmpty = (value: unknown, node: SchemaNode): boolean =>
  value === null || (value === '' && typesOf(node).includes('string')) || (Array.isArray(value) && value.length === 0 && typesOf(node).includes('array'))

function issueOf(e: ErrorObject): string {
  const params = e.params as Record<string, unknown>
  switch (e.keyword) {
    case 'type': {
      const type = [params.type].flat().find((t) => t !== 'null')
      return type === 'boolean' ? 'must be true or false' : `must be a ${String(type)}`
    }
    case 'enum':
      // '' and null ask for the default: the choices are the others.
      return `must be one of ${(params.allowedValues as unknown[]).filter((v) => v !== '' && v !== null).join(', ')}`
    case 'maxLength':
      return `at most ${String(params.limit)} characters`
    default:
      return e.message ?? 'is not valid'
  }
}

/**
 * The vendor's answer to a create body that fails its schema: the first failure, its field named as
 * the vendor names it (`image_settings[0].duration`), in the words the vendor's checks use.
 */
export function schemaError(errors: readonly ErrorObject[], body: unknown, schema: object): ApiError {
  const e = errors[0]
  const path = (e?.instancePath ?? '')
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
  if (e?.keyword === 'required') path.push((e.params as { missingProperty: string }).missingProperty)
  if (!e || path.length === 0) return badRequest('the body must be a JSON object')
  // Down the schema and the body together, to the failing field.
  let node = schema as SchemaNode
  let value: unknown = body
  let required = false
  let field = ''
  for (const segment of path) {
    const item = typesOf(node).includes('array')
    required = !item && (node.required ?? []).includes(segment)
    node = (item ? node.items : node.properties?.[segment]) ?? {}
    value = (value as Record<string, unknown> | null | undefined)?.[segment]
    field = item ? `${field}[${segment}]` : field ? `${field}.${segment}` : segment
  }
  const key = field.replace(/\[\d+\]/g, '[]')
  if (e.keyword === 'required' || IMAGE_FIELDS.has(key) || (required && isEmpty(value, node))) return lacking(field)
  if (e.keyword === 'minItems' || e.keyword === 'maxItems') {
    return countOutOfRange(field, countRange(node.minItems ?? 0, node.maxItems ?? Infinity, ITEM_NAMES[key] ?? ['item', 'items']))
  }
  return invalid(field, ISSUES[key] ?? issueOf(e))
}

/** The shared body validator (http/validation.ts), a failure answered in the vendor's words. */
export const vendorBodyValidator: FastifySchemaCompiler<unknown> = (route) => {
  const check = validatorCompiler(route)
  return (data: unknown) => {
    const result = check(data) as { value?: unknown; error?: Error & { validation?: ErrorObject[] } }
    return result.error ? { error: schemaError(result.error.validation ?? [], data, route.schema as object) } : result
  }
}

// ---- What the schema cannot say ----

/** What varies between installations: the emulator's own addresses, and settings where the spec and the vendor differ. */
export interface CreateRules {
  /** The emulator's own addresses, which a callback URL must not name. */
  own?: OwnAddresses
  /** Key frames a multiframe task needs at least: 0 makes image_settings optional (the spec), 2 is the vendor's docs. */
  minKeyFrames: number
}

interface Context {
  templates: ReadonlyMap<string, Template>
  rules: CreateRules
}

/** A value the vendor takes as not given: absent, null or ''. */
const given = <T>(value: T | null | undefined): Exclude<T, ''> | null =>
  value === undefined || value === null || value === '' ? null : (value as Exclude<T, ''>)

async function checkImage(value: string, field: string): Promise<InspectedImage> {
  try {
    return await inspectImage(value)
  } catch (error) {
    if (error instanceof ImageProblem) {
      const message = error.reason === 'ImageFormatInvalid' ? `invalid image format: ${field}` : `page size out of range: ${field}`
      throw routerError(error.reason, message, `${field}: ${error.detail}`)
    }
    throw error
  }
}

/** The images in order: the first that is refused is the one named, as a long one is read in slices. */
async function readImages(values: readonly string[]): Promise<InspectedImage[]> {
  const images: InspectedImage[] = []
  for (const [i, value] of values.entries()) images.push(await checkImage(value, `images[${i}]`))
  return images
}

function callbackUrl(value: string | null | undefined, own: OwnAddresses | undefined): string | null {
  const text = given(value)
  if (text === null) return null
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw invalid('callback_url', 'must be an http or https URL')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid('callback_url', 'must be an http or https URL')
  // The emulator would call itself for every state of every task it creates from there: a loop.
  if (own?.includes(url)) throw invalid('callback_url', `must not point at the emulator itself (${url.host}): give the address of your own receiver`)
  return text
}

function payload(value: string | null | undefined): string {
  const text = value ?? ''
  // Counted in UTF-16 units, as it always was here; a schema's maxLength would count code points.
  if (text.length > MAX_PAYLOAD) throw invalid('payload', `at most ${MAX_PAYLOAD} characters`)
  return text
}

/** 0 (or none) means "pick one at random". */
function seedOf(value: number | string | null | undefined): number | null {
  const n = typeof value === 'string' ? Number(value || 0) : (value ?? 0)
  // The schema sees a string of digits, not how large a number it names.
  if (!Number.isSafeInteger(n)) throw invalid('seed', SEED_ISSUE)
  return n === 0 ? null : n
}

function durationOf(value: number | null | undefined, rule: ModelRule, model: string): number {
  if (value === undefined || value === null) return rule.defaultDuration
  if (!durationAllowed(rule, value)) throw invalid('duration', `${model} takes ${describeDurations(rule)} seconds`)
  return value
}

function resolutionOf(value: string | null | undefined, rule: ModelRule, model: string, duration: number): string {
  const resolution = given(value)
  if (resolution === null) return rule.defaultResolution(duration)
  const allowed = rule.resolutions(duration)
  if (!allowed.includes(resolution)) throw invalid('resolution', `${model} at ${duration} s takes ${allowed.join(', ')}`)
  return resolution
}

function aspectRatioOf(value: string | null | undefined, allowed: readonly string[], model: string): string | null {
  const ratio = given(value)
  if (ratio !== null && !allowed.includes(ratio)) throw invalid('aspect_ratio', `${model} takes ${allowed.join(', ')}`)
  return ratio
}

type CommonBody = Pick<Text2VideoBody, 'off_peak' | 'bgm' | 'watermark' | 'payload' | 'callback_url'>

const common = (body: CommonBody, own: OwnAddresses | undefined) => ({
  off_peak: body.off_peak ?? false,
  bgm: body.bgm ?? false,
  watermark: body.watermark ?? false,
  payload: payload(body.payload),
  callback_url: callbackUrl(body.callback_url, own),
})

type ModelOperation = 'text2video' | 'img2video' | 'reference2video' | 'start-end2video'

/** What the operations with a model and a seed share; the schema's enum has made the model one of the operation's. */
function modelFields<O extends ModelOperation>(operation: O, body: CreateBodies[O], own: OwnAddresses | undefined) {
  const base = common(body, own)
  const model = body.model
  return {
    rule: MODELS[operation][model]!,
    shared: {
      operation,
      model,
      template: null,
      movement_amplitude: given(body.movement_amplitude) ?? 'auto',
      seed: seedOf(body.seed),
      // q3 models answer with sound by default.
      audio: body.audio ?? model.startsWith('videoq3'),
      segments: null,
      ...base,
    },
  }
}

/** Off-peak queues do not take direct audio output (image and reference to video). */
function offPeakRules(request: VideoRequest): VideoRequest {
  if (request.off_peak && request.audio && (request.operation === 'img2video' || request.operation === 'reference2video')) {
    throw invalid('off_peak', 'off-peak mode does not support audio output')
  }
  return request
}

/** img2video and start-end2video: the frame(s) decide the shape, so there is no aspect_ratio. */
async function fromFrames(operation: 'img2video' | 'start-end2video', body: CreateBodies['img2video' | 'start-end2video'], own: OwnAddresses | undefined) {
  const { rule, shared } = modelFields(operation, body, own)
  const inspected = await readImages(body.images)
  if (operation === 'start-end2video') {
    const [first, last] = inspected as [InspectedImage, InspectedImage]
    if (first.kind === 'inline' && last.kind === 'inline') {
      const ratio = first.width / first.height / (last.width / last.height)
      if (ratio < START_END_RATIO.min || ratio > START_END_RATIO.max) {
        throw invalid('images', `the start and end frames' width/height ratios differ by ${ratio.toFixed(2)}x; keep them within 0.8 to 1.25`)
      }
    }
  }
  const duration = durationOf(body.duration, rule, shared.model)
  return offPeakRules({
    ...shared,
    prompt: given(body.prompt),
    images: body.images,
    style: null,
    duration,
    resolution: resolutionOf(body.resolution, rule, shared.model, duration),
    aspect_ratio: null,
  })
}

const CHECKS: { [O in Operation]: (body: CreateBodies[O], context: Context) => VideoRequest | Promise<VideoRequest> } = {
  text2video(body, { rules }) {
    const { rule, shared } = modelFields('text2video', body, rules.own)
    const duration = durationOf(body.duration, rule, shared.model)
    return offPeakRules({
      ...shared,
      prompt: body.prompt,
      images: [],
      style: given(body.style) ?? 'general',
      duration,
      resolution: resolutionOf(body.resolution, rule, shared.model, duration),
      aspect_ratio: aspectRatioOf(body.aspect_ratio, rule.aspectRatios, shared.model) ?? '16:9',
    })
  },

  async reference2video(body, { rules }) {
    const { rule, shared } = modelFields('reference2video', body, rules.own)
    // The schema asks for one at least; how many at most depends on the model.
    const max = rule.maxImages ?? 7
    if (body.images.length > max) throw countOutOfRange('images', countRange(1, max, IMAGES))
    await readImages(body.images)
    const duration = durationOf(body.duration, rule, shared.model)
    return offPeakRules({
      ...shared,
      prompt: body.prompt,
      images: body.images,
      style: null,
      duration,
      resolution: resolutionOf(body.resolution, rule, shared.model, duration),
      aspect_ratio: aspectRatioOf(body.aspect_ratio, rule.aspectRatios, shared.model) ?? '16:9',
    })
  },

  img2video: (body, { rules }) => fromFrames('img2video', body, rules.own),
  'start-end2video': (body, { rules }) => fromFrames('start-end2video', body, rules.own),

  async multiframe(body, { rules }) {
    const base = common(body, rules.own)
    await checkImage(body.start_image, 'start_image')
    // The schema counts the key frames given; whether none at all will do is the setting's to say.
    if ((body.image_settings === undefined || body.image_settings === null) && rules.minKeyFrames > 0) throw lacking('image_settings')
    const segments: Array<{ prompt: string | null; duration: number; image: string }> = []
    for (const [i, setting] of (body.image_settings ?? []).entries()) {
      await checkImage(setting.key_image, `image_settings[${i}].key_image`)
      segments.push({ prompt: given(setting.prompt), duration: setting.duration ?? SEGMENT.default, image: setting.key_image })
    }
    return {
      operation: 'multiframe',
      model: body.model,
      template: null,
      prompt: null,
      images: [body.start_image, ...segments.map((s) => s.image)],
      // Without key frames, one segment from the start image.
      duration: segments.length === 0 ? SEGMENT.default : segments.reduce((sum, s) => sum + s.duration, 0),
      resolution: given(body.resolution) ?? '720p',
      aspect_ratio: null,
      style: null,
      movement_amplitude: null,
      seed: null,
      audio: false,
      segments: segments.map(({ prompt, duration }) => ({ prompt, duration })),
      ...base,
    }
  },

  async template2video(body, { templates, rules }) {
    const base = common(body, rules.own)
    const name = body.template
    const template = templates.get(name)
    if (!template) throw invalid('template', `unknown template; see GET /router/v1/video/templates`)
    const { images_min: min, images_max: max } = template
    if (body.images.length < min || body.images.length > max) throw countOutOfRange('images', countRange(min, max, IMAGES))
    await readImages(body.images)
    const aspect = given(body.aspect_ratio)
    if (aspect !== null && !template.aspect_ratios.includes(aspect)) {
      throw invalid('aspect_ratio', `must be one of ${template.aspect_ratios.join(', ')} for ${name}`)
    }
    return {
      operation: 'template2video',
      model: null,
      template: name,
      prompt: body.prompt,
      images: body.images,
      duration: template.duration,
      resolution: template.resolution,
      aspect_ratio: aspect ?? '16:9',
      style: null,
      movement_amplitude: null,
      seed: seedOf(body.seed),
      audio: false,
      segments: null,
      ...base,
    }
  },
}

/**
 * A create's callback URL once its host name is resolved (validateCreate has read its literal): a name
 * that resolves to the emulator's own listeners is refused as its address would be.
 */
export async function checkCallbackTarget(request: Pick<VideoRequest, 'callback_url'>, own: OwnAddresses): Promise<void> {
  const issue = request.callback_url === null ? null : await own.resolvedIssue(new URL(request.callback_url))
  if (issue !== null) throw invalid('callback_url', issue)
}

/** The checks after the schema's, and every default filled in: the request a task is made of. Inline images are read in slices. */
export async function validateCreate<O extends Operation>(
  operation: O,
  body: CreateBodies[O],
  templates: ReadonlyMap<string, Template>,
  rules: CreateRules,
): Promise<VideoRequest> {
  return CHECKS[operation](body, { templates, rules })
}
