// Prepared SQL for files. The bytes are kept as base64 text (the state document carries text, not
// BLOBs); listings read every column but the bytes.
import type { StateOwner } from '../../core/lifecycle.ts'
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

export interface FileWithContent extends FileRow {
  /** The bytes, base64. */
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
  const insertStmt = db.prepare<FileWithContent>(
    `INSERT INTO files (id, account_id, workspace_id, provider, filename, mime_type, purpose, size_bytes, downloadable, content, created_at)
     VALUES (@id, @account_id, @workspace_id, @provider, @filename, @mime_type, @purpose, @size_bytes, @downloadable, @content, @created_at)`,
  )
  const inScope = 'account_id = @account_id AND workspace_id = @workspace_id AND provider = @provider'
  const getStmt = db.prepare<FileScope & { id: string }, FileRow>(`SELECT ${META} FROM files WHERE id = @id AND ${inScope}`)
  const contentStmt = db.prepare<FileScope & { id: string }, { content: string }>(`SELECT content FROM files WHERE id = @id AND ${inScope}`)
  // Oldest first; `after` is a file's (created_at, rowid), so files made in the same millisecond keep their order.
  const pageStmt = db.prepare<FileScope & { after_created: number; after_rowid: number; limit: number }, FileRow>(
    `SELECT ${META} FROM files WHERE ${inScope} AND (created_at > @after_created OR (created_at = @after_created AND rowid > @after_rowid))
     ORDER BY created_at, rowid LIMIT @limit`,
  )
  const positionStmt = db.prepare<FileScope & { id: string }, { created_at: number; rowid: number }>(
    `SELECT created_at, rowid FROM files WHERE id = @id AND ${inScope}`,
  )
  const deleteStmt = db.prepare<[string]>('DELETE FROM files WHERE id = ?')
  const totalsStmt = db.prepare<[string], { files: number; bytes: number }>(
    'SELECT COUNT(*) AS files, COALESCE(SUM(size_bytes), 0) AS bytes FROM files WHERE account_id = ?',
  )
  const allTotalsStmt = db.prepare<[], { files: number; bytes: number }>('SELECT COUNT(*) AS files, COALESCE(SUM(size_bytes), 0) AS bytes FROM files')

  return {
    /** Rows in a workspace: a workspace that holds any cannot be deleted. */
    countInWorkspace: (accountId: string, workspaceId: string) => inWorkspaceStmt.get(accountId, workspaceId)!.n,
    insert: (row: FileWithContent) => void insertStmt.run(row),
    get: (scope: FileScope, id: string) => getStmt.get({ ...scope, id }),
    content: (scope: FileScope, id: string) => contentStmt.get({ ...scope, id })?.content,
    /** Where a file of the scope sits in the listing order, or undefined when the scope has no such file. */
    position: (scope: FileScope, id: string) => positionStmt.get({ ...scope, id }),
    /** Up to `limit` files after a position (the start when none is given). */
    page: (scope: FileScope, after: { created_at: number; rowid: number } | undefined, limit: number) =>
      pageStmt.all({ ...scope, after_created: after?.created_at ?? Number.MIN_SAFE_INTEGER, after_rowid: after?.rowid ?? 0, limit }),
    delete: (id: string) => deleteStmt.run(id).changes > 0,
    /** How many files, and bytes, the account keeps. */
    totals: (accountId: string) => totalsStmt.get(accountId)!,
    /** How many files, and bytes, every account keeps together. */
    totalsAll: () => allTotalsStmt.get()!,
  }
}

export type FilesRepo = ReturnType<typeof createFilesRepo>

/** Files; an account reset deletes the account's. */
export function filesState(db: DB): StateOwner {
  const forget = db.prepare<[string]>('DELETE FROM files WHERE account_id = ?')
  return { name: 'files', tables: ['files'], resetAccount: (id) => void forget.run(id) }
}
