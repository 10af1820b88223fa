// The admin API under /_emulator/api: health, state, reset, accounts and their keys, and the clock.
// Its shapes are a stable contract (design section 3) that scripts and the inspector rely on.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { parseDuration } from '../core/clock.ts'
import { ApiError, fieldError } from '../core/errors.ts'
import { formatUsd, nanosToUsd, usdToNanos } from '../core/money.ts'
import { windowStarts } from '../core/windows.ts'
import type { EmulatorContext } from '../modules/module.ts'
import { data, Deleted, OptionalBody, Shape, StringEnum } from '../http/schemas.ts'
import { AccountCreditsBody, AccountParams, ClockAdvanceBody, ClockSetBody, CreateAccountBody, CreateKeyBody, UpdateAccountBody } from './admin.schemas.ts'
import { createAccount, generateMembers, STARTER_KEYS } from '../modules/accounts/accounts.service.ts'
import type { AccountRow } from '../modules/accounts/accounts.repo.ts'
import { insertKey, toKeyView } from '../modules/keys/keys.service.ts'
import { resetAccount } from '../modules/state/state.ts'
import { SEED_PRESETS, type SeedPreset } from '../store/seed.ts'
import { RateLimits, RateLimitsBody } from '../modules/ratelimit/ratelimit.ts'
import { Account, AccountDetail, AdminKey, ClockState, CreatedAccount, EmulatorState } from './admin.responses.ts'

export interface AdminHooks {
  reset(): Promise<void>
  /** Replaces the whole state with a seed preset's. */
  seed(preset: SeedPreset): Promise<void>
}

export const adminRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext; hooks: AdminHooks }> = async (app, { ctx, hooks }) => {
  const accountView = (account: AccountRow): Account => ({
    id: account.id,
    name: account.name,
    credits_usd: nanosToUsd(account.credits_nanos),
    spent_usd: nanosToUsd(account.spent_nanos),
    balance_usd: nanosToUsd(account.credits_nanos - account.spent_nanos),
    workspace_id: account.workspace_id,
    created_at: new Date(account.created_at).toISOString(),
    ignored_providers: JSON.parse(account.ignored_providers) as string[],
    zdr_only: account.zdr_only === 1,
  })
  const requireAccount = (id: string): AccountRow => {
    const account = ctx.services.accounts.get(id)
    if (!account) throw new ApiError(404, `Account ${id} not found`)
    return account
  }
  const adminKeyView = (hash: string): AdminKey => {
    const row = ctx.services.keys.withUsage(hash, windowStarts(ctx.clock.now()))!
    const account = ctx.services.accounts.get(row.account_id)!
    return { ...toKeyView(row, account.workspace_id), kind: row.kind, key: row.token }
  }

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

  app.get('/rate-limits', { config: { operation: 'admin.rateLimits.get' }, schema: { response: data(RateLimits) } }, async () => ({
    data: ctx.services.ratelimit.limits(),
  }))

  app.put('/rate-limits', { config: { operation: 'admin.rateLimits.set' }, schema: { response: data(RateLimits), body: RateLimitsBody } }, async (request) => ({
    data: ctx.services.ratelimit.configure(request.body),
  }))

  app.get('/accounts', { config: { operation: 'admin.accounts.list' }, schema: { response: data(Type.Array(Account)) } }, async () => ({
    data: ctx.services.accounts.list().map(accountView),
  }))

  app.post(
    '/accounts',
    { config: { operation: 'admin.accounts.create' }, schema: { response: data(CreatedAccount, 201), body: OptionalBody(CreateAccountBody) } },
    async (request, reply) => {
      const body = request.body ?? {}
      const label = ctx.ids.next('account')
      const members = await generateMembers(ctx.config.seed, label)
      const created = createAccount(ctx, {
        label,
        name: body.name ?? `Workspace ${label.split('#')[1]}`,
        credits_usd: body.credits_usd ?? 0,
        members,
        keys: STARTER_KEYS,
      })
      ctx.events.emit('account.created', { id: created.account.id })
      const token = (kind: string) => created.keys.find((k) => k.row.kind === kind)!.token
      const data: CreatedAccount = {
        id: created.account.id,
        name: created.account.name,
        management_key: token('management'),
        standard_key: token('standard'),
        credits_usd: nanosToUsd(created.account.credits_nanos),
        workspace_id: created.account.workspace_id,
        members: created.members.map((m) => ({ id: m.id, name: m.name, email: m.email, role: m.role })),
      }
      return reply.code(201).send({ data })
    },
  )

  app.get(
    '/accounts/:id',
    { config: { operation: 'admin.accounts.get' }, schema: { response: data(AccountDetail), params: AccountParams } },
    async (request) => {
      const account = requireAccount(request.params.id)
      const data: AccountDetail = {
        ...accountView(account),
        members: ctx.services.accounts.members(account.id).map((m) => ({ id: m.id, name: m.name, email: m.email, role: m.role })),
      }
      return { data }
    },
  )

  app.patch(
    '/accounts/:id',
    { config: { operation: 'admin.accounts.update' }, schema: { response: data(Account), params: AccountParams, body: UpdateAccountBody } },
    async (request) => {
      const account = requireAccount(request.params.id)
      ctx.services.accounts.update(account, request.body)
      return { data: accountView(requireAccount(account.id)) }
    },
  )

  app.delete(
    '/accounts/:id',
    { config: { operation: 'admin.accounts.delete' }, schema: { response: data(Deleted), params: AccountParams } },
    async (request) => {
      requireAccount(request.params.id)
      ctx.services.accounts.delete(request.params.id)
      return { data: { deleted: true } }
    },
  )

  // A workspace for one test among many running in parallel: back to how the account was created.
  app.post(
    '/accounts/:id/reset',
    { config: { operation: 'admin.accounts.reset' }, schema: { response: data(Account), params: AccountParams } },
    async (request) => {
      resetAccount(ctx, requireAccount(request.params.id).id)
      return { data: accountView(requireAccount(request.params.id)) }
    },
  )

  app.put(
    '/accounts/:id/credits',
    {
      config: { operation: 'admin.accounts.credits' },
      schema: { response: data(Account), params: AccountParams, body: AccountCreditsBody },
    },
    async (request) => {
      const { credits_usd, balance_usd } = request.body
      if ((credits_usd === undefined) === (balance_usd === undefined)) {
        throw new ApiError(400, 'Send exactly one of `credits_usd` (credits bought) or `balance_usd` (what is left after spending)')
      }
      ctx.db
        .transaction(() => {
          const account = requireAccount(request.params.id)
          // A balance is credits minus spend, so setting it sets the credits that produce it.
          const credits = credits_usd !== undefined ? usdToNanos(credits_usd) : usdToNanos(balance_usd!) + account.spent_nanos
          // A balance may be negative (spend beyond the credits bought), the credits bought never.
          if (credits < 0) {
            throw fieldError(
              'balance_usd',
              `must be >= -${nanosToUsd(account.spent_nanos)} for this account: lower would need negative credits (it has spent ${formatUsd(account.spent_nanos)})`,
            )
          }
          ctx.services.accounts.setCredits(account.id, credits)
        })
        .immediate()
      return { data: accountView(requireAccount(request.params.id)) }
    },
  )

  app.get(
    '/accounts/:id/keys',
    { config: { operation: 'admin.keys.list' }, schema: { response: data(Type.Array(AdminKey)), params: AccountParams } },
    async (request) => {
      const account = requireAccount(request.params.id)
      return { data: ctx.services.keys.forAccount(account.id).map((k) => adminKeyView(k.hash)) }
    },
  )

  app.post(
    '/accounts/:id/keys',
    { config: { operation: 'admin.keys.create' }, schema: { response: data(AdminKey, 201), params: AccountParams, body: OptionalBody(CreateKeyBody) } },
    async (request, reply) => {
      const account = requireAccount(request.params.id)
      const body = request.body ?? {}
      const members = ctx.services.accounts.members(account.id)
      if (body.creator_user_id !== undefined && !members.some((m) => m.id === body.creator_user_id)) {
        throw new ApiError(400, `Field \`creator_user_id\` must be a member of account ${account.id}`, {
          metadata: { field: 'creator_user_id', members: members.map((m) => m.id) },
        })
      }
      const kind = body.kind ?? 'standard'
      const { row } = ctx.db
        .transaction(() =>
          insertKey(ctx, {
            account_id: account.id,
            kind,
            name: body.name ?? (kind === 'management' ? 'Management key' : 'API key'),
            label: ctx.ids.next('key'),
            creator_user_id: body.creator_user_id ?? members[0]?.id ?? null,
            disabled: body.disabled ?? false,
            limit_usd: body.limit ?? null,
            limit_reset: body.limit_reset ?? null,
            include_byok_in_limit: body.include_byok_in_limit ?? false,
            expires_at: body.expires_at ? Date.parse(body.expires_at) : null,
          }),
        )
        .immediate()
      return reply.code(201).send({ data: adminKeyView(row.hash) })
    },
  )

  app.delete(
    '/accounts/:id/keys/:hash',
    { config: { operation: 'admin.keys.revoke' }, schema: { response: data(Deleted), params: Type.Object({ id: Type.String(), hash: Type.String() }) } },
    async (request) => {
      const key = ctx.services.keys.byHash(request.params.hash)
      if (!key || key.account_id !== request.params.id) throw new ApiError(404, `Key ${request.params.hash} not found in account ${request.params.id}`)
      ctx.services.keys.delete(key.hash)
      return { data: { deleted: true } }
    },
  )

  const clockReply = async (promise: Promise<unknown> | unknown) => {
    await promise
    const state = ctx.clock.state()
    ctx.events.emit('clock.moved', state)
    return { data: state }
  }

  app.get('/clock', { config: { operation: 'admin.clock.get' }, schema: { response: data(ClockState) } }, async () => ({ data: ctx.clock.state() }))

  app.post(
    '/clock/advance',
    { config: { operation: 'admin.clock.advance' }, schema: { response: data(ClockState), body: ClockAdvanceBody } },
    async (request) => {
      const { ms, by, to } = request.body
      const given = [ms, by, to].filter((v) => v !== undefined).length
      if (given !== 1) throw new ApiError(400, 'Send exactly one of `ms` (milliseconds), `by` (a duration such as "1d") or `to` (an ISO time)')
      if (to !== undefined) {
        const target = Date.parse(to)
        if (target < ctx.clock.now()) {
          throw new ApiError(400, `Field \`to\` (${to}) is before the emulator's now (${ctx.clock.nowIso()}); use POST /_emulator/api/clock/set to go back`)
        }
        return clockReply(ctx.clock.advanceTo(target))
      }
      let amount: number
      try {
        amount = parseDuration(ms ?? by!)
      } catch (error) {
        throw new ApiError(400, `Field \`by\`: ${(error as Error).message}`)
      }
      return clockReply(ctx.clock.advance(amount))
    },
  )

  app.post('/clock/set', { config: { operation: 'admin.clock.set' }, schema: { response: data(ClockState), body: ClockSetBody } }, async (request) =>
    clockReply(ctx.clock.set(Date.parse(request.body.to))),
  )
  app.post('/clock/freeze', { config: { operation: 'admin.clock.freeze' }, schema: { response: data(ClockState) } }, async () => clockReply(ctx.clock.freeze()))
  app.post('/clock/resume', { config: { operation: 'admin.clock.resume' }, schema: { response: data(ClockState) } }, async () => clockReply(ctx.clock.resume()))
}
