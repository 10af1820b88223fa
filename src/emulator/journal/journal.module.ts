// The journal: every gateway request and its answer (a gateway hook, Journal.install), the admin event
// stream, and the emulator's own stats.
import { statsAdminRoutes } from '../admin/stats.admin.ts'
import { defineModule, type ModuleRoutes } from '../modules/module.ts'
import { journalAdminRoutes } from './journal.admin.ts'
import { Journal } from './journal.ts'
import { JOURNAL_CONFIG } from './journal.config.ts'

declare module '../modules/module.ts' {
  interface Services {
    journal: Journal
  }
}

const admin: ModuleRoutes = async (app, { ctx }) => {
  await app.register(journalAdminRoutes, { ctx })
  await app.register(statsAdminRoutes, { ctx })
}

export const journalModule = defineModule({
  name: 'journal',
  config: JOURNAL_CONFIG,
  create: (ctx) => new Journal(ctx),
  state: (ctx) => [{ name: 'journal', tables: [], afterStateChange: (change) => change === 'reset' && ctx.services.journal.clear() }],
  // First of all (onRequest, before authentication at 20), so a request refused at the door is recorded too.
  hooks: [{ stage: 'onRequest', order: 10, install: (scope, ctx) => ctx.services.journal.install(scope) }],
  admin,
})
