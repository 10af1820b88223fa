// Opens the one SQLite database. A file gets WAL (readers never block the writer, and a killed
// process loses no committed transaction) and a busy timeout; ':memory:' is for tests.
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import Database from 'better-sqlite3'

export type DB = Database.Database

export class DatabaseOpenError extends Error {
  override name = 'DatabaseOpenError'
}

/** Opens the database at `path`; an in-memory one may start as a copy of `image` (a serialized database). */
export function openDatabase(path: string, image?: Buffer): DB {
  const inMemory = path === ':memory:'
  let db: DB
  try {
    if (!inMemory) mkdirSync(dirname(path), { recursive: true })
    db = inMemory && image ? new Database(image) : new Database(path)
    if (!inMemory) {
      db.pragma('journal_mode = WAL')
      // NORMAL in WAL mode keeps every commit across a process crash; only power loss can drop the last ones.
      db.pragma('synchronous = NORMAL')
    }
    db.pragma('foreign_keys = ON')
    db.pragma('busy_timeout = 5000')
    prepareOnFirstUse(db)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const reason =
      code === 'EACCES' || code === 'EROFS' || code === 'EPERM'
        ? 'permission denied'
        : code === 'ENOTDIR' || code === 'EEXIST'
          ? 'not a directory'
          : (error as Error).message
    throw new DatabaseOpenError(`cannot open database at ${path}: ${reason}`)
  }
  return db
}

// ---- Statements prepared on first use ------------------------------------------------------------
// The repositories prepare some 240 statements as an emulator starts, most of which a run never uses:
// about a tenth of a warm start. Each is compiled at its first use instead (SQL that does not compile
// fails there, not at start: test/unit/store/statements.test.ts prepares every one of a fresh emulator).

const waitingStatements = new WeakMap<DB, Set<() => void>>()

function prepareOnFirstUse(db: DB): void {
  const prepareNow = db.prepare.bind(db) as (sql: string) => Database.Statement
  const waiting = new Set<() => void>()
  waitingStatements.set(db, waiting)
  db.prepare = ((sql: string) => {
    let statement: Database.Statement | undefined
    const prepared = (): Database.Statement => {
      if (statement === undefined) {
        statement = prepareNow(sql)
        waiting.delete(prepareEarly)
      }
      return statement
    }
    const prepareEarly = (): void => void prepared()
    waiting.add(prepareEarly)
    const lazy = {
      run: (...params: unknown[]) => prepared().run(...params),
      get: (...params: unknown[]) => prepared().get(...params),
      all: (...params: unknown[]) => prepared().all(...params),
      iterate: (...params: unknown[]) => prepared().iterate(...params),
      pluck: (...toggle: [boolean?]) => prepared().pluck(...toggle),
      get source() {
        return sql
      },
      get reader() {
        return prepared().reader
      },
    }
    return lazy as unknown as Database.Statement
  }) as DB['prepare']
}

/** Compiles every statement of `db` not used yet: a test's check that all of them compile. */
export function prepareAll(db: DB): number {
  const waiting = [...(waitingStatements.get(db) ?? [])]
  for (const prepare of waiting) prepare()
  return waiting.length
}

// better-sqlite3 builds a transaction function (five wrappers and their properties) on every call of
// db.transaction(): a path that writes per request runs its work through one built once per database.
const runners = new WeakMap<DB, Database.Transaction<(work: () => unknown) => unknown>>()

/** `work` in one BEGIN IMMEDIATE transaction (nested: a savepoint), as db.transaction(work).immediate() does. */
export function immediateTransaction<T>(db: DB, work: () => T): T {
  let runner = runners.get(db)
  if (!runner) runners.set(db, (runner = db.transaction((inner: () => unknown) => inner())))
  return runner.immediate(work) as T
}

// ---- Group commit --------------------------------------------------------------------------------
// On a database file each commit writes its pages to the write-ahead log: for a billed call that was half
// its cost (a dozen pages, two dozen system calls), the same pages again for the next call. The billed
// calls of one turn of the event loop share one transaction instead, committed when that turn's input is
// done (setImmediate), and no answer leaves before the commit that holds what it wrote (the app's onSend
// waits on `uncommitted`): every acknowledged write still survives a kill. Each call runs in a savepoint
// of the batch, so a refusal undoes its own writes only. In memory nothing is to survive and a commit
// costs what a savepoint does (measured), so there each call is its own transaction, as before.

interface Batch {
  readonly committed: Promise<void>
  readonly settle: (error?: unknown) => void
}

const batches = new WeakMap<DB, Batch>()

function openBatch(db: DB): Batch {
  let resolve!: () => void
  let reject!: (error: unknown) => void
  const committed = new Promise<void>((res, rej) => {
    resolve = res
    reject = rej
  })
  // Nobody may be waiting yet; a failed commit must not be an unhandled rejection.
  committed.catch(() => {})
  db.exec('BEGIN IMMEDIATE')
  const batch: Batch = { committed, settle: (error) => (error === undefined ? resolve() : reject(error)) }
  batches.set(db, batch)
  setImmediate(() => commitBatch(db))
  return batch
}

/**
 * `work` as part of this turn's group commit on a database file (its own savepoint of the batch), or in a
 * transaction of its own in memory or inside another's. Call `uncommitted` before acknowledging it.
 */
export function groupedTransaction<T>(db: DB, work: () => T): T {
  if (db.memory || (db.inTransaction && !batches.has(db))) return immediateTransaction(db, work)
  if (!batches.has(db)) openBatch(db)
  return immediateTransaction(db, work)
}

/** Commits the open batch now, if there is one: before work that must run in a transaction of its own. */
export function commitBatch(db: DB): void {
  const batch = batches.get(db)
  if (!batch) return
  batches.delete(db)
  try {
    if (db.open && db.inTransaction) db.exec('COMMIT')
    batch.settle()
  } catch (error) {
    // Runs from a timer too, where a throw would end the process: a failed rollback leaves SQLite's own.
    try {
      if (db.open && db.inTransaction) db.exec('ROLLBACK')
    } catch {
      // SQLite has rolled the transaction back itself (an I/O error, a full disk).
    }
    batch.settle(error)
  }
}

/** The commit that what has been written so far waits for, or null when everything is committed. */
export function uncommitted(db: DB): Promise<void> | null {
  return batches.get(db)?.committed ?? null
}
