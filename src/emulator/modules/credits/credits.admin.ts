// Admin side of crypto charges (under /_emulator/api): list and read them, and settle a pending one
// by hand, as a payment landing on chain (confirm) or the payment window closing (expire).
import { Type } from 'typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { toIso } from '../../core/clock.ts'
import { ApiError } from '../../core/errors.ts'
import type { EmulatorContext } from '../../context.ts'
import type { ChargeRow } from './credits.repo.ts'
import { ChargeParams, ListChargesQuery } from './credits.schemas.ts'
import { adminChargeView, confirmCharge, expireCharge } from './credits.service.ts'
import * as R from '../../admin/admin.responses.ts'
import { data, Shape } from '../../admin/admin.responses.ts'

const notFound = (id: string) => new ApiError(404, `Charge ${id} not found`)

export const creditsAdminRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  const requireCharge = (id: string): ChargeRow => {
    const charge = ctx.repos.charges.get(id)
    if (!charge) throw notFound(id)
    return charge
  }

  app.get(
    '/charges',
    { config: { operation: 'admin.charges.list' }, schema: { response: data(Type.Array(R.Charge)), querystring: ListChargesQuery } },
    async (request) => {
      const { account } = request.query
      const rows = account === undefined ? ctx.repos.charges.listAll() : ctx.repos.charges.listForAccount(account)
      return { data: rows.map(adminChargeView) }
    },
  )

  app.get('/charges/:id', { config: { operation: 'admin.charges.get' }, schema: { response: data(R.Charge), params: ChargeParams } }, async (request) => ({
    data: adminChargeView(requireCharge(request.params.id)),
  }))

  app.post(
    '/charges/:id/confirm',
    {
      config: { operation: 'admin.charges.confirm' },
      schema: {
        response: data(Shape({ ...R.Charge.properties, credited: Type.Boolean({ description: 'False when the charge had been confirmed before' }) })),
        params: ChargeParams,
      },
    },
    async (request) => {
      const { id } = request.params
      const result = confirmCharge(ctx, id)
      if (!result) throw notFound(id)
      if (result.charge.status === 'expired') {
        throw new ApiError(409, `Charge ${id} expired at ${toIso(result.charge.expires_at)}`, { metadata: { status: 'expired' } })
      }
      return { data: { ...adminChargeView(result.charge), credited: result.credited } }
    },
  )

  app.post(
    '/charges/:id/expire',
    { config: { operation: 'admin.charges.expire' }, schema: { response: data(R.Charge), params: ChargeParams } },
    async (request) => {
      const { id } = request.params
      const charge = expireCharge(ctx, id)
      if (!charge) throw notFound(id)
      if (charge.status === 'confirmed') throw new ApiError(409, `Charge ${id} is already confirmed`, { metadata: { status: 'confirmed' } })
      return { data: adminChargeView(charge) }
    },
  )
}
