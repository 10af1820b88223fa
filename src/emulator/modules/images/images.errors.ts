// The words for an image request refused for its model: one that makes no images, named in a body or
// in a path. (Each field's own rule is a fieldError where it is checked.)
import { ApiError } from '../../core/errors.ts'

export const notAnImageModel = (id: string, outputs: readonly string[]): ApiError =>
  new ApiError(
    400,
    `${id} does not make images (it outputs ${outputs.join(', ')}): choose a model whose output is image (GET /api/v1/images/models lists them)`,
    {
      metadata: { field: 'model', location: 'body', code: 'wrong_endpoint' },
    },
  )

export const imageModelNotFound = (id: string): ApiError => new ApiError(404, `Image model ${id} not found`)
