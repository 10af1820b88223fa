// Embeddings inputs are bounded as the real service bounds them: an input over the model's context
// length is refused (not truncated), text is judged by its length before the tokenizer spends time
// on it, and one request holds at most 300,000 tokens. Nothing refused is billed.
import { describe, expect, it } from 'vitest'
import { testEmulator, type TestEmulator } from '../../helpers/emulator.ts'

const MODEL = 'openai/text-embedding-3-small'
const CONTEXT = 8192

const embed = (emu: TestEmulator, input: unknown) => emu.send('POST', '/api/v1/embeddings', { model: MODEL, input }, emu.keys.standard)
const words = (n: number): string => Array.from({ length: n }, (_, i) => `word${i % 997}`).join(' ')

/** What a refusal must leave as it was: the balance, the usage, the activity. */
async function ledger(emu: TestEmulator) {
  return {
    credits: (await emu.get('/api/v1/credits', emu.keys.management)).body,
    usage: emu.ctx.db.prepare('SELECT count(*) FROM usage').pluck().get(),
  }
}

describe('an embeddings input over the context length', () => {
  it('is refused with a 400 naming the input and the limit, and nothing is billed', async () => {
    const emu = await testEmulator()
    const before = await ledger(emu)
    const single = await embed(emu, words(12_000))
    expect(single.status).toBe(400)
    expect(single.body.error).toEqual({
      code: 400,
      message: `Field \`input\` is ${single.body.error.metadata.tokens} tokens, more than the ${CONTEXT}-token context length of ${MODEL}: shorten it or split it into several inputs`,
      metadata: { field: 'input', location: 'body', issue: 'over context length', limit: CONTEXT, tokens: expect.any(Number) },
    })
    expect(single.body.error.metadata.tokens).toBeGreaterThan(CONTEXT)

    const third = await embed(emu, ['short', 'also short', words(10_000)])
    expect(third.status).toBe(400)
    expect(third.body.error.metadata).toMatchObject({ field: 'input[2]', limit: CONTEXT })
    expect(third.body.error.message).toMatch(/^Field `input\[2\]` is \d+ tokens, more than the 8192-token context length/)

    const ids = await embed(emu, [Array.from({ length: CONTEXT + 1 }, () => 1000)])
    expect(ids.body.error).toMatchObject({ code: 400, metadata: { field: 'input[0]', limit: CONTEXT, tokens: CONTEXT + 1 } })

    const part = await embed(emu, [{ content: [{ type: 'text', text: words(10_000) }] }])
    expect(part.body.error.metadata).toMatchObject({ field: 'input[0]', limit: CONTEXT })
    expect(await ledger(emu)).toEqual(before)
  })

  it('is refused by its length alone when no text of that length could fit, before tokenizing', async () => {
    const emu = await testEmulator()
    const before = await ledger(emu)
    const huge = await embed(emu, 'x'.repeat(31 * 1024 * 1024))
    expect(huge.status).toBe(400)
    expect(huge.body.error).toEqual({
      code: 400,
      message: `Field \`input\` is ${31 * 1024 * 1024} bytes, longer than any text that fits the ${CONTEXT}-token context length of ${MODEL} (at most ${CONTEXT * 16} bytes are read)`,
      metadata: { field: 'input', location: 'body', issue: 'over context length', limit: CONTEXT, limit_bytes: CONTEXT * 16 },
    })
    const nested = await embed(emu, [{ content: [{ type: 'text', text: 'é'.repeat(CONTEXT * 9) }] }])
    expect(nested.body.error.metadata).toMatchObject({ field: 'input[0].content[0].text', limit_bytes: CONTEXT * 16 })
    // A long run without spaces is tokenized in pieces (the tokenizer is quadratic on one run): still an answer.
    expect((await embed(emu, 'a'.repeat(100_000))).body.error.metadata).toMatchObject({ field: 'input', limit: CONTEXT })
    expect(await ledger(emu)).toEqual(before)
  })
})

describe('one request of embeddings', () => {
  it('holds at most 300,000 tokens, and text that could not fit them is refused by length', async () => {
    const emu = await testEmulator()
    const before = await ledger(emu)
    const many = await embed(
      emu,
      Array.from({ length: 2048 }, () => words(200)),
    )
    expect(many.status).toBe(400)
    expect(many.body.error).toMatchObject({
      code: 400,
      message: expect.stringMatching(/^Field `input` is \d+ tokens in all, more than the 300000 one request may hold/),
      metadata: { field: 'input', location: 'body', issue: 'over request tokens', limit: 300_000 },
    })
    const bulky = await embed(
      emu,
      Array.from({ length: 100 }, () => 'y'.repeat(60_000)),
    )
    expect(bulky.body.error).toMatchObject({ code: 400, metadata: { field: 'input', issue: 'over request tokens', limit_bytes: 300_000 * 16 } })
    expect(await ledger(emu)).toEqual(before)
    // Just under every bound is fine.
    const fits = await embed(emu, [words(3000), words(3000)])
    expect(fits.status).toBe(200)
    expect(fits.body.usage.prompt_tokens).toBeLessThanOrEqual(2 * CONTEXT)
  })
})
