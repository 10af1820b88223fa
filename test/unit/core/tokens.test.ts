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
