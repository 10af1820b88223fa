// One database file, one emulator: a second one (in this process or another) is refused, naming the
// file and the holder; a lock left by a process that is gone is taken over. And the seed a database
// was made with is the one it starts with, unless --reset starts it afresh.
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { createEmulator, type Emulator } from '../../../src/emulator/index.ts'

const CLI = join(import.meta.dirname, '../../../src/emulator/cli.ts')

function dbFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'emulator-db-'))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  return join(dir, 'emulator.db')
}

async function open(db: string, options: { seed?: number; reset?: boolean } = {}): Promise<Emulator> {
  const emu = await createEmulator({ db, clock: 'manual', ...options })
  onTestFinished(() => emu.close())
  return emu
}

/** A process that stays up until killed, for a pid that is alive and not ours. */
async function otherProcess(): Promise<{ pid: number; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' })
  await new Promise((resolve) => child.once('spawn', resolve))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  onTestFinished(() => {
    child.kill('SIGKILL')
  })
  return {
    pid: child.pid!,
    stop: async () => {
      child.kill('SIGKILL')
      await exited
    },
  }
}

describe('one emulator per database file', () => {
  it('refuses a second emulator on a file in use, and takes the file once it is free', async () => {
    const db = dbFile()
    const first = await open(db)
    expect(existsSync(`${db}.lock`)).toBe(true)
    await expect(createEmulator({ db })).rejects.toThrow(
      new RegExp(
        `^database ${db.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is in use by another emulator in this process \\(started .+\\); stop it, or give this one another --db`,
      ),
    )
    await first.close()
    expect(existsSync(`${db}.lock`)).toBe(false)
    await open(db)
  })

  it('names another process that holds it, and takes over a lock whose process is gone', async () => {
    const db = dbFile()
    const holder = await otherProcess()
    writeFileSync(`${db}.lock`, JSON.stringify({ pid: holder.pid, started: '2026-11-25T06:00:00.000Z' }))
    await expect(createEmulator({ db })).rejects.toThrow(`is in use by process ${holder.pid} (started 2026-11-25T06:00:00.000Z)`)
    await holder.stop()
    const emu = await open(db)
    expect((await emu.app.inject('/api/v1/models/count')).statusCode).toBe(200)
  })

  it('never locks :memory:: two emulators each serve a state of their own', async () => {
    const first = await open(':memory:')
    const second = await open(':memory:')
    const made = await first.app.inject({ method: 'POST', url: '/_emulator/api/accounts', payload: { name: 'only in the first' } })
    expect(made.statusCode).toBe(201)
    const names = async (emu: Emulator) =>
      ((await emu.app.inject({ url: '/_emulator/api/accounts' })).json() as { data: Array<{ name: string }> }).data.map((a) => a.name)
    expect(await names(first)).toContain('only in the first')
    expect(await names(second)).not.toContain('only in the first')
  })

  it('refuses a second CLI on the same file: exit 1, naming the file and the process', async () => {
    const db = dbFile()
    await open(db)
    const child = spawn(process.execPath, ['--experimental-strip-types', '--disable-warning=ExperimentalWarning', CLI, '--port', '0', '--db', db], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let err = ''
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()))
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
    expect(code).toBe(1)
    expect(err).toBe(
      `gateway-emulator: database ${db} is in use by process ${process.pid} (started ${(JSON.parse(readFileSync(`${db}.lock`, 'utf8')) as { started: string }).started}); stop it, or give this one another --db (or --db :memory:)\n`,
    )
  })
})

describe('the seed a database was made with', () => {
  it('is kept: another seed is refused, naming both and how to start fresh; --reset starts afresh', async () => {
    const db = dbFile()
    const made = await open(db, { seed: 1 })
    const seedOneKeys = made.keys
    await made.close()

    await expect(createEmulator({ db, seed: 7 })).rejects.toThrow(
      `was made with seed 1, and this start asks for seed 7: start with --seed 1 to keep its state, or start fresh from seed 7 with --reset (its state is discarded) or with another --db`,
    )
    const same = await open(db, { seed: 1 })
    expect(same.keys).toEqual(seedOneKeys)
    await same.close()

    const fresh = await open(db, { seed: 7, reset: true })
    const seedSeven = await createEmulator({ db: ':memory:', seed: 7 })
    expect(fresh.keys).toEqual(seedSeven.keys)
    expect(fresh.keys).not.toEqual(seedOneKeys)
    await seedSeven.close()
    // The keys it prints are the keys that work.
    expect((await fresh.app.inject({ url: '/api/v1/keys', headers: { authorization: `Bearer ${fresh.keys.management}` } })).statusCode).toBe(200)
    await fresh.close()
    // From now on the file is a seed 7 database.
    expect((await open(db, { seed: 7 })).keys).toEqual(fresh.keys)
  })
})
