// The five shapes of `input`: a string, strings, token ids, lists of token ids, and content objects
// ({content: [text and image parts]}). Each becomes one item to embed, with its features and token
// count; a problem is a 400 naming its place (`input[2]`, `input[0].content[1].text`).
import { fieldError } from '../../core/errors.ts'
import { overContext, overContextBytes, overRequestBytes, overRequestTokens } from './embeddings.errors.ts'
import { countTokens, IMAGE_TOKENS, tokenizerNow } from '../../core/tokens.ts'
import { imageFeatures, textFeatures, type Features } from './embeddings-vectors.service.ts'
import type { InputKind } from './embeddings-cache.service.ts'
import { MAX_INPUTS } from './embeddings.schemas.ts'

export interface EmbeddingItem {
  /** Where the input is in the request (`input`, `input[2]`), for errors. */
  field: string
  /** What the input is (texts and token ids that spell them are both text)... */
  kind: InputKind
  /** ...and the input itself: equal kinds and inputs give equal vectors. */
  input: string
  /** Features and token count, worked out only when the vector is not already known. */
  prepare(): { features: Features; tokens: number }
}

const SHAPES = 'a string, an array of strings, an array of token ids, an array of arrays of token ids, or an array of content objects'

/**
 * What one request may hold, checked before anything is tokenized: an input of more tokens than the
 * model's context length is refused, as the real service refuses it (it does not truncate); so is a
 * request of more tokens in all than MAX_REQUEST_TOKENS.
 */
export interface InputLimits {
  model: string
  contextTokens: number
  /** A list of numbers: any doubles (the spec), or token ids only (the real service, `--embeddings-numbers token-ids`). */
  numbers: 'doubles' | 'token-ids'
}

/** Tokens of all inputs of one request together, at most (the real embeddings APIs' own bound). */
export const MAX_REQUEST_TOKENS = 300_000
/**
 * Bytes per token no real text comes near (English runs about 4, code 3, CJK 3): a text longer than
 * its token bound times this is refused by its length alone, before the tokenizer spends time on it.
 */
export const BYTES_PER_TOKEN_BOUND = 16

/** Refuses a text whose bytes alone show it is over the context length. */
function checkLength(text: string, field: string, limits: InputLimits): void {
  const maxBytes = limits.contextTokens * BYTES_PER_TOKEN_BOUND
  // Characters first: a UTF-8 character is at least one byte, so most texts are settled without counting bytes.
  if (text.length <= maxBytes / 4) return
  const bytes = Buffer.byteLength(text)
  if (bytes > maxBytes) {
    throw overContextBytes(field, bytes, limits.contextTokens, limits.model, maxBytes)
  }
}

function textItem(text: string, field: string, limits: InputLimits): EmbeddingItem {
  checkLength(text, field, limits)
  return { field, kind: 'text', input: text, prepare: () => ({ features: textFeatures(text), tokens: countTokens(text) }) }
}

function tokenIdsItem(ids: unknown[], field: string, limits: InputLimits): EmbeddingItem {
  if (ids.length === 0) throw fieldError(field, 'must not be empty')
  if (ids.length > limits.contextTokens) throw overContext(field, ids.length, limits.contextTokens, limits.model)
  const doubles = limits.numbers === 'doubles'
  let tokenIds = true
  ids.forEach((id, i) => {
    if (typeof id !== 'number' || !Number.isFinite(id))
      throw fieldError(`${field}[${i}]`, doubles ? 'must be a number' : 'must be a token id (an integer >= 0)')
    if (!Number.isInteger(id) || id < 0) {
      if (!doubles) throw fieldError(`${field}[${i}]`, 'must be a token id (an integer >= 0)')
      tokenIds = false
    }
  })
  let text: string | undefined
  if (tokenIds) {
    try {
      text = tokenizerNow().decode(ids as number[])
    } catch {
      if (!doubles) throw fieldError(field, 'holds a token id that is not in the cl100k_base vocabulary')
    }
  }
  if (text === undefined) {
    // Doubles (the spec's "list of doubles") embed as the numbers themselves, one token each.
    const numbers = (ids as number[]).join(' ')
    return { field, kind: 'numbers', input: numbers, prepare: () => ({ features: textFeatures(numbers), tokens: ids.length }) }
  }
  const spelt = text
  // Token ids embed as the text they spell, so ids and text agree.
  return { field, kind: 'text', input: spelt, prepare: () => ({ features: textFeatures(spelt), tokens: ids.length }) }
}

function contentItem(value: unknown, field: string, limits: InputLimits): EmbeddingItem {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw fieldError(field, 'must be an object with a `content` array')
  const content = (value as { content?: unknown }).content
  if (!Array.isArray(content)) throw fieldError(`${field}.content`, 'must be an array of text and image_url parts')
  if (content.length === 0) throw fieldError(`${field}.content`, 'must not be empty')
  const features: Features = new Map()
  let tokens = 0
  const identity: string[] = []
  content.forEach((part: unknown, j) => {
    const at = `${field}.content[${j}]`
    const p = (part ?? {}) as { type?: unknown; text?: unknown; image_url?: unknown }
    if (p.type === 'text') {
      if (typeof p.text !== 'string') throw fieldError(`${at}.text`, 'must be a string')
      if (p.text === '') throw fieldError(`${at}.text`, 'must not be empty')
      checkLength(p.text, `${at}.text`, limits)
      textFeatures(p.text, features)
      tokens += countTokens(p.text)
      identity.push(`t:${p.text}`)
    } else if (p.type === 'image_url') {
      const url = typeof p.image_url === 'string' ? p.image_url : (p.image_url as { url?: unknown } | null)?.url
      if (typeof url !== 'string' || url === '') throw fieldError(`${at}.image_url.url`, 'must be a non-empty string (an image URL or data URI)')
      imageFeatures(url, features)
      tokens += IMAGE_TOKENS
      identity.push(`i:${url}`)
    } else {
      throw fieldError(`${at}.type`, 'must be one of text, image_url')
    }
  })
  return { field, kind: 'content', input: identity.join('\u0000'), prepare: () => ({ features, tokens }) }
}

export function parseInput(input: unknown, limits: InputLimits): EmbeddingItem[] {
  const items = itemsOf(input, limits)
  // Every text within its own bound can still add up to more than a request may hold: checked by
  // length before any tokenizing too.
  const totalBytes = textBytes(input)
  const maxBytes = MAX_REQUEST_TOKENS * BYTES_PER_TOKEN_BOUND
  if (totalBytes > maxBytes) {
    throw overRequestBytes(totalBytes, MAX_REQUEST_TOKENS, maxBytes)
  }
  return items
}

/** Refuses a request whose inputs add up to more tokens than MAX_REQUEST_TOKENS. */
export function checkRequestTokens(inputs: readonly { field: string; tokens: number }[], limits: InputLimits): void {
  for (const { field, tokens } of inputs) if (tokens > limits.contextTokens) throw overContext(field, tokens, limits.contextTokens, limits.model)
  const total = inputs.reduce((n, input) => n + input.tokens, 0)
  if (total > MAX_REQUEST_TOKENS) {
    throw overRequestTokens(total, MAX_REQUEST_TOKENS)
  }
}

/** Bytes of text (UTF-16 units, a cheap bound) in the inputs, whatever their shape. */
function textBytes(input: unknown): number {
  if (typeof input === 'string') return input.length
  if (!Array.isArray(input)) return 0
  let total = 0
  for (const item of input) {
    if (typeof item === 'string') total += item.length
    else if (item !== null && typeof item === 'object' && Array.isArray((item as { content?: unknown }).content)) {
      for (const part of (item as { content: unknown[] }).content) {
        const text = (part as { text?: unknown } | null)?.text
        if (typeof text === 'string') total += text.length
      }
    }
  }
  return total
}

function itemsOf(input: unknown, limits: InputLimits): EmbeddingItem[] {
  if (typeof input === 'string') {
    if (input === '') throw fieldError('input', 'must not be empty')
    return [textItem(input, 'input', limits)]
  }
  if (!Array.isArray(input)) throw fieldError('input', input === undefined ? 'is required' : `must be ${SHAPES}`)
  if (input.length === 0) throw fieldError('input', 'must not be empty')
  if (input.length > MAX_INPUTS) throw fieldError('input', `must have at most ${MAX_INPUTS} items`)
  const first: unknown = input[0]
  // The first item decides the shape; every other item must have it too.
  if (typeof first === 'string') {
    return input.map((text, i) => {
      if (typeof text !== 'string') throw fieldError(`input[${i}]`, 'must be a string, like the other inputs')
      if (text === '') throw fieldError(`input[${i}]`, 'must not be empty')
      return textItem(text, `input[${i}]`, limits)
    })
  }
  if (typeof first === 'number') return [tokenIdsItem(input, 'input', limits)]
  if (Array.isArray(first)) {
    return input.map((ids, i) => {
      if (!Array.isArray(ids)) throw fieldError(`input[${i}]`, 'must be an array of token ids, like the other inputs')
      return tokenIdsItem(ids, `input[${i}]`, limits)
    })
  }
  if (first !== null && typeof first === 'object') return input.map((item, i) => contentItem(item, `input[${i}]`, limits))
  throw fieldError('input[0]', `must be a string, a token id, an array of token ids or a content object (input is ${SHAPES})`)
}
