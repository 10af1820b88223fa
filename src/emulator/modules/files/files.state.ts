// The files area's part of the state: its tables (files, and their bytes in file_parts), what an
// account reset deletes (its writes under way stopped too), what an imported row must be (a file's
// parts whole, in order, the length its row says, within the room the upload API keeps), and how a
// document exported before the parts (schema 14 and older: each file's bytes in `files[].content`)
// is read: its content cut into parts as migration 15 cuts a database's.
import { checkBounds, importRowError, type StateOwner } from '../../core/lifecycle.ts'
import type { DB } from '../../store/db.ts'
import type { FileWrites } from './files-content.service.ts'
import {
  FILE_PART_BYTES,
  FILE_PART_CHARS,
  MAX_ACCOUNT_BYTES,
  MAX_ACCOUNT_FILES,
  MAX_FILE_BYTES,
  MAX_TOTAL_FILE_BYTES,
  MAX_TOTAL_FILES,
} from './files.schemas.ts'
import { fileIdKinds, fileIdOf, isBase64 } from './files.service.ts'

type Row = Readonly<Record<string, unknown>>

/** The schema version that moved files' bytes into file_parts (migration 0015). */
const PARTS_SCHEMA = 15

const isRow = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * A document from before the parts: each file's `content` (padded base64, whole) becomes its parts in
 * file_parts, as the migration makes them. Rows that are no objects are left to the checks that follow.
 */
function upgradeTables(tables: Readonly<Record<string, unknown>>, from: number): Record<string, unknown> {
  const files = tables['files']
  if (from >= PARTS_SCHEMA || !Array.isArray(files)) return { ...tables }
  const parts: unknown[] = Array.isArray(tables['file_parts']) ? [...(tables['file_parts'] as unknown[])] : []
  const upgraded = files.map((row: unknown, index) => {
    if (!isRow(row) || !Object.hasOwn(row, 'content')) return row
    const { content, ...rest } = row
    if (typeof content !== 'string' || !isBase64(content)) throw importRowError('files', index, 'content', 'must be base64')
    for (let part = 0; part * FILE_PART_CHARS < content.length; part++) {
      parts.push({ file_id: row['id'], part, account_id: row['account_id'], content: content.slice(part * FILE_PART_CHARS, (part + 1) * FILE_PART_CHARS) })
    }
    return rest
  })
  return { ...tables, files: upgraded, file_parts: parts }
}

/** An imported file holds at most what one upload may. */
function checkImportedFile(row: Row, index: number): void {
  if ((row['size_bytes'] as number) > MAX_FILE_BYTES)
    throw importRowError('files', index, 'size_bytes', `must be at most ${MAX_FILE_BYTES} (the most one file may hold)`)
}

/** An imported part is base64 that is not empty. */
function checkImportedPart(row: Row, index: number): void {
  const content = row['content'] as string
  if (content === '' || !isBase64(content)) throw importRowError('file_parts', index, 'content', 'must be base64 of at least one byte')
}

/**
 * Every part belongs to a file of the document, and every file's parts are there, numbered from 0, of
 * its account, whole but the last (so they join into one base64), and as long together as its
 * `size_bytes`: so every download gives what the metadata says.
 */
function checkParts(parts: readonly Row[], tables: Readonly<Record<string, unknown>>): void {
  const files = (Array.isArray(tables['files']) ? tables['files'] : []) as Row[]
  const ids = new Set(files.map((file) => file['id']))
  parts.forEach((part, index) => {
    if (!ids.has(part['file_id'])) throw importRowError('file_parts', index, 'file_id', `must be the id of a file of the document (${String(part['file_id'])})`)
  })
  const byFile = new Map<unknown, number[]>()
  parts.forEach((part, index) => {
    const list = byFile.get(part['file_id'])
    if (list) list.push(index)
    else byFile.set(part['file_id'], [index])
  })
  files.forEach((file, index) => {
    const mine = (byFile.get(file['id']) ?? []).sort((a, b) => (parts[a]!['part'] as number) - (parts[b]!['part'] as number))
    let bytes = 0
    mine.forEach((at, n) => {
      const part = parts[at]!
      const content = part['content'] as string
      if (part['part'] !== n)
        throw importRowError('file_parts', at, 'part', `must number the parts of file ${String(file['id'])} from 0 without a gap or a repeat`)
      if (part['account_id'] !== file['account_id'])
        throw importRowError('file_parts', at, 'account_id', `must be the account of its file (${String(file['account_id'])})`)
      if (n < mine.length - 1 && (content.length !== FILE_PART_CHARS || content.endsWith('=')))
        throw importRowError('file_parts', at, 'content', `must hold ${FILE_PART_BYTES} bytes, as every part of a file but its last does`)
      bytes += Buffer.byteLength(content, 'base64')
    })
    if (bytes !== file['size_bytes']) throw importRowError('files', index, 'size_bytes', `must be the length of its parts (${bytes} bytes)`)
  })
}

/** An imported document's files within the room the upload API keeps: per account and in all, by count and bytes. */
function checkImportedRoom(rows: readonly Row[]): void {
  const account = (row: Row) => row['account_id']
  const bytes = (row: Row) => row['size_bytes'] as number
  checkBounds('files', rows, [
    { most: MAX_ACCOUNT_FILES, groupOf: account, column: 'account_id', issue: `is past the ${MAX_ACCOUNT_FILES} files one account keeps` },
    {
      most: MAX_ACCOUNT_BYTES,
      groupOf: account,
      weightOf: bytes,
      column: 'size_bytes',
      issue: `is past the ${MAX_ACCOUNT_BYTES} bytes one account's files keep`,
    },
    { most: MAX_TOTAL_FILES, column: null, issue: `is past the ${MAX_TOTAL_FILES} files the emulator keeps in all` },
    {
      most: MAX_TOTAL_FILE_BYTES,
      weightOf: bytes,
      column: 'size_bytes',
      issue: `is past the ${MAX_TOTAL_FILE_BYTES} bytes of files the emulator keeps in all`,
    },
  ])
}

/** Files and their parts; an account reset deletes the account's, and stops its writes under way (as a reset or an import stops every one). */
export function filesState(db: DB, writes: FileWrites): StateOwner {
  const forgetFiles = db.prepare<[string]>('DELETE FROM files WHERE account_id = ?')
  const forgetParts = db.prepare<[string]>('DELETE FROM file_parts WHERE account_id = ?')
  return {
    name: 'files',
    tables: ['files', 'file_parts'],
    resetAccount: (id) => {
      forgetParts.run(id)
      forgetFiles.run(id)
      writes.stopAccount(id)
    },
    afterStateChange: () => writes.stopAll(),
    upgradeTables,
    imports: {
      files: { check: checkImportedFile, checkAll: checkImportedRoom },
      file_parts: { check: checkImportedPart, checkAll: checkParts },
    },
    // The parts of an upload still being written (its row comes last) are no file yet.
    exportsOnly: { file_parts: 'file_id IN (SELECT id FROM files)' },
    mints: fileIdKinds().map(({ storage, kind }) => ({ kind, table: 'files', column: 'id', idOf: (ids, label) => fileIdOf(storage, ids, label) })),
  }
}
