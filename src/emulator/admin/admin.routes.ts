// The admin API's own routes under /_emulator/api: health, the state in brief, reset and seed presets.
// Each area's admin routes are its own (accounts, keys, clock, faults...). Its shapes are a stable
// contract (docs/architecture.md) that scripts and the inspector rely on.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { EmulatorContext } from '../modules/module.ts'
import { data, Shape, StringEnum } from '../http/schemas.ts'
import { accountView } from '../modules/accounts/accounts.service.ts'
import { Account } from '../modules/accounts/accounts.schemas.ts'
import { SEED_PRESETS, type SeedPreset } from '../store/seed.ts'
import { EmulatorState } from './admin.responses.ts'

export interface AdminHooks {
  reset(): Promise<void>
  /** Replaces the whole state with a seed preset's. */
  seed(preset: SeedPreset): Promise<void>
}

export const adminRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext; hooks: AdminHooks }> = async (app, { ctx, hooks }) => {
  app.get(
    '/health',
    { config: { operation: 'admin.health' }, schema: { response: { 200: Shape({ status: Type.Literal('ok'), version: Type.String() }) } } },
    async () => ({ status: 'ok' as const, version: ctx.version }),
  )

  app.get('/state', { config: { operation: 'admin.state' }, schema: { response: data(EmulatorState) } }, async () => {
    const accounts = ctx.services.accounts.list()
    return {
      data: {
        version: ctx.version,
        seed: ctx.config.seed,
        database: ctx.config.db,
        clock: ctx.clock.state(),
        accounts: accounts.map(accountView),
      },
    }
  })

  app.post('/reset', { config: { operation: 'admin.reset' }, schema: { response: data(Shape({ reset: Type.Boolean() })) } }, async () => {
    await hooks.reset()
    return { data: { reset: true } }
  })

  app.post(
    '/fixtures/seed',
    {
      config: { operation: 'admin.fixtures.seed' },
      schema: { response: data(Shape({ preset: Type.String(), accounts: Type.Array(Account) })), body: Type.Object({ preset: StringEnum(SEED_PRESETS) }) },
    },
    async (request) => {
      await hooks.seed(request.body.preset)
      return { data: { preset: request.body.preset, accounts: ctx.services.accounts.list().map(accountView) } }
    },
  )
}
