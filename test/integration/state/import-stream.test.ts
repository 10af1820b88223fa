// POST /_emulator/api/import reads its body as it arrives: a body declared over the import's bound is
// a 413 at once, a row larger than any the export writes is a 413 naming it as it passes its bound (the
// rest of the body dropped unread), a body that is not JSON is refused in the words it always was, and
// nothing changes; a document sent in small chunks imports as one sent whole.
import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { IMPORT_BODY_LIMIT, MAX_IMPORT_VALUE_BYTES } from '../../../src/emulator/modules/state/state-bounds.service.ts'
import { testEmulator, type TestEmulator } from '../../helpers/emulator.ts'

const ADMIN = '/_emulator/api'
const MB = 1024 * 1024
const JSON_TYPE = { 'content-type': 'application/json' }

const exportText = async (emu: TestEmulator): Promise<string> => (await emu.app.inject({ method: 'GET', url: `${ADMIN}/export` })).body
const withoutTime = (text: string): string => text.replace(/"exported_at":"[^"]+"/, '').replace(/"clock":\{[^}]*\}/, '')

describe('POST /_emulator/api/import, read as it arrives', () => {
  it('a document sent a few bytes at a time imports as one sent whole', async () => {
    const emu = await testEmulator()
    expect((await emu.send('POST', `${ADMIN}/accounts`, { name: 'chunked "é" 🙂', credits_usd: 2 })).status).toBe(201)
    const before = await exportText(emu)
    await emu.reset()
    const bytes = Buffer.from(before)
    // Chunks of 7 bytes: every escape, character and key is cut somewhere.
    const chunks = Array.from({ length: Math.ceil(bytes.length / 7) }, (_, i) => bytes.subarray(i * 7, i * 7 + 7))
    const res = await emu.app.inject({ method: 'POST', url: `${ADMIN}/import`, headers: JSON_TYPE, payload: Readable.from(chunks) })
    expect(res.statusCode, res.body).toBe(200)
    expect(withoutTime(await exportText(emu))).toBe(withoutTime(before))
  })

  it(`a body declared over ${IMPORT_BODY_LIMIT / MB} MB is a 413 before a byte is read`, async () => {
    const emu = await testEmulator()
    const res = await emu.app.inject({
      method: 'POST',
      url: `${ADMIN}/import`,
      headers: { ...JSON_TYPE, 'content-length': String(IMPORT_BODY_LIMIT + 1) },
      payload: '{}',
    })
    expect(res.statusCode).toBe(413)
    expect(res.json()).toEqual({
      error: {
        code: 413,
        message: `Request payload too large: this route takes bodies up to ${IMPORT_BODY_LIMIT / MB} MB`,
        metadata: { limit_bytes: IMPORT_BODY_LIMIT },
      },
    })
  })

  it(`a row over ${MAX_IMPORT_VALUE_BYTES / MB} MB is a 413 naming it, as it passes the bound, and nothing changes`, async () => {
    const emu = await testEmulator()
    const before = await exportText(emu)
    let sent = 0
    // The row's string goes on well past the bound: it is refused before the end is sent.
    const body = Readable.from(
      (function* () {
        yield Buffer.from('{"format":"model-gateway-emulator/state","version":1,"schema_version":1,"tables":{"accounts":[{"id":"a"},{"name":"')
        for (let i = 0; i < MAX_IMPORT_VALUE_BYTES / MB + 64; i++) {
          sent += MB
          yield Buffer.alloc(MB, 0x61)
        }
        yield Buffer.from('"}]}}')
      })(),
    )
    const res = await emu.app.inject({ method: 'POST', url: `${ADMIN}/import`, headers: JSON_TYPE, payload: body })
    expect(res.statusCode).toBe(413)
    expect(res.json()).toEqual({
      error: {
        code: 413,
        message: `Request payload too large: \`tables.accounts[1]\` is over ${MAX_IMPORT_VALUE_BYTES / MB} MB, the most one row (or other value) of a state document may hold`,
        metadata: { field: 'tables.accounts[1]', location: 'body', limit_bytes: MAX_IMPORT_VALUE_BYTES },
      },
    })
    expect(sent).toBeGreaterThan(MAX_IMPORT_VALUE_BYTES)
    expect(await exportText(emu)).toBe(before)
  }, 60_000)

  it.each([
    ['{"format":', "Malformed JSON body: Body is not valid JSON but content-type is set to 'application/json'"],
    ['{"tables":{"accounts":[{"id":1},]}}', "Malformed JSON body: Body is not valid JSON but content-type is set to 'application/json'"],
    ['{"a":1} trailing', "Malformed JSON body: Body is not valid JSON but content-type is set to 'application/json'"],
    ['{"__proto__":{"polluted":true}}', "Malformed JSON body: Body is not valid JSON but content-type is set to 'application/json'"],
    ['{"tables":{"accounts":[{"constructor":{"prototype":{}}}]}}', "Malformed JSON body: Body is not valid JSON but content-type is set to 'application/json'"],
    ['', 'Request body is empty but Content-Type is application/json: send a JSON body or no Content-Type'],
  ])('%j is a 400 as before, and nothing changes', async (payload, message) => {
    const emu = await testEmulator()
    const before = await exportText(emu)
    const res = await emu.app.inject({ method: 'POST', url: `${ADMIN}/import`, headers: JSON_TYPE, payload })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ error: { code: 400, message } })
    expect(await exportText(emu)).toBe(before)
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
  })

  it('a body nested deeper than any document is refused, naming the bound', async () => {
    const emu = await testEmulator()
    const res = await emu.app.inject({ method: 'POST', url: `${ADMIN}/import`, headers: JSON_TYPE, payload: `{"tables":{"accounts":[${'['.repeat(70)}` })
    expect(res.statusCode).toBe(400)
    expect(res.json().error.metadata).toEqual({ field: 'body', location: 'body', limit: 64 })
  })
})
