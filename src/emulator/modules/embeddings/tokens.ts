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
