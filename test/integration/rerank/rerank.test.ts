// POST /api/v1/rerank: the answer's shape, an order that follows the query's topic, top_n, ties,
// determinism, every bad input (status and body) and who may call it.
import { describe, expect, it } from 'vitest'
import { countTokens, loadTokenizer } from '../../../src/emulator/core/tokens.ts'
import { testEmulator, type TestEmulator } from '../../helpers/emulator.ts'

const MODEL = 'cohere/rerank-v3.5'
const CREATED = Date.parse('2026-03-04T10:00:00Z') / 1000

const rerank = (emu: TestEmulator, body: Record<string, unknown>, key = emu.keys.standard) => emu.send('POST', '/api/v1/rerank', { model: MODEL, ...body }, key)

interface Result {
  index: number
  relevance_score: number
  document: { text?: string; image?: string }
}

const CORPUS = [
  'The cat sat on the warm mat by the fire',
  'Stock markets fell sharply after the earnings report',
  'How to bake sourdough bread at home',
  'Tips for baking bread with a sourdough starter',
  'The mitochondria is the powerhouse of the cell',
  'Our cat loves sleeping on the mat',
]

describe('POST /api/v1/rerank', () => {
  it('ranks the documents: the full answer', async () => {
    const emu = await testEmulator()
    const documents = ['Berlin is the capital of Germany.', 'Paris is the capital of France.', 'How to bake sourdough bread at home']
    const query = 'What is the capital of France?'
    const res = await rerank(emu, { query, documents })
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    await loadTokenizer()
    const queryTokens = countTokens(query)
    // Each document is read with the query: the tokens are the query once per document, and the documents.
    const totalTokens = documents.reduce((n, d) => n + queryTokens + countTokens(d), 0)
    expect(res.body).toEqual({
      id: expect.stringMatching(new RegExp(`^gen-rerank-${CREATED}-[0-9A-Za-z]{20}$`)),
      model: MODEL,
      provider: 'Cohere',
      results: [
        { index: 1, relevance_score: expect.any(Number), document: { text: documents[1] } },
        { index: 0, relevance_score: expect.any(Number), document: { text: documents[0] } },
        { index: 2, relevance_score: expect.any(Number), document: { text: documents[2] } },
      ],
      // One search unit (a query with up to 100 documents) at the endpoint's request price.
      usage: { search_units: 1, total_tokens: totalTokens, cost: 0.002 },
    })
    const scores = (res.body.results as Result[]).map((r) => r.relevance_score)
    for (const score of scores) expect(score).toBeGreaterThanOrEqual(0)
    for (const score of scores) expect(score).toBeLessThanOrEqual(1)
    // The document about the query's topic is clearly relevant, the unrelated one clearly not.
    expect(scores[0]).toBeGreaterThan(0.9)
    expect(scores[2]).toBeLessThan(0.1)
  })

  it('puts the documents about the query first, in a sensible order', async () => {
    const emu = await testEmulator()
    const order = async (query: string) => ((await rerank(emu, { query, documents: CORPUS })).body.results as Result[]).map((r) => r.index)
    const bread = await order('baking sourdough bread')
    expect(bread.slice(0, 2).sort()).toEqual([2, 3])
    const cat = await order('where does the cat sleep?')
    expect(cat[0]).toBe(5)
    expect(cat.slice(0, 2).sort()).toEqual([0, 5])
    expect((await order('why did stock markets fall?'))[0]).toBe(1)
    expect((await order('mitochondria in the cell'))[0]).toBe(4)
    // Scores fall from the first result to the last.
    const scores = ((await rerank(emu, { query: 'baking sourdough bread', documents: CORPUS })).body.results as Result[]).map((r) => r.relevance_score)
    expect(scores).toEqual([...scores].sort((a, b) => b - a))
  })

  it('scores the query itself highest; equal documents tie exactly and keep their order', async () => {
    const emu = await testEmulator()
    const res = await rerank(emu, {
      query: 'sourdough bread',
      documents: ['an unrelated text', 'sourdough bread', 'bread', 'an unrelated text', 'sourdough bread'],
    })
    const results = res.body.results as Result[]
    expect(results.map((r) => r.index)).toEqual([1, 4, 2, 0, 3])
    expect(results[0]!.relevance_score).toBe(results[1]!.relevance_score)
    expect(results[0]!.relevance_score).toBeGreaterThan(0.98)
    expect(results[3]!.relevance_score).toBe(results[4]!.relevance_score)
  })

  it('top_n keeps the most relevant; more than the documents, or none, gives them all', async () => {
    const emu = await testEmulator()
    const all = (await rerank(emu, { query: 'baking sourdough bread', documents: CORPUS })).body
    expect(all.results).toHaveLength(CORPUS.length)
    const two = (await rerank(emu, { query: 'baking sourdough bread', documents: CORPUS, top_n: 2 })).body
    expect(two.results).toEqual(all.results.slice(0, 2))
    const one = (await rerank(emu, { query: 'baking sourdough bread', documents: CORPUS, top_n: 1 })).body
    expect(one.results).toEqual(all.results.slice(0, 1))
    expect((await rerank(emu, { query: 'baking sourdough bread', documents: CORPUS, top_n: 1000 })).body.results).toEqual(all.results)
    // top_n bounds what comes back, not what is read or billed.
    expect(one.usage).toEqual(all.usage)
  })

  it('takes documents as objects and echoes them as sent; a string comes back as {text}', async () => {
    const emu = await testEmulator()
    const res = await rerank(emu, { query: 'sourdough', documents: ['plain string', { text: 'sourdough loaf' }, { text: 'other', extra: 1 }] })
    expect(res.status).toBe(200)
    const byIndex = new Map((res.body.results as Result[]).map((r) => [r.index, r.document]))
    expect(byIndex.get(0)).toEqual({ text: 'plain string' })
    expect(byIndex.get(1)).toEqual({ text: 'sourdough loaf' })
    expect(byIndex.get(2)).toEqual({ text: 'other' })
    expect((res.body.results as Result[])[0]!.index).toBe(1)
  })

  it('is deterministic: the same seed and request give the same bytes, a pinned score', async () => {
    const body = { model: MODEL, query: 'What is the capital of France?', documents: ['Paris is the capital of France.', 'Berlin is the capital of Germany.'] }
    const raw = async () => {
      const emu = await testEmulator()
      const res = await emu.app.inject({
        method: 'POST',
        url: '/api/v1/rerank',
        headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
        payload: body,
      })
      return res.body
    }
    const first = await raw()
    expect(await raw()).toBe(first)
    // Pinned: a change here changes every user's scores, so it must be deliberate.
    expect((JSON.parse(first) as { results: Result[] }).results.map((r) => r.relevance_score)).toEqual([0.96902681, 0.74708092])
    // The other model scores the same texts by its own vectors.
    const emu = await testEmulator()
    const fast = await emu.send('POST', '/api/v1/rerank', { ...body, model: 'cohere/rerank-v4.0-fast' }, emu.keys.standard)
    expect(fast.body.model).toBe('cohere/rerank-v4.0-fast')
    expect(fast.body.results[0].index).toBe(0)
    expect(fast.body.results[0].relevance_score).not.toBe(0.96902681)
  })

  it.each([
    [{ query: undefined }, 'query', 'is required'],
    [{ query: '' }, 'query', 'must not be empty'],
    [{ query: 5 }, 'query', 'must be a string'],
    [{ documents: undefined }, 'documents', 'is required'],
    [{ documents: [] }, 'documents', 'must not be empty'],
    [{ documents: 'one document' }, 'documents', 'must be an array'],
    [{ documents: Array.from({ length: 1001 }, (_, i) => `d${i}`) }, 'documents', 'must have at most 1000 items'],
    [{ documents: ['a', ''] }, 'documents[1]', 'must not be empty'],
    [{ documents: ['a', null] }, 'documents[1]', 'must be a string or an object with `text` and/or `image`'],
    [{ documents: [5] }, 'documents[0]', 'must be a string or an object with `text` and/or `image`'],
    [{ documents: [['a']] }, 'documents[0]', 'must be a string or an object with `text` and/or `image`'],
    [{ documents: ['a', {}] }, 'documents[1]', 'must have `text` or `image`'],
    [{ documents: [{ text: 5 }] }, 'documents[0].text', 'must be a string'],
    [{ documents: [{ text: '' }] }, 'documents[0].text', 'must not be empty'],
    [{ documents: [{ image: 'ftp://example.com/a.png' }] }, 'documents[0].image', 'must be an http(s) URL or a data:image/ URI'],
    [{ documents: [{ text: 'a', image: 5 }] }, 'documents[0].image', 'must be an http(s) URL or a data:image/ URI'],
    [{ top_n: 0 }, 'top_n', 'must be >= 1'],
    [{ top_n: -3 }, 'top_n', 'must be >= 1'],
    [{ top_n: 1.5 }, 'top_n', 'must be an integer'],
    [{ top_n: '3' }, 'top_n', 'must be an integer'],
    [{ model: '' }, 'model', 'must not be empty'],
    [{ model: undefined }, 'model', 'is required'],
    [{ user: 5 }, 'user', 'must be a string'],
    [{ provider: { order: 'cohere' } }, 'provider.order', 'must be an array'],
    [{ provider: { allow_fallbacks: 'no' } }, 'provider.allow_fallbacks', 'must be a boolean'],
  ])('%j is a 400 naming the field', async (change, field, issue) => {
    const emu = await testEmulator()
    const res = await rerank(emu, { query: 'q', documents: ['a', 'b'], ...change })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error: { code: 400, message: `Field \`${field}\` ${issue}`, metadata: { field, location: 'body', issue } } })
  })

  it('400 for an image document: these models read text only', async () => {
    const emu = await testEmulator()
    const res = await rerank(emu, { query: 'q', documents: ['a', { text: 'a bike', image: 'https://example.com/bike.png' }] })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      error: {
        code: 400,
        message: `Field \`documents[1].image\` is an image, but ${MODEL} reads only text: send the document as text`,
        metadata: { field: 'documents[1].image', location: 'body', issue: 'image not supported' },
      },
    })
  })

  it('400 for an unknown model and for a model whose output is not rerank', async () => {
    const emu = await testEmulator()
    const unknown = await rerank(emu, { model: 'nobody/nothing', query: 'q', documents: ['a'] })
    expect(unknown.status).toBe(400)
    expect(unknown.body).toEqual({ error: { code: 400, message: 'nobody/nothing is not a valid model ID', metadata: { field: 'model', location: 'body' } } })
    const chat = await rerank(emu, { model: 'openai/gpt-4.1', query: 'q', documents: ['a'] })
    expect(chat.status).toBe(400)
    expect(chat.body).toEqual({
      error: {
        code: 400,
        message: 'openai/gpt-4.1 is not a rerank model (it outputs text); choose a model whose output is rerank',
        metadata: { field: 'model', location: 'body' },
      },
    })
    const embeddings = await rerank(emu, { model: 'openai/text-embedding-3-small', query: 'q', documents: ['a'] })
    expect(embeddings.body.error.message).toBe(
      'openai/text-embedding-3-small is not a rerank model (it outputs embeddings); choose a model whose output is rerank',
    )
  })

  it('401 without a key, and for a management key', async () => {
    const emu = await testEmulator()
    const none = await emu.send('POST', '/api/v1/rerank', { model: MODEL, query: 'q', documents: ['a'] })
    expect(none.status).toBe(401)
    const management = await rerank(emu, { query: 'q', documents: ['a'] }, emu.keys.management)
    expect(management.status).toBe(401)
    expect(management.body.error.message).toBe('Management keys cannot be used for this operation: use a standard API key')
  })
})
