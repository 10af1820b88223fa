// Credits: the balance, crypto charges that confirm or expire on the clock, their routes and admin API.
import { uuidIds } from '../../core/lifecycle.ts'
import { defineModule } from '../module.ts'
import { Web3Data } from './credits.schemas.ts'
import { creditsAdminRoutes } from './credits.admin.ts'
import { createCreditsRepo, creditsState, type CreditsRepo } from './credits.repo.ts'
import { creditsRoutes } from './credits.routes.ts'
import { createChargeDueSource } from './credits.service.ts'
import { CREDITS_CONFIG } from './credits.config.ts'

declare module '../module.ts' {
  interface Services {
    credits: CreditsRepo
  }
}

export const creditsModule = defineModule({
  name: 'credits',
  config: CREDITS_CONFIG,
  needs: ['accounts', 'journal'],
  create: (ctx) => createCreditsRepo(ctx.db),
  state: (ctx) => [
    { ...creditsState(ctx.db), imports: { charges: { json: { web3_data: Web3Data }, nonNegative: ['amount_nanos'] } }, mints: [uuidIds('charge', 'charges')] },
  ],
  due: (ctx) => [createChargeDueSource(ctx)],
  gateway: creditsRoutes,
  admin: creditsAdminRoutes,
})
