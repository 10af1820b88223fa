// The recording folder on disk, as --record writes it and --replay reads it: the bounds both keep (so
// nothing the recorder writes is refused by a replay), the listing of a folder's `*.json` files, and
// the reading of one of them. A file is read only where it is a regular file whose real path is inside
// the folder (a link within the folder is followed, one that leaves it is refused, and nothing under
// /proc, /sys or /dev is read); it is never opened for a blocking read unless it is a regular file,
// and its size is the bytes actually read under a cap, never what stat says (a /proc file says 0).
//
// The listing and the reading are written once, as generators that yield each file-system call, and
// run either synchronously (the start, before anything is served, and `validate`) or on Node's
// thread pool (a reload while requests are served; a large file is parsed in a worker thread): the
// same rules, the same bounds, either way.
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readSync, realpathSync, statSync, type Dirent, type Stats } from 'node:fs'
import { lstat, open, readdir, realpath, stat } from 'node:fs/promises'
import { isAbsolute, join, relative } from 'node:path'
import { RAW_ANSWER_BYTES } from './recordings-format.service.ts'
import { parseHere, parseOffThread, type Parsed } from './recordings-parser.service.ts'

/** The most `*.json` files a folder may hold. */
export const MAX_FILES = 10_000
/** The most bytes of all its files together. */
export const MAX_FOLDER_BYTES = 64 * 1024 * 1024
/** The most bytes of one file: a raw answer at its bound, as base64 (4/3, with room), and 1 MiB of the rest. */
export const MAX_FILE_BYTES = Math.floor(RAW_ANSWER_BYTES * 1.4) + 1024 * 1024
/** Subfolders deeper than this are not read. */
export const MAX_DEPTH = 16
/** Where the kernel shows processes and devices as files: never recordings, whatever links lead there. */
const SYSTEM_ROOTS = ['/proc', '/sys', '/dev']

// ---- File-system calls, run synchronously or on the thread pool ---------------------------------------

/** An open file as both runs use it: its descriptor (sync) or handle (async) behind the same calls. */
interface OpenFile {
  stat(): Stats | Promise<Stats>
  read(into: Buffer, at: number): number | Promise<number>
  close(): void | Promise<void>
}

/** The calls that may run off the event loop: the file system's, and parsing a file (recordings-parser.service.ts). */
interface FileSystem {
  realpath(path: string): string
  stat(path: string): Stats
  lstat(path: string): Stats
  readdir(path: string): Dirent[]
  open(path: string): OpenFile
  /** A file's bytes as JSON, with their digest. */
  parse(bytes: Buffer): Parsed
}

/** Read-only, never following a last link (the path given is already real), never waiting on a FIFO. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0)

const syncFs: FileSystem = {
  // The native realpath: one call, where the JavaScript one takes an lstat per component.
  realpath: (path) => realpathSync.native(path),
  stat: (path) => statSync(path),
  lstat: (path) => lstatSync(path),
  readdir: (path) => readdirSync(path, { withFileTypes: true }),
  open(path) {
    const fd = openSync(path, OPEN_FLAGS)
    return { stat: () => fstatSync(fd), read: (into, at) => readSync(fd, into, at, into.length - at, null), close: () => closeSync(fd) }
  },
  parse: parseHere,
}

type AsyncFs = { [K in keyof FileSystem]: (...args: Parameters<FileSystem[K]>) => Promise<ReturnType<FileSystem[K]>> }

const asyncFs: AsyncFs = {
  realpath: (path) => realpath(path),
  stat: (path) => stat(path),
  lstat: (path) => lstat(path),
  readdir: (path) => readdir(path, { withFileTypes: true }),
  async open(path) {
    const handle = await open(path, OPEN_FLAGS)
    return {
      stat: () => handle.stat(),
      read: async (into, at) => (await handle.read(into, at, into.length - at, null)).bytesRead,
      close: () => handle.close(),
    }
  },
  parse: parseOffThread,
}

type Call = { [K in keyof FileSystem]: { name: K; args: Parameters<FileSystem[K]> } }[keyof FileSystem]
/** Steps that yield file-system calls, await what an open file's own calls return, or run other steps side by side. */
export type Steps<T> = Generator<Call | { name: 'await'; value: unknown } | { name: 'all'; steps: Steps<unknown>[] }, T, unknown>

/** A file's bytes as JSON, with their digest: in a worker thread in the async run when they are large. */
export function* parse(bytes: Buffer): Steps<Parsed> {
  return yield* call('parse', bytes)
}

function* call<K extends keyof FileSystem>(name: K, ...args: Parameters<FileSystem[K]>): Steps<ReturnType<FileSystem[K]>> {
  return (yield { name, args } as Call) as ReturnType<FileSystem[K]>
}

/** A value an open file's call gave: as it is (sync), or once its promise settles (async). */
function* settled<T>(value: T | Promise<T>): Steps<T> {
  return (yield { name: 'await', value }) as T
}

/** Several steps' results: one after the other (sync), or side by side on the thread pool (async). */
export function* all<T>(steps: Steps<T>[]): Steps<T[]> {
  return (yield { name: 'all', steps }) as T[]
}

/**
 * Between two pieces of work on the event loop (a file parsed, then checked): in the async run, what
 * waits is served before the next piece; the synchronous run goes straight on.
 */
export function* breathe(): Steps<void> {
  yield { name: 'await', value: breathing }
}

/** The marker `breathe` yields: the async run turns it into a turn of the event loop. */
const breathing = Symbol('breathe')
/** Two turns of the loop: a request waiting (a heartbeat) takes one to be read and one to be answered. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(() => setImmediate(resolve)))

/** Runs `steps` with synchronous calls: for the start and `validate`, where nothing else is waiting. */
export function runSync<T>(steps: Steps<T>): T {
  let next = steps.next()
  while (!next.done) {
    const step = next.value
    let result: unknown
    try {
      result =
        step.name === 'all'
          ? step.steps.map(runSync)
          : step.name === 'await'
            ? step.value === breathing
              ? undefined
              : step.value
            : (syncFs[step.name] as (...args: unknown[]) => unknown)(...step.args)
    } catch (error) {
      next = steps.throw(error)
      continue
    }
    next = steps.next(result)
  }
  return next.value
}

/** Runs `steps` on the thread pool: the event loop serves requests between the calls. */
export async function runAsync<T>(steps: Steps<T>): Promise<T> {
  let next = steps.next()
  while (!next.done) {
    const step = next.value
    let result: unknown
    try {
      result = await (step.name === 'all'
        ? Promise.all(step.steps.map(runAsync))
        : step.name === 'await'
          ? step.value === breathing
            ? nextTurn()
            : step.value
          : (asyncFs[step.name] as (...args: unknown[]) => Promise<unknown>)(...step.args))
    } catch (error) {
      next = steps.throw(error)
      continue
    }
    next = steps.next(result)
  }
  return next.value
}

// ---- The folder ----------------------------------------------------------------------------------------

const errorCode = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? 'error'

const isUnder = (path: string, root: string): boolean => {
  const within = relative(root, path)
  return within !== '' && !within.startsWith('..') && !isAbsolute(within)
}

const systemRoot = (real: string): string | undefined => SYSTEM_ROOTS.find((root) => real === root || isUnder(real, root))

export interface ListedFolder {
  /** The folder's real path: every file read must be inside it. */
  root: string
  /** Its `*.json` entries (relative, `/`-separated, in name order): at most MAX_FILES + 1, then the listing stops. */
  files: string[]
}

/**
 * The `*.json` entries under `folder` (whatever their type: the reader judges each), or why it cannot
 * be read. Hidden entries (.git) are skipped; a link to a folder is not followed (no loops, nothing
 * outside); subfolders deeper than MAX_DEPTH are not read.
 */
export function* listFolder(folder: string): Steps<ListedFolder | { problem: string }> {
  let root: string
  try {
    if (!(yield* call('stat', folder)).isDirectory()) return { problem: 'is not a folder' }
    root = yield* call('realpath', folder)
  } catch (error) {
    const code = errorCode(error)
    return { problem: code === 'ENOENT' ? 'does not exist' : `cannot be read (${code})` }
  }
  const system = systemRoot(root)
  if (system) return { problem: `is under ${system}, which holds no recordings (--replay reads none of it)` }
  const files: string[] = []
  const walk = function* (within: string, depth: number): Steps<void> {
    let entries: Dirent[]
    try {
      entries = yield* call('readdir', join(folder, within))
    } catch (error) {
      if (depth === 0) throw error
      return
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (files.length > MAX_FILES) return
      if (entry.name.startsWith('.')) continue
      const path = within ? `${within}/${entry.name}` : entry.name
      if (entry.isDirectory()) {
        if (depth < MAX_DEPTH) yield* walk(path, depth + 1)
      } else if (entry.name.endsWith('.json')) {
        files.push(path)
      }
    }
  }
  try {
    yield* walk('', 0)
  } catch (error) {
    return { problem: `cannot be read (${errorCode(error)})` }
  }
  return { root, files: files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)) }
}

/** The bytes read from one file, or what rule it broke (never a word of its content). */
export type ReadFile = { bytes: Buffer } | { issue: string }

/**
 * Reads `file` (relative to `folder`, whose real path is `root`) under `cap` bytes: only a regular
 * file whose real path is inside the folder and outside /proc, /sys and /dev. The file opened is the
 * one checked (same device and inode), so a link swapped in meanwhile is refused, not read.
 */
export function* readRecordingFile(folder: string, root: string, file: string, cap: number): Steps<ReadFile> {
  let real: string
  let checked: Stats
  try {
    real = yield* call('realpath', join(folder, file))
    checked = yield* call('lstat', real)
  } catch (error) {
    return { issue: `cannot be read (${errorCode(error)})` }
  }
  const system = systemRoot(real)
  if (system) return { issue: `leads to ${system}, which holds no recordings: --replay reads regular files inside its folder only` }
  if (!isUnder(real, root)) return { issue: 'is a link that leaves the folder: --replay reads regular files inside its folder only' }
  // A FIFO, a device or a socket is refused here, before it is opened: reading one could wait for ever.
  if (!checked.isFile()) return { issue: 'is not a regular file (a folder, FIFO, device or socket): --replay reads regular files only' }
  // A size stat reports above the cap is believed (the file is refused unread); a smaller one is not.
  if (checked.size > cap) return { issue: `is ${checked.size} bytes, more than the ${cap} a recording may be` }
  let opened: OpenFile
  try {
    opened = yield* call('open', real)
  } catch (error) {
    return { issue: `cannot be read (${errorCode(error)})` }
  }
  try {
    const now = yield* settled(opened.stat())
    if (!now.isFile() || now.dev !== checked.dev || now.ino !== checked.ino)
      return { issue: 'changed while it was being read: --replay reads regular files only' }
    // A first guess from stat's size, grown as the bytes say: at most cap + 1 are ever read.
    let buffer = Buffer.allocUnsafe(Math.min(cap + 1, Math.max(checked.size + 1, 64 * 1024)))
    let length = 0
    for (;;) {
      if (length === buffer.length) {
        if (length > cap) return { issue: `is more than the ${cap} bytes a recording may be` }
        const larger = Buffer.allocUnsafe(Math.min(cap + 1, buffer.length * 2))
        buffer.copy(larger, 0, 0, length)
        buffer = larger
      }
      const read = yield* settled(opened.read(buffer, length))
      if (read === 0) break
      length += read
    }
    return { bytes: buffer.subarray(0, length) }
  } catch (error) {
    return { issue: `cannot be read (${errorCode(error)})` }
  } finally {
    try {
      yield* settled(opened.close())
    } catch {
      // Closing a file that was only read loses nothing.
    }
  }
}

/** Files whose size the recorder asks for at once. */
const TALLY_BATCH = 32

/** What the folder holds as --replay counts it: its files and their bytes, and the size of one file in it (null when absent). */
export interface FolderTally {
  files: number
  bytes: number
  sizeOf: number | null
}

/**
 * The folder as --replay would count it, for the recorder to keep within its bounds: the `*.json` files
 * the listing finds and the bytes stat gives for each (for the regular files the recorder writes, the
 * bytes a reader reads). A folder that does not exist yet holds nothing.
 */
export async function tallyFolder(folder: string, name: string): Promise<FolderTally> {
  const listed = await runAsync(listFolder(folder))
  if ('problem' in listed) return { files: 0, bytes: 0, sizeOf: null }
  let bytes = 0
  let sizeOf: number | null = null
  // A few at a time on the thread pool: a folder at its bound (10,000 files) takes a fraction of a second.
  for (let at = 0; at < listed.files.length; at += TALLY_BATCH) {
    const batch = listed.files.slice(at, at + TALLY_BATCH)
    const sizes = await Promise.all(
      batch.map((file) =>
        stat(join(folder, file)).then(
          (stats) => (stats.isFile() ? stats.size : 0),
          () => 0,
        ),
      ),
    )
    for (const [i, size] of sizes.entries()) {
      bytes += size
      if (batch[i] === name) sizeOf = size
    }
  }
  return { files: listed.files.length, bytes, sizeOf }
}
