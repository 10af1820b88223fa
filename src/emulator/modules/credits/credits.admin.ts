// Admin side of crypto charges (under /_emulator/api): list and read them, and settle a pending one
// by hand, as a payment landing on chain (confirm) or the payment window closing (expire).
import { Type } from 'typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { toIso } from '../../core/clock.ts'
import type { EmulatorContext } from '../module.ts'
import type { ChargeRow } from './credits.repo.ts'
import { Charge, ChargeParams, ListChargesQuery } from './credits.schemas.ts'
import { adminChargeView, confirmCharge, expireCharge } from './credits.service.ts'
import { data, Shape } from '../../http/schemas.ts'
import { chargeConfirmed, chargeExpired, chargeNotFound } from './credits.errors.ts'

export const creditsAdminRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  const requireCharge = (id: string): ChargeRow => {
    const charge = ctx.services.credits.get(id)
    if (!charge) throw chargeNotFound(id)
    return charge
  }

  app.get(
    '/charges',
    { config: { operation: 'admin.charges.list' }, schema: { response: data(Type.Array(Charge)), querystring: ListChargesQuery } },
    async (request) => {
      const { account } = request.query
      const rows = account === undefined ? ctx.services.credits.listAll() : ctx.services.credits.listForAccount(account)
      return { data: rows.map(adminChargeView) }
    },
  )

  app.get('/charges/:id', { config: { operation: 'admin.charges.get' }, schema: { response: data(Charge), params: ChargeParams } }, async (request) => ({
    data: adminChargeView(requireCharge(request.params.id)),
  }))

  app.post(
    '/charges/:id/confirm',
    {
      config: { operation: 'admin.charges.confirm' },
      schema: {
        response: data(Shape({ ...Charge.properties, credited: Type.Boolean({ description: 'False when the charge had been confirmed before' }) })),
        params: ChargeParams,
      },
    },
    async (request) => {
      const { id } = request.params
      const result = confirmCharge(ctx, id)
      if (!result) throw chargeNotFound(id)
      if (result.charge.status === 'expired') {
        throw chargeExpired(id, toIso(result.charge.expires_at))
      }
      return { data: { ...adminChargeView(result.charge), credited: result.credited } }
    },
  )

  app.post(
    '/charges/:id/expire',
    { config: { operation: 'admin.charges.expire' }, schema: { response: data(Charge), params: ChargeParams } },
    async (request) => {
      const { id } = request.params
      const charge = expireCharge(ctx, id)
      if (!charge) throw chargeNotFound(id)
      if (charge.status === 'confirmed') throw chargeConfirmed(id)
      return { data: adminChargeView(charge) }
    },
  )
}
