// Long texts are counted in pieces (the tokenizer's merge step is quadratic in a run's length); for
// natural text the sum must be exactly what the tokenizer says of the whole.
import { describe, expect, it } from 'vitest'
import { countTokens, loadTokenizer, tokenizerNow } from '../../../src/emulator/core/tokens.ts'

const words = (n: number): string => Array.from({ length: n }, (_, i) => `word${i % 997}`).join(' ')

describe('counting tokens in pieces', () => {
  it('counts natural text exactly as the tokenizer does in one go', async () => {
    await loadTokenizer()
    const texts = [words(5000), `  leading spaces, then ${words(800)}\n\nand a paragraph ${words(900)}`, `Üñíçødé ${'naïve café '.repeat(300)}`]
    for (const text of texts) expect(countTokens(text)).toBe(tokenizerNow().encode(text).length)
  })
})

describe('the tokenizer', () => {
  it('is built from a copy of the package ranks that has not drifted (else run scripts/generate-token-ranks.ts)', async () => {
    const { readFile } = await import('node:fs/promises')
    const { TOKEN_RANKS_FILE } = await import('../../../src/emulator/core/tokens.ts')
    const { default: packaged } = await import('gpt-tokenizer/bpeRanks/cl100k_base')
    const copied = JSON.parse(await readFile(TOKEN_RANKS_FILE, 'utf8')) as unknown[]
    expect(copied.length).toBe(packaged.length)
    expect(JSON.stringify(copied)).toBe(JSON.stringify(packaged))
  })

  it('counts as the package own encoding does', async () => {
    await loadTokenizer()
    const reference = await import('gpt-tokenizer/encoding/cl100k_base')
    const text = `Üñíçødé naïve café, 東京 🚀 ${words(300)} \u{1F600}\u0000`
    expect(tokenizerNow().encode(text)).toEqual(reference.encode(text))
  })
})

describe('special tokens spelt in text', () => {
  it('count as the ordinary text they are, never as the special token or an error', async () => {
    await loadTokenizer()
    expect(countTokens('<|endoftext|>')).toBeGreaterThan(1)
    expect(tokenizerNow().decode(tokenizerNow().encode('a <|endoftext|> b'))).toBe('a <|endoftext|> b')
  })
})
