// The BYOK API (management key): provider credentials of a workspace. The provider key is taken once
// and kept only as its masked label; the journal keeps these requests with the key redacted.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { REDACTED } from '../../core/redact.ts'
import { caller } from '../../http/auth.ts'
import type { EmulatorContext } from '../module.ts'
import { unknownProvider } from './byok.errors.ts'
import {
  ByokCreatedResponse,
  ByokDeletedResponse,
  ByokListQuery,
  ByokListResponse,
  ByokParams,
  ByokResponse,
  CreateByokBody,
  UpdateByokBody,
} from './byok.schemas.ts'
import { byokView, isKnownProvider, newCredentialRow, patchedCredentialRow, requireCredential } from './byok.service.ts'
import { journalRedacted } from './byok-secrets.service.ts'
import { workspaceFor } from './byok-workspace.service.ts'

/** Bodies are small: a provider key and a few lists. */
const BODY_LIMIT = 64 * 1024

const redactKey = journalRedacted((body) => {
  if ('key' in body) body.key = REDACTED
})

export const byokRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  const repo = ctx.services.byok
  const management = { auth: 'management' as const }
  const tags = ['byok']

  app.get(
    '/byok',
    {
      config: { operation: 'byok.list', ...management },
      schema: { summary: 'List BYOK provider credentials', tags, querystring: ByokListQuery, response: ByokListResponse },
    },
    async (request) => {
      const { account } = caller(request)
      const { provider } = request.query
      if (provider !== undefined && !isKnownProvider(ctx, provider)) throw unknownProvider('provider', 'querystring')
      const filter = {
        account_id: account.id,
        workspace_id: workspaceFor(ctx, account.id, request.query.workspace_id, 'workspace_id', 'querystring'),
        provider: provider ?? null,
      }
      const rows = repo.list(filter, request.query.limit ?? 50, request.query.offset ?? 0)
      return { data: rows.map(byokView), total_count: repo.count(filter) }
    },
  )

  app.post(
    '/byok',
    {
      config: { operation: 'byok.create', ...management },
      bodyLimit: BODY_LIMIT,
      onSend: redactKey,
      schema: { summary: 'Create a BYOK provider credential', tags, body: CreateByokBody, response: ByokCreatedResponse },
    },
    async (request, reply) => {
      const { account } = caller(request)
      const row = ctx.db
        .transaction(() => {
          const created = newCredentialRow(ctx, account, request.body)
          repo.insert(created)
          return created
        })
        .immediate()
      return reply.code(201).send({ data: byokView(row) })
    },
  )

  app.get(
    '/byok/:id',
    {
      config: { operation: 'byok.get', ...management },
      schema: { summary: 'Get a BYOK provider credential', tags, params: ByokParams, response: ByokResponse },
    },
    async (request) => ({ data: byokView(requireCredential(repo, caller(request).account, request.params.id)) }),
  )

  app.patch(
    '/byok/:id',
    {
      config: { operation: 'byok.update', ...management },
      bodyLimit: BODY_LIMIT,
      onSend: redactKey,
      schema: { summary: 'Update a BYOK provider credential', tags, params: ByokParams, body: UpdateByokBody, response: ByokResponse },
    },
    async (request) => {
      const { account } = caller(request)
      const row = ctx.db
        .transaction(() => {
          const next = patchedCredentialRow(ctx, account, requireCredential(repo, account, request.params.id), request.body)
          repo.update(next)
          return next
        })
        .immediate()
      return { data: byokView(row) }
    },
  )

  app.delete(
    '/byok/:id',
    {
      config: { operation: 'byok.delete', ...management },
      schema: { summary: 'Delete a BYOK provider credential', tags, params: ByokParams, response: ByokDeletedResponse },
    },
    async (request) => {
      const { account } = caller(request)
      ctx.db.transaction(() => repo.delete(requireCredential(repo, account, request.params.id).id)).immediate()
      return { deleted: true as const }
    },
  )
}
