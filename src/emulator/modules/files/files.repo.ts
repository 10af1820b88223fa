// Prepared SQL for files: their rows, and their bytes as base64 text (the state document carries text,
// not BLOBs) in parts of FILE_PART_BYTES (file_parts), written before the row that makes them visible
// and read one at a time. Listings read the rows alone.
import type { DB } from '../../store/db.ts'
import type { FileStorage } from './files.schemas.ts'

export interface FileRow {
  id: string
  account_id: string
  workspace_id: string
  provider: FileStorage
  filename: string
  mime_type: string
  purpose: string
  size_bytes: number
  downloadable: 0 | 1
  created_at: number
}

/** One part of a file's bytes: part `part` (from 0), base64. */
export interface FilePart {
  file_id: string
  part: number
  account_id: string
  content: string
}

/** Where a file lives: its account, workspace and storage. */
export interface FileScope {
  account_id: string
  workspace_id: string
  provider: FileStorage
}

const META = 'id, account_id, workspace_id, provider, filename, mime_type, purpose, size_bytes, downloadable, created_at'

export function createFilesRepo(db: DB) {
  const inWorkspaceStmt = db.prepare<[string, string], { n: number }>('SELECT COUNT(*) AS n FROM files WHERE account_id = ? AND workspace_id = ?')
  const insertStmt = db.prepare<FileRow>(
    `INSERT INTO files (id, account_id, workspace_id, provider, filename, mime_type, purpose, size_bytes, downloadable, created_at)
     VALUES (@id, @account_id, @workspace_id, @provider, @filename, @mime_type, @purpose, @size_bytes, @downloadable, @created_at)`,
  )
  const insertPartStmt = db.prepare<FilePart>('INSERT INTO file_parts (file_id, part, account_id, content) VALUES (@file_id, @part, @account_id, @content)')
  const inScope = 'account_id = @account_id AND workspace_id = @workspace_id AND provider = @provider'
  const getStmt = db.prepare<FileScope & { id: string }, FileRow>(`SELECT ${META} FROM files WHERE id = @id AND ${inScope}`)
  // A part of a file still there as it was when its reading began (not deleted, nor replaced by a reset or an import).
  const partStmt = db.prepare<FileScope & { id: string; part: number; created_at: number }, { content: string }>(
    `SELECT p.content FROM file_parts p JOIN files f ON f.id = p.file_id
     WHERE p.file_id = @id AND p.part = @part AND f.account_id = @account_id AND f.workspace_id = @workspace_id AND f.provider = @provider
       AND f.created_at = @created_at`,
  )
  const partCountStmt = db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM file_parts WHERE file_id = ?')
  // Oldest first; `after` is a file's (created_at, rowid), so files made in the same millisecond keep their order.
  const pageStmt = db.prepare<FileScope & { after_created: number; after_rowid: number; limit: number }, FileRow>(
    `SELECT ${META} FROM files WHERE ${inScope} AND (created_at > @after_created OR (created_at = @after_created AND rowid > @after_rowid))
     ORDER BY created_at, rowid LIMIT @limit`,
  )
  const positionStmt = db.prepare<FileScope & { id: string }, { created_at: number; rowid: number }>(
    `SELECT created_at, rowid FROM files WHERE id = @id AND ${inScope}`,
  )
  const deleteStmt = db.prepare<[string]>('DELETE FROM files WHERE id = ?')
  const deletePartsStmt = db.prepare<[string]>('DELETE FROM file_parts WHERE file_id = ?')
  const totalsStmt = db.prepare<[string], { files: number; bytes: number }>(
    'SELECT COUNT(*) AS files, COALESCE(SUM(size_bytes), 0) AS bytes FROM files WHERE account_id = ?',
  )
  const allTotalsStmt = db.prepare<[], { files: number; bytes: number }>('SELECT COUNT(*) AS files, COALESCE(SUM(size_bytes), 0) AS bytes FROM files')
  const orphansStmt = db.prepare('DELETE FROM file_parts WHERE file_id NOT IN (SELECT id FROM files)')

  return {
    /** Rows in a workspace: a workspace that holds any cannot be deleted. */
    countInWorkspace: (accountId: string, workspaceId: string) => inWorkspaceStmt.get(accountId, workspaceId)!.n,
    /** A file's row, which makes it visible: its parts are written first. */
    insert: (row: FileRow) => void insertStmt.run(row),
    insertPart: (part: FilePart) => void insertPartStmt.run(part),
    get: (scope: FileScope, id: string) => getStmt.get({ ...scope, id }),
    /** Part `part` of a file of the scope, base64; undefined when the file is gone (or is another since). */
    part: (scope: FileScope, file: Pick<FileRow, 'id' | 'created_at'>, part: number) =>
      partStmt.get({ ...scope, id: file.id, created_at: file.created_at, part })?.content,
    /** Parts kept under a file id, visible or not. */
    partCount: (fileId: string) => partCountStmt.get(fileId)!.n,
    /** Where a file of the scope sits in the listing order, or undefined when the scope has no such file. */
    position: (scope: FileScope, id: string) => positionStmt.get({ ...scope, id }),
    /** Up to `limit` files after a position (the start when none is given). */
    page: (scope: FileScope, after: { created_at: number; rowid: number } | undefined, limit: number) =>
      pageStmt.all({ ...scope, after_created: after?.created_at ?? Number.MIN_SAFE_INTEGER, after_rowid: after?.rowid ?? 0, limit }),
    /** A file and its parts. */
    delete: (id: string) => {
      deletePartsStmt.run(id)
      return deleteStmt.run(id).changes > 0
    },
    /** The parts of a file that never appeared (its write failed part way). */
    deleteParts: (fileId: string) => void deletePartsStmt.run(fileId),
    /** Parts whose file is not there: what a write cut off by a crash left. */
    deleteOrphanParts: () => orphansStmt.run().changes,
    /** How many files, and bytes, the account keeps. */
    totals: (accountId: string) => totalsStmt.get(accountId)!,
    /** How many files, and bytes, every account keeps together. */
    totalsAll: () => allTotalsStmt.get()!,
  }
}

export type FilesRepo = ReturnType<typeof createFilesRepo>
