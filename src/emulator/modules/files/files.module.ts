// Files: uploads kept per workspace and storage, within bounds per file, per account and in all, and
// files "created server-side" (over the admin API) that can be downloaded byte for byte. Their bytes
// are kept in parts (files.content.ts); a start removes the parts of a file a crash cut off.
import { defineModule } from '../module.ts'
import { filesAdminRoutes } from './files.admin.ts'
import { FileWrites } from './files.content.ts'
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


export const filesModule = defineModule({
  name: 'files',
 
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
