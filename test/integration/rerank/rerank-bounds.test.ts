// Rerank inputs are bounded: the query (2048 tokens, Cohere's bound), each document (32,768 tokens)
// and all documents of a request (300,000 tokens), each judged by length before the tokenizer spends
// time on it, then by tokens. Each refusal names its field and bills nothing.
import { describe, expect, it } from 'vitest'
import { testEmulator, type TestEmulator } from '../../helpers/emulator.ts'

const MODEL = 'cohere/rerank-v3.5'

const rerank = (emu: TestEmulator, query: string, documents: unknown[]) =>
  emu.send('POST', '/api/v1/rerank', { model: MODEL, query, documents }, emu.keys.standard)
const words = (n: number): string => Array.from({ length: n }, (_, i) => `word${i % 997}`).join(' ')

/** What a refusal must leave as it was: the balance, the usage rows, the generations. */
async function ledger(emu: TestEmulator) {
  return {
    credits: (await emu.get('/api/v1/credits', emu.keys.management)).body,
    usage: emu.ctx.db.prepare('SELECT count(*) FROM usage').pluck().get(),
    generations: emu.ctx.db.prepare('SELECT count(*) FROM generations').pluck().get(),
  }
}

describe('the query', () => {
  it('holds at most 2048 tokens: more is a 400 naming `query`, by tokens or by length alone', async () => {
    const emu = await testEmulator()
    const before = await ledger(emu)
    const long = await rerank(emu, words(1500), ['a'])
    expect(long.status).toBe(400)
    expect(long.body.error).toEqual({
      code: 400,
      message: `Field \`query\` is ${long.body.error.metadata.tokens} tokens, more than the 2048 a query to ${MODEL} may hold`,
      metadata: { field: 'query', location: 'body', issue: 'too many tokens', limit: 2048, tokens: expect.any(Number) },
    })
    expect(long.body.error.metadata.tokens).toBeGreaterThan(2048)
    const huge = await rerank(emu, 'q'.repeat(40_000), ['a'])
    expect(huge.body.error).toEqual({
      code: 400,
      message: 'Field `query` is 40000 bytes, longer than any text of 2048 tokens (at most 32768 bytes are read)',
      metadata: { field: 'query', location: 'body', issue: 'too many tokens', limit: 2048, limit_bytes: 32768 },
    })
    expect(await ledger(emu)).toEqual(before)
    expect((await rerank(emu, words(1000), ['a'])).status).toBe(200)
  })
})

describe('a document', () => {
  it('holds at most 32,768 tokens: more is a 400 naming the document, by tokens or by length alone', async () => {
    const emu = await testEmulator()
    const before = await ledger(emu)
    const long = await rerank(emu, 'q', ['short', 'also short', words(20_000)])
    expect(long.status).toBe(400)
    expect(long.body.error).toEqual({
      code: 400,
      message: `Field \`documents[2]\` is ${long.body.error.metadata.tokens} tokens, more than the 32768 one document may hold`,
      metadata: { field: 'documents[2]', location: 'body', issue: 'too many tokens', limit: 32768, tokens: expect.any(Number) },
    })
    expect(long.body.error.metadata.tokens).toBeGreaterThan(32768)
    const nested = await rerank(emu, 'q', ['short', { text: 'é'.repeat(300_000) }])
    expect(nested.body.error).toEqual({
      code: 400,
      message: 'Field `documents[1].text` is 600000 bytes, longer than any text of 32768 tokens (at most 524288 bytes are read)',
      metadata: { field: 'documents[1].text', location: 'body', issue: 'too many tokens', limit: 32768, limit_bytes: 524288 },
    })
    expect(await ledger(emu)).toEqual(before)
  })
})

describe('one request', () => {
  it('holds at most 300,000 tokens of documents, and text that could not fit them is refused by length', async () => {
    const emu = await testEmulator()
    const before = await ledger(emu)
    const many = await rerank(
      emu,
      'q',
      Array.from({ length: 30 }, () => words(6000)),
    )
    expect(many.status).toBe(400)
    expect(many.body.error).toEqual({
      code: 400,
      message: `Field \`documents\` is ${many.body.error.metadata.tokens} tokens in all, more than the 300000 one request may hold: send the documents in several requests`,
      metadata: { field: 'documents', location: 'body', issue: 'over request tokens', limit: 300_000, tokens: expect.any(Number) },
    })
    expect(many.body.error.metadata.tokens).toBeGreaterThan(300_000)
    const bulky = await rerank(
      emu,
      'q',
      Array.from({ length: 10 }, () => 'y'.repeat(500_000)),
    )
    expect(bulky.body.error).toEqual({
      code: 400,
      message:
        'Field `documents` is 5000000 characters in all, longer than any text of 300000 tokens, the most one request may hold: send the documents in several requests',
      metadata: { field: 'documents', location: 'body', issue: 'over request tokens', limit: 300_000, limit_characters: 4_800_000 },
    })
    expect(await ledger(emu)).toEqual(before)
  })

  it('a body over 16 MiB is a 413', async () => {
    const emu = await testEmulator()
    const res = await rerank(
      emu,
      'q',
      Array.from({ length: 40 }, () => 'z'.repeat(450_000)),
    )
    expect(res.status).toBe(413)
    expect(res.body.error.code).toBe(413)
  })
})
