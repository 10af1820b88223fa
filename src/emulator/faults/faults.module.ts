// Fault rules: errors, latency and broken streams injected into gateway requests (the hook is
// installed on the gateway scope by build-app.ts), and their admin API.
import { importRowError, uuidIds } from '../core/lifecycle.ts'
import { defineModule } from '../modules/module.ts'
import { faultsAdminRoutes } from './faults.admin.ts'
import { createFaultsRepo, faultsState, type FaultsRepo } from './faults.ts'
import { FaultAction, FaultMatch } from './faults.schemas.ts'

declare module '../modules/module.ts' {
  interface Services {
    faults: FaultsRepo
  }
}

export const faultsModule = defineModule({
  name: 'faults',
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
  admin: faultsAdminRoutes,
})
