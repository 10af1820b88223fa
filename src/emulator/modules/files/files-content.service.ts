// A file's bytes in the database, written and read a part at a time (FILE_PART_BYTES of bytes, base64),
// so keeping or sending a 25 MB file never holds the event loop for more than a part.
//
// Writing: the first part is written with the room's check and the file's id (one transaction), then a
// part per turn of the event loop, and last, in one transaction with the room checked again, the
// file's row: until then no reader finds the parts (every read goes through the row), so a file is
// visible whole or not at all. A write stopped part way (a refusal, a crash) leaves parts without a
// row: the writer removes them, or the next start does. A reset or an import replaces the parts with
// the state, and an account reset (or deletion) deletes the account's: the writes under way are stopped
// (FileWrites, or the account found gone), so none goes on writing, or makes visible, what the state no
// longer has.
import { Readable } from 'node:stream'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { immediateTransaction } from '../../store/db.ts'
import type { EmulatorContext } from '../module.ts'
import { fileGone, fileWriteStopped } from './files.errors.ts'
import type { FilePart, FileRow, FileScope } from './files.repo.ts'
import { FILE_PART_BYTES } from './files.schemas.ts'

/** The parts `bytes` bytes are kept in. */
export const partsOf = (bytes: number): number => Math.ceil(bytes / FILE_PART_BYTES)

/** Why a write under way was stopped: the state was replaced (its parts with it), or its account was reset. */
export type StopReason = 'state' | 'account'

/** A file being written: its id, its account, and whether it must stop. */
export interface FileWrite {
  readonly fileId: string
  readonly accountId: string
  readonly stopped: StopReason | null
}

/** The writes under way, stopped when the state under them changes. */
export class FileWrites {
  private readonly open = new Set<{ fileId: string; accountId: string; stopped: StopReason | null }>()

  begin(fileId: string, accountId: string): FileWrite {
    const write = { fileId, accountId, stopped: null }
    this.open.add(write)
    return write
  }

  end(write: FileWrite): void {
    this.open.delete(write)
  }

  /** A reset or an import replaced the state: every write's parts went with it. */
  stopAll(): void {
    for (const write of this.open) write.stopped = 'state'
    this.open.clear()
  }

  /** An account's files and parts were deleted (its reset). */
  stopAccount(accountId: string): void {
    for (const write of this.open) {
      if (write.accountId !== accountId) continue
      write.stopped ??= 'account'
      this.open.delete(write)
    }
  }

  /** Writes under way, for tests. */
  get count(): number {
    return this.open.size
  }
}

/** What a new file is: its bytes and its row's fields. */
export interface NewFile {
  filename: string
  bytes: Buffer
  purpose: string
  downloadable: boolean
  mimeType: string
}

/**
 * Keeps a file, its parts first and its row last (see above). `inRoom` checks the room and mints the
 * file's id, in the transaction of the first part; `visible` checks the room again and makes the row,
 * in the last. A file of one part is one transaction.
 */
export async function writeFile(
  ctx: EmulatorContext,
  scope: FileScope,
  file: NewFile,
  steps: { inRoom: () => string; visible: (id: string) => FileRow },
): Promise<FileRow> {
  const repo = ctx.services.files
  const parts = partsOf(file.bytes.length)
  const partOf = (fileId: string, part: number): FilePart => ({
    file_id: fileId,
    part,
    account_id: scope.account_id,
    content: file.bytes.toString('base64', part * FILE_PART_BYTES, Math.min(file.bytes.length, (part + 1) * FILE_PART_BYTES)),
  })
  // An account deleted meanwhile has taken its parts with it (they cascade), and would refuse more.
  const accountThere = (): void => {
    if (!ctx.services.accounts.get(scope.account_id)) throw fileWriteStopped('account')
  }
  if (parts === 1) {
    return immediateTransaction(ctx.db, () => {
      accountThere()
      const id = steps.inRoom()
      repo.insertPart(partOf(id, 0))
      return steps.visible(id)
    })
  }
  const write = immediateTransaction(ctx.db, () => {
    accountThere()
    const id = steps.inRoom()
    repo.insertPart(partOf(id, 0))
    return repo.writes.begin(id, scope.account_id)
  })
  const goOn = (): void => {
    if (write.stopped !== null) throw fileWriteStopped(write.stopped)
    accountThere()
  }
  try {
    for (let part = 1; part < parts; part++) {
      await nextTurn()
      immediateTransaction(ctx.db, () => {
        goOn()
        repo.insertPart(partOf(write.fileId, part))
      })
    }
    await nextTurn()
    return immediateTransaction(ctx.db, () => {
      goOn()
      // Nothing else deletes parts that have no row; counted all the same, as they cost nothing to count.
      if (repo.partCount(write.fileId) !== parts) throw fileWriteStopped('state')
      return steps.visible(write.fileId)
    })
  } catch (error) {
    // A replaced state took the parts with it, and its sequences may mint this id again: nothing to remove.
    if (write.stopped !== 'state' && ctx.db.open) immediateTransaction(ctx.db, () => repo.deleteParts(write.fileId))
    throw error
  } finally {
    repo.writes.end(write)
  }
}

/**
 * A file's bytes as a stream, a part read and decoded each time the client has taken the last, on a turn
 * of the event loop of its own (a client on loopback takes a part as fast as it is written, and the
 * stream would otherwise read them all in one go): a 25 MB download holds a part or two in memory, and
 * the loop for a part's read at a time. A file deleted (or replaced) part way ends the stream with an
 * error, which cuts the response short of its Content-Length.
 */
export function contentStream(ctx: EmulatorContext, scope: FileScope, file: FileRow): Readable {
  const repo = ctx.services.files
  const parts = partsOf(file.size_bytes)
  let next = 0
  const stream = new Readable({
    read() {
      setImmediate(readPart)
    },
  })
  const readPart = (): void => {
    if (stream.destroyed) return
    if (next === parts) {
      stream.push(null)
      return
    }
    const text = ctx.db.open ? repo.part(scope, file, next) : undefined
    if (text === undefined) {
      stream.destroy(fileGone(file.id))
      return
    }
    next++
    stream.push(Buffer.from(text, 'base64'))
  }
  return stream
}
