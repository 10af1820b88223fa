// Files: uploads kept per workspace and storage, within bounds per file and per account, and files
// "created server-side" (over the admin API) that can be downloaded byte for byte.
import { importRowError } from '../../core/lifecycle.ts'
import { defineModule } from '../module.ts'
import { filesAdminRoutes } from './files.admin.ts'
import { createFilesRepo, filesState, type FilesRepo } from './files.repo.ts'
import { filesRoutes } from './files.routes.ts'
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
      imports: { files: { check: checkImportedFile } },
      mints: fileIdKinds().map(({ storage, kind }) => ({ kind, table: 'files', column: 'id', idOf: (ids, label) => fileIdOf(storage, ids, label) })),
    },
  ],
  gateway: filesRoutes,
  admin: filesAdminRoutes,
})
