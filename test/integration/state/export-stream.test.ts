// The state export as a stream: the same bytes as the whole document (GET and the file, a database
// in memory and in a file), one consistent snapshot while writes go on (each write wholly in it or
// wholly out, nothing written after the answer began), at most two exports at once, and large states
// with files round-tripping through import.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { MAX_EXPORTS_AT_ONCE } from '../../../src/emulator/modules/state/state-bounds.service.ts'
import { exportState, exportStream } from '../../../src/emulator/modules/state/state-export.service.ts'
import { describeSchema, selectRows } from '../../../src/emulator/modules/state/state.service.ts'
import { listeningEmulator, testEmulator, type TestEmulator } from '../../helpers/emulator.ts'

const ADMIN = '/_emulator/api'
const MB = 1024 * 1024
const MODEL = 'openai/text-embedding-3-small'

type Row = Record<string, unknown>
type Doc = { exported_at: string; tables: Record<string, Row[]> }

const dataDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'export-stream-'))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** A file of `mb` MB kept through the admin API (in parts of 1 MiB, as uploads keep them); each file's bytes differ. */
async function keepFile(emu: TestEmulator, mb: number, fill: number): Promise<void> {
  const account = (await emu.get(`${ADMIN}/accounts`)).body.data[0]
  const bytes = Buffer.alloc(mb * MB, fill)
  const res = await emu.send('POST', `${ADMIN}/accounts/${account.id}/files`, { filename: `f${fill}.bin`, content_base64: bytes.toString('base64') })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
}

/** A state with something in most tables: usage, a second account, a file, a setting changed. */
async function someState(emu: TestEmulator): Promise<void> {
  for (const input of ['one', 'two \u2028 "quoted" \\ ünïcode 🙂']) {
    expect((await emu.send('POST', '/api/v1/embeddings', { model: MODEL, input }, emu.keys.standard)).status).toBe(200)
  }
  expect((await emu.send('POST', `${ADMIN}/accounts`, { name: 'second "account" <b>', credits_usd: 3 })).status).toBe(201)
  await keepFile(emu, 3, 7)
}

describe('the streamed document is the whole document, byte for byte', () => {
  it('GET /export, a database in memory', async () => {
    const emu = await testEmulator()
    await someState(emu)
    const res = await emu.app.inject({ method: 'GET', url: `${ADMIN}/export` })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(res.headers['content-disposition']).toBe('attachment; filename="emulator-state.json"')
    expect(res.body).toBe(JSON.stringify(exportState(emu.ctx)))
    // 3 MiB in parts of 1 MiB less one byte.
    expect((JSON.parse(res.body) as Doc).tables['file_parts']).toHaveLength(4)
  })

  it('GET /export and POST /export (to a file), a database file', async () => {
    const dir = dataDir()
    const emu = await testEmulator({ db: join(dir, 'emulator.db') })
    await someState(emu)
    const whole = JSON.stringify(exportState(emu.ctx))
    expect((await emu.app.inject({ method: 'GET', url: `${ADMIN}/export` })).body).toBe(whole)
    const res = await emu.send('POST', `${ADMIN}/export`, { path: 'state.json' })
    expect(res.status).toBe(200)
    expect(res.body.data.bytes).toBe(Buffer.byteLength(whole))
    expect(readFileSync(join(dir, 'state.json'), 'utf8')).toBe(whole)
  })

  it('an empty table, and a state fresh from its seed', async () => {
    const emu = await testEmulator()
    expect((await emu.app.inject({ method: 'GET', url: `${ADMIN}/export` })).body).toBe(JSON.stringify(exportState(emu.ctx)))
  })
})

/** What must hold in any state the API leaves: each account with its members and keys, its spend the sum of its usage. */
function expectConsistent(doc: Doc): void {
  const accounts = new Set(doc.tables['accounts']!.map((a) => a['id']))
  for (const table of ['members', 'api_keys', 'usage']) for (const row of doc.tables[table]!) expect(accounts.has(row['account_id']), table).toBe(true)
  for (const account of doc.tables['accounts']!) {
    const members = doc.tables['members']!.filter((m) => m['account_id'] === account['id'])
    const keys = doc.tables['api_keys']!.filter((k) => k['account_id'] === account['id'])
    expect(members.length, String(account['name'])).toBeGreaterThan(0)
    expect(keys.length, String(account['name'])).toBeGreaterThan(0)
    const spent = doc.tables['usage']!.filter((u) => u['account_id'] === account['id']).reduce((sum, u) => sum + (u['cost_nanos'] as number), 0)
    expect(account['spent_nanos'], String(account['name'])).toBe(spent)
  }
}

describe('every table is read in its order, row by row', () => {
  it('no query of the export sorts its rows first (which holds them all before the first comes out)', async () => {
    const emu = await testEmulator()
    for (const table of describeSchema(emu.ctx.db)) {
      const sql = selectRows(emu.ctx.db, table, emu.ctx.state.owners).source
      const plan = emu.ctx.db
        .prepare<[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
        .all()
        .map((step) => step.detail)
      expect(plan.join(' | '), table.name).not.toMatch(/TEMP B-TREE/)
    }
  })
})

describe('one consistent snapshot while writes go on', () => {
  // Writes of several tables each (an account with its members, keys and workspace; a billed request:
  // its usage row and the account's spend), one after the other for as long as the export runs.
  it.each([
    ['in memory (a backup, then read)', false],
    ['in a file (a read transaction of its own)', true],
  ])(
    '%s: each write is wholly in the document or wholly out, and none made after the answer began is in it',
    async (_what, onDisk) => {
      const emu = await listeningEmulator(onDisk ? { db: join(dataDir(), 'emulator.db') } : {})
      for (let i = 0; i < 3; i++) await keepFile(emu, 12, i + 1)
      const names: string[] = []
      let answered = -1
      let exporting = true
      const exported = (async () => {
        const res = await fetch(`${emu.url}${ADMIN}/export`)
        // Every write made from here on is after the snapshot.
        answered = names.length
        const text = await res.text()
        exporting = false
        return JSON.parse(text) as Doc
      })()
      while (exporting) {
        const name = `during-${names.length}`
        names.push(name)
        const made = await fetch(`${emu.url}${ADMIN}/accounts`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name }),
        })
        expect(made.status).toBe(201)
        const billed = await fetch(`${emu.url}/api/v1/embeddings`, {
          method: 'POST',
          headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: MODEL, input: name }),
        })
        expect(billed.status).toBe(200)
      }
      const doc = await exported
      expectConsistent(doc)
      const inDoc = doc.tables['accounts']!.map((a) => a['name'] as string).filter((name) => name.startsWith('during-'))
      console.log(`${_what}: ${names.length} accounts made during the export, ${answered} before its answer began, ${inDoc.length} in the document`)
      expect(names.length).toBeGreaterThan(answered)
      expect(inDoc).toEqual(names.slice(0, inDoc.length))
      expect(inDoc.length).toBeLessThanOrEqual(answered)
      // The document imports back: everything in it agrees.
      const res = await fetch(`${emu.url}${ADMIN}/import`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(doc) })
      expect(res.status, await res.clone().text()).toBe(200)
    },
    60_000,
  )
})

describe('an upload under way', () => {
  it('is left out of an export taken while its parts are written (its row comes last): the document imports', async () => {
    const emu = await listeningEmulator({ db: join(dataDir(), 'emulator.db') })
    const boundary = 'upload-under-way'
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="report.pdf"\r\nContent-Type: application/pdf\r\n\r\n`
    const body = Buffer.concat([Buffer.from(`${head}%PDF-1.7\n`), Buffer.alloc(8 * MB, 0x20), Buffer.from(`\r\n--${boundary}--\r\n`)])
    const uploaded = fetch(`${emu.url}/api/v1/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    })
    const count = (table: string): number => emu.ctx.db.prepare<[], { n: number }>(`SELECT count(*) AS n FROM ${table}`).get()!.n
    // A part per turn of the event loop: wait for the turn after the first.
    while (!(count('file_parts') > 0 && count('files') === 0)) await new Promise((resolve) => setImmediate(resolve))
    // A database file's snapshot is taken in this turn, before the next part (or the row) is written.
    const stream = await exportStream(emu.ctx)
    const whole = JSON.stringify(exportState(emu.ctx))
    const chunks: Buffer[] = []
    for await (const chunk of stream) chunks.push(chunk as Buffer)
    const text = Buffer.concat(chunks).toString('utf8')
    expect(text).toBe(whole)
    const doc = JSON.parse(text) as Doc
    expect(doc.tables['files']).toEqual([])
    expect(doc.tables['file_parts']).toEqual([])
    expect((await uploaded).status).toBe(200)
    expect(count('files')).toBe(1)
    // The document is the state before the upload: it imports, and the file is gone again.
    expect((await emu.send('POST', `${ADMIN}/import`, doc)).status).toBe(200)
    expect(count('file_parts')).toBe(0)
  }, 60_000)
})

describe('exports at once', () => {
  it(`at most ${MAX_EXPORTS_AT_ONCE} are under way: one more is a 429 with Retry-After; a client that goes away frees its place`, async () => {
    const emu = await listeningEmulator()
    // Large enough that an answer nobody reads stays under way (the socket's buffers fill).
    for (let i = 0; i < 2; i++) await keepFile(emu, 16, i + 1)
    const aborts = Array.from({ length: MAX_EXPORTS_AT_ONCE }, () => new AbortController())
    const held = await Promise.all(aborts.map((abort) => fetch(`${emu.url}${ADMIN}/export`, { signal: abort.signal })))
    expect(held.map((res) => res.status)).toEqual(Array(MAX_EXPORTS_AT_ONCE).fill(200))
    const refused = await fetch(`${emu.url}${ADMIN}/export`)
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe('5')
    expect(await refused.json()).toEqual({
      error: {
        code: 429,
        message: `Rate limit exceeded: ${MAX_EXPORTS_AT_ONCE} exports of the state are under way, the most the emulator makes at once; retry once one is done`,
        metadata: { limit_source: 'state_exports', limit: MAX_EXPORTS_AT_ONCE },
      },
    })
    aborts[0]!.abort()
    await held[0]!.body?.cancel().catch(() => undefined)
    // Its place is freed once the server sees the connection closed: the next export is answered.
    let next = await fetch(`${emu.url}${ADMIN}/export`)
    while (next.status === 429) {
      await next.arrayBuffer()
      await new Promise((resolve) => setImmediate(resolve))
      next = await fetch(`${emu.url}${ADMIN}/export`)
    }
    expect(next.status).toBe(200)
    expectConsistent((await next.json()) as Doc)
    aborts[1]!.abort()
  }, 60_000)
})

describe('a snapshot that cannot be taken', () => {
  it('is a 503 saying why, and frees its place', async () => {
    const emu = await testEmulator()
    const tmp = process.env['TMPDIR']
    // An in-memory state is copied into the temporary directory: one that does not exist.
    process.env['TMPDIR'] = join(dataDir(), 'missing')
    try {
      for (let i = 0; i <= MAX_EXPORTS_AT_ONCE; i++) {
        const res = await emu.get(`${ADMIN}/export`)
        expect(res.status).toBe(503)
        expect(res.headers['retry-after']).toBe('5')
        expect(res.body.error).toEqual({
          code: 503,
          message: expect.stringMatching(/^The state could not be exported: its snapshot could not be taken \(ENOENT: .+\); retry once that is fixed$/),
          metadata: { reason: 'export_snapshot_failed' },
        })
      }
    } finally {
      if (tmp === undefined) delete process.env['TMPDIR']
      else process.env['TMPDIR'] = tmp
    }
    expect((await emu.get(`${ADMIN}/export`)).status).toBe(200)
  })
})

describe('a large state round-trips', () => {
  // Larger ones, in a CLI process: test/integration/cli/export.load.test.ts.
  it('two 24 MB files: export, reset, import gives the same document', async () => {
    const emu = await testEmulator()
    for (let i = 0; i < 2; i++) await keepFile(emu, 24, i + 1)
    const before = (await emu.app.inject({ method: 'GET', url: `${ADMIN}/export` })).body
    expect(before.length).toBeGreaterThan(64 * MB)
    await emu.reset()
    const res = await emu.app.inject({ method: 'POST', url: `${ADMIN}/import`, headers: { 'content-type': 'application/json' }, payload: before })
    expect(res.statusCode, res.body.slice(0, 500)).toBe(200)
    expect((await emu.app.inject({ method: 'GET', url: `${ADMIN}/export` })).body).toBe(before)
  }, 120_000)
})
