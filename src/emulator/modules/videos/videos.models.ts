// The video models: the catalog's models whose output is video, each described by
// fixtures/videos/models.json (what it accepts, its defaults, its per-second prices). A catalog video
// model the file does not describe is not offered (a catalog of one's own may add one without it).
import { readFileSync } from 'node:fs'
import { resolveFixture } from '../../config.ts'
import { checkFixture } from '../../http/validation.ts'
import type { CatalogModel } from '../catalog/catalog.schemas.ts'
import type { VideoModel, VideoModelFixture } from './videos.schemas.ts'
import { VideoModelsFixture } from './videos.schemas.ts'

export const MODELS_FIXTURE = 'videos/models.json'

/** Reads and checks the fixture file (a folder given by --fixtures may replace it); a bad file stops the start, naming the field. */
export function loadVideoModels(fixturesDir: string): ReadonlyMap<string, VideoModelFixture> {
  const path = resolveFixture(fixturesDir, MODELS_FIXTURE)
  let value: unknown
  try {
    value = JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    throw new Error(`video models ${path}: ${(error as Error).message}`)
  }
  const problem = checkFixture(VideoModelsFixture, path, value)
  if (problem) throw new Error(`video models ${path}: \`${problem.field || '(document)'}\` ${problem.issue}`)
  const models = (value as { models: VideoModelFixture[] }).models
  for (const [i, m] of models.entries()) {
    // A default the model refuses would refuse every request that leaves it out.
    const { duration, resolution, aspect_ratio } = m.defaults
    if (!m.supported_durations.includes(duration) || !m.supported_resolutions.includes(resolution) || !m.supported_aspect_ratios.includes(aspect_ratio))
      throw new Error(`video models ${path}: \`models[${i}].defaults\` must be among the model's supported durations, resolutions and aspect ratios`)
  }
  return new Map(models.map((m) => [m.id, m]))
}

/** What GET /api/v1/videos/models shows of one model: the catalog's names, the fixture's capabilities. */
export function videoModelView(model: CatalogModel, spec: VideoModelFixture): VideoModel {
  return {
    id: model.id,
    canonical_slug: model.canonical_slug,
    hugging_face_id: model.hugging_face_id,
    name: model.name,
    created: model.created,
    description: model.description,
    supported_resolutions: spec.supported_resolutions,
    supported_aspect_ratios: spec.supported_aspect_ratios,
    supported_sizes: spec.supported_sizes,
    supported_durations: spec.supported_durations,
    supported_frame_images: spec.supported_frame_images,
    upscale_factor: spec.upscale_factor,
    creativity: spec.creativity,
    generate_audio: spec.generate_audio,
    seed: spec.seed,
    allowed_passthrough_parameters: spec.allowed_passthrough_parameters,
    pricing_skus: spec.pricing_skus,
  }
}

export const isVideoModel = (model: CatalogModel): boolean => model.architecture.output_modalities.includes('video')

/**
 * A video's price per second (USD, the model's SKU): `generate_with_audio` when audio is generated and
 * the model has that SKU, else `generate` (a model with neither costs nothing).
 */
export function videoSecondPrice(spec: VideoModelFixture, withAudio: boolean): string {
  return (withAudio ? spec.pricing_skus.generate_with_audio : undefined) ?? spec.pricing_skus.generate ?? '0'
}
