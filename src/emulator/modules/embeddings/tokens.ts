// Token counts come from a real tokenizer (cl100k_base, the encoding of the text-embedding-3 family),
// loaded on first use: it takes about 100 ms, which a start-up should not pay.
type Tokenizer = typeof import('gpt-tokenizer/encoding/cl100k_base')

let loading: Promise<Tokenizer> | undefined
let tokenizer: Tokenizer | undefined

export async function loadTokenizer(): Promise<Tokenizer> {
  loading ??= import('gpt-tokenizer/encoding/cl100k_base').then((module) => (tokenizer = module))
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

export function countTokens(text: string): number {
  const encoder = tokenizerNow()
  if (text.length <= PIECE) return encoder.encode(text).length
  let tokens = 0
  let start = 0
  while (start < text.length) {
    let end = Math.min(text.length, start + PIECE)
    if (end < text.length) {
      const cut = wordStartBefore(text, end, start + PIECE / 2)
      if (cut !== -1) end = cut
    }
    tokens += encoder.encode(text.slice(start, end)).length
    start = end
  }
  return tokens
}

/** The last index in (floor, end] of a space between two non-space characters, or -1. */
function wordStartBefore(text: string, end: number, floor: number): number {
  for (let i = end; i > floor; i--) {
    if (text.charCodeAt(i) === 0x20 && !/\s/.test(text[i - 1]!) && !/\s/.test(text[i + 1] ?? ' ')) return i
  }
  return -1
}
