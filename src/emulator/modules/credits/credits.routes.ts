// Credits: buy them with a crypto charge (POST /credits/crypto, alias /credits/coinbase) and read the
// balance (GET /credits). A charge credits the account only once confirmed (admin or auto-confirm).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { fieldError } from '../../core/errors.ts'
import { nanosToUsd, NANOS_PER_USDC_UNIT, usdToUsdcUnits } from '../../core/money.ts'
import type { EmulatorContext } from '../module.ts'
import { chargesGone } from './credits.errors.ts'
import { caller } from '../../http/auth.ts'
import { ChargeResponse, ChargesGoneResponse, CreateChargeBody, CreditsResponse } from './credits.schemas.ts'
import { chargeView, createCharge } from './credits.service.ts'

const ADDRESS = /^0x[0-9a-fA-F]{40}$/

/** The real endpoint's answer since its processor retired the API (`--crypto-charges gone`). */
export const creditsRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  // The same handler under both paths; only the operation id differs.
  for (const [path, operation] of [
    ['/credits/crypto', 'credits.crypto'],
    ['/credits/coinbase', 'credits.coinbase'],
  ] as const) {
    if (ctx.config.cryptoCharges === 'gone') {
      // As the real endpoint: no key needed, nothing read, 410 for everyone.
      app.post(
        path,
        {
          config: { operation },
          schema: { summary: 'Gone: crypto charges were retired (--crypto-charges gone)', tags: ['credits'], response: ChargesGoneResponse },
        },
        async () => {
          throw chargesGone()
        },
      )
      continue
    }
    app.post(
      path,
      {
        config: { operation, auth: 'any' },
        schema: { summary: 'Create a crypto charge to buy credits', tags: ['credits'], body: CreateChargeBody, response: ChargeResponse },
      },
      async (request) => {
        const { key, account } = caller(request)
        const { amount, sender, chain_id } = request.body
        // The cap is runtime configuration, so it is checked here rather than in the schema.
        if (amount > ctx.config.chargeCapUsd) throw fieldError('amount', `must be <= ${ctx.config.chargeCapUsd} (the largest charge)`)
        // Paid in USDC, whose smallest unit is 0.000001: a smaller amount cannot be transferred.
        const units = usdToUsdcUnits(amount)
        if (units < 1) throw fieldError('amount', `must be at least ${nanosToUsd(NANOS_PER_USDC_UNIT)} (one USDC base unit)`)
        if (!ADDRESS.test(sender)) throw fieldError('sender', 'must be a 0x address of 40 hex digits')
        const charge = createCharge(ctx, { account_id: account.id, key_hash: key.hash, units, chain_id, sender })
        return { data: chargeView(charge) }
      },
    )
  }

  app.get(
    '/credits',
    { config: { operation: 'credits.get', auth: 'any' }, schema: { summary: 'Get credits bought and used', tags: ['credits'], response: CreditsResponse } },
    async (request) => {
      // Re-read: the row attached at authentication may predate a confirmation.
      const account = ctx.services.accounts.get(caller(request).account.id)!
      return { data: { total_credits: nanosToUsd(account.credits_nanos), total_usage: nanosToUsd(account.spent_nanos) } }
    },
  )
}
