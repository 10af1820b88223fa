// The words for a rerank request refused for its model or its size. Each names the field it is about
// (`query`, `documents[3]`), with the bound it broke in the metadata.
import { ApiError } from '../../core/errors.ts'

export const notARerankModel = (id: string, outputs: readonly string[]): ApiError =>
  new ApiError(400, `${id} is not a rerank model (it outputs ${outputs.join(', ')}); choose a model whose output is rerank`, {
    metadata: { field: 'model', location: 'body' },
  })

/** A text of more tokens than its field may hold. */
export const overTokens = (field: string, tokens: number, limit: number, holder: string): ApiError =>
  new ApiError(400, `Field \`${field}\` is ${tokens} tokens, more than the ${limit} ${holder} may hold`, {
    metadata: { field, location: 'body', issue: 'too many tokens', limit, tokens },
  })

/** A text whose length alone shows it is over its token bound, refused before it is tokenized. */
export const overBytes = (field: string, bytes: number, limit: number, maxBytes: number): ApiError =>
  new ApiError(400, `Field \`${field}\` is ${bytes} bytes, longer than any text of ${limit} tokens (at most ${maxBytes} bytes are read)`, {
    metadata: { field, location: 'body', issue: 'too many tokens', limit, limit_bytes: maxBytes },
  })

/** The documents together are more tokens than one request may hold. */
export const overRequestTokens = (tokens: number, limit: number): ApiError =>
  new ApiError(400, `Field \`documents\` is ${tokens} tokens in all, more than the ${limit} one request may hold: send the documents in several requests`, {
    metadata: { field: 'documents', location: 'body', issue: 'over request tokens', limit, tokens },
  })

/** The documents together are longer than any text of the request's token bound, refused before tokenizing. */
export const overRequestCharacters = (characters: number, limit: number, maxCharacters: number): ApiError =>
  new ApiError(
    400,
    `Field \`documents\` is ${characters} characters in all, longer than any text of ${limit} tokens, the most one request may hold: send the documents in several requests`,
    { metadata: { field: 'documents', location: 'body', issue: 'over request tokens', limit, limit_characters: maxCharacters } },
  )

export const imageNotRead = (field: string, model: string, inputs: readonly string[]): ApiError =>
  new ApiError(400, `Field \`${field}\` is an image, but ${model} reads only ${inputs.join(', ')}: send the document as text`, {
    metadata: { field, location: 'body', issue: 'image not supported' },
  })
