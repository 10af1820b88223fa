// Observability destinations: their API, and the broadcaster that sends each billed call of a
// workspace to its enabled destinations as a trace, through the callbacks engine.
import { Type } from 'typebox'
import { checkBounds, importRowError, uuidIds } from '../../core/lifecycle.ts'
import type { Limit } from '../../core/limits.ts'
import { defineModule } from '../module.ts'
import { TYPE_SPECS } from './observability-destinations.service.ts'
import { observabilityAdminRoutes } from './observability.admin.ts'
import { createBroadcaster } from './observability-broadcast.service.ts'
import { createDestinationsRepo, destinationsState, type DestinationsRepo } from './observability.repo.ts'
import { observabilityRoutes } from './observability.routes.ts'
import { FilterRules } from './observability.schemas.ts'
import { MAX_ACCOUNT_DESTINATIONS, MAX_PER_TYPE, MAX_TOTAL_DESTINATIONS } from './observability.service.ts'

declare module '../module.ts' {
  interface Services {
    observability: DestinationsRepo
  }
}

/** What this area bounds (docs/limits.md). */
const LIMITS: readonly Limit[] = [
  { what: "Destinations of one type per workspace (the real gateway's bound)", value: MAX_PER_TYPE, unit: 'items', beyond: '409 naming the limit' },
  { what: 'Destinations per account', value: MAX_ACCOUNT_DESTINATIONS, unit: 'items', beyond: '409 naming the limit' },
  { what: 'Destinations in all', value: MAX_TOTAL_DESTINATIONS, unit: 'items', beyond: '409 naming the limit' },
]

export const observabilityModule = defineModule({
  name: 'observability',
  limits: LIMITS,
  needs: ['accounts', 'byok', 'callbacks', 'keys', 'usage', 'workspaces'],
  create: (ctx) => {
    const repo = createDestinationsRepo(ctx.db, ctx.services)
    ctx.services.workspaces.holds('observability destinations', repo.countInWorkspace)
    return repo
  },
  state: (ctx) => [
    {
      ...destinationsState(ctx.db),
      imports: {
        observability_destinations: {
          json: {
            config: Type.Record(Type.String(), Type.Unknown()),
            api_key_hashes: Type.Array(Type.String()),
            filter_rules: FilterRules,
            regions: Type.Array(Type.String()),
          },
          nonNegative: ['traced_usage_id'],
          check: (row, index) => {
            if (!Object.hasOwn(TYPE_SPECS, row['type'] as string)) {
              throw importRowError('observability_destinations', index, 'type', `must be a destination type (${Object.keys(TYPE_SPECS).join(', ')})`)
            }
          },
          checkAll: (rows) =>
            checkBounds('observability_destinations', rows, [
              {
                most: MAX_PER_TYPE,
                groupOf: (row) => JSON.stringify([row['account_id'], row['workspace_id'], row['type']]),
                column: 'type',
                issue: `is past the ${MAX_PER_TYPE} destinations of one type a workspace keeps`,
              },
              {
                most: MAX_ACCOUNT_DESTINATIONS,
                groupOf: (row) => row['account_id'],
                column: 'account_id',
                issue: `is past the ${MAX_ACCOUNT_DESTINATIONS} observability destinations one account keeps`,
              },
              {
                most: MAX_TOTAL_DESTINATIONS,
                column: null,
                issue: `is past the ${MAX_TOTAL_DESTINATIONS} observability destinations the emulator keeps in all`,
              },
            ]),
        },
      },
      mints: [uuidIds('observability-destination', 'observability_destinations')],
    },
  ],
  due: (ctx) => [createBroadcaster(ctx, ctx.services.observability)],
  gateway: observabilityRoutes,
  admin: observabilityAdminRoutes,
})
