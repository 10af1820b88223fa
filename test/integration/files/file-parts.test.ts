// A file's bytes in parts (file_parts, FILE_PART_BYTES each but the last): written a part per turn of
// the event loop and made visible by one transaction, read back byte for byte whatever the size (one
// byte, one whole part, one more, many with a short last), carried by the state document (and read
// from a document exported before the parts, and from a database made before them), checked on
// import, and never left half made: a write the state changes under stops with a 409 and leaves nothing,
// parts a crash left are gone at the next start, and the emulator's room for every account's files is
// refused from an upload's declared length before its body is read.
import { mkdtempSync, rmSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it, onTestFinished } from 'vitest'
import { resetAccount } from '../../../src/emulator/modules/state/state.service.ts'
import { FILE_PART_BYTES, FILE_PART_CHARS, MAX_TOTAL_FILE_BYTES } from '../../../src/emulator/modules/files/files.schemas.ts'
import { createEmulator } from '../../../src/emulator/index.ts'
import { listeningEmulator, testEmulator, type TestEmulator } from '../../helpers/emulator.ts'
import { exportDoc, importDoc, moreAccounts, type StateDoc } from '../../helpers/state-doc.ts'

const ADMIN = '/_emulator/api'
const MB = 1024 * 1024

/** `size` bytes that differ from part to part and from place to place, starting as a PDF (its type is read from its head). */
function pdfBytes(size: number): Buffer {
  const bytes = Buffer.alloc(size)
  for (let i = 0; i < size; i++) bytes[i] = (i * 7919 + (i >> 20)) & 0xff
  Buffer.from('%PDF-').copy(bytes, 0, 0, Math.min(5, size))
  return bytes
}

const defaultAccount = async (emu: TestEmulator): Promise<{ id: string; workspace_id: string }> => (await emu.get(`${ADMIN}/accounts`)).body.data[0]

/** A server-side (downloadable) file, over the admin API: its answer. */
const serverFile = (emu: TestEmulator, account: string, bytes: Buffer) =>
  emu.send('POST', `${ADMIN}/accounts/${account}/files`, { filename: 'parts.bin', content_base64: bytes.toString('base64') })

const download = async (emu: TestEmulator, id: string, key = emu.keys.standard) =>
  (await emu.app.inject({ method: 'GET', url: `/api/v1/files/${id}/content`, headers: { authorization: `Bearer ${key}` } })).rawPayload

const count = (emu: TestEmulator, table: 'files' | 'file_parts'): number => emu.ctx.db.prepare<[], { n: number }>(`SELECT COUNT(*) AS n FROM ${table}`).get()!.n

/** Waits until `probe` holds, checking on each turn of the event loop (no fixed sleep). */
async function until(probe: () => boolean, what: string): Promise<void> {
  const deadline = performance.now() + 10_000
  while (!probe()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setImmediate(resolve))
  }
}

describe("a file's parts", () => {
  it.each([
    ['one byte', 1],
    ['one part less a byte', FILE_PART_BYTES - 1],
    ['exactly one part', FILE_PART_BYTES],
    ['one part and a byte', FILE_PART_BYTES + 1],
    ['three parts, the last short', 3 * FILE_PART_BYTES - 5],
    ['exactly three parts', 3 * FILE_PART_BYTES],
  ])('read back byte for byte: %s', async (_name, size) => {
    const emu = await testEmulator()
    const bytes = pdfBytes(size)
    const made = await serverFile(emu, (await defaultAccount(emu)).id, bytes)
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    expect(made.body.data).toMatchObject({ size_bytes: size, mime_type: size >= 5 ? 'application/pdf' : 'text/plain' })
    expect((await download(emu, made.body.data.id)).equals(bytes)).toBe(true)
    // Whole parts but the last, which joined are the file's base64.
    const parts = emu.ctx.db
      .prepare<[string], { part: number; content: string }>('SELECT part, content FROM file_parts WHERE file_id = ? ORDER BY part')
      .all(made.body.data.id)
    expect(parts.map((p) => p.part)).toEqual([...Array(Math.ceil(size / FILE_PART_BYTES)).keys()])
    for (const part of parts.slice(0, -1)) expect(part.content.length).toBe(FILE_PART_CHARS)
    expect(parts.map((p) => p.content).join('')).toBe(bytes.toString('base64'))
  })

  it('are written one per turn of the event loop, and no reader sees them before the file is whole', async () => {
    const emu = await testEmulator()
    const answer = serverFile(emu, (await defaultAccount(emu)).id, pdfBytes(5 * FILE_PART_BYTES))
    await until(() => count(emu, 'file_parts') > 0, 'a first part')
    const seen: number[] = []
    while (count(emu, 'files') === 0) {
      seen.push(count(emu, 'file_parts'))
      // Nothing of it is listed (or counted) before its row is there.
      expect((await emu.get('/api/v1/files', emu.keys.standard)).body.data).toEqual([])
      await new Promise((resolve) => setImmediate(resolve))
    }
    expect((await answer).status).toBe(201)
    expect(count(emu, 'file_parts')).toBe(5)
    // Seen part way: more than one turn passed between the first part and the row.
    expect(new Set(seen).size).toBeGreaterThan(1)
    expect(emu.ctx.services.files.writes.count).toBe(0)
  })

  it('go with their file: deleted, reset, with their account', async () => {
    const emu = await testEmulator()
    const account = await defaultAccount(emu)
    const made = (await serverFile(emu, account.id, pdfBytes(2 * FILE_PART_BYTES + 7))).body.data
    expect((await emu.send('DELETE', `/api/v1/files/${made.id}`, undefined, emu.keys.standard)).status).toBe(200)
    expect(count(emu, 'file_parts')).toBe(0)
    await serverFile(emu, account.id, pdfBytes(FILE_PART_BYTES + 1))
    expect((await emu.send('POST', `${ADMIN}/accounts/${account.id}/reset`)).status).toBe(200)
    expect([count(emu, 'files'), count(emu, 'file_parts')]).toEqual([0, 0])
    const [other] = await moreAccounts(emu, 1)
    await serverFile(emu, other!.id, pdfBytes(FILE_PART_BYTES + 1))
    expect((await emu.send('DELETE', `${ADMIN}/accounts/${other!.id}`)).status).toBe(200)
    expect([count(emu, 'files'), count(emu, 'file_parts')]).toEqual([0, 0])
  })
})

describe('a write the state changes under', () => {
  it('stops with a 409 when the emulator is reset part way, and leaves nothing', async () => {
    const emu = await testEmulator()
    const answer = serverFile(emu, (await defaultAccount(emu)).id, pdfBytes(5 * FILE_PART_BYTES))
    await until(() => emu.ctx.services.files.writes.count === 1, 'the write under way')
    await emu.reset()
    expect(await answer).toMatchObject({
      status: 409,
      body: {
        error: {
          code: 409,
          message: "The emulator's state was reset or replaced while this file was being kept, so it was not kept: upload it again",
          metadata: { field: 'file', location: 'body', reason: 'state_replaced' },
        },
      },
    })
    expect([count(emu, 'files'), count(emu, 'file_parts')]).toEqual([0, 0])
    // The ids minted again after the reset are free: the next file is whole.
    const next = pdfBytes(2 * FILE_PART_BYTES)
    const made = await serverFile(emu, (await defaultAccount(emu)).id, next)
    expect(made.status).toBe(201)
    expect((await download(emu, made.body.data.id)).equals(next)).toBe(true)
  })

  it("stops with a 409 when its account is reset part way, and another account's write goes on", async () => {
    const emu = await testEmulator()
    const mine = (await defaultAccount(emu)).id
    const [theirs] = await moreAccounts(emu, 1)
    const bytes = pdfBytes(5 * FILE_PART_BYTES)
    const answers = [serverFile(emu, mine, bytes), serverFile(emu, theirs!.id, bytes)]
    await until(() => emu.ctx.services.files.writes.count === 2, 'both writes under way')
    resetAccount(emu.ctx, mine)
    const [stopped, kept] = await Promise.all(answers)
    expect(stopped!.status).toBe(409)
    expect(stopped!.body.error).toEqual({
      code: 409,
      message: 'The account was reset or deleted while this file was being kept, so it was not kept',
      metadata: { field: 'file', location: 'body', reason: 'account_reset' },
    })
    expect(kept!.status).toBe(201)
    expect(count(emu, 'files')).toBe(1)
    expect(count(emu, 'file_parts')).toBe(5)
    expect((await download(emu, kept!.body.data.id, theirs!.standard_key)).equals(bytes)).toBe(true)
  })
})

/** The document as an emulator before the parts exported it: schema 14, each file's bytes whole in `content`. */
function beforeParts(doc: StateDoc): StateDoc {
  const old = structuredClone(doc)
  old['schema_version'] = 14
  const parts = old.tables['file_parts']!
  delete old.tables['file_parts']
  for (const file of old.tables['files']!) {
    const mine = parts.filter((p) => p['file_id'] === file['id']).sort((a, b) => (a['part'] as number) - (b['part'] as number))
    file['content'] = mine.map((p) => p['content']).join('')
  }
  return old
}

describe('a write the state changes under (its account deleted)', () => {
  it('stops with a 409 when its account is deleted part way, and leaves nothing', async () => {
    const emu = await testEmulator()
    const [doomed] = await moreAccounts(emu, 1)
    const answer = serverFile(emu, doomed!.id, pdfBytes(5 * FILE_PART_BYTES))
    await until(() => emu.ctx.services.files.writes.count === 1, 'the write under way')
    // As DELETE /_emulator/api/accounts/{id} does it.
    emu.ctx.services.accounts.delete(doomed!.id)
    const stopped = await answer
    expect(stopped.status).toBe(409)
    expect(stopped.body.error.metadata).toEqual({ field: 'file', location: 'body', reason: 'account_reset' })
    expect([count(emu, 'files'), count(emu, 'file_parts')]).toEqual([0, 0])
    expect(emu.ctx.services.files.writes.count).toBe(0)
  })
})

describe('files in the state document', () => {
  it('carry their parts; a document from before the parts (schema 14) imports and reads back byte for byte', async () => {
    const emu = await testEmulator()
    const account = (await defaultAccount(emu)).id
    const big = pdfBytes(2 * FILE_PART_BYTES + 1000)
    const small = Buffer.from('hello, parts')
    const ids = [(await serverFile(emu, account, big)).body.data.id, (await serverFile(emu, account, small)).body.data.id]
    const doc = await exportDoc(emu)
    expect(doc.tables['files']![0]).not.toHaveProperty('content')
    expect(doc.tables['file_parts']!.map((p) => [p['file_id'], p['part']])).toEqual([
      [ids[0], 0],
      [ids[0], 1],
      [ids[0], 2],
      [ids[1], 0],
    ])

    const old = beforeParts(doc)
    await emu.reset()
    const imported = await importDoc(emu, old)
    expect(imported.status, JSON.stringify(imported.body).slice(0, 300)).toBe(200)
    expect(imported.body.data.tables).toMatchObject({ files: 2, file_parts: 4 })
    expect((await download(emu, ids[0]!)).equals(big)).toBe(true)
    expect((await download(emu, ids[1]!)).equals(small)).toBe(true)
    expect({ ...(await exportDoc(emu)), exported_at: null }).toEqual({ ...doc, exported_at: null })

    // Its content is read as the old import read it.
    const bad = structuredClone(old)
    bad.tables['files']![1]!['content'] = 'not base64!'
    const refused = await importDoc(emu, bad)
    expect(refused.status).toBe(400)
    expect(refused.body.error).toEqual({
      code: 400,
      message: 'Field `tables.files[1].content` must be base64',
      metadata: { field: 'tables.files[1].content', location: 'body', issue: 'must be base64', table: 'files', row: 1, column: 'content' },
    })
  })

  it.each([
    [
      'its last part missing',
      (d: StateDoc) => d.tables['file_parts']!.splice(2, 1),
      'tables.files[0].size_bytes',
      /^must be the length of its parts \(2097150 bytes\)$/,
    ],
    [
      'a part between missing',
      (d: StateDoc) => d.tables['file_parts']!.splice(1, 1),
      'tables.file_parts[1].part',
      /^must number the parts of file \S+ from 0 without a gap or a repeat$/,
    ],
    [
      'a part of no file',
      (d: StateDoc) => d.tables['file_parts']!.push({ ...d.tables['file_parts']![3]!, file_id: 'or_file_nobody' }),
      'tables.file_parts[4].file_id',
      /^must be the id of a file of the document/,
    ],
    [
      'parts out of number',
      (d: StateDoc) => void (d.tables['file_parts']![1]!['part'] = 5),
      'tables.file_parts[2].part',
      /^must number the parts of file \S+ from 0 without a gap or a repeat$/,
    ],
    [
      'a short part before the last',
      (d: StateDoc) => void (d.tables['file_parts']![0]!['content'] = 'AAAA'),
      'tables.file_parts[0].content',
      /^must hold 1048575 bytes, as every part of a file but its last does$/,
    ],
    [
      'a part of another account',
      (d: StateDoc) => void (d.tables['file_parts']![3]!['account_id'] = d.tables['accounts']![1]!['id']),
      'tables.file_parts[3].account_id',
      /^must be the account of its file/,
    ],
    [
      'an empty part',
      (d: StateDoc) => void (d.tables['file_parts']![3]!['content'] = ''),
      'tables.file_parts[3].content',
      /^must be base64 of at least one byte$/,
    ],
  ])('refuse an imported document with %s, naming the row, and change nothing', async (_name, breakIt, field, issue) => {
    const emu = await testEmulator()
    await moreAccounts(emu, 1)
    const account = (await defaultAccount(emu)).id
    await serverFile(emu, account, pdfBytes(2 * FILE_PART_BYTES + 1000))
    await serverFile(emu, account, Buffer.from('hello, parts'))
    const doc = await exportDoc(emu)
    const broken = structuredClone(doc)
    breakIt(broken)
    const res = await importDoc(emu, broken)
    expect(res.status).toBe(400)
    expect(res.body.error.metadata.field).toBe(field)
    expect(res.body.error.metadata.issue).toMatch(issue)
    expect((await exportDoc(emu)).tables).toEqual(doc.tables)
  })
})

describe('a database made before the parts', () => {
  it("moves its files' bytes into parts when it starts (migration 15), and parts a crash left are gone", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'file-parts-'))
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
    const path = join(dir, 'gw.sqlite')
    const options = { db: path, seed: 1, logLevel: 'silent' as const, clock: 'manual' as const }
    const first = await createEmulator(options)
    const account = (await first.app.inject({ method: 'GET', url: `${ADMIN}/accounts` })).json().data[0] as { id: string }
    const sizes = [3, FILE_PART_BYTES, 2 * FILE_PART_BYTES + 1]
    const files: Array<{ id: string; bytes: Buffer }> = []
    for (const size of sizes) {
      const bytes = pdfBytes(size)
      const res = await first.app.inject({
        method: 'POST',
        url: `${ADMIN}/accounts/${account.id}/files`,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ filename: 'old.bin', content_base64: bytes.toString('base64') }),
      })
      files.push({ id: res.json().data.id, bytes })
    }
    await first.close()

    // The database as schema 14 had it: each file's bytes whole in files.content, no file_parts (and none
    // of what later migrations change: 16's prompt cache, 17's dropped index).
    const raw = new Database(path)
    raw.exec(`
      CREATE INDEX generations_account ON generations(account_id, created_at);
      DROP TABLE prompt_cache;
      ALTER TABLE generations DROP COLUMN cached_tokens;
      ALTER TABLE generations DROP COLUMN cache_write_tokens;
      ALTER TABLE files ADD COLUMN content TEXT NOT NULL DEFAULT '';
      UPDATE files SET content = (SELECT group_concat(content, '' ORDER BY part) FROM file_parts WHERE file_id = files.id);
      DROP TABLE file_parts;
      PRAGMA user_version = 14;
    `)
    raw.close()

    const second = await createEmulator(options)
    for (const { id, bytes } of files) {
      const res = await second.app.inject({ method: 'GET', url: `/api/v1/files/${id}/content`, headers: { authorization: `Bearer ${second.keys.standard}` } })
      expect(res.rawPayload.equals(bytes)).toBe(true)
    }
    const partsOf = second.ctx.db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM file_parts').get()!.n
    expect(partsOf).toBe(1 + 1 + 3)
    expect(second.ctx.db.prepare('SELECT * FROM pragma_table_info(?) WHERE name = ?').get('files', 'content')).toBeUndefined()
    // Parts whose file never appeared (a write a crash cut off) are removed at the next start.
    second.ctx.db.prepare('INSERT INTO file_parts (file_id, part, account_id, content) VALUES (?, 0, ?, ?)').run('or_file_cut', account.id, 'AAAA')
    await second.close()
    const third = await createEmulator(options)
    onTestFinished(() => third.close())
    expect(third.ctx.db.prepare<[], { n: number }>("SELECT COUNT(*) AS n FROM file_parts WHERE file_id = 'or_file_cut'").get()!.n).toBe(0)
    expect(third.ctx.db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM file_parts').get()!.n).toBe(5)
  })
})

describe("the emulator's room for every account's files", () => {
  /** Rows that say the emulator's files hold `bytes` (their bytes are not read here). */
  function fillRoom(emu: TestEmulator, account: { id: string; workspace_id: string }, bytes: number): void {
    for (let n = 0; bytes > 0; n++) {
      const size = Math.min(bytes, 90 * MB)
      emu.ctx.services.files.insert({
        id: `or_file_laid_${n}`,
        account_id: account.id,
        workspace_id: account.workspace_id,
        provider: 'openrouter',
        filename: 'laid.bin',
        mime_type: 'application/pdf',
        purpose: 'user_data',
        size_bytes: size,
        downloadable: 0,
        created_at: 0,
      })
      bytes -= size
    }
  }

  it("refuses an upload the emulator's room cannot take with a 413 before its body is read, and changes nothing", async () => {
    const emu = await listeningEmulator()
    fillRoom(emu, await defaultAccount(emu), MAX_TOTAL_FILE_BYTES - MB)
    // Another account, whose own room is empty.
    const [other] = await moreAccounts(emu, 1)
    const before = await exportDoc(emu)
    const boundary = 'room-boundary'
    const size = 2 * MB
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.7\n`)
    const length = head.length + size + 64
    // Only the form's head is sent: the answer comes without the rest.
    const answer = await new Promise<{ status: number; body: any }>((resolve, reject) => {
      const req = httpRequest(`${emu.url}/api/v1/files`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${other!.standard_key}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(length),
        },
      })
      req.on('response', (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (text += chunk))
        res.on('end', () => {
          req.destroy()
          resolve({ status: res.statusCode!, body: JSON.parse(text) })
        })
      })
      req.on('error', reject)
      req.write(head)
    })
    const reserved = length - 4096
    expect(answer).toEqual({
      status: 413,
      body: {
        error: {
          code: 413,
          message: `The files of all accounts hold ${MAX_TOTAL_FILE_BYTES - MB} bytes; ${reserved} more would pass the 512 MB the emulator keeps in all: delete some (or reset an account) first`,
          metadata: {
            field: 'file',
            location: 'body',
            used_bytes: MAX_TOTAL_FILE_BYTES - MB,
            limit_bytes: MAX_TOTAL_FILE_BYTES,
            files: 6,
            limit_files: 100_000,
            scope: 'emulator',
          },
        },
      },
    })
    expect((await exportDoc(emu)).tables).toEqual(before.tables)
  })

  it('refuses, when it is kept, an upload too short to have reserved any bytes that does not fit', async () => {
    const emu = await testEmulator()
    fillRoom(emu, await defaultAccount(emu), MAX_TOTAL_FILE_BYTES - 10)
    const [other] = await moreAccounts(emu, 1)
    const boundary = 'room-boundary'
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\n`),
      Buffer.from('eleven byte'),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ])
    const res = await emu.request({
      method: 'POST',
      url: '/api/v1/files',
      headers: { authorization: `Bearer ${other!.standard_key}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    })
    expect(res.status).toBe(413)
    expect(res.body.error.metadata).toEqual({
      field: 'file',
      location: 'body',
      used_bytes: MAX_TOTAL_FILE_BYTES - 10,
      limit_bytes: MAX_TOTAL_FILE_BYTES,
      files: 6,
      limit_files: 100_000,
      scope: 'emulator',
    })
    expect(count(emu, 'file_parts')).toBe(0)
  })
})
