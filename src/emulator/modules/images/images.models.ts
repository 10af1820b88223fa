// What each image model makes, from `images/models.json` of the fixtures (the catalog says which models
// output images and what they cost; this file says the rest): fixed sizes or resolution tiers and aspect
// ratios, how many images a request may ask for, the formats, and which knobs (quality, background,
// compression, seed, reference images) it has. A catalog model the file does not name gets its
// `defaults`. The image endpoints' `supported_parameters` are made from these facts, and a request's
// size is settled by them: as the real router does, an aspect ratio or tier a model lacks is clamped to
// the nearest it has, and a fixed-size model makes the listed size nearest to the one asked.
import { readFileSync } from 'node:fs'
import { Type, type Static } from 'typebox'
import { resolveFixture } from '../../config.ts'
import { fieldError } from '../../core/errors.ts'
import { checkFixture } from '../../http/validation.ts'
import { StringEnum } from '../../http/schemas.ts'
import type { CatalogModel } from '../catalog/catalog.schemas.ts'
import { IMAGE_FORMATS, type ImageFormat } from '../../media/image-encode.ts'
import { WEBP_MAX_SIDE } from '../../media/webp.ts'

/** The real document's resolution tiers, and the side of a square image of each. */
export const RESOLUTIONS = ['512', '1K', '2K', '4K'] as const
export type Resolution = (typeof RESOLUTIONS)[number]
const TIER_SIDE: Record<Resolution, number> = { '512': 512, '1K': 1024, '2K': 2048, '4K': 4096 }

/** The real document's aspect ratios (`auto` aside). */
export const ASPECT_RATIOS = [
  '1:1',
  '1:2',
  '1:4',
  '1:8',
  '2:1',
  '2:3',
  '3:2',
  '3:4',
  '4:1',
  '4:3',
  '4:5',
  '5:4',
  '8:1',
  '9:16',
  '16:9',
  '9:19.5',
  '19.5:9',
  '9:20',
  '20:9',
  '9:21',
  '21:9',
] as const
export type AspectRatio = (typeof ASPECT_RATIOS)[number]

export const QUALITIES = ['auto', 'low', 'medium', 'high'] as const
export const BACKGROUNDS = ['auto', 'transparent', 'opaque'] as const

/** Pixels of all the images of one request together, at most: one 4K square, or ten 1K ones. */
export const MAX_REQUEST_PIXELS = 4096 * 4096
/** The smallest side made; the largest is the WebP format's. */
export const MIN_SIDE = 16
export const MAX_SIDE = WEBP_MAX_SIDE
/** Sides are multiples of this when the size comes from a tier and a ratio, as real models make them. */
const SIDE_STEP = 16

const Size = Type.String({ pattern: '^[1-9][0-9]{0,4}x[1-9][0-9]{0,4}$' })

const ImageModelFacts = Type.Object({
  sizes: Type.Optional(Type.Array(Size, { minItems: 1, description: 'A fixed-size model: the sizes it makes, the default first' })),
  resolutions: Type.Optional(Type.Array(StringEnum(RESOLUTIONS), { minItems: 1, description: 'Tiers of a free-size model, the default first' })),
  aspect_ratios: Type.Optional(Type.Array(StringEnum(ASPECT_RATIOS), { minItems: 1 })),
  max_pixels: Type.Optional(
    Type.Integer({ minimum: MIN_SIDE * MIN_SIDE, maximum: MAX_REQUEST_PIXELS, description: 'The most pixels of an explicit WIDTHxHEIGHT' }),
  ),
  max_n: Type.Integer({ minimum: 1, maximum: 10 }),
  qualities: Type.Array(StringEnum(QUALITIES)),
  background: Type.Boolean(),
  output_formats: Type.Array(StringEnum(IMAGE_FORMATS), { minItems: 1, description: 'The first is what it makes when asked for a format it lacks' }),
  output_compression: Type.Boolean(),
  seed: Type.Boolean(),
  max_input_references: Type.Integer({ minimum: 0, maximum: 16 }),
})
export type ImageModelFacts = Static<typeof ImageModelFacts>

const ImageModelsDocument = Type.Object({ defaults: ImageModelFacts, models: Type.Record(Type.String(), ImageModelFacts) })
type ImageModelsDocument = Static<typeof ImageModelsDocument>

/** The facts of each image model by id, and the defaults for the others. */
export interface ImageModels {
  factsOf(model: CatalogModel): ImageModelFacts
}

export function loadImageModels(fixturesDir: string): ImageModels {
  const path = resolveFixture(fixturesDir, 'images/models.json')
  let value: unknown
  try {
    value = JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    throw new Error(`images ${path}: ${(error as Error).message}`)
  }
  const problem = checkFixture(ImageModelsDocument, path, value)
  if (problem) throw new Error(`images ${path}: \`${problem.field || '(document)'}\` ${problem.issue}`)
  const document = value as ImageModelsDocument
  for (const [id, facts] of [['defaults', document.defaults] as const, ...Object.entries(document.models)]) {
    if (!facts.sizes && !(facts.resolutions && facts.aspect_ratios && facts.max_pixels)) {
      throw new Error(`images ${path}: \`${id}\` needs either \`sizes\` or \`resolutions\`, \`aspect_ratios\` and \`max_pixels\``)
    }
  }
  return { factsOf: (model) => document.models[model.id] ?? document.defaults }
}

// ---- Sizes ----------------------------------------------------------------------------------------

export interface Dimensions {
  width: number
  height: number
}

/** What a request says of the size, and the names its fields have on that surface. */
export interface SizeAsk {
  size?: string | null | undefined
  resolution?: Resolution | null | undefined
  aspectRatio?: AspectRatio | 'auto' | null | undefined
  /** Width over height of the first reference image, used when no ratio is asked. */
  referenceRatio?: number | undefined
  fields: { size: string; resolution: string; aspectRatio: string }
}

const ratioValue = (ratio: AspectRatio): number => {
  const [w, h] = ratio.split(':').map(Number)
  return w! / h!
}

/** How far apart two ratios are: 1 for equal ones, growing either way (no logarithms: the same on every machine). */
const ratioDistance = (a: number, b: number): number => Math.max(a / b, b / a)

/** The item of a non-empty list at the least distance; the first of equals. */
function nearest<T>(list: readonly T[], distance: (item: T) => number): T {
  let best: T = list[0]!
  let bestDistance = distance(best)
  for (const item of list.slice(1)) {
    const d = distance(item)
    if (d < bestDistance) {
      best = item
      bestDistance = d
    }
  }
  return best
}

/** The tier nearest an area (by the ratio of areas). */
export const tierOf = (width: number, height: number): Resolution => nearest(RESOLUTIONS, (r) => ratioDistance(TIER_SIDE[r] ** 2, width * height))

/** The aspect ratio of the real enum nearest a width and height. */
export const aspectRatioOf = (width: number, height: number): AspectRatio => nearest(ASPECT_RATIOS, (r) => ratioDistance(ratioValue(r), width / height))

const parseSize = (size: string): Dimensions => {
  const [width, height] = size.split('x').map(Number)
  return { width: width!, height: height! }
}

/** A tier and a ratio as pixels: about the tier's area, sides in steps of 16 (rounded down, so never more). */
function tierDimensions(resolution: Resolution, ratio: number): Dimensions {
  const side = TIER_SIDE[resolution]
  const root = Math.sqrt(ratio)
  const step = (v: number) => Math.max(SIDE_STEP, Math.floor(v / SIDE_STEP) * SIDE_STEP)
  return { width: step(side * root), height: step(side / root) }
}

/** A `size` of the real document: a tier (`2K`), explicit pixels (`2048x2048`), or `auto`. */
function readSize(size: string, field: string): Resolution | Dimensions | null {
  if (size === 'auto') return null
  const tier = RESOLUTIONS.find((r) => r.toLowerCase() === size.toLowerCase())
  if (tier) return tier
  const match = /^(\d{1,6})x(\d{1,6})$/i.exec(size)
  if (!match) throw fieldError(field, `must be a tier (${RESOLUTIONS.join(', ')}), WIDTHxHEIGHT in pixels (e.g. 1024x1024), or auto`)
  const dimensions = { width: Number(match[1]), height: Number(match[2]) }
  for (const side of [dimensions.width, dimensions.height]) {
    if (side < MIN_SIDE || side > MAX_SIDE) throw fieldError(field, `must have sides from ${MIN_SIDE} to ${MAX_SIDE} pixels (got ${size})`)
  }
  return dimensions
}

/**
 * The size to make for a model: from an explicit size (authoritative: a resolution or ratio asked
 * beside it must agree), or from a tier and an aspect ratio, each clamped to the model's own.
 */
export function settleSize(model: string, facts: ImageModelFacts, ask: SizeAsk): Dimensions {
  const { fields } = ask
  const given = ask.size == null ? null : readSize(ask.size, fields.size)
  const ratioAsked = ask.aspectRatio && ask.aspectRatio !== 'auto' ? ask.aspectRatio : null
  if (typeof given === 'string' && ask.resolution && ask.resolution !== given) {
    throw fieldError(fields.resolution, `is ${ask.resolution}, but ${fields.size} is ${given}: leave one out or make them agree`)
  }
  if (given !== null && typeof given === 'object') {
    const { width, height } = given
    if (ask.resolution && tierOf(width, height) !== ask.resolution) {
      throw fieldError(
        fields.resolution,
        `is ${ask.resolution}, but ${fields.size} ${width}x${height} is a ${tierOf(width, height)} image: an explicit size decides alone`,
      )
    }
    if (ratioAsked && ratioDistance(ratioValue(ratioAsked), width / height) > 1.02) {
      throw fieldError(fields.aspectRatio, `is ${ratioAsked}, but ${fields.size} ${width}x${height} is not: an explicit size decides alone`)
    }
    if (facts.sizes) return nearestListed(facts.sizes, width / height, width * height)
    if (width * height > facts.max_pixels!) {
      throw fieldError(fields.size, `is ${width * height} pixels, more than the ${facts.max_pixels} ${model} makes`)
    }
    return { width, height }
  }
  const tier = typeof given === 'string' ? given : (ask.resolution ?? null)
  const ratio = ratioAsked ? ratioValue(ratioAsked) : (ask.referenceRatio ?? 1)
  if (facts.sizes) return nearestListed(facts.sizes, ratio, tier ? TIER_SIDE[tier] ** 2 : null)
  const resolutions = facts.resolutions!
  const clampedTier = tier ? nearest(resolutions, (r) => ratioDistance(TIER_SIDE[r], TIER_SIDE[tier])) : resolutions[0]!
  const clampedRatio = nearest(facts.aspect_ratios!, (r) => ratioDistance(ratioValue(r), ratio))
  return tierDimensions(clampedTier, ratioValue(clampedRatio))
}

/** A fixed-size model's size nearest a ratio, then nearest an area among those of that ratio. */
function nearestListed(sizes: readonly string[], ratio: number, area: number | null): Dimensions {
  const listed = sizes.map(parseSize)
  const off = (d: Dimensions): number => ratioDistance(d.width / d.height, ratio)
  const best = Math.min(...listed.map(off))
  const closest = listed.filter((d) => off(d) === best)
  return area === null ? closest[0]! : nearest(closest, (d) => ratioDistance(d.width * d.height, area))
}

/** The first format of the model's that was asked, else the one it makes by default. */
export const formatFor = (facts: ImageModelFacts, asked: ImageFormat | null | undefined): ImageFormat =>
  asked && facts.output_formats.includes(asked) ? asked : facts.output_formats[0]!

/** Reference images a model takes: none unless it takes images in. */
export const maxReferences = (model: CatalogModel, facts: ImageModelFacts): number =>
  model.architecture.input_modalities.includes('image') ? facts.max_input_references : 0

// ---- The API's view of a model's parameters ---------------------------------------------------------

export type Capability = { type: 'enum'; values: string[] } | { type: 'range'; min: number; max: number } | { type: 'boolean' }

/** The model's `supported_parameters`, as the real document's CapabilityDescriptors. */
export function capabilitiesOf(model: CatalogModel, facts: ImageModelFacts): Record<string, Capability> {
  const out: Record<string, Capability> = {}
  if (facts.sizes) {
    out.size = { type: 'enum', values: [...facts.sizes] }
    out.aspect_ratio = { type: 'enum', values: [...new Set(facts.sizes.map((s) => aspectRatioOf(parseSize(s).width, parseSize(s).height)))] }
  } else {
    out.size = { type: 'boolean' }
    out.resolution = { type: 'enum', values: [...facts.resolutions!] }
    out.aspect_ratio = { type: 'enum', values: [...facts.aspect_ratios!] }
  }
  out.n = { type: 'range', min: 1, max: facts.max_n }
  out.output_format = { type: 'enum', values: [...facts.output_formats] }
  if (facts.qualities.length > 0) out.quality = { type: 'enum', values: [...facts.qualities] }
  if (facts.background) out.background = { type: 'enum', values: [...BACKGROUNDS] }
  if (facts.output_compression) out.output_compression = { type: 'range', min: 0, max: 100 }
  if (facts.seed) out.seed = { type: 'boolean' }
  const references = maxReferences(model, facts)
  if (references > 0) out.input_references = { type: 'range', min: 1, max: references }
  return out
}
