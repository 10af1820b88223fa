// The five shapes of `input`: a string, strings, token ids, lists of token ids, and content objects
// ({content: [text and image parts]}). Each becomes one item to embed, with its features and token
// count; a problem is a 400 naming its place (`input[2]`, `input[0].content[1].text`).
import { fieldError } from '../../core/errors.ts'
import { IMAGE_TOKENS, tokenizerNow } from './tokens.ts'
import { imageFeatures, textFeatures, type Features } from './vectors.ts'
import { MAX_INPUTS } from './embeddings.schemas.ts'

export interface EmbeddingItem {
  /** What makes this input itself: equal identities give equal vectors (and seed the input's noise). */
  identity: string
  /** Features and token count, worked out only when the vector is not already known. */
  prepare(): { features: Features; tokens: number }
}

const SHAPES = 'a string, an array of strings, an array of token ids, an array of arrays of token ids, or an array of content objects'

function textItem(text: string): EmbeddingItem {
  return { identity: `text:${text}`, prepare: () => ({ features: textFeatures(text), tokens: tokenizerNow().encode(text).length }) }
}

function tokenIdsItem(ids: unknown[], field: string): EmbeddingItem {
  if (ids.length === 0) throw fieldError(field, 'must not be empty')
  ids.forEach((id, i) => {
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 0) throw fieldError(`${field}[${i}]`, 'must be a token id (an integer >= 0)')
  })
  let text: string
  try {
    text = tokenizerNow().decode(ids as number[])
  } catch {
    throw fieldError(field, 'holds a token id that is not in the cl100k_base vocabulary')
  }
  // Token ids embed as the text they spell, so ids and text agree.
  return { identity: `text:${text}`, prepare: () => ({ features: textFeatures(text), tokens: ids.length }) }
}

function contentItem(value: unknown, field: string): EmbeddingItem {
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
      textFeatures(p.text, features)
      tokens += tokenizerNow().encode(p.text).length
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
  return { identity: `content:${identity.join('\u0000')}`, prepare: () => ({ features, tokens }) }
}

export function parseInput(input: unknown): EmbeddingItem[] {
  if (typeof input === 'string') {
    if (input === '') throw fieldError('input', 'must not be empty')
    return [textItem(input)]
  }
  if (!Array.isArray(input)) throw fieldError('input', input === undefined ? 'is required' : `must be ${SHAPES}`)
  if (input.length === 0) throw fieldError('input', 'must not be empty')
  if (input.length > MAX_INPUTS) throw fieldError('input', `must have at most ${MAX_INPUTS} items`)
  const first = input[0]
  // The first item decides the shape; every other item must have it too.
  if (typeof first === 'string') {
    return input.map((text, i) => {
      if (typeof text !== 'string') throw fieldError(`input[${i}]`, 'must be a string, like the other inputs')
      if (text === '') throw fieldError(`input[${i}]`, 'must not be empty')
      return textItem(text)
    })
  }
  if (typeof first === 'number') return [tokenIdsItem(input, 'input')]
  if (Array.isArray(first)) {
    return input.map((ids, i) => {
      if (!Array.isArray(ids)) throw fieldError(`input[${i}]`, 'must be an array of token ids, like the other inputs')
      return tokenIdsItem(ids, `input[${i}]`)
    })
  }
  if (first !== null && typeof first === 'object') return input.map((item, i) => contentItem(item, `input[${i}]`))
  throw fieldError('input[0]', `must be a string, a token id, an array of token ids or a content object (input is ${SHAPES})`)
}
