// Workspaces: each account's default one and those it adds, their budgets (enforced by the ledger)
// and their members; the service other areas check a `workspace_id` with.
import { Type } from 'typebox'
import { checkBounds, uuidIds } from '../../core/lifecycle.ts'
import type { Limit } from '../../core/limits.ts'
import { defineModule } from '../module.ts'
import { workspacesAdminRoutes } from './workspaces.admin.ts'
import { workspacesState } from './workspaces.repo.ts'
import { workspacesRoutes } from './workspaces.routes.ts'
import { MAX_ACCOUNT_WORKSPACES, MAX_TOTAL_WORKSPACES } from './workspaces.schemas.ts'
import { createWorkspacesService, type WorkspacesService } from './workspaces.service.ts'

declare module '../module.ts' {
  interface Services {
    workspaces: WorkspacesService
  }
}

/** What this area bounds (docs/limits.md). */
const LIMITS: readonly Limit[] = [
  { what: 'Workspaces an account adds (its default one not counted)', value: MAX_ACCOUNT_WORKSPACES, unit: 'items', beyond: '409 naming the limit' },
  { what: 'Workspaces added in all', value: MAX_TOTAL_WORKSPACES, unit: 'items', beyond: '409 naming the limit' },
]

export const workspacesModule = defineModule({
  name: 'workspaces',
  limits: LIMITS,
  needs: ['accounts', 'catalog', 'keys', 'usage'],
  create: (ctx) => {
    const service = createWorkspacesService(ctx)
    // Keys name their workspace: the keys area, below this one, asks here whether it is the account's.
    ctx.services.keys.findsWorkspacesWith(service.byId)
    return service
  },
  state: (ctx) => [
    {
      ...workspacesState(ctx.db, ctx.services.accounts),
      imports: {
        workspaces: {
          json: { io_logging_api_key_ids: Type.Array(Type.Integer()) },
          checkAll: (rows, tables) => {
            // An account's default workspace is made with it, and not counted.
            const accounts = (Array.isArray(tables['accounts']) ? tables['accounts'] : []) as Array<Record<string, unknown>>
            const defaults = new Set(accounts.map((account) => account['workspace_id']))
            const added = (row: Readonly<Record<string, unknown>>) => !defaults.has(row['id'])
            checkBounds('workspaces', rows, [
              {
                most: MAX_ACCOUNT_WORKSPACES,
                counts: added,
                groupOf: (row) => row['account_id'],
                column: 'account_id',
                issue: `is past the ${MAX_ACCOUNT_WORKSPACES} workspaces one account adds to its default one`,
              },
              {
                most: MAX_TOTAL_WORKSPACES,
                counts: added,
                column: null,
                issue: `is past the ${MAX_TOTAL_WORKSPACES} workspaces the emulator keeps besides the default ones`,
              },
            ])
          },
        },
        workspace_budgets: { nonNegative: ['limit_nanos'] },
      },
      mints: [uuidIds('workspace', 'workspaces'), uuidIds('workspace-budget', 'workspace_budgets'), uuidIds('workspace-member', 'workspace_members')],
    },
  ],
  gateway: workspacesRoutes,
  admin: workspacesAdminRoutes,
})
