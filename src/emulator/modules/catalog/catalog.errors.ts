// The real gateway's words for a model it does not know and for routing that finds no endpoint.
import { ApiError } from '../../core/errors.ts'

/**
 * A model id the catalog does not have (nor any rule of catalog-resolve.service.ts), named in a
 * request's body: the real message, then the nearest known ids where there are any (also in `metadata.suggestions`).
 */
export const invalidModelId = (id: string, suggestions: readonly string[] = []): ApiError =>
  new ApiError(400, `${id} is not a valid model ID${suggestions.length > 0 ? `. Did you mean ${suggestions.join(', ')}?` : ''}`, {
    metadata: { field: 'model', location: 'body', ...(suggestions.length > 0 && { suggestions }) },
  })

/** `openrouter/auto` with an auto-router plugin whose patterns leave no model to choose from. */
export const autoRouterFoundNone = (allowed: readonly string[], excluded: readonly string[]): ApiError =>
  new ApiError(400, "No models match the auto-router plugin's allowed_models and excluded_models", {
    metadata: { field: 'plugins', location: 'body', allowed_models: allowed, excluded_models: excluded },
  })

/** A model id the catalog does not have, named in a path. */
export const modelNotFound = (id: string): ApiError => new ApiError(404, `Model ${id} not found`)

export const noProviderMatch = (model: string, preferences: unknown, available: readonly string[]): ApiError =>
  new ApiError(404, 'No endpoints found that match your provider preferences', { metadata: { model, provider: preferences, available } })
/** A catalog the admin API was sent that breaks a rule of the catalog's, naming the field. */
export const invalidCatalog = (message: string, field: unknown): ApiError => new ApiError(400, message, { metadata: { field } })

export const unknownOutputModality = (value: string | undefined, modalities: readonly string[]): ApiError =>
  new ApiError(400, `Query parameter \`output_modalities\` must be a comma-separated list of ${modalities.join(', ')}, or all (got "${value}")`, {
    metadata: { field: 'output_modalities', location: 'querystring', issue: 'unknown modality' },
  })
