// The keys API (management key, scoped to the caller's account): list, create (the key itself is in
// that answer only), get, update and delete standard keys. A deleted key is unknown from its next
// request on (401), and an expired one is refused (401) once the virtual clock passes its expiry.
// GET /api/v1/key: the calling key itself, for a key of either kind.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { apiKeyNotFound, userNotFound } from './keys.errors.ts'
import { usdToNanos } from '../../core/money.ts'
import { windowStarts } from '../../core/windows.ts'
import type { EmulatorContext } from '../module.ts'
import { caller } from '../../http/auth.ts'
import type { AccountRow } from '../accounts/accounts.repo.ts'
import type { KeyRow } from './keys.repo.ts'
import {
  CurrentKeyResponse,
  KeyCreatedResponse,
  KeyDeletedResponse,
  KeyHashParams,
  KeyListResponse,
  KeyResponse,
  ListKeysQuery,
  NewKeyBody,
  UpdateKeyBody,
} from './keys.schemas.ts'
import { currentKeyView, futureUtcTime, keyCreator, keyView, ownWorkspace, provisionKey, toKeyView } from './keys.service.ts'

export const keysRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  // Only the caller's own standard keys exist for these routes: another account's key, or a
  // management key, is as unknown as a key that never existed.
  const ownKey = (account: AccountRow, hash: string): KeyRow => {
    const key = ctx.services.keys.byHash(hash)
    if (!key || key.account_id !== account.id || key.kind !== 'standard') throw apiKeyNotFound(hash)
    return key
  }

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
          workspace_id: ownWorkspace(ctx, account, request.query.workspace_id, 'querystring'),
          default_workspace: account.workspace_id,
          offset: request.query.offset ?? 0,
          limit: request.query.limit ?? -1,
        },
        windowStarts(ctx.clock.now()),
      )
      return { data: rows.map((row) => toKeyView(row, account.workspace_id)) }
    },
  )

  app.post(
    '/keys',
    {
      config: { operation: 'keys.create', auth: 'management' },
      schema: { summary: 'Create an API key', tags: ['keys'], body: NewKeyBody, response: KeyCreatedResponse },
    },
    async (request, reply) => {
      const { account, key: callerKey } = caller(request)
      const body = request.body
      const terms = {
        name: body.name,
        limit_usd: body.limit ?? null,
        limit_reset: body.limit_reset ?? null,
        include_byok_in_limit: body.include_byok_in_limit ?? false,
        expires_at: body.expires_at === undefined || body.expires_at === null ? null : futureUtcTime(ctx, 'expires_at', body.expires_at),
        creator_user_id: keyCreator(ctx, account, body.creator_user_id, callerKey.creator_user_id),
        workspace_id: ownWorkspace(ctx, account, body.workspace_id),
      }
      const { row, token } = ctx.db.transaction(() => provisionKey(ctx, account.id, terms)).immediate()
      return reply.code(201).send({ data: keyView(ctx, row.hash)!, key: token })
    },
  )

  app.get(
    '/keys/:hash',
    {
      config: { operation: 'keys.get', auth: 'management' },
      schema: { summary: 'Get an API key', tags: ['keys'], params: KeyHashParams, response: KeyResponse },
    },
    async (request) => {
      const key = ownKey(caller(request).account, request.params.hash)
      return { data: keyView(ctx, key.hash)! }
    },
  )

  app.delete(
    '/keys/:hash',
    {
      config: { operation: 'keys.delete', auth: 'management' },
      schema: { summary: 'Delete an API key', tags: ['keys'], params: KeyHashParams, response: KeyDeletedResponse },
    },
    async (request) => {
      const { account } = caller(request)
      // Checked and deleted in one transaction: two deletes of one key give one 200 and one 404.
      ctx.db
        .transaction(() => {
          ctx.services.keys.delete(ownKey(account, request.params.hash).hash)
        })
        .immediate()
      return { deleted: true as const }
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
      const { hash } = ownKey(caller(request).account, request.params.hash)
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
