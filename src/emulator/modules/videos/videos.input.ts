// What the body schema cannot say: each value against the model's own capabilities (fixtures/videos/
// models.json), the defaults filled in, size and resolution + aspect_ratio reconciled, and the media
// URLs read. Every refusal is a 400 naming the field; the checks run in a fixed order, so a body with
// several problems is always answered about the same one.
import { fieldError } from '../../core/errors.ts'
import type { OwnAddresses } from '../../http/own-addresses.ts'
import { ImageProblem, inspectImage } from '../../media/image-inspect.ts'
import { MAX_URL, type VideoGenerationBody, type VideoModelFixture } from './videos.schemas.ts'

/** A create request checked against its model, as the job stores it (inline media summarised, never kept). */
export interface CheckedVideoRequest {
  model: string
  prompt: string | null
  duration: number
  resolution: string
  aspect_ratio: string
  size: string | null
  /** Null: none given, the engine picks one from the job. */
  seed: number | null
  generate_audio: boolean
  frame_images: Array<{ frame_type: string; url: string }>
  input_references: Array<{ type: string; url: string }>
  callback_url: string | null
}

const oneOf = (values: readonly (string | number)[]): string => (values.length === 1 ? `${values[0]}` : `one of ${values.join(', ')}`)

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b]
  return a
}

/** `1280x720` -> 720p at 16:9: the short side names the resolution. */
function sizeShape(size: string): { resolution: string; aspect_ratio: string } {
  const [width, height] = size.split('x').map(Number) as [number, number]
  const g = gcd(width, height) || 1
  return { resolution: `${Math.min(width, height)}p`, aspect_ratio: `${width / g}:${height / g}` }
}

/** A media URL as the job keeps it: an http(s) URL as given (never fetched), an inline one summarised. */
/** The head of an inline audio or video reference (`data:audio/mpeg;base64`), by kind. */
const DATA_URI_HEAD = { audio: /^data:(audio\/[a-z0-9.+-]+);base64$/i, video: /^data:(video\/[a-z0-9.+-]+);base64$/i } as const

async function mediaUrl(value: string, field: string, kind: 'image' | 'audio' | 'video'): Promise<string> {
  if (/^https?:\/\//i.test(value)) {
    if (value.length > MAX_URL) throw fieldError(field, `must be at most ${MAX_URL} characters`)
    if (!URL.canParse(value)) throw fieldError(field, 'is not a valid URL')
    return value
  }
  if (!/^data:/i.test(value))
    throw fieldError(field, `must be an http(s) URL or a data: URI of ${kind === 'image' ? 'a PNG, JPEG or WebP image' : `base64 ${kind}`}`)
  if (kind === 'image') {
    try {
      const image = await inspectImage(value)
      return image.kind === 'inline' ? `(inline ${image.format} image, ${image.width}x${image.height}, ${image.bytes} bytes)` : value
    } catch (error) {
      if (error instanceof ImageProblem) throw fieldError(field, error.detail)
      throw error
    }
  }
  // Audio and video are accepted and not used: their head only is read.
  const comma = value.indexOf(',')
  const mime = comma < 0 ? null : DATA_URI_HEAD[kind].exec(value.slice(0, comma))
  if (!mime) throw fieldError(field, `must be a data URI like data:${kind}/${kind === 'audio' ? 'mpeg' : 'mp4'};base64,...`)
  return `(inline ${mime[1]!.toLowerCase()}, ${value.length - comma - 1} base64 characters)`
}

/** The frames in order: the first that is refused is the one named, as a long one is read in slices. */
async function frameImages(body: VideoGenerationBody, spec: VideoModelFixture): Promise<CheckedVideoRequest['frame_images']> {
  const seen = new Set<string>()
  const frames: CheckedVideoRequest['frame_images'] = []
  for (const [i, frame] of (body.frame_images ?? []).entries()) {
    if (!spec.supported_frame_images.includes(frame.frame_type)) {
      const allowed = spec.supported_frame_images
      throw fieldError(
        `frame_images[${i}].frame_type`,
        allowed.length === 0 ? `must not be given: ${spec.id} takes no frame images` : `must be ${oneOf(allowed)} for ${spec.id} (got ${frame.frame_type})`,
      )
    }
    if (seen.has(frame.frame_type)) throw fieldError(`frame_images[${i}].frame_type`, `repeats ${frame.frame_type}: give each frame once`)
    seen.add(frame.frame_type)
    frames.push({ frame_type: frame.frame_type, url: await mediaUrl(frame.image_url.url, `frame_images[${i}].image_url.url`, 'image') })
  }
  return frames
}

async function inputReferences(body: VideoGenerationBody, spec: VideoModelFixture): Promise<CheckedVideoRequest['input_references']> {
  const references = body.input_references ?? []
  if (references.length > spec.max_input_references)
    throw fieldError('input_references', `must have at most ${spec.max_input_references} item${spec.max_input_references === 1 ? '' : 's'} for ${spec.id}`)
  const checked: CheckedVideoRequest['input_references'] = []
  for (const [i, reference] of references.entries()) {
    const part = reference[reference.type]
    if (!part) throw fieldError(`input_references[${i}].${reference.type}`, `is required (the reference's type is ${reference.type})`)
    const kind = reference.type === 'image_url' ? 'image' : reference.type === 'audio_url' ? 'audio' : 'video'
    checked.push({ type: reference.type, url: await mediaUrl(part.url, `input_references[${i}].${reference.type}.url`, kind) })
  }
  return checked
}

function callbackUrl(value: string | undefined, own: OwnAddresses): string | null {
  if (value === undefined) return null
  if (value.length > MAX_URL) throw fieldError('callback_url', `must be at most ${MAX_URL} characters`)
  const url = URL.canParse(value) ? new URL(value) : null
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw fieldError('callback_url', 'must be an http or https URL')
  // The emulator would call itself for every job made from there: a loop.
  if (own.includes(url)) throw fieldError('callback_url', `must not point at the emulator itself (${url.host}): give the address of your own receiver`)
  return value
}

/**
 * The callback URL once its host name is resolved (checkVideoRequest has read its literal): a name
 * that resolves to the emulator's own listeners is refused as its address would be.
 */
export async function checkCallbackTarget(value: string | null, own: OwnAddresses): Promise<void> {
  const issue = value === null ? null : await own.resolvedIssue(new URL(value))
  if (issue !== null) throw fieldError('callback_url', issue)
}

/** Checks a create body against its model (found in the catalog and the fixture already); inline images are read in slices. */
export async function checkVideoRequest(body: VideoGenerationBody, spec: VideoModelFixture, own: OwnAddresses): Promise<CheckedVideoRequest> {
  for (const field of ['creativity', 'upscale_factor'] as const) {
    if (body[field] !== undefined) throw fieldError(field, `is for video upscaling models only; ${spec.id} generates video`)
  }
  const prompt = body.prompt?.trim() ? body.prompt : null
  if (prompt === null && !body.frame_images?.length && !body.input_references?.length)
    throw fieldError('prompt', 'is required (it may be left out only when frame_images or input_references are given)')

  const duration = body.duration ?? spec.defaults.duration
  if (!spec.supported_durations.includes(duration)) throw fieldError('duration', `must be ${oneOf(spec.supported_durations)} for ${spec.id} (got ${duration})`)

  let shape: { resolution: string; aspect_ratio: string } | null = null
  if (body.size !== undefined) {
    if (spec.supported_sizes === null) throw fieldError('size', `is not supported by ${spec.id}: give resolution and aspect_ratio`)
    if (!spec.supported_sizes.includes(body.size)) throw fieldError('size', `must be ${oneOf(spec.supported_sizes)} for ${spec.id} (got ${body.size})`)
    shape = sizeShape(body.size)
    for (const field of ['resolution', 'aspect_ratio'] as const) {
      const given = body[field]
      if (given !== undefined && given !== shape[field])
        throw fieldError(
          'size',
          `is ${body.size} (${shape.resolution}, ${shape.aspect_ratio}), which disagrees with ${field} ${given}: give size alone, or agreeing values`,
        )
    }
  }
  const resolution = shape?.resolution ?? body.resolution ?? spec.defaults.resolution
  if (!spec.supported_resolutions.includes(resolution as never))
    throw fieldError('resolution', `must be ${oneOf(spec.supported_resolutions)} for ${spec.id} (got ${resolution})`)
  const aspectRatio = shape?.aspect_ratio ?? body.aspect_ratio ?? spec.defaults.aspect_ratio
  if (!spec.supported_aspect_ratios.includes(aspectRatio as never))
    throw fieldError('aspect_ratio', `must be ${oneOf(spec.supported_aspect_ratios)} for ${spec.id} (got ${aspectRatio})`)

  // In the order they were checked in when all were at once: frames, references, the callback.
  const frames = await frameImages(body, spec)
  const references = await inputReferences(body, spec)
  return {
    model: spec.id,
    prompt,
    duration,
    resolution,
    aspect_ratio: aspectRatio,
    size: body.size ?? null,
    seed: body.seed ?? null,
    // The document: the endpoint's generate_audio capability, false if not set.
    generate_audio: body.generate_audio ?? spec.generate_audio ?? false,
    frame_images: frames,
    input_references: references,
    callback_url: callbackUrl(body.callback_url, own),
  }
}
