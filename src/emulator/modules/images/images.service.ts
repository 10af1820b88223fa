// Image generation: a request (the gateway's POST /images, OpenAI's POST /images/generations, or a
// chat asking for `modalities: ["image"]`) is read into a job (model, prompt, count, size, format),
// checked against the model's facts (images.models.ts), billed through the meter at the endpoint's
// per-image price (402 before anything is made), recorded as a generation of api_type `image`, and
// then drawn and encoded (media/picture.ts, media/image-encode.ts) in a media worker thread, after
// the account's other images, speech and transcriptions (a place in its queue is taken before the
// bill: a full queue is a 429 that costs nothing). The same emulator seed, model, prompt, seed (for
// models that take one), references, size and format always give the same bytes.
import { createHash } from 'node:crypto'
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { RequestOrigin } from '../../http/request-origin.ts'
import { fieldError } from '../../core/errors.ts'
import { nanosToUsd } from '../../core/money.ts'
import { countTokens, loadTokenizer } from '../../core/tokens.ts'
import type { AuthContext } from '../caller.ts'
import type { EmulatorContext } from '../module.ts'
import type { CatalogModel, Region } from '../catalog/catalog.schemas.ts'
import { routeByPreferences, type ProviderPreferences } from '../catalog/catalog-routing.service.ts'
import { imagesNanos, tokensNanos } from '../meter/meter-pricers.service.ts'
import { meter, servedBy } from '../meter/meter.service.ts'
import { DEFAULT_JPEG_QUALITY, MEDIA_TYPES, type ImageFormat } from '../../media/image-encode.ts'
import type { MediaTicket } from '../../media/media-queue.ts'
import { isBase64, SLICE_CHARS, slices } from '../../media/slices.ts'
import {
  ASPECT_RATIOS,
  formatFor,
  loadImageModels,
  MAX_REQUEST_PIXELS,
  maxReferences,
  RESOLUTIONS,
  settleSize,
  type AspectRatio,
  type Dimensions,
  type ImageModelFacts,
  type ImageModels,
  type Resolution,
} from './images.models.ts'
import { notAnImageModel } from './images.errors.ts'
import type { ImageProviderPreferences, ImagesBody, OpenAiImagesBody } from './images.schemas.ts'

/** Simulated time to make one image, for the generation's `generation_time`. */
const RENDER_MS_PER_IMAGE = 4000

export interface ImagesService {
  readonly models: ImageModels
  /**
   * Images for a chat answer that asked for `modalities: ["image", ...]`: one PNG data URL per choice.
   * Checks what a chat asks of an image model (a 400 names its field) and takes a place in the
   * account's media queue (a 429 when full); the pictures are drawn once billed, or the place is
   * released if the answer is not made.
   */
  forChat(model: CatalogModel, ask: ChatImageAsk): ChatImages
}

export interface ChatImages {
  count: number
  draw(): Promise<string[]>
  /** Gives the queue place back if the images were not drawn (a refusal before them); nothing after. */
  release(): void
}

export interface ChatImageAsk {
  /** The last user message. */
  prompt: string
  seed: number | null
  choices: number
  /** The chat body's `image_config` (its `aspect_ratio` and `image_size` are read). */
  config: unknown
  /** The caller's account, whose media queue the pictures wait in. */
  account: string
}

/** What one request makes, checked and settled. */
export interface ImageJob {
  model: CatalogModel
  prompt: string
  n: number
  dimensions: Dimensions
  format: ImageFormat
  jpegQuality: number
  transparent: boolean
  /** Seed (where the model takes one) and references: with the model and prompt, what the pictures are drawn from. */
  variation: string
  provider: ProviderPreferences | undefined
  user: string | null
}

export interface MadeImages {
  created: number
  generationId: string
  files: Buffer[]
  format: ImageFormat
  dimensions: Dimensions
  transparent: boolean
  promptTokens: number
  costNanos: number
  promptCostNanos: number
  /** Paid with the caller's own provider key: the answer's `is_byok`. */
  byok: boolean
}

export function createImagesService(ctx: EmulatorContext): ImagesService {
  const models = loadImageModels(ctx.config.fixtures)
  return {
    models,
    forChat(model, ask) {
      const facts = models.factsOf(model)
      const config = chatImageConfig(ask.config)
      const dimensions = settleSize(model.id, facts, {
        ...config,
        fields: { size: 'image_config.image_size', resolution: 'image_config.image_size', aspectRatio: 'image_config.aspect_ratio' },
      })
      checkPixels('n', ask.choices, dimensions)
      const drawing: Drawing = {
        model,
        prompt: ask.prompt,
        variation: variationOf(facts, ask.seed, ''),
        dimensions,
        format: 'png',
        transparent: false,
        jpegQuality: DEFAULT_JPEG_QUALITY,
      }
      const ticket = ctx.media.reserve(ask.account)
      return {
        count: ask.choices,
        draw: async () => (await render(ticket, ctx.config.seed, drawing, ask.choices)).map((file) => `data:image/png;base64,${file.toString('base64')}`),
        release: () => ticket.release(),
      }
    },
  }
}

/** The aspect ratio and tier a chat's `image_config` asks for (its other keys are the providers'). */
function chatImageConfig(config: unknown): { aspectRatio?: AspectRatio | 'auto'; resolution?: Resolution } {
  if (config === null || config === undefined) return {}
  if (typeof config !== 'object' || Array.isArray(config)) throw fieldError('image_config', 'must be an object')
  const { aspect_ratio: ratio, image_size: size } = config as Record<string, unknown>
  if (ratio !== undefined && !(ASPECT_RATIOS as readonly unknown[]).includes(ratio) && ratio !== 'auto') {
    throw fieldError('image_config.aspect_ratio', `must be one of ${ASPECT_RATIOS.join(', ')}, auto`)
  }
  if (size !== undefined && !(RESOLUTIONS as readonly unknown[]).includes(size))
    throw fieldError('image_config.image_size', `must be one of ${RESOLUTIONS.join(', ')}`)
  return { aspectRatio: ratio as AspectRatio | 'auto' | undefined, resolution: size as Resolution | undefined }
}

/** The part of the pictures' identity beyond model, prompt and index: the seed, where the model takes one, and the references. */
const variationOf = (facts: ImageModelFacts, seed: number | null | undefined, references: string): string =>
  `${facts.seed && seed != null ? seed : ''}\u0000${references}`

/** What a picture is drawn and encoded from: with the emulator's seed and its index, all that decides its bytes. */
type Drawing = Pick<ImageJob, 'model' | 'prompt' | 'variation' | 'dimensions' | 'format' | 'transparent' | 'jpegQuality'>

/** Draws and encodes `count` pictures in the place the ticket holds. */
async function render(ticket: MediaTicket, seed: number, drawing: Drawing, count: number): Promise<Buffer[]> {
  const { width, height } = drawing.dimensions
  const identities = Array.from({ length: count }, (_, index) => `${drawing.model.id}\u0000${drawing.variation}\u0000${index}\u0000${drawing.prompt}`)
  const made = await ticket.run({
    kind: 'images',
    seed,
    identities,
    width,
    height,
    transparent: drawing.transparent,
    format: drawing.format,
    jpegQuality: drawing.jpegQuality,
  })
  if (made.kind !== 'images') throw new Error(`a ${made.kind} came back for images`)
  return made.files.map((file) => Buffer.from(file.buffer, file.byteOffset, file.byteLength))
}

// ---- Reading requests ---------------------------------------------------------------------------

/** The model a body names: it must exist and make images. */
function imageModel(ctx: EmulatorContext, id: string): CatalogModel {
  const { model } = ctx.services.catalog.resolve(id, 'image')
  if (!model.architecture.output_modalities.includes('image')) throw notAnImageModel(id, model.architecture.output_modalities)
  return model
}

function checkCount(model: CatalogModel, facts: ImageModelFacts, n: number): void {
  if (n > facts.max_n) {
    throw fieldError('n', facts.max_n === 1 ? `must be 1 for ${model.id}, which makes one image per request` : `must be at most ${facts.max_n} for ${model.id}`)
  }
}

const REFERENCE_HEAD = /^data:image\/(png|jpeg|jpg|webp);base64,/i

/** The first bytes of each image format a reference may be. */
const MAGIC: readonly (readonly number[])[] = [
  [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  [0xff, 0xd8, 0xff],
  [0x52, 0x49, 0x46, 0x46],
]

/**
 * Reference images, checked (an http(s) URL as it is, never fetched; a data URL must hold a PNG,
 * JPEG or WebP): what they are is part of the pictures' identity, as a hash. Up to 32 MB of them are
 * read in slices, so other requests are answered meanwhile.
 */
async function readReferences(model: CatalogModel, facts: ImageModelFacts, references: ImagesBody['input_references']): Promise<string> {
  if (!references || references.length === 0) return ''
  const most = maxReferences(model, facts)
  if (references.length > most) {
    throw fieldError(
      'input_references',
      most === 0 ? `is not taken by ${model.id}, which makes images from text alone` : `must have at most ${most} images for ${model.id}`,
    )
  }
  for (const [
    i,
    {
      image_url: { url },
    },
  ] of references.entries()) {
    const field = `input_references[${i}].image_url.url`
    if (/^https?:\/\//i.test(url)) {
      if (!URL.canParse(url)) throw fieldError(field, 'is not a valid URL')
      continue
    }
    const head = REFERENCE_HEAD.exec(url)
    if (!head) throw fieldError(field, 'must be a data URL of a PNG, JPEG or WebP image (data:image/png;base64,...) or an http(s) URL')
    const body = url.slice(head[0].length)
    if (body.length === 0 || body.length % 4 === 1 || !(await isBase64(body))) throw fieldError(field, 'is not valid base64')
    const bytes = Buffer.from(body.slice(0, 16), 'base64')
    if (!MAGIC.some((magic) => magic.every((b, j) => bytes[j] === b))) throw fieldError(field, 'holds bytes that are not a PNG, JPEG or WebP image')
  }
  // The SHA-256 of the URLs joined by NULs, fed a slice at a time.
  const hash = createHash('sha256')
  for (const [
    i,
    {
      image_url: { url },
    },
  ] of references.entries()) {
    if (i > 0) hash.update('\u0000')
    for (const slice of slices(url)) {
      hash.update(slice)
      if (slice.length === SLICE_CHARS) await nextTurn()
    }
  }
  return hash.digest('hex')
}

const providerOf = (prefs: ImageProviderPreferences | undefined): ProviderPreferences | undefined =>
  prefs && {
    order: prefs.order ?? undefined,
    only: prefs.only ?? undefined,
    ignore: prefs.ignore ?? undefined,
    allow_fallbacks: prefs.allow_fallbacks ?? undefined,
  }

/** A transparent background is made only where the model has the knob; JPEG has no alpha to hold it. */
function transparency(facts: ImageModelFacts, background: string | null | undefined, asked: string | null | undefined, format: ImageFormat): boolean {
  if (background !== 'transparent') return false
  if (asked === 'jpeg') throw fieldError('background', 'transparent needs an output_format with alpha (png or webp), not jpeg')
  return facts.background && format !== 'jpeg'
}

/** POST /images: the real document's request. */
export async function gatewayJob(ctx: EmulatorContext, body: ImagesBody): Promise<ImageJob> {
  const model = imageModel(ctx, body.model)
  const facts = ctx.services.images.models.factsOf(model)
  const n = body.n ?? 1
  checkCount(model, facts, n)
  const references = await readReferences(model, facts, body.input_references)
  const dimensions = settleSize(model.id, facts, {
    size: body.size,
    resolution: body.resolution,
    aspectRatio: body.aspect_ratio,
    fields: { size: 'size', resolution: 'resolution', aspectRatio: 'aspect_ratio' },
  })
  if (body.output_format === 'svg')
    throw fieldError('output_format', 'svg comes only from vectorization models, and none is served here: ask for png, jpeg or webp')
  const format = formatFor(facts, body.output_format)
  return {
    model,
    prompt: body.prompt,
    n,
    dimensions,
    format,
    jpegQuality: facts.output_compression ? (body.output_compression ?? DEFAULT_JPEG_QUALITY) : DEFAULT_JPEG_QUALITY,
    transparent: transparency(facts, body.background, body.output_format, format),
    variation: variationOf(facts, body.seed, references),
    provider: providerOf(body.provider),
    user: null,
  }
}

/** POST /images/generations: OpenAI's request. */
export function openAiJob(ctx: EmulatorContext, body: OpenAiImagesBody): ImageJob {
  if (body.stream) throw fieldError('stream', 'is not supported here: no image endpoint of the emulator streams (leave it out for the whole images at once)')
  const model = imageModel(ctx, body.model)
  const facts = ctx.services.images.models.factsOf(model)
  const n = body.n ?? 1
  checkCount(model, facts, n)
  const dimensions = settleSize(model.id, facts, { size: body.size, fields: { size: 'size', resolution: 'size', aspectRatio: 'size' } })
  const format = formatFor(facts, body.output_format)
  return {
    model,
    prompt: body.prompt,
    n,
    dimensions,
    format,
    jpegQuality: facts.output_compression ? (body.output_compression ?? DEFAULT_JPEG_QUALITY) : DEFAULT_JPEG_QUALITY,
    transparent: transparency(facts, body.background, body.output_format, format),
    variation: variationOf(facts, body.seed, ''),
    provider: providerOf(body.provider),
    user: body.safety_identifier ?? body.user ?? null,
  }
}

// ---- Making them --------------------------------------------------------------------------------

/** One request makes at most MAX_REQUEST_PIXELS, whatever the count and size of its images. */
function checkPixels(field: string, count: number, { width, height }: Dimensions): void {
  const pixels = count * width * height
  if (pixels > MAX_REQUEST_PIXELS) {
    throw fieldError(
      field,
      `asks for ${count} images of ${width}x${height}, ${pixels} pixels in all, more than the ${MAX_REQUEST_PIXELS} one request may make: ask for fewer or smaller images`,
    )
  }
}

/** Bills and records the job (one transaction: a 402 or 429 makes nothing), then draws and encodes its images. */
export async function makeImages(
  ctx: EmulatorContext,
  caller: AuthContext,
  job: ImageJob,
  call: { operation: string; region: Region | null; origin: RequestOrigin },
): Promise<MadeImages> {
  const { model, n, dimensions } = job
  await loadTokenizer()
  const promptTokens = countTokens(job.prompt)
  if (promptTokens > model.context_length) {
    throw fieldError('prompt', `is ${promptTokens} tokens, more than the ${model.context_length} ${model.id} reads`)
  }
  checkPixels('n', n, dimensions)

  // A place in the account's media queue first: a full one is refused before the bill.
  const ticket = ctx.media.reserve(caller.account.id)
  const recorded = billImages(ctx, caller, job, call, promptTokens, ticket)
  const files = await render(ticket, ctx.config.seed, job, n)
  return {
    created: recorded.created,
    generationId: recorded.id,
    files,
    format: job.format,
    dimensions,
    transparent: job.transparent,
    promptTokens,
    costNanos: recorded.billed.charge.cost_nanos,
    byok: recorded.billed.byok,
    promptCostNanos: tokensNanos(recorded.billed.endpoint.pricing, { prompt: promptTokens }),
  }
}

/** The rate limit, then the bill and the generation in one transaction (a 402 or 429 makes nothing): the queue place is given back if any refuses. */
function billImages(
  ctx: EmulatorContext,
  caller: AuthContext,
  job: ImageJob,
  call: { operation: string; region: Region | null; origin: RequestOrigin },
  promptTokens: number,
  ticket: MediaTicket,
) {
  const { model, n } = job
  try {
    const billed = meter(ctx, {
      caller,
      operation: call.operation,
      model: { id: model.id, canonical_slug: model.canonical_slug },
      endpoints: model.endpoints,
      region: call.region,
      route: routeByPreferences(model, job.provider),
      tokens: { prompt: promptTokens, completion: 0 },
      price: (endpoint) => imagesNanos(endpoint.pricing, n, promptTokens),
      generation: (endpoint) => {
        const { latencyMs } = servedBy(endpoint, { latencyS: 0.5, tokensPerSecond: 50 })
        return {
          apiType: 'image',
          idKind: 'img',
          idLabel: 'img',
          origin: call.origin,
          user: job.user,
          streamed: false,
          finishReason: 'stop',
          latencyMs,
          generationTimeMs: latencyMs + n * RENDER_MS_PER_IMAGE,
        }
      },
    })
    return { created: Math.floor(billed.now / 1000), id: billed.generationId!, billed }
  } catch (error) {
    ticket.release()
    throw error
  }
}

// ---- Answers ------------------------------------------------------------------------------------

/** The real document's ImageGenerationResponse, as JSON text. */
export function gatewayAnswer(made: MadeImages): string {
  const mediaType = MEDIA_TYPES[made.format]
  return JSON.stringify({
    created: made.created,
    data: made.files.map((file) => ({ b64_json: file.toString('base64'), media_type: mediaType })),
    usage: {
      prompt_tokens: made.promptTokens,
      completion_tokens: 0,
      total_tokens: made.promptTokens,
      cost: nanosToUsd(made.costNanos),
      is_byok: made.byok,
      cost_details: {
        upstream_inference_cost: null,
        upstream_inference_prompt_cost: nanosToUsd(made.promptCostNanos),
        upstream_inference_completions_cost: nanosToUsd(made.costNanos - made.promptCostNanos),
      },
    },
  })
}

/** OpenAI's ImagesResponse, as JSON text: `b64_json`, or with `response_format: "url"` a data URL. */
export function openAiAnswer(made: MadeImages, body: OpenAiImagesBody): string {
  const mediaType = MEDIA_TYPES[made.format]
  const quality =
    body.quality === 'low' ? 'low' : body.quality === 'high' || body.quality === 'hd' || body.quality === 'xhigh' || body.quality === 'max' ? 'high' : 'medium'
  return JSON.stringify({
    created: made.created,
    data: made.files.map((file) =>
      body.response_format === 'url' ? { url: `data:${mediaType};base64,${file.toString('base64')}` } : { b64_json: file.toString('base64') },
    ),
    background: made.transparent ? 'transparent' : 'opaque',
    output_format: made.format,
    quality,
    size: `${made.dimensions.width}x${made.dimensions.height}`,
    usage: {
      input_tokens: made.promptTokens,
      input_tokens_details: { image_tokens: 0, text_tokens: made.promptTokens },
      output_tokens: 0,
      output_tokens_details: { image_tokens: 0, text_tokens: 0 },
      total_tokens: made.promptTokens,
      cost: nanosToUsd(made.costNanos),
    },
  })
}
