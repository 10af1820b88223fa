// GET /api/v1/keys and PATCH /api/v1/keys/:hash: management key required, scoped to the caller's account.
// GET /api/v1/key: the calling key itself, for a key of either kind.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { apiKeyNotFound, userNotFound } from './keys.errors.ts'
import { usdToNanos } from '../../core/money.ts'
import { windowStarts } from '../../core/windows.ts'
import type { EmulatorContext } from '../module.ts'
import { caller } from '../../http/auth.ts'
import { CurrentKeyResponse, KeyHashParams, KeyListResponse, KeyResponse, ListKeysQuery, UpdateKeyBody } from './keys.schemas.ts'
import { currentKeyView, keyView, toKeyView } from './keys.service.ts'

export const keysRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  app.get(
    '/keys',
    {
      config: { operation: 'keys.list', auth: 'management' },
      schema: { summary: 'List API keys', tags: ['keys'], querystring: ListKeysQuery, response: KeyListResponse },
    },
    async (request) => {
      const { account } = caller(request)
      const rows = ctx.services.keys.list(
        {
          account_id: account.id,
          kind: 'standard',
          include_disabled: request.query.include_disabled ?? false,
          offset: request.query.offset ?? 0,
          limit: request.query.limit ?? -1,
        },
        windowStarts(ctx.clock.now()),
      )
      return { data: rows.map((row) => toKeyView(row, account.workspace_id)) }
    },
  )

  app.get(
    '/key',
    {
      config: { operation: 'keys.current', auth: 'any' },
      schema: { summary: 'Get the calling API key', tags: ['keys'], response: CurrentKeyResponse },
    },
    async (request, reply) => {
      const data = currentKeyView(ctx, caller(request).key.hash)
      // Revoked between authentication and now: as unknown as at the door.
      if (!data) throw userNotFound()
      // As the real answer: the caller's own, and stale after the next billed request.
      reply.header('cache-control', 'private, no-store')
      return { data }
    },
  )

  app.patch(
    '/keys/:hash',
    {
      config: { operation: 'keys.update', auth: 'management' },
      schema: { summary: 'Update an API key', tags: ['keys'], params: KeyHashParams, body: UpdateKeyBody, response: KeyResponse },
    },
    async (request) => {
      const { account } = caller(request)
      const { hash } = request.params
      const existing = ctx.services.keys.byHash(hash)
      // Another account's key is as unknown as a key that never existed.
      if (!existing || existing.account_id !== account.id || existing.kind !== 'standard') {
        throw apiKeyNotFound(hash)
      }
      const body = request.body
      ctx.services.keys.update(
        hash,
        {
          ...(body.name !== undefined && { name: body.name }),
          ...(body.disabled !== undefined && { disabled: body.disabled }),
          ...(body.limit !== undefined && { limit_nanos: body.limit === null ? null : usdToNanos(body.limit) }),
          ...(body.limit_reset !== undefined && { limit_reset: body.limit_reset }),
          ...(body.include_byok_in_limit !== undefined && { include_byok_in_limit: body.include_byok_in_limit }),
        },
        ctx.clock.now(),
      )
      return { data: keyView(ctx, hash)! }
    },
  )
}
