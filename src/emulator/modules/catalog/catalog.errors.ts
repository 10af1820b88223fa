// The real gateway's words for a model it does not know and for routing that finds no endpoint.
import { ApiError } from '../../core/errors.ts'

/** A model id the catalog does not have, named in a request's body. */
export const invalidModelId = (id: string): ApiError => new ApiError(400, `${id} is not a valid model ID`, { metadata: { field: 'model', location: 'body' } })

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
