import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createEmulator } from '../../../src/emulator/index.ts'
import { sha256Hex } from '../../../src/emulator/core/rng.ts'
import { openDatabase } from '../../../src/emulator/store/db.ts'
import { migrate } from '../../../src/emulator/store/migrate.ts'
import { migrations } from '../../../src/emulator/store/migrations/index.ts'

const tempDb = () => join(mkdtempSync(join(tmpdir(), 'gwe-store-')), 'nested', 'emulator.db')

describe('store', () => {
  it('applies every migration to an empty database and records user_version; STRICT tables', () => {
    const db = openDatabase(':memory:')
    expect(migrate(db, migrations)).toBe(migrations.length)
    expect(db.pragma('user_version', { simple: true })).toBe(migrations.length)
    const tables = db.prepare<[], { name: string; sql: string }>("SELECT name, sql FROM sqlite_master WHERE type = 'table'").all()
    for (const t of tables) expect(t.sql, t.name).toMatch(/STRICT$/)
    // A second run is a no-op.
    expect(migrate(db, migrations)).toBe(migrations.length)
    db.close()
  })

  it('refuses a database newer than the code', () => {
    const db = openDatabase(':memory:')
    db.pragma('user_version = 999')
    expect(() => migrate(db, migrations)).toThrow(/schema version 999, newer than this emulator knows/)
    db.close()
  })

  it('STRICT columns refuse values of the wrong type', () => {
    const db = openDatabase(':memory:')
    migrate(db, migrations)
    expect(() => db.prepare("INSERT INTO accounts (id, name, credits_nanos, workspace_id, created_at) VALUES ('a', 'n', 'lots', 'w', 0)").run()).toThrow(
      /cannot store TEXT value in INTEGER column/,
    )
    db.close()
  })

  it('creates the database file (and its folder) with WAL on first start, and keeps state across restarts without reseeding', async () => {
    const path = tempDb()
    const first = await createEmulator({ db: path, seed: 5, clock: 'manual' })
    expect(first.ctx.db.pragma('journal_mode', { simple: true })).toBe('wal')
    expect(first.ctx.db.pragma('foreign_keys', { simple: true })).toBe(1)
    const created = await first.app.inject({ method: 'POST', url: '/_emulator/api/accounts', payload: { name: 'kept' } })
    await first.app.inject({
      method: 'PATCH',
      url: `/api/v1/keys/${sha256Hex(first.keys.standard)}`,
      headers: { authorization: `Bearer ${first.keys.management}` },
      payload: { name: 'persisted' },
    })
    const keys = first.keys
    await first.close()

    const second = await createEmulator({ db: path, seed: 5, clock: 'manual' })
    expect(second.keys).toEqual(keys)
    const accounts = (await second.app.inject('/_emulator/api/accounts')).json().data
    expect(accounts.map((a: { name: string }) => a.name)).toEqual(['Northwind Labs', 'kept'])
    const list = await second.app.inject({ url: '/api/v1/keys', headers: { authorization: `Bearer ${keys.management}` } })
    expect(list.json().data[0].name).toBe('persisted')
    // New ids after a restart continue the sequence instead of repeating it.
    const next = await second.app.inject({ method: 'POST', url: '/_emulator/api/accounts', payload: {} })
    expect(next.json().data.id).not.toBe(created.json().data.id)
    await second.close()
  })

  it('the same seed gives the same keys and ids; another seed gives others', async () => {
    const a = await createEmulator({ seed: 11 })
    const b = await createEmulator({ seed: 11 })
    const c = await createEmulator({ seed: 12 })
    expect(a.keys).toEqual(b.keys)
    expect(a.keys.management).not.toBe(c.keys.management)
    const accA = (await a.app.inject({ method: 'POST', url: '/_emulator/api/accounts', payload: {} })).json().data
    const accB = (await b.app.inject({ method: 'POST', url: '/_emulator/api/accounts', payload: {} })).json().data
    expect(accA).toEqual(accB)
    await Promise.all([a.close(), b.close(), c.close()])
  })

  it('reports a database path it cannot create in one line', async () => {
    // A regular file where a folder should be: unwritable for root too (mkdir on /proc would hang Node).
    const file = join(mkdtempSync(join(tmpdir(), 'gwe-store-')), 'a-file')
    writeFileSync(file, '')
    const path = join(file, 'emulator.db')
    await expect(createEmulator({ db: path })).rejects.toThrow(`cannot open database at ${path}: not a directory`)
  })
})

describe('the clock across restarts of a file-backed emulator', () => {
  const options = (db: string) => ({ db, logLevel: 'silent' as const, seed: 1 })

  it('a manual clock resumes where it was moved to, and keeps it through a reset', async () => {
    const db = tempDb()
    const first = await createEmulator({ ...options(db), clock: 'manual', clockStart: '2026-03-04T10:00:00Z' })
    await first.clock.advance('1d2h')
    await first.reset()
    await first.close()
    const second = await createEmulator({ ...options(db), clock: 'manual' })
    expect(second.clock.nowIso()).toBe('2026-03-05T12:00:00.000Z')
    await second.close()
  })

  it('a system clock keeps its offset; --clock-start overrides what was kept', async () => {
    const db = tempDb()
    const first = await createEmulator({ ...options(db), clock: 'system' })
    first.clock.set(first.clock.now() + 30 * 86_400_000)
    await first.close()
    const second = await createEmulator({ ...options(db), clock: 'system' })
    const realNow = Date.now()
    expect(second.clock.now() - realNow).toBeGreaterThan(30 * 86_400_000 - 60_000)
    expect(second.clock.now() - realNow).toBeLessThan(30 * 86_400_000 + 60_000)
    await second.close()
    const third = await createEmulator({ ...options(db), clock: 'manual', clockStart: '2027-01-01T00:00:00Z' })
    expect(third.clock.nowIso()).toBe('2027-01-01T00:00:00.000Z')
    await third.close()
  })

  it('a database whose clock never moved starts at the configured time', async () => {
    const db = tempDb()
    await (await createEmulator({ ...options(db), clock: 'manual' })).close()
    const again = await createEmulator({ ...options(db), clock: 'manual' })
    expect(again.clock.nowIso()).toBe('2026-01-01T12:00:00.000Z')
    await again.close()
  })
})
