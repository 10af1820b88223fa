// Callback deliveries: the outbox of task notifications, delivered (and retried) on the clock.
import { uuidIds } from '../../core/lifecycle.ts'
import type { Limit } from '../../core/limits.ts'
import { defineModule } from '../module.ts'
import { callbacksAdminRoutes } from './callbacks.admin.ts'
import { callbacksState, createCallbacksRepo, type CallbacksRepo } from './callbacks.repo.ts'
import { createCallbackDispatcher, MAX_ATTEMPTS_PER_TASK, type CallbackDispatcher } from './callbacks.service.ts'
import { CALLBACKS_CONFIG } from './callbacks.config.ts'

export interface CallbacksService extends CallbacksRepo {
  readonly dispatcher: CallbackDispatcher
}

declare module '../module.ts' {
  interface Services {
    callbacks: CallbacksService
  }
}

/** What this area bounds (docs/limits.md). */
const LIMITS: readonly Limit[] = [
  {
    what: "Delivery attempts for one task's callbacks, redeliveries included",
    value: MAX_ATTEMPTS_PER_TASK,
    unit: 'requests',
    beyond: 'no more attempts; a redelivery asked for is a 429',
  },
]

export const callbacksModule = defineModule({
  name: 'callbacks',
  config: CALLBACKS_CONFIG,
  limits: LIMITS,
  needs: ['keys', 'journal'],
  create: (ctx) => {
    const repo = createCallbacksRepo(ctx.db)
    return Object.assign(repo, { dispatcher: createCallbackDispatcher(ctx, repo) })
  },
  state: (ctx) => [{ ...callbacksState(ctx.db), mints: [uuidIds('callback', 'callback_deliveries')] }],
  due: (ctx) => [ctx.services.callbacks.dispatcher],
  admin: callbacksAdminRoutes,
})
