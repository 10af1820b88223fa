// The admin API's POST /accounts: a new account for a test among many running in parallel, with
// generated members, its default workspace and the starter keys. Read and changed through the
// accounts area's admin routes.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { nanosToUsd } from '../../core/money.ts'
import { data, OptionalBody } from '../../http/schemas.ts'
import type { EmulatorContext } from '../module.ts'
import { CreateAccountBody, CreatedAccount } from '../accounts/accounts.schemas.ts'
import { createAccount, generateMembers, STARTER_KEYS } from './signup.service.ts'

export const signupAdminRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
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
}
