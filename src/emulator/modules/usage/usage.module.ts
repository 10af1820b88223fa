// Usage rows: one per billed request, written by the ledger, read by activity and key usage.
import { defineModule } from '../module.ts'
import { createUsageRepo, usageState, type UsageRepo } from './usage.repo.ts'

declare module '../module.ts' {
  interface Services {
    usage: UsageRepo
  }
}

export const usageModule = defineModule({
  name: 'usage',
  create: (ctx) => createUsageRepo(ctx.db),
  state: (ctx) => [{ ...usageState(ctx.db), imports: { usage: { nonNegative: ['cost_nanos', 'prompt_tokens', 'completion_tokens'] } } }],
})
