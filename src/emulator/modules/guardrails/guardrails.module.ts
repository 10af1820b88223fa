// Guardrails: budgets and allow-lists on keys and members, enforced as catalog policies and by the ledger.
import { Type } from 'typebox'
import { uuidIds } from '../../core/lifecycle.ts'
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

const StringList = Type.Array(Type.String())

export const guardrailsModule = defineModule({
  name: 'guardrails',
  needs: ['accounts', 'catalog', 'keys', 'usage'],
  create: (ctx) => {
    const repo = createGuardrailsRepo(ctx.db, ctx.services)
    // A key answers to its own guardrail and to its member's.
    ctx.services.catalog.policies.add((caller) => guardrailsOf(repo, caller).map(guardrailPolicy))
    return repo
  },
  state: (ctx) => [
    {
      ...guardrailsState(ctx.db),
      imports: {
        guardrails: {
          json: {
            allowed_providers: StringList,
            ignored_providers: StringList,
            allowed_models: StringList,
            extras: Type.Record(Type.String(), Type.Unknown()),
          },
        },
      },
      mints: [uuidIds('guardrail', 'guardrails'), uuidIds('assignment', 'guardrail_key_assignments'), uuidIds('assignment', 'guardrail_member_assignments')],
    },
  ],
  gateway: guardrailsRoutes,
  admin: guardrailsAdminRoutes,
})
