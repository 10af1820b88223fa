// Fault rules: errors, latency and broken streams injected into gateway requests (a gateway hook,
// faults.hook.ts), and their admin API.
import { importRowError, uuidIds } from '../core/lifecycle.ts'
import { defineModule } from '../modules/module.ts'
import { faultsAdminRoutes } from './faults.admin.ts'
import { installFaults } from './faults.hook.ts'
import { createFaultsRepo, faultsState, type FaultsRepo } from './faults.ts'
import { FaultAction, FaultMatch } from './faults.schemas.ts'

declare module '../modules/module.ts' {
  interface Services {
    faults: FaultsRepo
  }
}

export const faultsModule = defineModule({
  name: 'faults',
  // The journal notes which rule answered a request.
  needs: ['journal'],
  create: (ctx) => createFaultsRepo(ctx.db),
  state: (ctx) => [
    {
      ...faultsState,
      afterStateChange: () => ctx.services.faults.changed(),
      imports: {
        fault_rules: {
          json: { match: FaultMatch, action: FaultAction },
          check: (row, i) => {
            const range = (JSON.parse(row['action'] as string) as FaultAction).latency_range_ms
            if (range && range.min > range.max) throw importRowError('fault_rules', i, 'action', 'holds a latency_range_ms whose min is above its max')
          },
        },
      },
      mints: [uuidIds('fault', 'fault_rules')],
    },
  ],
  // After presets (order 10), so a rule matches the model a preset chose; before validation and the
  // handler, so a faulted request changes no state.
  hooks: [{ stage: 'preValidation', order: 20, install: (scope, ctx) => installFaults(scope, ctx, ctx.services.journal) }],
  admin: faultsAdminRoutes,
})
