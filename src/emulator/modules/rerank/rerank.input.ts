// The query and the documents of a rerank request, checked and measured. A document is a string or
// an object with `text` and/or `image`; each problem is a 400 naming its place (`documents[3].text`).
// Texts are judged by their length before the tokenizer spends time on them, then by their tokens.
import { fieldError } from '../../core/errors.ts'
import { BYTES_PER_TOKEN_BOUND } from '../embeddings/embeddings.input.ts'
import { imageNotRead, overBytes, overRequestCharacters, overRequestTokens, overTokens } from './rerank.errors.ts'
import type { RerankDocument } from './rerank.schemas.ts'

/** Tokens of the query at most: Cohere's documented bound for its rerank models. */
export const MAX_QUERY_TOKENS = 2048
/** Tokens of one document at most (the emulator's bound; a document longer than a chunk is split and billed per chunk). */
export const MAX_DOCUMENT_TOKENS = 32_768
/** Tokens of all documents of one request together, at most (as for embeddings). */
export const MAX_REQUEST_TOKENS = 300_000
/** Tokens of each chunk the model keeps for its own markers (Cohere's models reserve four). */
export const RESERVED_TOKENS = 4
/** Documents per search unit, as Cohere bills: one query against up to 100 documents (or chunks). */
export const DOCUMENTS_PER_SEARCH_UNIT = 100

export interface RerankLimits {
  model: string
  contextTokens: number
  /** The model's input modalities: an image document needs `image` among them. */
  inputs: readonly string[]
}

export interface RerankItem {
  /** Where the document is in the request (`documents[3]`), for errors. */
  field: string
  /** The document as the answer echoes it. */
  echo: RerankDocument
  text: string | undefined
  image: string | undefined
}

/** Refuses a text whose length alone shows it holds more than `limit` tokens. */
function checkLength(text: string, field: string, limit: number): void {
  const maxBytes = limit * BYTES_PER_TOKEN_BOUND
  // A UTF-16 unit is at most 3 bytes of UTF-8, so a short text is settled without counting its bytes.
  if (text.length * 3 <= maxBytes) return
  const bytes = Buffer.byteLength(text)
  if (bytes > maxBytes) throw overBytes(field, bytes, limit, maxBytes)
}

/** The most tokens a query may have for a model: Cohere's 2048, and always room for a document beside it. */
export const maxQueryTokens = (contextTokens: number): number => Math.max(1, Math.min(MAX_QUERY_TOKENS, contextTokens - RESERVED_TOKENS - 1))

export function checkQueryLength(query: string, limits: RerankLimits): void {
  checkLength(query, 'query', maxQueryTokens(limits.contextTokens))
}

export function checkQueryTokens(tokens: number, limits: RerankLimits): void {
  const limit = maxQueryTokens(limits.contextTokens)
  if (tokens > limit) throw overTokens('query', tokens, limit, `a query to ${limits.model}`)
}

const IMAGE_REFERENCE = /^(https?:\/\/\S|data:image\/)/i

function itemOf(document: unknown, field: string, limits: RerankLimits): RerankItem {
  if (typeof document === 'string') {
    if (document === '') throw fieldError(field, 'must not be empty')
    checkLength(document, field, MAX_DOCUMENT_TOKENS)
    return { field, echo: { text: document }, text: document, image: undefined }
  }
  if (document === null || typeof document !== 'object' || Array.isArray(document)) {
    throw fieldError(field, 'must be a string or an object with `text` and/or `image`')
  }
  const { text, image } = document as { text?: unknown; image?: unknown }
  if (text !== undefined) {
    if (typeof text !== 'string') throw fieldError(`${field}.text`, 'must be a string')
    if (text === '') throw fieldError(`${field}.text`, 'must not be empty')
    checkLength(text, `${field}.text`, MAX_DOCUMENT_TOKENS)
  }
  if (image !== undefined) {
    if (typeof image !== 'string' || !IMAGE_REFERENCE.test(image)) {
      throw fieldError(`${field}.image`, 'must be an http(s) URL or a data:image/ URI')
    }
    if (!limits.inputs.includes('image')) throw imageNotRead(`${field}.image`, limits.model, limits.inputs)
  }
  if (text === undefined && image === undefined) throw fieldError(field, 'must have `text` or `image`')
  const echo: RerankDocument = {}
  if (text !== undefined) echo.text = text
  if (image !== undefined) echo.image = image
  return { field, echo, text, image }
}

export function parseDocuments(documents: readonly unknown[], limits: RerankLimits): RerankItem[] {
  const items = documents.map((document, i) => itemOf(document, `documents[${i}]`, limits))
  // Every document within its own bound can still add up to more than a request may hold: judged by
  // length before any tokenizing too (characters: a UTF-16 unit is at least one byte).
  const characters = items.reduce((n, item) => n + (item.text?.length ?? 0), 0)
  const maxCharacters = MAX_REQUEST_TOKENS * BYTES_PER_TOKEN_BOUND
  if (characters > maxCharacters) throw overRequestCharacters(characters, MAX_REQUEST_TOKENS, maxCharacters)
  return items
}

/** Refuses a document of more tokens than one may hold, and documents of more tokens in all than a request may. */
export function checkDocumentTokens(items: readonly RerankItem[], tokens: readonly number[]): void {
  items.forEach((item, i) => {
    if (tokens[i]! > MAX_DOCUMENT_TOKENS) throw overTokens(item.field, tokens[i]!, MAX_DOCUMENT_TOKENS, 'one document')
  })
  const total = tokens.reduce((n, t) => n + t, 0)
  if (total > MAX_REQUEST_TOKENS) throw overRequestTokens(total, MAX_REQUEST_TOKENS)
}

/** What a request is billed for: each document is read with the query, in chunks of what the context leaves. */
export function measure(
  queryTokens: number,
  documentTokens: readonly number[],
  contextTokens: number,
): { chunks: number; searchUnits: number; totalTokens: number } {
  const chunkTokens = Math.max(1, contextTokens - RESERVED_TOKENS - queryTokens)
  let chunks = 0
  let totalTokens = 0
  for (const tokens of documentTokens) {
    const pieces = Math.max(1, Math.ceil(tokens / chunkTokens))
    chunks += pieces
    totalTokens += pieces * queryTokens + tokens
  }
  return { chunks, searchUnits: Math.ceil(chunks / DOCUMENTS_PER_SEARCH_UNIT), totalTokens }
}
