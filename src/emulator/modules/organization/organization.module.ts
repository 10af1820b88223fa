// The organization's directory: its members (the accounts area's), its SCIM groups (a directory made
// from the seed per account) and the mappings that give a group a role in a workspace.
import { checkBounds, uuidIds } from '../../core/lifecycle.ts'
import type { Limit } from '../../core/limits.ts'
import { defineModule } from '../module.ts'
import { createOrganizationRepo, organizationState, type OrganizationRepo } from './organization.repo.ts'
import { organizationRoutes } from './organization.routes.ts'
import { MAX_ACCOUNT_MAPPINGS, MAX_TOTAL_MAPPINGS } from './organization.schemas.ts'
import { createScimDirectory, type ScimDirectory } from './organization-scim.service.ts'

export interface OrganizationService {
  mappings: OrganizationRepo
  directory: ScimDirectory
}

declare module '../module.ts' {
  interface Services {
    organization: OrganizationService
  }
}

/** What this area bounds (docs/limits.md). */
const LIMITS: readonly Limit[] = [
  { what: 'SCIM group mappings per account', value: MAX_ACCOUNT_MAPPINGS, unit: 'items', beyond: '409 naming the limit' },
  { what: 'SCIM group mappings in all', value: MAX_TOTAL_MAPPINGS, unit: 'items', beyond: '409 naming the limit' },
]

export const organizationModule = defineModule({
  name: 'organization',
  limits: LIMITS,
  needs: ['accounts', 'workspaces'],
  create: (ctx) => {
    const mappings = createOrganizationRepo(ctx.db)
    ctx.services.workspaces.holds('SCIM group mappings', mappings.countInWorkspace)
    return { mappings, directory: createScimDirectory(ctx.config.seed) }
  },
  state: (ctx) => [
    {
      ...organizationState(ctx.db),
      imports: {
        scim_group_mappings: {
          checkAll: (rows) =>
            checkBounds('scim_group_mappings', rows, [
              {
                most: MAX_ACCOUNT_MAPPINGS,
                groupOf: (row) => row['account_id'],
                column: 'account_id',
                issue: `is past the ${MAX_ACCOUNT_MAPPINGS} SCIM group mappings one account keeps`,
              },
              { most: MAX_TOTAL_MAPPINGS, column: null, issue: `is past the ${MAX_TOTAL_MAPPINGS} SCIM group mappings the emulator keeps in all` },
            ]),
        },
      },
      mints: [uuidIds('scim-mapping', 'scim_group_mappings')],
    },
  ],
  gateway: organizationRoutes,
})
