// The admin API's keys of an account: list them (with their tokens), make one, revoke one.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { windowStarts } from '../../core/windows.ts'
import { data, Deleted, OptionalBody } from '../../http/schemas.ts'
import type { EmulatorContext } from '../module.ts'
import { requireAccount } from '../accounts/accounts.service.ts'
import { AccountParams } from '../accounts/accounts.schemas.ts'
import { AdminKey, CreateKeyBody } from './keys.schemas.ts'
import { insertKey, toKeyView } from './keys.service.ts'
import { creatorNotAMember, keyNotInAccount } from './keys.errors.ts'

export const keysAdminRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  const adminKeyView = (hash: string): AdminKey => {
    const row = ctx.services.keys.withUsage(hash, windowStarts(ctx.clock.now()))!
    const account = ctx.services.accounts.get(row.account_id)!
    return { ...toKeyView(row, account.workspace_id), kind: row.kind, key: row.token }
  }

  app.get(
    '/accounts/:id/keys',
    { config: { operation: 'admin.keys.list' }, schema: { response: data(Type.Array(AdminKey)), params: AccountParams } },
    async (request) => {
      const account = requireAccount(ctx, request.params.id)
      return { data: ctx.services.keys.forAccount(account.id).map((k) => adminKeyView(k.hash)) }
    },
  )

  app.post(
    '/accounts/:id/keys',
    { config: { operation: 'admin.keys.create' }, schema: { response: data(AdminKey, 201), params: AccountParams, body: OptionalBody(CreateKeyBody) } },
    async (request, reply) => {
      const account = requireAccount(ctx, request.params.id)
      const body = request.body ?? {}
      const members = ctx.services.accounts.members(account.id)
      if (body.creator_user_id !== undefined && !members.some((m) => m.id === body.creator_user_id)) {
        throw creatorNotAMember(
          account.id,
          members.map((m) => m.id),
        )
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
      if (!key || key.account_id !== request.params.id) throw keyNotInAccount(request.params.hash, request.params.id)
      ctx.services.keys.delete(key.hash)
      return { data: { deleted: true } }
    },
  )
}
