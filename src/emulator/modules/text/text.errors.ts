// The real gateway's words for a chat request it refuses for its model: the wrong kind of model, a
// prompt past the context length, tools no endpoint takes. (Each field's own rule is a fieldError
// where it is checked.)
import { ApiError } from '../../core/errors.ts'

const TOOL_ROUTING_DOCS = 'To learn more about provider routing, visit: https://openrouter.ai/docs/provider-routing'

export const notATextModel = (id: string, outputs: readonly string[]): ApiError =>
  new ApiError(
    400,
    outputs.includes('embeddings')
      ? `${id} is an embeddings model: call it on /api/v1/embeddings`
      : `${id} does not answer in text (it outputs ${outputs.join(', ')})`,
    { metadata: { field: 'model', location: 'body', code: 'wrong_endpoint' } },
  )

export const contextLengthExceeded = (context: number, promptTokens: number, asked: number): ApiError =>
  new ApiError(
    400,
    `This endpoint's maximum context length is ${context} tokens. However, you requested about ${promptTokens + asked} tokens (${promptTokens} of text input, ${asked} in the output). Please reduce the length of either one, or use the context-compression plugin to compress your prompt automatically.`,
    { metadata: { provider_name: null } },
  )

export const noToolEndpoints = (): ApiError => new ApiError(404, `No endpoints found that support tool use. ${TOOL_ROUTING_DOCS}`)
export const chatFixtureNotFound = (id: string): ApiError => new ApiError(404, `Chat fixture ${id} not found`)
