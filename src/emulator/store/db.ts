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

// better-sqlite3 builds a transaction function (five wrappers and their properties) on every call of
// db.transaction(): a path that writes per request runs its work through one built once per database.
const runners = new WeakMap<DB, Database.Transaction<(work: () => unknown) => unknown>>()

/** `work` in one BEGIN IMMEDIATE transaction (nested: a savepoint), as db.transaction(work).immediate() does. */
export function immediateTransaction<T>(db: DB, work: () => T): T {
  let runner = runners.get(db)
  if (!runner) runners.set(db, (runner = db.transaction((inner: () => unknown) => inner())))
  return runner.immediate(work) as T
}
