// Validation of the six create operations, answered in the vendor's terms: FieldLacking,
// FieldInvalid, FieldItemCountOutOfRange, ImageFormatInvalid, PageSizeOutOfRange, each message naming
// the field. Unknown fields are ignored, as the vendor does.
import { ApiError } from '../../core/errors.ts'
import type { OwnAddresses } from '../../http/listeners.ts'
import { ImageProblem, inspectImage, type InspectedImage } from './images.ts'
import {
  describeDurations,
  durationAllowed,
  MODELS,
  MOVEMENT_AMPLITUDES,
  RESOLUTIONS,
  STYLES,
  ASPECT_RATIOS,
  type ModelRule,
  type Operation,
} from './video.models.ts'
import type { Template } from './video.schemas.ts'

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

export const MAX_PROMPT = 2000
export const MAX_PAYLOAD = 1_048_576
const MAX_KEYFRAMES = 9
const SEGMENT = { min: 2, max: 7, default: 5 }
/** Start and end frames should have about the same shape: their width/height ratios within this. */
const START_END_RATIO = { min: 0.8, max: 1.25 }

/**
 * An error in the vendor's exact words (its error table's message, fields filled in); `detail`, the
 * emulator's explanation, travels in the X-Emulator-Detail header.
 */
export const routerError = (reason: string, message: string, detail?: string, status = 400): ApiError =>
  new ApiError(status, message, { reason, ...(detail !== undefined && { detail }) })

const lacking = (field: string) => routerError('FieldLacking', `field is missing or empty: ${field}`, `${field} is required`)
const invalid = (field: string, detail: string) => routerError('FieldInvalid', `invalid field: ${field}`, `${field} ${detail}`)
const countOutOfRange = (field: string, detail: string) =>
  routerError('FieldItemCountOutOfRange', `field item count out of range: ${field}`, `${field}: ${detail}`)

type Body = Record<string, unknown>

const present = (body: Body, field: string): boolean => body[field] !== undefined && body[field] !== null && body[field] !== ''

function requiredString(body: Body, field: string): string {
  if (!present(body, field)) throw lacking(field)
  if (typeof body[field] !== 'string') throw invalid(field, 'must be a string')
  return body[field]
}

function optionalString(body: Body, field: string): string | null {
  if (!present(body, field)) return null
  if (typeof body[field] !== 'string') throw invalid(field, 'must be a string')
  return body[field]
}

function optionalBoolean(body: Body, field: string): boolean | null {
  if (body[field] === undefined || body[field] === null) return null
  if (typeof body[field] !== 'boolean') throw invalid(field, 'must be true or false')
  return body[field]
}

function oneOf(body: Body, field: string, allowed: readonly string[], what = ''): string | null {
  const value = optionalString(body, field)
  if (value !== null && !allowed.includes(value)) throw invalid(field, `must be one of ${allowed.join(', ')}${what}`)
  return value
}

function prompt(body: Body, required: boolean): string | null {
  const value = required ? requiredString(body, 'prompt') : optionalString(body, 'prompt')
  if (value !== null && [...value].length > MAX_PROMPT) throw invalid('prompt', `at most ${MAX_PROMPT} characters`)
  return value
}

/** An integer, or a string of digits; 0 (or none) means "pick one at random". */
function seed(body: Body, required: boolean): number | null {
  const value = body.seed
  if (value === undefined || value === null || value === '') {
    if (required) throw lacking('seed')
    return null
  }
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN
  if (!Number.isSafeInteger(n) || n < 0) throw invalid('seed', 'must be an integer >= 0 or a string of digits')
  return n === 0 ? null : n
}

function callbackUrl(body: Body, own: OwnAddresses | undefined): string | null {
  const value = optionalString(body, 'callback_url')
  if (value === null) return null
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw invalid('callback_url', 'must be an http or https URL')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid('callback_url', 'must be an http or https URL')
  // The emulator would call itself for every state of every task it creates from there: a loop.
  if (own?.includes(url)) throw invalid('callback_url', `must not point at the emulator itself (${url.host}): give the address of your own receiver`)
  return value
}

function payload(body: Body): string {
  const value = optionalString(body, 'payload') ?? ''
  if (value.length > MAX_PAYLOAD) throw invalid('payload', `at most ${MAX_PAYLOAD} characters`)
  return value
}

function checkImage(value: unknown, field: string): InspectedImage {
  if (typeof value !== 'string' || value === '') throw lacking(field)
  try {
    return inspectImage(value)
  } catch (error) {
    if (error instanceof ImageProblem) {
      const message = error.reason === 'ImageFormatInvalid' ? `invalid image format: ${field}` : `page size out of range: ${field}`
      throw routerError(error.reason, message, `${field}: ${error.detail}`)
    }
    throw error
  }
}

function images(body: Body, min: number, max: number): { values: string[]; inspected: InspectedImage[] } {
  const list = body.images
  if (list === undefined || list === null || (Array.isArray(list) && list.length === 0)) throw lacking('images')
  if (!Array.isArray(list)) throw invalid('images', 'must be a list of image URLs or base64 images')
  if (list.length < min || list.length > max) {
    throw countOutOfRange('images', min === max ? `exactly ${min} image${min === 1 ? '' : 's'}` : `${min} to ${max} images`)
  }
  return { values: list as string[], inspected: list.map((value, i) => checkImage(value, `images[${i}]`)) }
}

function modelRule(body: Body, operation: Exclude<Operation, 'template2video'>): { model: string; rule: ModelRule } {
  const model = requiredString(body, 'model')
  const rule = MODELS[operation][model]
  if (!rule) throw invalid('model', `must be one of ${Object.keys(MODELS[operation]).join(', ')}`)
  return { model, rule }
}

function durationOf(body: Body, rule: ModelRule, model: string): number {
  const value = body.duration
  if (value === undefined || value === null) return rule.defaultDuration
  if (typeof value !== 'number' || !Number.isInteger(value)) throw invalid('duration', 'must be an integer number of seconds')
  if (!durationAllowed(rule, value)) throw invalid('duration', `${model} takes ${describeDurations(rule)} seconds`)
  return value
}

function resolutionOf(body: Body, rule: ModelRule, model: string, duration: number): string {
  const value = oneOf(body, 'resolution', RESOLUTIONS)
  if (value === null) return rule.defaultResolution(duration)
  const allowed = rule.resolutions(duration)
  if (!allowed.includes(value)) throw invalid('resolution', `${model} at ${duration} s takes ${allowed.join(', ')}`)
  return value
}

function aspectRatioOf(body: Body, allowed: readonly string[], model: string): string | null {
  const value = oneOf(body, 'aspect_ratio', ASPECT_RATIOS)
  if (value !== null && !allowed.includes(value)) throw invalid('aspect_ratio', `${model} takes ${allowed.join(', ')}`)
  return value
}

const base = (body: Body, own: OwnAddresses | undefined) => ({
  off_peak: optionalBoolean(body, 'off_peak') ?? false,
  bgm: optionalBoolean(body, 'bgm') ?? false,
  watermark: optionalBoolean(body, 'watermark') ?? false,
  payload: payload(body),
  callback_url: callbackUrl(body, own),
})

/** Off-peak queues do not take direct audio output (image and reference to video). */
function offPeakRules(request: VideoRequest): VideoRequest {
  if (request.off_peak && request.audio && (request.operation === 'img2video' || request.operation === 'reference2video')) {
    throw invalid('off_peak', 'off-peak mode does not support audio output')
  }
  return request
}

/** `own`: the emulator's own addresses, which a callback URL must not name. */
/** What varies between installations: the emulator's own addresses, and settings where the spec and the vendor differ. */
export interface CreateRules {
  own?: OwnAddresses
  /** Key frames a multiframe task needs at least: 0 makes image_settings optional (the spec), 2 is the vendor's docs. */
  minKeyFrames: number
}

export function validateCreate(operation: Operation, raw: unknown, templates: ReadonlyMap<string, Template>, rules: CreateRules): VideoRequest {
  const { own, minKeyFrames } = rules
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw routerError('BadRequest', 'bad request', 'the body must be a JSON object')
  const body = raw as Body
  const common = base(body, own)

  if (operation === 'template2video') {
    const name = requiredString(body, 'template')
    const template = templates.get(name)
    if (!template) throw invalid('template', `unknown template; see GET /router/v1/video/templates`)
    const { values } = images(body, template.images_min, template.images_max)
    const aspect = oneOf(body, 'aspect_ratio', template.aspect_ratios, ` for ${name}`)
    return {
      operation,
      model: null,
      template: name,
      prompt: prompt(body, true),
      images: values,
      duration: template.duration,
      resolution: template.resolution,
      aspect_ratio: aspect ?? '16:9',
      style: null,
      movement_amplitude: null,
      seed: seed(body, true),
      audio: false,
      segments: null,
      ...common,
    }
  }

  const { model, rule } = modelRule(body, operation)

  if (operation === 'multiframe') {
    checkImage(body.start_image, 'start_image')
    const given = body.image_settings
    if ((given === undefined || given === null) && minKeyFrames > 0) throw lacking('image_settings')
    const settings = given ?? []
    if (!Array.isArray(settings)) throw invalid('image_settings', 'must be a list of key frames')
    if (settings.length < minKeyFrames || settings.length > MAX_KEYFRAMES) {
      throw countOutOfRange('image_settings', minKeyFrames > 0 ? `${minKeyFrames} to ${MAX_KEYFRAMES} key frames` : `at most ${MAX_KEYFRAMES} key frames`)
    }
    const segments = settings.map((setting: unknown, i) => {
      const at = `image_settings[${i}]`
      if (setting === null || typeof setting !== 'object' || Array.isArray(setting)) throw invalid(at, 'must be an object with key_image')
      const s = setting as Body
      checkImage(s.key_image, `${at}.key_image`)
      const segmentPrompt = optionalString(s, 'prompt')
      if (segmentPrompt !== null && [...segmentPrompt].length > MAX_PROMPT) throw invalid(`${at}.prompt`, `at most ${MAX_PROMPT} characters`)
      const d = s.duration ?? SEGMENT.default
      if (typeof d !== 'number' || !Number.isInteger(d) || d < SEGMENT.min || d > SEGMENT.max) {
        throw invalid(`${at}.duration`, `must be an integer from ${SEGMENT.min} to ${SEGMENT.max} seconds`)
      }
      return { prompt: segmentPrompt, duration: d, image: s.key_image as string }
    })
    const resolution = oneOf(body, 'resolution', ['540p', '720p', '1080p']) ?? '720p'
    return {
      operation,
      model,
      template: null,
      prompt: null,
      images: [body.start_image as string, ...segments.map((s) => s.image)],
      // Without key frames, one segment from the start image.
      duration: segments.length === 0 ? SEGMENT.default : segments.reduce((sum, s) => sum + s.duration, 0),
      resolution,
      aspect_ratio: null,
      style: null,
      movement_amplitude: null,
      seed: null,
      audio: false,
      segments: segments.map(({ prompt: p, duration }) => ({ prompt: p, duration })),
      ...common,
    }
  }

  const shared = {
    operation,
    model,
    template: null,
    movement_amplitude: oneOf(body, 'movement_amplitude', MOVEMENT_AMPLITUDES) ?? 'auto',
    seed: seed(body, false),
    // q3 models answer with sound by default.
    audio: optionalBoolean(body, 'audio') ?? model.startsWith('videoq3'),
    segments: null,
    ...common,
  }

  if (operation === 'text2video') {
    const p = prompt(body, true)
    const duration = durationOf(body, rule, model)
    return offPeakRules({
      ...shared,
      prompt: p,
      images: [],
      style: oneOf(body, 'style', STYLES) ?? 'general',
      duration,
      resolution: resolutionOf(body, rule, model, duration),
      aspect_ratio: aspectRatioOf(body, rule.aspectRatios, model) ?? '16:9',
    })
  }

  if (operation === 'reference2video') {
    const { values } = images(body, 1, rule.maxImages ?? 7)
    const p = prompt(body, true)
    const duration = durationOf(body, rule, model)
    return offPeakRules({
      ...shared,
      prompt: p,
      images: values,
      style: null,
      duration,
      resolution: resolutionOf(body, rule, model, duration),
      aspect_ratio: aspectRatioOf(body, rule.aspectRatios, model) ?? '16:9',
    })
  }

  // img2video and start-end2video: the frame(s) decide the shape, so there is no aspect_ratio.
  const count = operation === 'img2video' ? 1 : 2
  const { values, inspected } = images(body, count, count)
  if (operation === 'start-end2video') {
    const [first, last] = inspected as [InspectedImage, InspectedImage]
    if (first.kind === 'inline' && last.kind === 'inline') {
      const ratio = first.width / first.height / (last.width / last.height)
      if (ratio < START_END_RATIO.min || ratio > START_END_RATIO.max) {
        throw invalid('images', `the start and end frames' width/height ratios differ by ${ratio.toFixed(2)}x; keep them within 0.8 to 1.25`)
      }
    }
  }
  const p = prompt(body, false)
  const duration = durationOf(body, rule, model)
  return offPeakRules({
    ...shared,
    prompt: p,
    images: values,
    style: null,
    duration,
    resolution: resolutionOf(body, rule, model, duration),
    aspect_ratio: null,
  })
}
