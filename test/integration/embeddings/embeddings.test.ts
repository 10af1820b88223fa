// POST /api/v1/embeddings over HTTP: every input shape, every bad input, the vectors' properties (unit
// length, determinism, meaning), provider routing, and billing through the ledger.
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { sha256Hex } from '../../../src/emulator/core/rng.ts'
import { cosine, embedFeatures, textFeatures } from '../../../src/emulator/modules/embeddings/embeddings-vectors.service.ts'
import { listeningEmulator, testEmulator, type TestEmulator } from '../../helpers/emulator.ts'

const MODEL = 'openai/text-embedding-3-small'

const embed = (emu: TestEmulator, body: Record<string, unknown>, key = emu.keys.standard) =>
  emu.send('POST', '/api/v1/embeddings', { model: MODEL, ...body }, key)

const norm = (v: number[]) => Math.sqrt(v.reduce((s, x) => s + x * x, 0))

describe('POST /api/v1/embeddings', () => {
  it('embeds a string: the full response shape', async () => {
    const emu = await testEmulator()
    const res = await embed(emu, { input: 'The quick brown fox jumps over the lazy dog' })
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(res.body).toMatchObject({
      id: expect.stringMatching(new RegExp(`^gen-emb-${Date.parse('2026-03-04T10:00:00Z') / 1000}-[0-9A-Za-z]{20}$`)),
      object: 'list',
      model: 'text-embedding-3-small',
      provider: expect.any(String),
      usage: { prompt_tokens: 9, total_tokens: 9, cost: expect.any(Number) },
    })
    expect(res.body.data).toHaveLength(1)
    expect(res.body.data[0]).toMatchObject({ object: 'embedding', index: 0 })
    expect(res.body.data[0].embedding).toHaveLength(1536)
    expect(norm(res.body.data[0].embedding)).toBeCloseTo(1, 6)
    // Cost is the serving endpoint's prompt price times the tokens.
    expect(res.body.usage.cost).toBeGreaterThan(0)
  })

  it('sends its pieces with their length, over a real socket too, and the journal keeps the start of the body', async () => {
    const emu = await listeningEmulator()
    const input = Array.from({ length: 16 }, (_, i) => `piece ${i}`)
    const res = await fetch(`${emu.url}/api/v1/embeddings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'openai/text-embedding-3-small', input }),
    })
    const text = await res.text()
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(text)))
    expect(res.headers.get('transfer-encoding')).toBeNull()
    const body = JSON.parse(text) as { data: Array<{ embedding: number[]; index: number }> }
    expect(body.data.map((d) => d.index)).toEqual(input.map((_, i) => i))
    const entry = (await emu.get('/_emulator/api/journal?limit=1')).body.data[0]
    expect(entry.response.body_bytes).toBe(Buffer.byteLength(text))
    expect(text.startsWith(entry.response.body.replace(/…$/, '').slice(0, 200))).toBe(true)
  })

  it('embeds every input shape, in input order', async () => {
    const emu = await testEmulator()
    const strings = await embed(emu, { input: ['first', 'second', 'third'], dimensions: 64 })
    expect(strings.body.data.map((d: { index: number }) => d.index)).toEqual([0, 1, 2])
    // Token ids (cl100k_base) embed as the text they spell.
    const text = await embed(emu, { input: 'hello world', dimensions: 64 })
    const ids = await embed(emu, { input: [15339, 1917], dimensions: 64 })
    expect(ids.body.data[0].embedding).toEqual(text.body.data[0].embedding)
    expect(ids.body.usage.prompt_tokens).toBe(2)
    const idLists = await embed(emu, { input: [[15339, 1917], [15339]], dimensions: 64 })
    expect(idLists.body.data).toHaveLength(2)
    expect(idLists.body.data[0].embedding).toEqual(text.body.data[0].embedding)
    const content = await embed(emu, {
      input: [
        {
          content: [
            { type: 'text', text: 'a red bicycle' },
            { type: 'image_url', image_url: { url: 'https://example.com/bike.png' } },
          ],
        },
        { content: [{ type: 'image_url', image_url: { url: 'https://example.com/bike.png' } }] },
        { content: [{ type: 'image_url', image_url: { url: 'https://example.com/bike.png' } }] },
      ],
      dimensions: 64,
    })
    expect(content.status).toBe(200)
    expect(content.body.data).toHaveLength(3)
    // The same image reference gives the same vector, of the requested size.
    expect(content.body.data[1].embedding).toEqual(content.body.data[2].embedding)
    expect(content.body.data[1].embedding).toHaveLength(64)
  })

  it('honours encoding_format base64 as float32 little-endian, equal to the float vector', async () => {
    const emu = await testEmulator()
    const floats = await embed(emu, { input: 'base64 please', encoding_format: 'float' })
    const encoded = await embed(emu, { input: 'base64 please', encoding_format: 'base64' })
    const bytes = Buffer.from(encoded.body.data[0].embedding as string, 'base64')
    const decoded = Array.from(new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4))
    expect(decoded).toHaveLength(1536)
    decoded.forEach((v, i) => expect(v).toBeCloseTo(floats.body.data[0].embedding[i], 6))
  })

  it('dimensions: 0 or absent is the native size, smaller is honoured, larger is a 400', async () => {
    const emu = await testEmulator()
    expect((await embed(emu, { input: 'x', dimensions: 0 })).body.data[0].embedding).toHaveLength(1536)
    expect((await embed(emu, { input: 'x', model: 'openai/text-embedding-3-large' })).body.data[0].embedding).toHaveLength(3072)
    expect((await embed(emu, { input: 'x', dimensions: 256 })).body.data[0].embedding).toHaveLength(256)
    const over = await embed(emu, { input: 'x', dimensions: 1537 })
    expect(over.status).toBe(400)
    expect(over.body.error).toEqual({
      code: 400,
      message: 'Field `dimensions` must be <= 1536, the native size of openai/text-embedding-3-small',
      metadata: { field: 'dimensions', location: 'body', issue: 'must be <= 1536, the native size of openai/text-embedding-3-small' },
    })
  })

  it.each([
    [{ input: '' }, 'input', 'must not be empty'],
    [{ input: [] }, 'input', 'must not be empty'],
    [{ input: ['a', ''] }, 'input[1]', 'must not be empty'],
    [{ input: ['a', 3] }, 'input[1]', 'must be a string, like the other inputs'],
    [{ input: 42 }, 'input', 'must be a string, an array of strings, an array of token ids, an array of arrays of token ids, or an array of content objects'],
    [{ input: [1, 'a'] }, 'input[1]', 'must be a number'],
    [{ input: [[1], []] }, 'input[1]', 'must not be empty'],
    [{ input: [[1], 2] }, 'input[1]', 'must be an array of token ids, like the other inputs'],
    [{ input: [{ content: [] }] }, 'input[0].content', 'must not be empty'],
    [{ input: [{ text: 'no content' }] }, 'input[0].content', 'must be an array of text and image_url parts'],
    [{ input: [{ content: [{ type: 'text', text: '' }] }] }, 'input[0].content[0].text', 'must not be empty'],
    [{ input: [{ content: [{ type: 'audio' }] }] }, 'input[0].content[0].type', 'must be one of text, image_url'],
    [
      { input: [{ content: [{ type: 'image_url', image_url: {} }] }] },
      'input[0].content[0].image_url.url',
      'must be a non-empty string (an image URL or data URI)',
    ],
    [
      { input: [null] },
      'input[0]',
      'must be a string, a token id, an array of token ids or a content object (input is a string, an array of strings, an array of token ids, an array of arrays of token ids, or an array of content objects)',
    ],
    [{ input: 'x', encoding_format: 'hex' }, 'encoding_format', 'must be one of float, base64'],
    [{ input: 'x', dimensions: -1 }, 'dimensions', 'must be >= 0'],
    [{ input: 'x', dimensions: 1.5 }, 'dimensions', 'must be an integer'],
    [{ input: 'x', user: 5 }, 'user', 'must be a string'],
    [{ input: 'x', input_type: [] }, 'input_type', 'must be a string'],
    [{ input: 'x', provider: { order: 'openai' } }, 'provider.order', 'must be an array'],
    [{ input: 'x', provider: { allow_fallbacks: 'no' } }, 'provider.allow_fallbacks', 'must be a boolean'],
    [{ input: 'x', provider: { data_collection: 'maybe' } }, 'provider.data_collection', 'must be one of allow, deny'],
    [{ input: 'x', provider: { zdr: 1 } }, 'provider.zdr', 'must be a boolean'],
    [{ input: 'x', model: '' }, 'model', 'must not be empty'],
  ])('%j is a 400 naming the field', async (body, field, issue) => {
    const emu = await testEmulator()
    const res = await embed(emu, body)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error: { code: 400, message: `Field \`${field}\` ${issue}`, metadata: { field, location: 'body', issue } } })
  })

  it('takes a list of doubles, as the spec says, and embeds the numbers; token ids still spell their text', async () => {
    const emu = await testEmulator()
    const doubles = await embed(emu, { input: [0.25, -1.5, 3] })
    expect(doubles.status).toBe(200)
    expect(doubles.body.usage.prompt_tokens).toBe(3)
    expect((await embed(emu, { input: [0.25, -1.5, 3] })).body.data[0].embedding).toEqual(doubles.body.data[0].embedding)
    expect((await embed(emu, { input: [0.25, -1.5, 4] })).body.data[0].embedding).not.toEqual(doubles.body.data[0].embedding)
    // Ids outside the vocabulary are numbers like any other.
    expect((await embed(emu, { input: [[999999999]] })).status).toBe(200)
    // Valid token ids are still the text they spell.
    expect((await embed(emu, { input: [15339] })).body.data[0].embedding).toEqual((await embed(emu, { input: 'hello' })).body.data[0].embedding)
  })

  it.each([
    [{ input: [1.5] }, 'input[0]', 'must be a token id (an integer >= 0)'],
    [{ input: [-1] }, 'input[0]', 'must be a token id (an integer >= 0)'],
    [{ input: [1, 'a'] }, 'input[1]', 'must be a token id (an integer >= 0)'],
    [{ input: [[999999999]] }, 'input[0]', 'holds a token id that is not in the cl100k_base vocabulary'],
  ])('with --embeddings-numbers token-ids (the real service), %j is a 400 naming the field', async (body, field, issue) => {
    const emu = await testEmulator({ embeddingsNumbers: 'token-ids' })
    const res = await embed(emu, body)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error: { code: 400, message: `Field \`${field}\` ${issue}`, metadata: { field, location: 'body', issue } } })
  })

  it('400 for a missing input or model, and for more than 2048 inputs', async () => {
    const emu = await testEmulator()
    expect((await emu.send('POST', '/api/v1/embeddings', { model: MODEL }, emu.keys.standard)).body.error.message).toBe('Field `input` is required')
    expect((await emu.send('POST', '/api/v1/embeddings', { input: 'x' }, emu.keys.standard)).body.error.message).toBe('Field `model` is required')
    const many = await embed(emu, { input: Array.from({ length: 2049 }, (_, i) => `text ${i}`) })
    expect(many.status).toBe(400)
    expect(many.body.error.message).toBe('Field `input` must have at most 2048 items')
  })

  it('400 for an unknown model and for a model that does not output embeddings', async () => {
    const emu = await testEmulator()
    const unknown = await embed(emu, { input: 'x', model: 'nonexistent/not-a-model:free' })
    expect(unknown.status).toBe(400)
    expect(unknown.body.error.message).toBe('nonexistent/not-a-model:free is not a valid model ID')
    const chat = await embed(emu, { input: 'x', model: 'openai/gpt-4.1' })
    expect(chat.status).toBe(400)
    expect(chat.body.error.message).toBe('openai/gpt-4.1 is not an embeddings model (it outputs text); choose a model whose output is embeddings')
  })

  it('401 without a key, and for a management key', async () => {
    const emu = await testEmulator()
    expect((await emu.send('POST', '/api/v1/embeddings', { model: MODEL, input: 'x' })).status).toBe(401)
    const management = await embed(emu, { input: 'x' }, emu.keys.management)
    expect(management.status).toBe(401)
    expect(management.body.error.message).toBe('Management keys cannot be used for this operation: use a standard API key')
  })
})

describe('vectors', () => {
  it('are the same for the same (model, input, dimensions), on every run: a golden vector', () => {
    const v = embedFeatures(MODEL, textFeatures('golden vector'), 1536, 'text:golden vector')
    const digest = createHash('sha256')
      .update(Buffer.from(new Float64Array(v).buffer))
      .digest('hex')
    expect(Array.from(v.slice(0, 4), (x) => Number(x.toFixed(9)))).toEqual(GOLDEN_HEAD)
    expect(digest).toBe(GOLDEN_DIGEST)
  })

  it('differ across models and sizes, and between different texts', async () => {
    const emu = await testEmulator()
    const a = (await embed(emu, { input: 'same text', dimensions: 32 })).body.data[0].embedding
    const b = (await embed(emu, { input: 'same text', dimensions: 32, model: 'openai/text-embedding-3-large' })).body.data[0].embedding
    const c = (await embed(emu, { input: 'other text', dimensions: 32 })).body.data[0].embedding
    const again = (await embed(emu, { input: 'same text', dimensions: 32 })).body.data[0].embedding
    expect(again).toEqual(a)
    expect(b).not.toEqual(a)
    expect(c).not.toEqual(a)
  })

  it('rank a small corpus sensibly: shared words score clearly higher than unrelated texts', async () => {
    const emu = await testEmulator()
    const corpus = [
      'The cat sat on the warm mat by the fire',
      'Stock markets fell sharply after the earnings report',
      'How to bake sourdough bread at home',
      'Tips for baking bread with a sourdough starter',
      'The mitochondria is the powerhouse of the cell',
      'Our cat loves sleeping on the mat',
    ]
    const res = await embed(emu, { input: corpus })
    const vectors = res.body.data.map((d: { embedding: number[] }) => d.embedding) as number[][]
    const rank = async (query: string) => {
      const q = (await embed(emu, { input: query })).body.data[0].embedding as number[]
      return vectors.map((v, i) => ({ i, score: cosine(q, v) })).sort((x, y) => y.score - x.score)
    }
    const bread = await rank('baking sourdough bread')
    expect(
      bread
        .slice(0, 2)
        .map((r) => r.i)
        .sort(),
    ).toEqual([2, 3])
    const cat = await rank('where does the cat sleep?')
    expect(cat[0]!.i).toBe(5)
    // Related pairs are well apart from unrelated ones.
    expect(cosine(vectors[2]!, vectors[3]!)).toBeGreaterThan(cosine(vectors[2]!, vectors[4]!) + 0.15)
    expect(cosine(vectors[1]!, vectors[4]!)).toBeLessThan(0.3)
  })
})

describe('routing and billing', () => {
  it('routes by provider preferences: order, only, ignore, zdr; nothing left is a 404', async () => {
    const emu = await testEmulator()
    const model = emu.ctx.services.catalog.get().find('baai/bge-m3')!
    const providers = model.endpoints.map((e) => e.provider_name)
    expect(providers.length).toBeGreaterThan(1)
    const last = providers.at(-1)!
    expect((await embed(emu, { model: model.id, input: 'x', provider: { order: [last] } })).body.provider).toBe(last)
    expect((await embed(emu, { model: model.id, input: 'x', provider: { only: [providers[0]!] } })).body.provider).toBe(providers[0])
    const notFirst = await embed(emu, { model: model.id, input: 'x', provider: { ignore: [providers[0]!] } })
    expect(notFirst.body.provider).not.toBe(providers[0])
    const none = await embed(emu, { model: model.id, input: 'x', provider: { only: ['nobody'] } })
    expect(none.status).toBe(404)
    expect(none.body.error).toMatchObject({ code: 404, message: 'No endpoints found that match your provider preferences' })
    const strict = await embed(emu, { model: model.id, input: 'x', provider: { order: ['nobody'], allow_fallbacks: false } })
    expect(strict.status).toBe(404)
    // The same preferences always choose the same endpoint.
    const again = await embed(emu, { model: model.id, input: 'x', provider: { ignore: [providers[0]!] } })
    expect(again.body.provider).toBe(notFirst.body.provider)
  })

  it('moves key usage and credits by the cost it reports', async () => {
    const emu = await testEmulator()
    const res = await embed(emu, { input: ['one sentence to embed', 'and another'] })
    const key = (await emu.get('/api/v1/keys', emu.keys.management)).body.data.find((k: { hash: string }) => k.hash === sha256Hex(emu.keys.standard))
    expect(key.usage).toBeCloseTo(res.body.usage.cost, 9)
    expect((await emu.get('/api/v1/credits', emu.keys.standard)).body.data.total_usage).toBeCloseTo(res.body.usage.cost, 9)
  })

  it('402 when credits run out, and nothing is billed for it', async () => {
    const emu = await testEmulator()
    const broke = (await emu.send('POST', '/_emulator/api/accounts', {})).body.data
    const res = await embed(emu, { input: 'x' }, broke.standard_key)
    expect(res.status).toBe(402)
    expect(res.body.error.metadata.limit_source).toBe('openrouter_credits')
    expect((await emu.get('/api/v1/credits', broke.standard_key)).body.data).toEqual({ total_credits: 0, total_usage: 0 })
  })

  it('402 when the key limit or a guardrail budget is spent; 404 when guardrails leave no endpoint', async () => {
    const emu = await testEmulator()
    const hash = sha256Hex(emu.keys.standard)
    await emu.send('PATCH', `/api/v1/keys/${hash}`, { limit: 0.000001, limit_reset: 'daily' }, emu.keys.management)
    expect((await embed(emu, { input: 'a long enough text to cost more than the limit '.repeat(20) })).status).toBe(200)
    const overLimit = await embed(emu, { input: 'x' })
    expect(overLimit.status).toBe(402)
    expect(overLimit.body.error.message).toBe('Key limit exceeded (daily limit)')
    await emu.send('PATCH', `/api/v1/keys/${hash}`, { limit: null }, emu.keys.management)

    const guardrail = (
      await emu.send('POST', '/api/v1/guardrails', { name: 'no openai', ignored_providers: ['openai', 'azure'], limit_usd: 0 }, emu.keys.management)
    ).body.data
    await emu.send('POST', `/api/v1/guardrails/${guardrail.id}/assignments/keys`, { key_hashes: [hash] }, emu.keys.management)
    // ada-002 is served by OpenAI and Azure only.
    expect(
      emu.ctx.services.catalog
        .get()
        .find('openai/text-embedding-ada-002')!
        .endpoints.map((e) => e.provider)
        .sort(),
    ).toEqual(['azure', 'openai'])
    const onlyOpenAi = await embed(emu, { input: 'x', model: 'openai/text-embedding-ada-002' })
    expect(onlyOpenAi.status).toBe(404)
    expect(onlyOpenAi.body.error.message).toBe('No endpoints available matching your guardrail restrictions and data policy')
    const budget = await embed(emu, { input: 'x', model: 'baai/bge-m3' })
    expect(budget.status).toBe(402)
    expect(budget.body.error.metadata.limit_source).toBe('guardrail_budget')
  })
})

// Pinned: a change here changes every user's vectors, so it must be deliberate (and said in the README).
const GOLDEN_HEAD = [-0.012941075, -0.016415606, 0.011450668, -0.244751882]
const GOLDEN_DIGEST = '0df913c4730bcf51ddd852d41240b55c157b86c3aa9034a299bc307d2c524fed'
