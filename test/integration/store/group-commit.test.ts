// Group commit on a database file (store/db.ts): the billed calls of one turn of the event loop share
// one commit. What a client is told must be committed when it hears it (another connection on the file,
// which sees committed data only, finds it at that moment), a refusal in the batch undoes its own writes
// and no one else's, and work that needs a transaction of its own (an import) still gets one.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it, onTestFinished } from 'vitest'
import { listeningEmulator } from '../../helpers/emulator.ts'

const ADMIN = '/_emulator/api'
const MODEL = 'openai/gpt-4o-mini'

function dbFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'emulator-group-commit-'))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  return join(dir, 'emulator.db')
}

/** A second, read-only connection on the file: it sees what is committed, and nothing else. */
function reader(file: string): Database.Database {
  const db = new Database(file, { readonly: true, fileMustExist: true })
  onTestFinished(() => {
    db.close()
  })
  return db
}

async function emulatorOnFile() {
  const file = dbFile()
  const emu = await listeningEmulator({ db: file })
  const post = (path: string, body: unknown, key?: string) =>
    fetch(`${emu.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key && { authorization: `Bearer ${key}` }) },
      body: JSON.stringify(body),
    })
  return { emu, file, post }
}

describe('group commit on a database file', () => {
  it('every answer a client holds is committed when it arrives, for calls sent at once', async () => {
    const { emu, file, post } = await emulatorOnFile()
    const committed = reader(file).prepare<[string], { n: number }>('SELECT count(*) AS n FROM generations WHERE id = ?')
    const seenAtArrival = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const res = await post('/api/v1/chat/completions', { model: MODEL, messages: [{ role: 'user', content: `Question ${i % 4}` }] }, emu.keys.standard)
        expect(res.status).toBe(200)
        // Read before anything else runs: the answer's generation is there for another connection already.
        const id = res.headers.get('x-generation-id')!
        const seen = committed.get(id)!.n
        await res.arrayBuffer()
        return seen
      }),
    )
    expect(seenAtArrival).toEqual(Array.from({ length: 40 }, () => 1))
    const usage = reader(file).prepare<[], { n: number; spent: number }>('SELECT count(*) AS n, sum(cost_nanos) AS spent FROM usage').get()!
    expect(usage.n).toBe(40)
  })

  it('a refusal in the batch undoes its own writes only: the fixture it used stays unused, the others are billed', async () => {
    const { emu, file, post } = await emulatorOnFile()
    // An account without credits whose fixture would answer: the fixture is used, then the ledger refuses (402).
    const broke = ((await (await post(`${ADMIN}/accounts`, {})).json()) as { data: { id: string; standard_key: string } }).data
    const fixture = ((await (await post(`${ADMIN}/accounts/${broke.id}/chat-fixtures`, { answer: { content: 'Free?' } })).json()) as { data: { id: string } })
      .data
    const ask = (key: string, i: number) => post('/api/v1/chat/completions', { model: MODEL, messages: [{ role: 'user', content: `Hello ${i}` }] }, key)
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => ask(i % 2 === 0 ? emu.keys.standard : broke.standard_key, i)))
    const statuses = answers.map((res) => res.status)
    expect(statuses.filter((status) => status === 200)).toHaveLength(15)
    const refused = answers.filter((res) => res.status === 402)
    expect(refused).toHaveLength(15)
    expect(((await refused[0]!.json()) as { error: { code: number } }).error.code).toBe(402)
    const db = reader(file)
    expect(db.prepare<[string], { hits: number }>('SELECT hits FROM chat_fixtures WHERE id = ?').get(fixture.id)!.hits).toBe(0)
    expect(db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM usage WHERE account_id = ?').get(broke.id)!.n).toBe(0)
    expect(db.prepare<[], { n: number }>('SELECT count(*) AS n FROM usage').get()!.n).toBe(15)
  })

  it('an import sent among billed calls runs in a transaction of its own, and the calls before it stay billed', async () => {
    const { emu, file, post } = await emulatorOnFile()
    const exported = await (await fetch(`${emu.url}${ADMIN}/export`)).text()
    const chats = Array.from({ length: 10 }, (_, i) =>
      post('/api/v1/chat/completions', { model: MODEL, messages: [{ role: 'user', content: `Before ${i}` }] }, emu.keys.standard),
    )
    const imported = post(`${ADMIN}/import`, JSON.parse(exported))
    const [importStatus, ...chatStatuses] = await Promise.all([imported.then((res) => res.status), ...chats.map((res) => res.then((r) => r.status))])
    expect(importStatus).toBe(200)
    expect(chatStatuses.every((status) => status === 200)).toBe(true)
    // The import replaced the state: whatever was billed before it is gone, whatever after it is there, and the file is whole.
    const db = reader(file)
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
    expect(db.pragma('foreign_key_check')).toEqual([])
    const after = await post('/api/v1/chat/completions', { model: MODEL, messages: [{ role: 'user', content: 'After' }] }, emu.keys.standard)
    expect(after.status).toBe(200)
    const id = after.headers.get('x-generation-id')!
    expect(db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM generations WHERE id = ?').get(id)!.n).toBe(1)
  })
})
