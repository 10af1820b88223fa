// A kill -9 part way through keeping a file, in a CLI process on a database file: the parts written
// so far are in the database (each its own transaction), the file's row is not, so no reader finds
// half a file; the next start removes the parts, and the files kept before are whole.
import { mkdtempSync, rmSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it, onTestFinished } from 'vitest'
import { startCli, type CliEmulator } from '../../helpers/cli-child.ts'

const MB = 1024 * 1024
const BOUNDARY = 'file-crash-boundary'

/** A form of one 24 MB PDF. */
const FORM = Buffer.concat([
  Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\n\r\n%PDF-1.7\n`),
  Buffer.alloc(24 * MB - 9, 0x20),
  Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
])

/** Sends the upload; its answer (or the error of a connection the kill cut) is not waited for. */
function upload(cli: CliEmulator): void {
  const req = httpRequest(`${cli.url}/api/v1/files`, {
    method: 'POST',
    headers: { authorization: `Bearer ${cli.standard}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'content-length': String(FORM.length) },
  })
  req.on('error', () => undefined)
  req.on('response', (res) => res.resume())
  req.end(FORM)
}

const listed = async (cli: CliEmulator): Promise<Array<{ id: string; size_bytes: number }>> =>
  (
    (await (await fetch(`${cli.url}/api/v1/files`, { headers: { authorization: `Bearer ${cli.standard}` } })).json()) as {
      data: Array<{ id: string; size_bytes: number }>
    }
  ).data

describe('a crash while a file is kept', () => {
  it('leaves no visible half file, and the next start removes its parts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'file-crash-'))
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
    const db = join(dir, 'gw.sqlite')
    const args = ['--db', db]
    // One file kept whole first: it must come through the crash as it was.
    const first = await startCli(args)
    upload(first)
    const reader = new Database(db, { readonly: true, fileMustExist: true })
    onTestFinished(() => void reader.close())
    const count = (table: string): number => reader.prepare<[], { n: number }>(`SELECT COUNT(*) AS n FROM ${table}`).get()!.n
    // Polled every few ms: the database is the only place the write shows.
    const next = () => new Promise((resolve) => setTimeout(resolve, 2))
    while (count('files') === 0) await next()
    expect(await listed(first)).toHaveLength(1)

    // Then a second, killed while its parts are being written (tried again should the write finish first).
    let cut = false
    let cli = first
    for (let attempt = 0; attempt < 5 && !cut; attempt++) {
      const files = count('files')
      const parts = count('file_parts')
      upload(cli)
      for (;;) {
        if (count('files') > files) break
        if (count('file_parts') >= parts + 3) {
          cli.child.kill('SIGKILL')
          cut = true
          break
        }
        await next()
      }
      if (!cut) continue
      await new Promise((resolve) => cli.child.once('exit', resolve))
      // What the kill left: parts of a file with no row, which no reader reaches.
      expect(count('file_parts')).toBeGreaterThan(parts)
      expect(count('files')).toBe(files)
      cli = await startCli(args)
      const kept = await listed(cli)
      expect(kept).toHaveLength(files)
      for (const file of kept) expect(file.size_bytes).toBe(24 * MB)
      // The next start removed them: every part left is a part of a file kept whole.
      expect(count('file_parts')).toBe(parts)
      expect(reader.prepare('SELECT COUNT(*) AS n FROM file_parts WHERE file_id NOT IN (SELECT id FROM files)').get()).toEqual({ n: 0 })
    }
    expect(cut).toBe(true)
  }, 120_000)
})
