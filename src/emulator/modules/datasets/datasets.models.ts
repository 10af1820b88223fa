// The catalog's models as the public datasets name and weigh them: by permaslug (a non-default
// variant keeps its `:variant` suffix), and by a quality and a price the generated figures lean on, so
// pricier frontier models score higher and cheap ones get more traffic, as on the real rankings.
import { priceUsd } from '../../core/money.ts'
import type { CatalogModel } from '../catalog/catalog.schemas.ts'
import { constant, keyOf } from './datasets-draws.service.ts'

export const permaslugOf = (model: CatalogModel): string => {
  const variant = model.id.includes(':') ? model.id.slice(model.id.indexOf(':')) : ''
  return model.canonical_slug + variant
}

/** "OpenAI: GPT-4o" -> "GPT-4o": the name benchmark sites list. */
export const shortName = (model: CatalogModel): string => model.name.replace(/^[^:]{1,60}:\s+/, '')

export const outputs = (model: CatalogModel, modality: string): boolean => model.architecture.output_modalities.includes(modality)
export const inputs = (model: CatalogModel, modality: string): boolean => model.architecture.input_modalities.includes(modality)

/** USD per million completion tokens (prompt tokens when the model has no completion price). */
export function pricePerMillion(model: CatalogModel): number {
  const completion = priceUsd(model.pricing.completion)
  return (completion > 0 ? completion : priceUsd(model.pricing.prompt)) * 1_000_000
}

/**
 * A model's quality in [0, 1]: a fixed draw of the seed, pulled towards its price ($0.05 per million
 * tokens and below reads as 0, $100 and above as 1).
 */
export function qualityOf(seed: number, model: CatalogModel): number {
  const price = Math.min(1, Math.max(0, (Math.log10(pricePerMillion(model) + 0.05) + 1.3) / 3.3))
  return 0.55 * price + 0.45 * constant(keyOf(seed, `quality:${model.canonical_slug}`), 0)
}
