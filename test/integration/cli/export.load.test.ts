// The state export of a large state, measured where a user runs the emulator: a CLI process of its own
// holding four 24 MB files (about 130 MB of document), its peak resident memory (VmHWM) read from /proc
// around the export, beside a heartbeat from another account, the document read (or sent back to the
// import) by a process of its own, so the heartbeat waits only on the emulator. The document is
// streamed from a snapshot (a backup of the in-memory database, or a read transaction on the database
// file), so nobody waits behind it and it is never held whole: four such files took 2.6 s of the main
// thread, and 224 MB, to export whole. The import of the document reads it as it arrives and holds its
// rows; its one write transaction holds the event loop (reported here, not bounded).
// With FULL_ROOM=1, the same for every account's room of files nearly full: a 640 MB document, past
// V8's largest string, exported and imported back (about a minute, and 2 GB in the CLI process).
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { startCli, type CliEmulator } from '../../helpers/cli-child.ts'
import { anotherAccountKey, withHeartbeat } from '../../helpers/heartbeat.ts'
import { postManyFromChild } from '../../helpers/post-many.ts'

const MB = 1024 * 1024
/** The slowest a heartbeat may be answered while the export runs. */
const HEARTBEAT_MS = 500
/** The most an export may grow the process's peak resident memory: a few chunks, the socket's buffers and the garbage of rows read, never the document. */
const EXPORT_GROWTH_MB = 100
/** The most an import may grow it, in documents: the rows it holds (1.2) and the write transaction's copy of the pages it replaces (in memory). */
const IMPORT_GROWTH_DOCUMENTS = 2.5
/** A file's bytes are kept in parts of 1 MiB less one byte. */
const PARTS_PER_FILE = Math.ceil((24 * MB) / 1_048_575)

const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'export-load-'))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** A form of one 24 MB PDF, in a file. */
function uploadForm(dir: string): { bodyPath: string; contentType: string } {
  const boundary = 'export-load-boundary'
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="report.pdf"\r\nContent-Type: application/pdf\r\n\r\n`)
  const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(24 * MB - 9, 0x20)])
  const bodyPath = join(dir, 'form')
  writeFileSync(bodyPath, Buffer.concat([head, pdf, Buffer.from(`\r\n--${boundary}--\r\n`)]))
  return { bodyPath, contentType: `multipart/form-data; boundary=${boundary}` }
}

/** Four 24 MB PDFs uploaded at once with `key` (from a process of their own): an account's room of 100 MB, nearly full. */
async function fourFiles(cli: CliEmulator, dir: string, key = cli.standard): Promise<void> {
  const { bodyPath, contentType } = uploadForm(dir)
  const answers = await postManyFromChild({
    url: `${cli.url}/api/v1/files`,
    headers: { authorization: `Bearer ${key}`, 'content-type': contentType },
    bodyPath,
    count: 4,
  })
  expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200])
}

/** Measures the peak growth of the CLI's resident memory over `run`, in MB. */
async function peakGrowth<T>(cli: CliEmulator, run: () => Promise<T>): Promise<{ result: T; growthMb: number; seconds: number }> {
  // Settle what the uploads left, then take the peak from here.
  await new Promise((resolve) => setTimeout(resolve, 200))
  cli.resetPeak()
  const before = cli.memory().rssMb
  const started = performance.now()
  const result = await run()
  return { result, growthMb: cli.memory().peakMb - before, seconds: (performance.now() - started) / 1000 }
}

/**
 * Downloads `url` into `path` from a process of its own (its reading of 130 MB is not the heartbeat's
 * wait, which the test's process measures) and answers its status.
 */
function downloadFromChild(url: string, path: string): Promise<number> {
  const script = `const http = require('node:http'), fs = require('node:fs')
    http.get(process.argv[1], (res) => {
      const file = fs.createWriteStream(process.argv[2])
      res.pipe(file)
      file.on('close', () => { process.stdout.write(String(res.statusCode)) })
    }).on('error', (error) => { console.error(error); process.exit(1) })`
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script, url, path], { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    child.on('error', reject)
    child.on('exit', (code) => (code === 0 ? resolve(Number(out)) : reject(new Error(`the download exited with ${code}`))))
  })
}

/** The document's tables (what follows its time and clock), hashed: the same state gives the same. */
const tablesHash = (document: Buffer): string =>
  createHash('sha256')
    .update(document.subarray(document.indexOf('"tables":{')))
    .digest('hex')

/** GET /export into `dir`/state.json beside the heartbeat of `key`; the figures logged and bounded. */
async function exportBeside(cli: CliEmulator, dir: string, key: string): Promise<Buffer> {
  const path = join(dir, 'state.json')
  const { result, growthMb, seconds } = await peakGrowth(cli, () =>
    withHeartbeat(cli.url, () => downloadFromChild(`${cli.url}/_emulator/api/export`, path), {}, { key }),
  )
  expect(result.result).toBe(200)
  console.log(
    `GET /export of ${(statSync(path).size / MB).toFixed(0)} MB in ${seconds.toFixed(1)} s: peak +${growthMb.toFixed(1)} MB, ` +
      `heartbeat slowest ${result.heartbeat.slowestMs.toFixed(0)} ms over ${result.heartbeat.beats} beats`,
  )
  expect(result.heartbeat.slowestMs).toBeLessThan(HEARTBEAT_MS)
  expect(result.heartbeat.failures).toEqual([])
  expect(growthMb).toBeLessThan(EXPORT_GROWTH_MB)
  return readFileSync(path)
}

/** POST /import of `dir`/state.json (sent by a process of its own) beside the heartbeat of `key`: it imports, and the state exports the same. */
async function importBack(cli: CliEmulator, dir: string, key: string, document: Buffer): Promise<void> {
  const { result, growthMb, seconds } = await peakGrowth(cli, () =>
    withHeartbeat(
      cli.url,
      async () => {
        const [answer] = await postManyFromChild({
          url: `${cli.url}/_emulator/api/import`,
          headers: { 'content-type': 'application/json' },
          bodyPath: join(dir, 'state.json'),
          count: 1,
        })
        return answer!
      },
      {},
      { key },
    ),
  )
  console.log(
    `POST /import of ${(document.length / MB).toFixed(0)} MB in ${seconds.toFixed(1)} s: peak +${growthMb.toFixed(1)} MB, ` +
      `heartbeat slowest ${result.heartbeat.slowestMs.toFixed(0)} ms over ${result.heartbeat.beats} beats (its write transaction)`,
  )
  expect(result.result.status, JSON.stringify(result.result.body)).toBe(200)
  expect(growthMb).toBeLessThan((IMPORT_GROWTH_DOCUMENTS * document.length) / MB)
  const again = join(dir, 'again.json')
  expect(await downloadFromChild(`${cli.url}/_emulator/api/export`, again)).toBe(200)
  expect(tablesHash(readFileSync(again))).toBe(tablesHash(document))
}

describe.skipIf(process.platform !== 'linux')('the export of a large state, in a CLI process', () => {
  it('GET /export (a database in memory) stalls no other account and holds no document; it imports back', async () => {
    const dir = tempDir()
    const cli = await startCli()
    await fourFiles(cli, dir)
    const key = await anotherAccountKey(cli.url)
    const document = await exportBeside(cli, dir, key)
    const doc = JSON.parse(document.toString('utf8')) as { tables: Record<string, unknown[]> }
    expect(doc.tables['files']).toHaveLength(4)
    expect(doc.tables['file_parts']).toHaveLength(4 * PARTS_PER_FILE)
    await importBack(cli, dir, key, document)
  }, 240_000)

  it('POST /export (a database file, to a file) stalls no other account and holds no document', async () => {
    const dir = tempDir()
    const cli = await startCli(['--db', join(dir, 'emulator.db')])
    await fourFiles(cli, dir)
    const key = await anotherAccountKey(cli.url)
    const { result, growthMb } = await peakGrowth(cli, () =>
      withHeartbeat(
        cli.url,
        async () => {
          const res = await fetch(`${cli.url}/_emulator/api/export`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ path: 'state.json' }),
          })
          return { status: res.status, body: (await res.json()) as { data: { path: string; bytes: number } } }
        },
        {},
        { key },
      ),
    )
    console.log(
      `POST /export of ${(result.result.body.data.bytes / MB).toFixed(0)} MB to a file: peak +${growthMb.toFixed(1)} MB, ` +
        `heartbeat slowest ${result.heartbeat.slowestMs.toFixed(0)} ms over ${result.heartbeat.beats} beats`,
    )
    expect(result.result.status).toBe(200)
    expect(statSync(join(dir, 'state.json')).size).toBe(result.result.body.data.bytes)
    expect(result.heartbeat.slowestMs).toBeLessThan(HEARTBEAT_MS)
    expect(result.heartbeat.failures).toEqual([])
    expect(growthMb).toBeLessThan(EXPORT_GROWTH_MB)
    const doc = JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')) as { tables: Record<string, unknown[]> }
    expect(doc.tables['file_parts']).toHaveLength(4 * PARTS_PER_FILE)
  }, 240_000)

  it.runIf(process.env['FULL_ROOM'] === '1')(
    'five accounts of full rooms (a 640 MB document, past the largest string) export and import back',
    async () => {
      const dir = tempDir()
      const cli = await startCli()
      await fourFiles(cli, dir)
      for (let i = 0; i < 4; i++) await fourFiles(cli, dir, await anotherAccountKey(cli.url))
      const key = await anotherAccountKey(cli.url)
      const document = await exportBeside(cli, dir, key)
      expect(document.length).toBeGreaterThan(512 * MB)
      await importBack(cli, dir, key, document)
    },
    600_000,
  )
})
