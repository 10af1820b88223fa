// Workspaces: each account's default one and those it adds, their budgets (enforced by the ledger)
// and their members; the service other areas check a `workspace_id` with.
import { Type } from 'typebox'
import { uuidIds } from '../../core/lifecycle.ts'
import { defineModule } from '../module.ts'
import { workspacesAdminRoutes } from './workspaces.admin.ts'
import { workspacesState } from './workspaces.repo.ts'
import { workspacesRoutes } from './workspaces.routes.ts'
import { createWorkspacesService, type WorkspacesService } from './workspaces.service.ts'

declare module '../module.ts' {
  interface Services {
    workspaces: WorkspacesService
  }
}

export const workspacesModule = defineModule({
  name: 'workspaces',
  needs: ['accounts', 'catalog'],
  create: (ctx) => createWorkspacesService(ctx),
  state: (ctx) => [
    {
      ...workspacesState(ctx.db),
      imports: {
        workspaces: { json: { io_logging_api_key_ids: Type.Array(Type.Integer()) } },
        workspace_budgets: { nonNegative: ['limit_nanos'] },
      },
      mints: [uuidIds('workspace', 'workspaces'), uuidIds('workspace-budget', 'workspace_budgets'), uuidIds('workspace-member', 'workspace_members')],
    },
  ],
  gateway: workspacesRoutes,
  admin: workspacesAdminRoutes,
})
