// Activity: usage by day, model and endpoint, from the ledger's rows.
import { defineModule } from '../module.ts'
import { activityAdminRoutes } from './activity.admin.ts'
import { activityRoutes } from './activity.routes.ts'

export const activityModule = defineModule({
  name: 'activity',
  needs: ['accounts', 'catalog', 'keys', 'meter', 'usage'],
  gateway: activityRoutes,
  admin: activityAdminRoutes,
})
