// The whole state, exported and imported as one document (and an account's part of it reset).
import { defineModule } from '../module.ts'
import { stateAdminRoutes } from './state.admin.ts'
import { STATE_LIMITS } from './state-bounds.service.ts'

export const stateModule = defineModule({ name: 'state', limits: STATE_LIMITS, needs: ['catalog'], admin: stateAdminRoutes })
