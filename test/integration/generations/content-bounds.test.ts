// The content of text generations is kept for an account's newest ones, by count and by bytes: past a
// bound the oldest content is dropped (down to nine tenths of it) while the generations and their usage
// rows stay, and reading a dropped one says why. An imported document is held to the same bounds.
import { describe, expect, it } from 'vitest'
import { MAX_ACCOUNT_CONTENT_BYTES, MAX_ACCOUNT_CONTENTS } from '../../../src/emulator/modules/generations/generations.schemas.ts'
import { testEmulator, type TestEmulator } from '../../helpers/emulator.ts'

const ADMIN = '/_emulator/api'
const MiB = 1024 * 1024
/** An account's content bound in whole MiB. */
const MIBS = MAX_ACCOUNT_CONTENT_BYTES / MiB
type Row = Record<string, unknown>
type Doc = { tables: Record<string, Row[]> } & Record<string, unknown>

const chat = (emu: TestEmulator, text: string) =>
  emu.send('POST', '/api/v1/chat/completions', { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: text }] }, emu.keys.standard)
const content = (emu: TestEmulator, id: string) => emu.get(`/api/v1/generation/content?id=${encodeURIComponent(id)}`, emu.keys.standard)
const exportDoc = async (emu: TestEmulator): Promise<Doc> => (await emu.get(`${ADMIN}/export`)).body as Doc
const count = (emu: TestEmulator, table: string): number => emu.ctx.db.prepare<[], { n: number }>(`SELECT COUNT(*) AS n FROM ${table}`).get()!.n

/**
 * A document whose account has `n` more generations with content, cloned from one real chat's rows
 * (the generation and its content; the usage row is shared), each content of `completion`.
 */
async function withContents(
  emu: TestEmulator,
  n: number,
  completion: (i: number, sizes: { seed: number; input: number }) => string,
): Promise<{ doc: Doc; ids: string[] }> {
  expect((await chat(emu, 'seed')).status).toBe(200)
  const seedBytes = emu.ctx.services.generations.repo.held(null).bytes
  const doc = await exportDoc(emu)
  const [generation] = doc.tables['generations']!
  const [kept] = doc.tables['generation_contents']!
  const ids = Array.from({ length: n }, (_, i) => `gen-imported-${i}`)
  return {
    ids,
    doc: {
      ...doc,
      tables: {
        ...doc.tables,
        generations: [...doc.tables['generations']!, ...ids.map((id) => ({ ...generation, id }))],
        generation_contents: [
          ...doc.tables['generation_contents']!,
          ...ids.map((id, i) => ({
            ...kept,
            generation_id: id,
            completion: completion(i, { seed: seedBytes, input: Buffer.byteLength(kept!['input'] as string) }),
          })),
        ],
      },
    },
  }
}

describe('the newest content is kept', () => {
  it(`past ${MAX_ACCOUNT_CONTENTS} generations of an account, the oldest content goes, and the generations stay`, async () => {
    const emu = await testEmulator()
    const { doc, ids } = await withContents(emu, MAX_ACCOUNT_CONTENTS - 1, () => 'short')
    expect((await emu.send('POST', `${ADMIN}/import`, doc)).status).toBe(200)
    expect(count(emu, 'generation_contents')).toBe(MAX_ACCOUNT_CONTENTS)
    const generations = count(emu, 'generations')
    const usage = count(emu, 'usage')

    const newest = await chat(emu, 'one more')
    expect(newest.status).toBe(200)
    // Past the bound by one: down to nine tenths of it, the newest kept.
    expect(count(emu, 'generation_contents')).toBe(MAX_ACCOUNT_CONTENTS * 0.9)
    expect(count(emu, 'generations')).toBe(generations + 1)
    expect(count(emu, 'usage')).toBe(usage + 1)
    expect((await content(emu, newest.body.id)).status).toBe(200)
    expect((await content(emu, ids.at(-1)!)).status).toBe(200)
    const dropped = await content(emu, ids[0]!)
    expect(dropped.status).toBe(404)
    expect(dropped.body).toEqual({
      error: {
        code: 404,
        message: `Generation ${ids[0]} has no stored content: the emulator keeps the content of the text generations it answers itself (not of those relayed upstream with --upstream), and of an account's newest ${MAX_ACCOUNT_CONTENTS} (${MAX_ACCOUNT_CONTENT_BYTES / 1024 / 1024} MiB at most): an older one's was dropped`,
        metadata: { field: 'id', location: 'querystring', api_type: 'completions' },
      },
    })
  })

  it(`past ${MIBS} MiB of an account, by bytes: the oldest go until the rest hold nine tenths of it`, async () => {
    const emu = await testEmulator()
    // The bound less 64 bytes: the imported contents of 1 MiB each (input and answer), the last one less the first chat's.
    const { doc } = await withContents(emu, MIBS, (i, size) => 'm'.repeat(MiB - size.input - (i < MIBS - 1 ? 0 : size.seed + 64)))
    expect((await emu.send('POST', `${ADMIN}/import`, doc)).status).toBe(200)
    expect(count(emu, 'generation_contents')).toBe(MIBS + 1)

    // One more small call passes the bound: the big ones go, oldest first, to under nine tenths of it.
    expect((await chat(emu, 'one more')).status).toBe(200)
    const held = emu.ctx.services.generations.repo.held(null)
    expect(held.bytes).toBeLessThanOrEqual(MAX_ACCOUNT_CONTENT_BYTES * 0.9)
    expect(held.bytes).toBeGreaterThan(MAX_ACCOUNT_CONTENT_BYTES * 0.9 - 2 * MiB)
  })
})

describe('an imported document is held to the same bounds', () => {
  it('refuses an account of too many contents, or of too many bytes, naming the row, and changes nothing', async () => {
    const emu = await testEmulator()
    const before = await exportDoc(emu)
    const many = await withContents(emu, MAX_ACCOUNT_CONTENTS, () => 'short')
    const res = await emu.send('POST', `${ADMIN}/import`, many.doc)
    const at = `tables.generation_contents[${MAX_ACCOUNT_CONTENTS}].account_id`
    const issue = `is past the ${MAX_ACCOUNT_CONTENTS} generations' content one account keeps`
    expect(res.status).toBe(400)
    expect(res.body.error).toMatchObject({ code: 400, message: `Field \`${at}\` ${issue}`, metadata: { field: at, issue } })

    const big = await withContents(emu, MIBS + 6, () => 'b'.repeat(MiB))
    const heavy = await emu.send('POST', `${ADMIN}/import`, big.doc)
    expect(heavy.status).toBe(400)
    expect(heavy.body.error.metadata.issue).toBe(`is past the ${MAX_ACCOUNT_CONTENT_BYTES} bytes of generation content one account keeps`)
    // The first row past the bound, counting the helper's chats and the seed's.
    const row = Number(/^tables\.generation_contents\[(\d+)\]$/.exec(heavy.body.error.metadata.field)![1])
    expect(row).toBeGreaterThanOrEqual(MIBS - 1)
    expect(row).toBeLessThanOrEqual(MIBS + 3)

    // Only the two seeding chats of the helper changed anything.
    const after = await exportDoc(emu)
    expect(after.tables['presets']).toEqual(before.tables['presets'])
    expect(after.tables['generation_contents']).toHaveLength(2)
  })
})
