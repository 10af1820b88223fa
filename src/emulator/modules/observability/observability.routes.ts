// The observability destinations API (management key): where a workspace's traces are sent. Secrets
// of a config are masked in every answer and redacted from the journal's copy of the request.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { caller } from '../../http/auth.ts'
import { journalRedacted, redactSecretFields } from '../byok/byok-secrets.service.ts'
import { workspaceFor } from '../byok/byok-workspace.service.ts'
import type { EmulatorContext } from '../module.ts'
import { checkDeliveryTarget, type DestinationType } from './observability-destinations.service.ts'
import {
  CreateDestinationBody,
  DestinationCreatedResponse,
  DestinationDeletedResponse,
  DestinationListQuery,
  DestinationListResponse,
  DestinationParams,
  DestinationResponse,
  UpdateDestinationBody,
} from './observability.schemas.ts'
import { destinationView, newDestinationRow, patchedDestinationRow, requireDestination } from './observability.service.ts'

/** A config, filter rules and a few lists. */
const BODY_LIMIT = 64 * 1024

const redactConfig = journalRedacted((body) => redactSecretFields(body.config))

export const observabilityRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  const repo = ctx.services.observability
  const management = { auth: 'management' as const }
  const tags = ['observability']

  app.get(
    '/observability/destinations',
    {
      config: { operation: 'observability.destinations.list', ...management },
      schema: { summary: 'List observability destinations', tags, querystring: DestinationListQuery, response: DestinationListResponse },
    },
    async (request) => {
      const { account } = caller(request)
      const workspace = workspaceFor(ctx, account.id, request.query.workspace_id, 'workspace_id', 'querystring')
      const rows = repo.list(account.id, workspace, request.query.limit ?? 50, request.query.offset ?? 0)
      return { data: rows.map(destinationView), total_count: repo.count(account.id, workspace) }
    },
  )

  app.post(
    '/observability/destinations',
    {
      config: { operation: 'observability.destinations.create', ...management },
      bodyLimit: BODY_LIMIT,
      onSend: redactConfig,
      schema: { summary: 'Create an observability destination', tags, body: CreateDestinationBody, response: DestinationCreatedResponse },
    },
    async (request, reply) => {
      const { account } = caller(request)
      await checkDeliveryTarget(request.body.type, request.body.config, ctx.ownAddresses)
      const row = ctx.db
        .transaction(() => {
          const created = newDestinationRow(ctx, account, request.body)
          repo.insert(created)
          return created
        })
        .immediate()
      return reply.code(201).send({ data: destinationView(row) })
    },
  )

  app.get(
    '/observability/destinations/:id',
    {
      config: { operation: 'observability.destinations.get', ...management },
      schema: { summary: 'Get an observability destination', tags, params: DestinationParams, response: DestinationResponse },
    },
    async (request) => ({ data: destinationView(requireDestination(repo, caller(request).account, request.params.id)) }),
  )

  app.patch(
    '/observability/destinations/:id',
    {
      config: { operation: 'observability.destinations.update', ...management },
      bodyLimit: BODY_LIMIT,
      onSend: redactConfig,
      schema: {
        summary: 'Update an observability destination',
        tags,
        params: DestinationParams,
        body: UpdateDestinationBody,
        response: DestinationResponse,
      },
    },
    async (request) => {
      const { account } = caller(request)
      const { type } = requireDestination(repo, account, request.params.id)
      await checkDeliveryTarget(type as DestinationType, request.body.config, ctx.ownAddresses)
      const row = ctx.db
        .transaction(() => {
          const next = patchedDestinationRow(ctx, account, requireDestination(repo, account, request.params.id), request.body)
          repo.update(next)
          return next
        })
        .immediate()
      return { data: destinationView(row) }
    },
  )

  app.delete(
    '/observability/destinations/:id',
    {
      config: { operation: 'observability.destinations.delete', ...management },
      schema: { summary: 'Delete an observability destination', tags, params: DestinationParams, response: DestinationDeletedResponse },
    },
    async (request) => {
      const { account } = caller(request)
      // Traces already in the callbacks outbox are still delivered; none are made for it after this.
      ctx.db.transaction(() => repo.delete(requireDestination(repo, account, request.params.id).id)).immediate()
      return { deleted: true as const }
    },
  )
}
