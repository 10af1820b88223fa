// The words for an embeddings request refused for its model or its size: the real service refuses an
// input over the context length rather than truncating it, and one request has a token bound.
import { ApiError } from '../../core/errors.ts'

export const notAnEmbeddingsModel = (id: string, outputs: readonly string[]): ApiError =>
  new ApiError(400, `${id} is not an embeddings model (it outputs ${outputs.join(', ')}); choose a model whose output is embeddings`, {
    metadata: { field: 'model', location: 'body' },
  })

export const overContext = (field: string, tokens: number, contextTokens: number, model: string): ApiError =>
  new ApiError(
    400,
    `Field \`${field}\` is ${tokens} tokens, more than the ${contextTokens}-token context length of ${model}: shorten it or split it into several inputs`,
    { metadata: { field, location: 'body', issue: 'over context length', limit: contextTokens, tokens } },
  )

export const overContextBytes = (field: string, bytes: number, contextTokens: number, model: string, maxBytes: number): ApiError =>
  new ApiError(
    400,
    `Field \`${field}\` is ${bytes} bytes, longer than any text that fits the ${contextTokens}-token context length of ${model} (at most ${maxBytes} bytes are read)`,
    { metadata: { field, location: 'body', issue: 'over context length', limit: contextTokens, limit_bytes: maxBytes } },
  )

export const overRequestBytes = (totalBytes: number, maxTokens: number, maxBytes: number): ApiError =>
  new ApiError(
    400,
    `Field \`input\` holds ${totalBytes} bytes of text, more than fits the ${maxTokens}-token bound of one request: send the inputs in several requests`,
    { metadata: { field: 'input', location: 'body', issue: 'over request tokens', limit: maxTokens, limit_bytes: maxBytes } },
  )

export const overRequestTokens = (total: number, maxTokens: number): ApiError =>
  new ApiError(400, `Field \`input\` is ${total} tokens in all, more than the ${maxTokens} one request may hold: send the inputs in several requests`, {
    metadata: { field: 'input', location: 'body', issue: 'over request tokens', limit: maxTokens, tokens: total },
  })
