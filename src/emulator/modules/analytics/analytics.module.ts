// Analytics: the gateway's metrics (requests, tokens, spend, latency) by model, provider, key, member
// and time bucket, computed from the ledger's usage rows.
import { defineModule } from '../module.ts'
import { analyticsRoutes } from './analytics.routes.ts'

export const analyticsModule = defineModule({ name: 'analytics', needs: ['catalog', 'keys'], gateway: analyticsRoutes })
