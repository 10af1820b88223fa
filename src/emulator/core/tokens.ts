// Token counts come from a real tokenizer (cl100k_base, the encoding of the text-embedding-3 family),
// loaded on first use, which a start-up should not pay for. Its ranks are read from a JSON copy of
// gpt-tokenizer's own (scripts/generate-token-ranks.ts): parsed as JSON they load in half the time and
// keep about 20 MB less resident memory than the package's module of the same array.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { BUNDLED_FIXTURES } from './package-root.ts'

/** Text in, token ids out; every piece of text is ordinary text, as a prompt's is (see ORDINARY). */
export interface Tokenizer {
  encode(text: string): number[]
  decode(tokens: readonly number[]): string
}

/**
 * A special token's spelling in a prompt (`<|endoftext|>`) is text like any other: by default the
 * package throws on it, which a user's message must never cause.
 */
const ORDINARY = { allowedSpecial: new Set<string>(), disallowedSpecial: new Set<string>() }

/** The ranks the tokenizer is built from: index = rank; a string, or its bytes where a token is not whole UTF-8. */
export const TOKEN_RANKS_FILE = join(BUNDLED_FIXTURES, 'tokenizer', 'cl100k_base.json')

let loading: Promise<Tokenizer> | undefined
let tokenizer: Tokenizer | undefined

export async function loadTokenizer(): Promise<Tokenizer> {
  loading ??= Promise.all([import('gpt-tokenizer/GptEncoding'), readFile(TOKEN_RANKS_FILE, 'utf8')]).then(([{ GptEncoding }, ranks]) => {
    const encoding = GptEncoding.getEncodingApi('cl100k_base', () => JSON.parse(ranks) as Array<string | number[]>)
    tokenizer = { encode: (text) => encoding.encode(text, ORDINARY), decode: (tokens) => encoding.decode(tokens) }
    return tokenizer
  })
  return loading
}

/** The loaded tokenizer; call loadTokenizer() first. */
export function tokenizerNow(): Tokenizer {
  if (!tokenizer) throw new Error('tokenizer not loaded')
  return tokenizer
}

/** What an image part counts, as a fixed price per image (a low-detail tile). */
export const IMAGE_TOKENS = 85

/**
 * Texts are counted in pieces of about this many characters. The tokenizer's merge step is quadratic
 * in the length of one pre-token, so a long run without spaces (100,000 `a`s, or spaces) would take
 * seconds; in pieces it stays linear. A cut falls before a space that starts a word, where the
 * tokenizer's own pre-tokens break, so natural text counts exactly; only a run longer than a piece
 * (no space to cut at) may count a token more or less at the cut.
 */
const PIECE = 512

/** The text in pieces the tokenizer counts alone (see PIECE). */
function* tokenPieces(text: string): Generator<string> {
  if (text.length <= PIECE) {
    yield text
    return
  }
  let start = 0
  while (start < text.length) {
    let end = Math.min(text.length, start + PIECE)
    if (end < text.length) {
      const cut = wordStartBefore(text, end, start + PIECE / 2)
      if (cut !== -1) end = cut
    }
    yield text.slice(start, end)
    start = end
  }
}

/**
 * Counts of short texts seen lately: a conversation sends its earlier messages again with every turn,
 * and a test suite the same prompts, so most counts were made before. Texts up to COUNTED_CHARS, at most
 * COUNTED_TEXTS of them (the map is emptied when full: cheaper than an order to keep, and as good here).
 */
const COUNTED_CHARS = 1024
const COUNTED_TEXTS = 2048
const counted = new Map<string, number>()

export function countTokens(text: string): number {
  const known = text.length <= COUNTED_CHARS ? counted.get(text) : undefined
  if (known !== undefined) return known
  const encoder = tokenizerNow()
  let tokens = 0
  for (const piece of tokenPieces(text)) tokens += encoder.encode(piece).length
  if (text.length <= COUNTED_CHARS) {
    if (counted.size >= COUNTED_TEXTS) counted.clear()
    counted.set(text, tokens)
  }
  return tokens
}

/**
 * The first `max` tokens of `text`, counted as countTokens counts them, and whether it was cut. The
 * work stops at the cut: a 600 KB answer cut at 16 tokens costs 16 tokens, not the whole text.
 */
export function firstTokens(text: string, max: number): { text: string; tokens: number; cut: boolean } {
  const encoder = tokenizerNow()
  let tokens = 0
  let kept = ''
  for (const piece of tokenPieces(text)) {
    const encoded = encoder.encode(piece)
    if (tokens + encoded.length > max) return { text: kept + encoder.decode(encoded.slice(0, max - tokens)), tokens: max, cut: true }
    tokens += encoded.length
    kept += piece
  }
  return { text, tokens, cut: false }
}

/** The last index in (floor, end] of a space between two non-space characters, or -1. */
function wordStartBefore(text: string, end: number, floor: number): number {
  for (let i = end; i > floor; i--) {
    if (text.charCodeAt(i) === 0x20 && !/\s/.test(text[i - 1]!) && !/\s/.test(text[i + 1] ?? ' ')) return i
  }
  return -1
}
