// Guardrails: budgets and allow-lists on keys and members, enforced as catalog policies and by the ledger.
import { defineModule } from '../module.ts'
import { guardrailsAdminRoutes } from './guardrails.admin.ts'
import { createGuardrailsRepo, guardrailsState, type GuardrailsRepo } from './guardrails.repo.ts'
import { guardrailsRoutes } from './guardrails.routes.ts'
import { guardrailPolicy, guardrailsOf } from './guardrails.service.ts'

declare module '../module.ts' {
  interface Services {
    guardrails: GuardrailsRepo
  }
}

export const guardrailsModule = defineModule({
  name: 'guardrails',
  create: (ctx) => {
    const repo = createGuardrailsRepo(ctx.db)
    // A key answers to its own guardrail and to its member's.
    ctx.services.catalog.policies.add((caller) => guardrailsOf(repo, caller).map(guardrailPolicy))
    return repo
  },
  state: (ctx) => [guardrailsState(ctx.db)],
  gateway: guardrailsRoutes,
  admin: guardrailsAdminRoutes,
})
