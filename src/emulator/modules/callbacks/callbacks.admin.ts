// Admin side of task callbacks (under /_emulator/api): what was sent where, every attempt, a manual
// redelivery (a receiver fixed after the retries ran out), and a wait for the outbox to drain
// (deliveries run in the background: a test advances the clock, then drains, then asserts).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { data, OptionalBody, Shape, StringEnum } from '../../http/schemas.ts'
import type { EmulatorContext } from '../module.ts'
import { getDeliveryView, listDeliveryViews, redeliver } from './callbacks.service.ts'
import { CallbackDelivery, Outbox } from './callbacks.schemas.ts'
import { deliveryNotFound } from './callbacks.errors.ts'

const DeliveryParams = Type.Object({ id: Type.String({ minLength: 1 }) })
const ListDeliveriesQuery = Type.Object({
  task_id: Type.Optional(Type.String({ minLength: 1 })),
  status: Type.Optional(StringEnum(['pending', 'delivered', 'failed'] as const)),
  account: Type.Optional(Type.String({ minLength: 1 })),
})

/** The longest a drain request waits: a test's own timeout should fire first, with a clearer message. */
const MAX_DRAIN_MS = 60_000
const DrainBody = Type.Object({ timeout_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_DRAIN_MS })) }, { additionalProperties: false })

export const callbacksAdminRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  const dispatcher = ctx.services.callbacks.dispatcher
  app.get(
    '/callbacks',
    { config: { operation: 'admin.callbacks.list' }, schema: { response: data(Type.Array(CallbackDelivery)), querystring: ListDeliveriesQuery } },
    async (request) => {
      const { task_id, status, account } = request.query
      return { data: listDeliveryViews(ctx, { task_id, status, account_id: account }) }
    },
  )

  app.get(
    '/callbacks/:id',
    { config: { operation: 'admin.callbacks.get' }, schema: { response: data(CallbackDelivery), params: DeliveryParams } },
    async (request) => {
      const view = getDeliveryView(ctx, request.params.id)
      if (!view) throw deliveryNotFound(request.params.id)
      return { data: view }
    },
  )

  app.post(
    '/callbacks/:id/redeliver',
    { config: { operation: 'admin.callbacks.redeliver' }, schema: { response: data(CallbackDelivery), params: DeliveryParams } },
    async (request) => {
      const view = await redeliver(ctx, dispatcher, request.params.id)
      if (!view) throw deliveryNotFound(request.params.id)
      return { data: view }
    },
  )

  app.post(
    '/callbacks/drain',
    {
      config: { operation: 'admin.callbacks.drain' },
      schema: {
        response: data(Shape({ drained: Type.Boolean(), ...Outbox.properties })),
        body: OptionalBody(DrainBody),
        summary: 'Wait until every due callback has been attempted',
      },
    },
    async (request) => {
      const drained = await dispatcher.drain(request.body?.timeout_ms ?? 10_000)
      return { data: { drained, ...dispatcher.outbox() } }
    },
  )
}
