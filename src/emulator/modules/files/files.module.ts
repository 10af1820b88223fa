// Files: uploads kept per workspace and storage, within bounds per file and per account, and files
// "created server-side" (over the admin API) that can be downloaded byte for byte.
import { checkBounds, importRowError } from '../../core/lifecycle.ts'
import { defineModule } from '../module.ts'
import { filesAdminRoutes } from './files.admin.ts'
import { createFilesRepo, filesState, type FilesRepo } from './files.repo.ts'
import { filesRoutes } from './files.routes.ts'
import { MAX_ACCOUNT_BYTES, MAX_ACCOUNT_FILES, MAX_FILE_BYTES, MAX_TOTAL_FILE_BYTES, MAX_TOTAL_FILES } from './files.schemas.ts'
import { fileIdKinds, fileIdOf, isBase64 } from './files.service.ts'

declare module '../module.ts' {
  interface Services {
    files: FilesRepo
  }
}

/** An imported file's bytes must be base64 of exactly `size_bytes` bytes, so every download gives what the metadata says. */
function checkImportedFile(row: Readonly<Record<string, unknown>>, index: number): void {
  const content = row['content']
  if (typeof content !== 'string' || !isBase64(content)) throw importRowError('files', index, 'content', 'must be base64')
  const size = Buffer.byteLength(content, 'base64')
  if (size !== row['size_bytes']) throw importRowError('files', index, 'size_bytes', `must be the length of content (${size} bytes)`)
  if (size > MAX_FILE_BYTES) throw importRowError('files', index, 'size_bytes', `must be at most ${MAX_FILE_BYTES} (the most one file may hold)`)
}

/** An imported document's files within the room the upload API keeps: per account and in all, by count and bytes. */
function checkImportedRoom(rows: readonly Readonly<Record<string, unknown>>[]): void {
  const account = (row: Readonly<Record<string, unknown>>) => row['account_id']
  const bytes = (row: Readonly<Record<string, unknown>>) => row['size_bytes'] as number
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

export const filesModule = defineModule({
  name: 'files',
  needs: ['accounts', 'organization', 'workspaces'],
  create: (ctx) => {
    const repo = createFilesRepo(ctx.db)
    ctx.services.workspaces.holds('files', repo.countInWorkspace)
    return repo
  },
  state: (ctx) => [
    {
      ...filesState(ctx.db),
      imports: { files: { check: checkImportedFile, checkAll: checkImportedRoom } },
      mints: fileIdKinds().map(({ storage, kind }) => ({ kind, table: 'files', column: 'id', idOf: (ids, label) => fileIdOf(storage, ids, label) })),
    },
  ],
  gateway: filesRoutes,
  admin: filesAdminRoutes,
})
