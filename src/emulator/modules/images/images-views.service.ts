// The image models as the real GET /images/models and /images/models/{author}/{slug}/endpoints show
// them: the catalog's models that output images, each with its parameters (from images.models.ts)
// and each endpoint's prices as billable lines.
import { priceUsd } from '../../core/money.ts'
import type { EmulatorContext } from '../module.ts'
import type { CatalogEndpoint, CatalogModel } from '../catalog/catalog.schemas.ts'
import { capabilitiesOf } from './images.models.ts'
import { imageModelNotFound } from './images.errors.ts'

const makesImages = (model: CatalogModel): boolean => model.architecture.output_modalities.includes('image')

/** The real ImageModelListResponse, as JSON text, once per catalog. */
export function imageModelsList(ctx: EmulatorContext): Buffer {
  const catalog = ctx.services.catalog.get()
  return catalog.memo('images.models', () => {
    const data = catalog.models.filter(makesImages).map((model) => ({
      id: model.id,
      name: model.name,
      description: model.description,
      created: model.created,
      architecture: { input_modalities: model.architecture.input_modalities, output_modalities: model.architecture.output_modalities },
      supported_parameters: capabilitiesOf(model, ctx.services.images.models.factsOf(model)),
      supports_streaming: false,
      endpoints: `/api/v1/images/models/${model.id}/endpoints`,
    }))
    return Buffer.from(JSON.stringify({ data }))
  })
}

function pricingOf(endpoint: CatalogEndpoint): Array<{ billable: string; unit: string; cost_usd: number }> {
  const lines = [{ billable: 'output_image', unit: 'image', cost_usd: priceUsd(endpoint.pricing.image) }]
  if (priceUsd(endpoint.pricing.prompt) > 0) lines.push({ billable: 'input_text', unit: 'token', cost_usd: priceUsd(endpoint.pricing.prompt) })
  return lines
}

/** The real ImageModelEndpointsResponse of one model, as JSON text; a 404 for a model that makes no images. */
export function imageModelEndpoints(ctx: EmulatorContext, id: string): string {
  const model = ctx.services.catalog.get().find(id)
  if (!model || !makesImages(model)) throw imageModelNotFound(id)
  const supported = capabilitiesOf(model, ctx.services.images.models.factsOf(model))
  return JSON.stringify({
    id: model.id,
    endpoints: model.endpoints.map((endpoint) => ({
      provider_name: endpoint.provider_name,
      provider_slug: endpoint.provider,
      provider_tag: endpoint.tag,
      supported_parameters: supported,
      allowed_passthrough_parameters: [],
      supports_streaming: false,
      pricing: pricingOf(endpoint),
    })),
  })
}
