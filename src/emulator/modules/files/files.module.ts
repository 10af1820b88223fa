// Files: uploads kept per workspace and storage, within bounds per file, per account and in all, and
// files "created server-side" (over the admin API) that can be downloaded byte for byte. Their bytes
// are kept in parts (files-content.service.ts); a start removes the parts of a file a crash cut off.
import type { Limit } from '../../core/limits.ts'
import { defineModule } from '../module.ts'
import { MAX_ACCOUNT_BYTES, MAX_ACCOUNT_FILES, MAX_FILE_BYTES, MAX_FILENAME_CHARS, MAX_TOTAL_FILE_BYTES, MAX_TOTAL_FILES } from './files.schemas.ts'
import { filesAdminRoutes } from './files.admin.ts'
import { FileWrites } from './files-content.service.ts'
import { createFilesRepo, type FilesRepo } from './files.repo.ts'
import { filesRoutes } from './files.routes.ts'
import { filesState } from './files.state.ts'

/** The files' SQL, and the writes under way (stopped when the state under them changes). */
export type FilesService = FilesRepo & { writes: FileWrites }

declare module '../module.ts' {
  interface Services {
    files: FilesService
  }
}

/** What this area bounds (docs/limits.md). */
const LIMITS: readonly Limit[] = [
  {
    what: 'Bytes of one file (the real gateway takes 100 MB)',
    value: MAX_FILE_BYTES,
    unit: 'bytes',
    beyond: '413 naming `file`, as the form passes it (or at once, from the declared length)',
  },
  {
    what: "Bytes of one account's files, uploads under way included",
    value: MAX_ACCOUNT_BYTES,
    unit: 'bytes',
    beyond: '413 with `used_bytes`, `pending_bytes` and `limit_bytes`, before the body is read',
  },
  { what: 'Files one account keeps', value: MAX_ACCOUNT_FILES, unit: 'items', beyond: '413 naming the limit' },
  { what: "Bytes of every account's files", value: MAX_TOTAL_FILE_BYTES, unit: 'bytes', beyond: '413 with `scope: emulator`, before the body is read' },
  { what: 'Files every account keeps together', value: MAX_TOTAL_FILES, unit: 'items', beyond: '413 with `scope: emulator`' },
  { what: "Characters of a file's name", value: MAX_FILENAME_CHARS, unit: 'characters', beyond: '400 naming `file`' },
]

export const filesModule = defineModule({
  name: 'files',
  limits: LIMITS,
  needs: ['accounts', 'organization', 'workspaces'],
  create: (ctx): FilesService => {
    const repo = createFilesRepo(ctx.db)
    // No write is under way at a start: parts without a file are what a crash left.
    repo.deleteOrphanParts()
    ctx.services.workspaces.holds('files', repo.countInWorkspace)
    return { ...repo, writes: new FileWrites() }
  },
  state: (ctx) => [filesState(ctx.db, ctx.services.files.writes)],
  gateway: filesRoutes,
  admin: filesAdminRoutes,
})
