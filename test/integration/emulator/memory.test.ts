// Memory stays bounded under large traffic: the journal and the embeddings vector cache keep to their
// byte bounds (GET /_emulator/api/stats) while 1,000 large requests pass, each with new texts.
import { describe, expect, it } from 'vitest'
import { testEmulator } from '../../helpers/emulator.ts'

describe('memory under large traffic', () => {
  it('keeps the journal and the vector cache under their byte bounds through 1,000 large requests', async () => {
    const emu = await testEmulator()
    const stats = async () => (await emu.get('/_emulator/api/stats')).body.data
    const before = await stats()
    expect(before.journal.limit_bytes).toBe(emu.ctx.config.journalSize * 2 * emu.ctx.config.journalBodyLimit)
    // Four new texts of 8 KB each time (32 KB bodies, twice the journal's body limit): nothing repeats,
    // so every vector is new and every key holds its whole text.
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
        { model: 'openai/text-embedding-3-small', input: [0, 1, 2, 3].map((t) => text(i, t)), dimensions: 64, encoding_format: 'base64' },
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
    // The cache filled up and evicted: 4,000 keys of 16 KB alone would be 64 MB.
    expect(largest.cache).toBeGreaterThan(after.vector_cache.limit_bytes / 2)
    expect(after.vector_cache.entries).toBeLessThan(4000)
  }, 60_000)
})
