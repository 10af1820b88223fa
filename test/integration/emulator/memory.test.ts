// Memory stays bounded under large traffic: the journal, the embeddings vector cache and the catalog's
// bodies keep to their byte bounds (GET /_emulator/api/stats) while large requests pass, each new.
import { describe, expect, it } from 'vitest'
import { testEmulator } from '../../helpers/emulator.ts'

describe('memory under large traffic', () => {
  // First in the file: the vector cache is the process's, and the tests below fill it.
  it('caches a text the second time it comes, so texts that never repeat leave the cache as it was', async () => {
    const emu = await testEmulator()
    const cache = async () => (await emu.get('/_emulator/api/stats')).body.data.vector_cache as { entries: number; bytes: number }
    const embed = (input: string[]) => emu.send('POST', '/api/v1/embeddings', { model: 'openai/text-embedding-3-small', input }, emu.keys.standard)
    const before = await cache()
    for (let i = 0; i < 50; i++) expect((await embed([`a document seen once, number ${i}`, `and its title ${i}`])).status).toBe(200)
    expect(await cache()).toEqual(before)
    // The same two texts again: now cached, and the answer's data array with them on its second time.
    const first = await embed(['a document seen once, number 7', 'and its title 7'])
    expect((await cache()).entries).toBe(before.entries + 2)
    const again = await embed(['a document seen once, number 7', 'and its title 7'])
    expect((await cache()).entries).toBe(before.entries + 3)
    expect(again.body.data).toEqual(first.body.data)
  })

  it('keeps the journal and the vector cache under their byte bounds through 1,000 large requests', async () => {
    const emu = await testEmulator()
    const stats = async () => (await emu.get('/_emulator/api/stats')).body.data
    const before = await stats()
    expect(before.journal.limit_bytes).toBe(emu.ctx.config.journalSize * (2 * 8192 + 2 * emu.ctx.config.journalBodyLimit))
    // Four texts of 8 KB (32 KB bodies, twice the journal's body limit), each set sent twice in a row:
    // the cache takes a text the second time it sees it, and every key holds its whole text.
    const word = (i: number, j: number) => `word${(i * 7 + j * 13) % 9973}`
    const text = (i: number, t: number) =>
      Array.from({ length: 1100 }, (_, j) => word(i * 4 + t, j))
        .join(' ')
        .slice(0, 8192)
    let largest = { journal: 0, cache: 0 }
    for (let i = 0; i < 1000; i++) {
      const res = await emu.send(
        'POST',
        '/api/v1/embeddings',
        { model: 'openai/text-embedding-3-small', input: [0, 1, 2, 3].map((t) => text(Math.floor(i / 2), t)), dimensions: 64, encoding_format: 'base64' },
        emu.keys.standard,
      )
      expect(res.status).toBe(200)
      if (i % 100 === 99) {
        const now = await stats()
        expect(now.journal.bytes, `journal after ${i + 1} requests`).toBeLessThanOrEqual(now.journal.limit_bytes)
        expect(now.vector_cache.bytes, `vector cache after ${i + 1} requests`).toBeLessThanOrEqual(now.vector_cache.limit_bytes)
        largest = { journal: Math.max(largest.journal, now.journal.bytes), cache: Math.max(largest.cache, now.vector_cache.bytes) }
      }
    }
    const after = await stats()
    expect(after.journal.entries).toBe(emu.ctx.config.journalSize)
    // The ring is full of 32 KB requests cut to the body limit: it sits at its bound, not beyond.
    expect(largest.journal).toBeGreaterThan(after.journal.limit_bytes / 4)
    // The cache filled up and evicted: 2,000 keys of 16 KB alone would be 32 MB.
    expect(largest.cache).toBeGreaterThan(after.vector_cache.limit_bytes / 2)
    expect(after.vector_cache.entries).toBeLessThan(2000)
  }, 60_000)

  it('records into the same slots on every pass round the ring: the journal grows to its entries once, then not at all', async () => {
    const emu = await testEmulator({ journalSize: 50 })
    const journalBytes = async () => (await emu.get('/_emulator/api/stats')).body.data.journal.bytes as number
    const embed = (i: number) =>
      emu.send('POST', '/api/v1/embeddings', { model: 'openai/text-embedding-3-small', input: [`text ${i}`, `more ${i}`] }, emu.keys.standard)
    for (let i = 0; i < 50; i++) expect((await embed(i)).status).toBe(200)
    const afterOnePass = await journalBytes()
    for (let i = 50; i < 200; i++) expect((await embed(i)).status).toBe(200)
    expect(await journalBytes()).toBe(afterOnePass)
    // Each slot holds a response's first 16 KB and its request: about 50 x 20 KB, never the bound's 50 x 48 KB.
    expect(afterOnePass).toBeGreaterThan(50 * 16_384)
    expect(afterOnePass).toBeLessThan(50 * 24_576)
  })

  it('keeps a request body as it was sent, and the first bytes of the answer, with secrets redacted when read', async () => {
    const emu = await testEmulator()
    const sent = '{\n  "model": "openai/text-embedding-3-small",\n  "input": "a lighthouse at dusk"\n}'
    const res = await emu.app.inject({
      method: 'POST',
      url: '/api/v1/embeddings',
      headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json', 'x-title': 'Journal test' },
      payload: sent,
    })
    expect(res.statusCode).toBe(200)
    const [summary] = (await emu.get('/_emulator/api/journal')).body.data
    const entry = (await emu.get(`/_emulator/api/journal/${summary.id}`)).body.data
    expect(entry.request.body).toBe(sent)
    expect(entry.request.headers).toMatchObject({ 'x-title': 'Journal test', authorization: '[redacted]', 'content-type': 'application/json' })
    expect(entry.response.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(entry.response.body_bytes).toBe(res.rawPayload.length)
    expect(entry.response.body).toBe(`${res.rawPayload.subarray(0, 16_384).toString('utf8')}… (${res.rawPayload.length - 16_384} more bytes)`)
  })

  it("keeps the catalog's model lists under their byte bound, however many distinct lists are asked", async () => {
    const emu = await testEmulator()
    const held = async () => (await emu.get('/_emulator/api/stats')).body.data.catalog_cache as { entries: number; bytes: number; limit_bytes: number }
    let largest = 0
    // 60 lists of about half a megabyte each (a page from each offset): 30 MB asked of a 16 MiB half.
    for (let offset = 0; offset < 60; offset++) {
      expect((await emu.get(`/api/v1/models?offset=${offset}&limit=400`, emu.keys.standard)).status).toBe(200)
      const now = await held()
      expect(now.bytes, `after list ${offset + 1}`).toBeLessThanOrEqual(now.limit_bytes)
      largest = Math.max(largest, now.bytes)
    }
    expect(largest).toBeGreaterThan(8 * 1024 * 1024)
    const content = (await emu.get('/_emulator/api/stats')).body.data.generation_content
    expect(content.bytes).toBeLessThanOrEqual(content.limit_bytes)
  })
})
