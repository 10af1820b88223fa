// Fault rules: errors, latency and broken streams injected into gateway requests (the hook is
// installed on the gateway scope by build-app.ts), and their admin API.
import { defineModule } from '../modules/module.ts'
import { faultsAdminRoutes } from './faults.admin.ts'
import { createFaultsRepo, faultsState, type FaultsRepo } from './faults.ts'

declare module '../modules/module.ts' {
  interface Services {
    faults: FaultsRepo
  }
}

export const faultsModule = defineModule({
  name: 'faults',
  create: (ctx) => createFaultsRepo(ctx.db),
  state: () => [faultsState],
  admin: faultsAdminRoutes,
})
