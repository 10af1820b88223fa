// The virtual clock's admin routes. The clock itself is the kernel's (core/clock.ts).
import { defineModule } from '../module.ts'
import { clockAdminRoutes } from './clock.admin.ts'

export const clockModule = defineModule({ name: 'clock', admin: clockAdminRoutes })
