// The state document written as it is read: table by table, row by row, a few milliseconds of work per
// turn of the event loop and no faster than its reader (the response's socket, or the file) takes it,
// from one consistent snapshot of the database. The same bytes as JSON.stringify of the whole document
// (exportState, kept for small states), without ever holding it: four 24 MB files took 2.6 s of the
// main thread and 224 MB to export whole, and a full files room (683 MB of base64) passed V8's largest
// string. Streamed, in a CLI process (test/integration/cli/export.load.test.ts): 130 MB in 2-3 s and
// 640 MB in 7-11 s, another account's slowest answer meanwhile 40-170 ms (the backup's last step), the
// peak memory 20-90 MB higher.
//
// The snapshot, without holding the event loop or copying the state into memory:
// - a database file (WAL) is read by a second, read-only connection in one read transaction: it sees
//   the state as it was when that began, whatever is written meanwhile. It costs nothing up front; the
//   WAL cannot be checkpointed past it until the export ends, so it grows by what is written meanwhile.
// - `:memory:` admits no second connection, so it is first copied to a file in a private temporary
//   directory by SQLite's online backup, a megabyte per turn (1.2 s for 700 MB, each turn a few ms but
//   the last, which commits the copy: see backUp); writes made meanwhile on the emulator's connection
//   reach the copy too, so the copy is the state as it was when the backup ended. That file is then
//   read as above, and removed. It costs the database's size on disk (in a 0700 directory: it holds
//   every secret of the state), not in memory: `db.serialize()` into a read-only copy was measured at
//   0.8 s of the main thread and 200 MB more memory for a 100 MB database (4.3 s and 1.4 GB for 700 MB).
import { rmSync } from 'node:fs'
import { mkdtemp, open, realpath, rename, stat, unlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path'
import { Readable } from 'node:stream'
import Database from 'better-sqlite3'
import { fieldError } from '../../core/errors.ts'
import type { StateOwner } from '../../core/lifecycle.ts'
import { commitBatch, type DB } from '../../store/db.ts'
import type { EmulatorContext } from '../module.ts'
import { MAX_EXPORTS_AT_ONCE } from './state-bounds.service.ts'
import { exportSnapshotFailed, tooManyExports } from './state.errors.ts'
import { Turns } from './state-turns.service.ts'
import { describeSchema, schemaVersion, selectRows, STATE_FORMAT, STATE_VERSION, type StateDocument, type StateRow, type TableInfo } from './state.service.ts'

/** Text handed to the reader at once: many rows, or one large row (a file's part is 1.4 MB). */
const CHUNK_CHARS = 256 * 1024
/** Pages of an in-memory database copied per turn: 1 MiB, a few ms. */
const BACKUP_PAGES_PER_TURN = 256
/** Pages copied between two flushes of the copy to disk (8 MiB). */
const FLUSH_EVERY_PAGES = 2048
/** The snapshot's reader reads each page once: a small cache (KiB) rather than SQLite's default 16 MB. */
const READER_CACHE_KIB = 2048

/** What the document says besides its tables, taken when the snapshot was. */
interface DocumentHead {
  exported_at: string
  schema_version: number
  clock: StateDocument['clock']
  /** The settings' JSON, made then: a setting changed during the export does not show. */
  settingsText: string
}

/** The state as it was at one moment, to read an export from. */
interface Snapshot {
  /** A read-only connection of its own, in one read transaction on the snapshot. */
  readonly db: DB
  readonly head: DocumentHead
  /** The state's owners: which rows of their tables an export carries. */
  readonly owners: readonly StateOwner[]
  /** Ends the read and removes any copy; more calls do nothing. */
  close(): void
}

const exportsUnderWay = new WeakMap<EmulatorContext, number>()

function headOf(ctx: EmulatorContext, db: DB): DocumentHead {
  return {
    exported_at: ctx.clock.nowIso(),
    schema_version: schemaVersion(db),
    clock: ctx.clock.state(),
    settingsText: JSON.stringify(Object.fromEntries(ctx.state.settings().map(([name, settings]) => [name, settings.current()]))),
  }
}

/**
 * Copies the in-memory database `db` to `file` (a new file), BACKUP_PAGES_PER_TURN pages a turn. The
 * backup's last step commits the copy, and SQLite flushes it to disk then (fsync): 130 MB of pages
 * written back at once held the event loop 0.2-0.6 s. So the file is also flushed as it grows, every
 * FLUSH_EVERY_PAGES, by a thread of libuv's pool (fdatasync of a handle of our own), and the last flush
 * has little left to write (60-80 ms, measured).
 */
async function backUp(db: DB, file: string): Promise<void> {
  // An empty file is an empty database: the backup writes into it, and this handle flushes it.
  const handle = await open(file, 'wx', 0o600)
  let unflushed = 0
  // In an object: TypeScript does not follow the progress callback's assignments.
  const flush: { underWay: Promise<void> | null } = { underWay: null }
  try {
    await db.backup(file, {
      progress: () => {
        unflushed += BACKUP_PAGES_PER_TURN
        if (flush.underWay === null && unflushed >= FLUSH_EVERY_PAGES) {
          unflushed = 0
          flush.underWay = handle
            .datasync()
            .catch(() => undefined)
            .finally(() => (flush.underWay = null))
        }
        return BACKUP_PAGES_PER_TURN
      },
    })
  } finally {
    await flush.underWay
    await handle.close()
  }
}

/** A read-only connection on `file`, its read transaction begun (its snapshot is taken by the first read). */
function openReader(file: string): DB {
  const db = new Database(file, { readonly: true, fileMustExist: true })
  try {
    db.pragma('busy_timeout = 5000')
    db.pragma(`cache_size = -${READER_CACHE_KIB}`)
    db.exec('BEGIN')
    db.prepare('SELECT count(*) FROM sqlite_master').pluck().get()
    return db
  } catch (error) {
    db.close()
    throw error
  }
}

/** The snapshot an export reads: see the top of this file. At most MAX_EXPORTS_AT_ONCE are open per emulator. */
async function openSnapshot(ctx: EmulatorContext): Promise<Snapshot> {
  const underWay = exportsUnderWay.get(ctx) ?? 0
  if (underWay >= MAX_EXPORTS_AT_ONCE) throw tooManyExports(MAX_EXPORTS_AT_ONCE)
  exportsUnderWay.set(ctx, underWay + 1)
  let closed = false
  const release = (): void => {
    if (closed) return
    closed = true
    exportsUnderWay.set(ctx, (exportsUnderWay.get(ctx) ?? 1) - 1)
  }
  try {
    if (ctx.db.memory) {
      const dir = await mkdtemp(join(tmpdir(), 'emulator-export-'))
      // At once, not later: a process that ends right after an export leaves no copy of its state behind.
      const removeCopy = (): void => rmSync(dir, { recursive: true, force: true })
      try {
        const file = join(dir, 'snapshot.db')
        commitBatch(ctx.db)
        await backUp(ctx.db, file)
        // The backup ended in this turn (only callbacks of promises already settled ran since): the
        // clock and settings are taken with the state it copied.
        const head = headOf(ctx, ctx.db)
        const db = openReader(file)
        // The open connection reads on without a name (POSIX), so not even a crash leaves the copy;
        // where an open file cannot be removed (Windows) it goes when the export ends.
        let removed = false
        try {
          removeCopy()
          removed = true
        } catch {
          // Removed at close.
        }
        const removeLater = (): void => {
          if (!removed) removeCopy()
        }
        return { db, head, owners: ctx.state.owners, close: closeOnce(db, [release, removeLater]) }
      } catch (error) {
        try {
          removeCopy()
        } catch {
          // The error that stopped the backup is the one to tell.
        }
        throw error
      }
    }
    const db = openReader(ctx.db.name)
    return { db, head: headOf(ctx, db), owners: ctx.state.owners, close: closeOnce(db, [release]) }
  } catch (error) {
    release()
    throw exportSnapshotFailed(error)
  }
}

/** Closes `db` then runs `then`, the first time it is called; a step that fails does not stop the next. */
function closeOnce(db: DB, then: ReadonlyArray<() => void>): () => void {
  let closed = false
  return () => {
    if (closed) return
    closed = true
    for (const step of [() => (db.inTransaction ? db.exec('COMMIT') : undefined), () => db.close(), ...then]) {
      try {
        step()
      } catch {
        // A connection that cannot close now is closed by the garbage collector; a copy that cannot be
        // removed is in a directory only this user can read.
      }
    }
  }
}

/** A row as JSON; a BLOB would become an object that cannot be imported back (no table has one today). */
function rowText(table: TableInfo, row: StateRow): string {
  for (const key in row) {
    const value = row[key]
    if (typeof value === 'object' && value !== null) throw new Error(`table ${table.name} holds a BLOB value, which the state document cannot carry`)
  }
  return JSON.stringify(row)
}

/**
 * The document's text, in pieces of about CHUNK_CHARS (a larger row alone), the same characters as
 * JSON.stringify of exportState's object. Lets others run every few ms (Turns); closes the
 * snapshot when done, failed or returned early (a client that went away).
 */
async function* documentText(snapshot: Snapshot): AsyncGenerator<string, void, undefined> {
  const { db, head } = snapshot
  let pending: string[] = []
  let pendingChars = 0
  const add = (text: string): void => {
    pending.push(text)
    pendingChars += text.length
  }
  const take = (): string => {
    const text = pending.join('')
    pending = []
    pendingChars = 0
    return text
  }
  const turns = new Turns()
  try {
    // The envelope in StateDocument's order, `tables` and `settings` still to come.
    const envelope = { format: STATE_FORMAT, version: STATE_VERSION, exported_at: head.exported_at, schema_version: head.schema_version, clock: head.clock }
    add(`${JSON.stringify(envelope).slice(0, -1)},"tables":{`)
    for (const [index, table] of describeSchema(db).entries()) {
      add(`${index === 0 ? '' : ','}${JSON.stringify(table.name)}:[`)
      let first = true
      for (const row of selectRows(db, table, snapshot.owners).iterate() as IterableIterator<StateRow>) {
        const text = rowText(table, row)
        if (!first) add(',')
        first = false
        if (text.length >= CHUNK_CHARS) {
          // A large row (a file's part) goes as it is: joined to the rest it would be copied once more.
          yield take()
          yield text
        } else {
          add(text)
          if (pendingChars >= CHUNK_CHARS) yield take()
        }
        if (turns.due()) await turns.next()
      }
      add(']')
    }
    add(`},"settings":${head.settingsText}}`)
    yield take()
  } finally {
    snapshot.close()
  }
}

/**
 * The whole state as one object, read in one transaction on the emulator's own connection: for small
 * states (tests, tools). It holds the event loop for as long as the read takes and the whole document
 * in memory; GET /export and POST /export stream it instead (exportStream, exportStateToFile).
 */
export function exportState(ctx: EmulatorContext): StateDocument {
  const read = ctx.db.transaction((): Record<string, StateRow[]> => {
    const tables: Record<string, StateRow[]> = {}
    for (const table of describeSchema(ctx.db)) {
      const rows = selectRows(ctx.db, table, ctx.state.owners).all() as StateRow[]
      for (const row of rows) rowText(table, row)
      tables[table.name] = rows
    }
    return tables
  })
  const tables = read()
  return {
    format: STATE_FORMAT,
    version: STATE_VERSION,
    exported_at: ctx.clock.nowIso(),
    schema_version: schemaVersion(ctx.db),
    clock: ctx.clock.state(),
    tables,
    settings: Object.fromEntries(ctx.state.settings().map(([name, settings]) => [name, settings.current()])),
  }
}

/**
 * The document as a byte stream (what GET /export sends), from a snapshot taken now: pulled a chunk
 * at a time by its reader, so a slow client holds a snapshot open, never the document. Refuses (429)
 * when MAX_EXPORTS_AT_ONCE are under way; the snapshot is closed when the stream ends or is destroyed.
 */
export async function exportStream(ctx: EmulatorContext): Promise<Readable> {
  const snapshot = await openSnapshot(ctx)
  const stream = Readable.from(documentText(snapshot), { objectMode: false, highWaterMark: CHUNK_CHARS })
  // Destroyed before its first read, the generator never ran to close it.
  stream.once('close', () => snapshot.close())
  return stream
}

let tempCounter = 0

/** An error of the file system (not of reading the state): the path's fault, a 400 naming it. */
const isFileError = (error: unknown): error is NodeJS.ErrnoException =>
  error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string' && /^E[A-Z]+$/.test((error as NodeJS.ErrnoException).code!)

/**
 * Writes the export to `path` atomically: streamed (each write awaited) to a temporary file in the same
 * directory, flushed, then renamed over the target, so a crash leaves the old file or the new one,
 * never half of one.
 */
export async function exportStateToFile(ctx: EmulatorContext, requested: string): Promise<{ path: string; bytes: number }> {
  const path = await pathInDataDir(ctx, requested)
  const dir = dirname(path)
  if ((await stat(path).catch(() => null))?.isDirectory()) throw fieldError('path', `is a directory: ${path}`)

  const snapshot = await openSnapshot(ctx)
  tempCounter += 1
  const temp = join(dir, `.${basename(path)}.${process.pid}-${tempCounter}.tmp`)
  let bytes = 0
  try {
    const handle = await open(temp, 'w')
    try {
      for await (const text of documentText(snapshot)) {
        // The text as it is: the write encodes it, with no copy of our own to wait for the collector.
        bytes += Buffer.byteLength(text, 'utf8')
        await handle.write(text, null, 'utf8')
      }
      await handle.sync()
    } finally {
      await handle.close()
    }
    await rename(temp, path)
  } catch (error) {
    await unlink(temp).catch(() => undefined)
    if (!isFileError(error)) throw error
    throw fieldError('path', `cannot be written: ${error.code} ${error.message}`)
  } finally {
    snapshot.close()
  }
  // Makes the rename itself durable where directories can be synced (not on Windows).
  await open(dir, 'r')
    .then(async (handle) => {
      await handle.sync().catch(() => undefined)
      await handle.close()
    })
    .catch(() => undefined)
  return { path, bytes }
}

/**
 * Where a file named over HTTP may be written: inside the emulator's data directory (the database's),
 * nowhere else. A page or process that drives the admin API must not be able to write a shell start-up
 * file or anything else the user can write. A relative path is taken from the data directory; the
 * directory it names must exist, and is compared once symbolic links are resolved.
 */
async function pathInDataDir(ctx: EmulatorContext, requested: string): Promise<string> {
  if (ctx.config.db === ':memory:') {
    throw fieldError(
      'path',
      'cannot be written: this emulator keeps its database in memory, so it has no data directory to write into; download the document with GET /_emulator/api/export instead',
    )
  }
  const dataDir = await realpath(dirname(resolve(ctx.config.db)))
  const path = isAbsolute(requested) ? resolve(requested) : resolve(dataDir, requested)
  const dir = await realpath(dirname(path)).catch(() => null)
  if (dir === null) throw fieldError('path', `is in a directory that does not exist: ${dirname(path)}`)
  if (dir !== dataDir && !dir.startsWith(dataDir + sep)) {
    throw fieldError(
      'path',
      `must be inside the emulator's data directory (${dataDir}); the admin API writes nowhere else (the CLI and your own scripts can copy the file on)`,
    )
  }
  return join(dir, basename(path))
}
