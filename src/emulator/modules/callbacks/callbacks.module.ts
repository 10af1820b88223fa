// Callback deliveries: the outbox of task notifications, delivered (and retried) on the clock.
import { uuidIds } from '../../core/lifecycle.ts'
import { defineModule } from '../module.ts'
import { callbacksAdminRoutes } from './callbacks.admin.ts'
import { callbacksState, createCallbacksRepo, type CallbacksRepo } from './callbacks.repo.ts'
import { createCallbackDispatcher, type CallbackDispatcher } from './callbacks.service.ts'

export interface CallbacksService extends CallbacksRepo {
  readonly dispatcher: CallbackDispatcher
}

declare module '../module.ts' {
  interface Services {
    callbacks: CallbacksService
  }
}

export const callbacksModule = defineModule({
  name: 'callbacks',
  needs: ['keys', 'journal'],
  create: (ctx) => {
    const repo = createCallbacksRepo(ctx.db)
    return Object.assign(repo, { dispatcher: createCallbackDispatcher(ctx, repo) })
  },
  state: (ctx) => [{ ...callbacksState(ctx.db), mints: [uuidIds('callback', 'callback_deliveries')] }],
  due: (ctx) => [ctx.services.callbacks.dispatcher],
  admin: callbacksAdminRoutes,
})
