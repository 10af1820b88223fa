// The group commit of store/db.ts on a database file: a batch's writes reach other connections only
// once `uncommitted` resolves; a throw undoes its own savepoint and leaves the batch; commitBatch ends
// it at once; in memory every call is its own transaction and nothing waits.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it, onTestFinished } from 'vitest'
import { commitBatch, groupedTransaction, openDatabase, uncommitted, type DB } from '../../../src/emulator/store/db.ts'

function fileDatabase(): { db: DB; reader: DB } {
  const dir = mkdtempSync(join(tmpdir(), 'group-commit-'))
  const db = openDatabase(join(dir, 'test.db'))
  db.exec('CREATE TABLE t (n INTEGER NOT NULL)')
  const reader = new Database(join(dir, 'test.db'), { readonly: true })
  onTestFinished(() => {
    reader.close()
    db.close()
    rmSync(dir, { recursive: true, force: true })
  })
  return { db, reader }
}

const count = (db: DB): number => db.prepare<[], { n: number }>('SELECT count(*) AS n FROM t').get()!.n

describe('group commit', () => {
  it('holds the writes of one turn in one transaction, seen by other connections once it is committed', async () => {
    const { db, reader } = fileDatabase()
    groupedTransaction(db, () => db.prepare('INSERT INTO t VALUES (1)').run())
    groupedTransaction(db, () => db.prepare('INSERT INTO t VALUES (2)').run())
    const commit = uncommitted(db)
    expect(commit).not.toBeNull()
    expect(count(db)).toBe(2)
    expect(count(reader)).toBe(0)
    await commit
    expect(count(reader)).toBe(2)
    expect(uncommitted(db)).toBeNull()
  })

  it('undoes a call that throws, and only that call', async () => {
    const { db, reader } = fileDatabase()
    groupedTransaction(db, () => db.prepare('INSERT INTO t VALUES (1)').run())
    expect(() =>
      groupedTransaction(db, () => {
        db.prepare('INSERT INTO t VALUES (2)').run()
        throw new Error('refused')
      }),
    ).toThrow('refused')
    groupedTransaction(db, () => db.prepare('INSERT INTO t VALUES (3)').run())
    await uncommitted(db)
    expect(
      reader
        .prepare<[], { n: number }>('SELECT n FROM t ORDER BY n')
        .all()
        .map((row) => row.n),
    ).toEqual([1, 3])
  })

  it('commits at once when asked (before work that needs a transaction of its own)', () => {
    const { db, reader } = fileDatabase()
    groupedTransaction(db, () => db.prepare('INSERT INTO t VALUES (1)').run())
    commitBatch(db)
    expect(db.inTransaction).toBe(false)
    expect(count(reader)).toBe(1)
    expect(uncommitted(db)).toBeNull()
  })

  it('in memory: each call is its own transaction, nothing waits', () => {
    const db = openDatabase(':memory:')
    onTestFinished(() => {
      db.close()
    })
    db.exec('CREATE TABLE t (n INTEGER NOT NULL)')
    groupedTransaction(db, () => db.prepare('INSERT INTO t VALUES (1)').run())
    expect(db.inTransaction).toBe(false)
    expect(uncommitted(db)).toBeNull()
  })
})
