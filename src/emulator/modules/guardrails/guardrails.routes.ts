// The guardrails API (management key): CRUD, the four bulk assignment operations, and the read side
// of assignments. Only keys and members of the caller's account can be assigned; counts say what
// actually changed, so repeating a call counts 0.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { EmulatorContext } from '../module.ts'
import { caller } from '../../http/auth.ts'
import {
  AssignedResponse,
  CreateGuardrailBody,
  GuardrailCreatedResponse,
  GuardrailDeletedResponse,
  GuardrailListQuery,
  GuardrailListResponse,
  GuardrailParams,
  GuardrailResponse,
  KeyAssignmentListResponse,
  KeyHashesBody,
  MemberAssignmentListResponse,
  MemberIdsBody,
  UnassignedResponse,
  UpdateGuardrailBody,
} from './guardrails.schemas.ts'
import { guardrailView, keyAssignmentView, memberAssignmentView, newGuardrailRow, patchedGuardrailRow, requireGuardrail } from './guardrails.service.ts'

export const guardrailsRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  const repo = ctx.services.guardrails
  const management = { auth: 'management' as const }
  const tags = ['guardrails']

  app.get(
    '/guardrails',
    {
      config: { operation: 'guardrails.list', ...management },
      schema: { summary: 'List guardrails', tags, querystring: GuardrailListQuery, response: GuardrailListResponse },
    },
    async (request) => {
      const { account } = caller(request)
      const rows = repo.list(account.id, request.query.limit ?? 50, request.query.offset ?? 0)
      return { data: rows.map((row) => guardrailView(row, account)), total_count: repo.count(account.id) }
    },
  )

  app.post(
    '/guardrails',
    {
      config: { operation: 'guardrails.create', ...management },
      schema: { summary: 'Create a guardrail', tags, body: CreateGuardrailBody, response: GuardrailCreatedResponse },
    },
    async (request, reply) => {
      const { account } = caller(request)
      const row = newGuardrailRow(ctx, account, request.body)
      ctx.db.transaction(() => repo.insert(row)).immediate()
      return reply.code(201).send({ data: guardrailView(row, account) })
    },
  )

  app.get(
    '/guardrails/assignments/keys',
    {
      config: { operation: 'guardrails.assignments.keys.listAll', ...management },
      schema: { summary: 'List every key assignment', tags, response: KeyAssignmentListResponse },
    },
    async (request) => {
      const rows = repo.accountKeyAssignments(caller(request).account.id)
      return { data: rows.map(keyAssignmentView), total_count: rows.length }
    },
  )

  app.get(
    '/guardrails/assignments/members',
    {
      config: { operation: 'guardrails.assignments.members.listAll', ...management },
      schema: { summary: 'List every member assignment', tags, response: MemberAssignmentListResponse },
    },
    async (request) => {
      const rows = repo.accountMemberAssignments(caller(request).account.id)
      return { data: rows.map(memberAssignmentView), total_count: rows.length }
    },
  )

  app.get(
    '/guardrails/:id',
    {
      config: { operation: 'guardrails.get', ...management },
      schema: { summary: 'Get a guardrail', tags, params: GuardrailParams, response: GuardrailResponse },
    },
    async (request) => {
      const { account } = caller(request)
      return { data: guardrailView(requireGuardrail(repo, account, request.params.id), account) }
    },
  )

  app.patch(
    '/guardrails/:id',
    {
      config: { operation: 'guardrails.update', ...management },
      schema: { summary: 'Update a guardrail', tags, params: GuardrailParams, body: UpdateGuardrailBody, response: GuardrailResponse },
    },
    async (request) => {
      const { account } = caller(request)
      const row = ctx.db
        .transaction(() => {
          const next = patchedGuardrailRow(requireGuardrail(repo, account, request.params.id), request.body, ctx.clock.now())
          repo.update(next)
          return next
        })
        .immediate()
      return { data: guardrailView(row, account) }
    },
  )

  app.delete(
    '/guardrails/:id',
    {
      config: { operation: 'guardrails.delete', ...management },
      schema: { summary: 'Delete a guardrail', tags, params: GuardrailParams, response: GuardrailDeletedResponse },
    },
    async (request) => {
      const { account } = caller(request)
      ctx.db
        .transaction(() => {
          // Its assignments go with it (ON DELETE CASCADE).
          repo.delete(requireGuardrail(repo, account, request.params.id).id)
        })
        .immediate()
      return { deleted: true as const }
    },
  )

  app.get(
    '/guardrails/:id/assignments/keys',
    {
      config: { operation: 'guardrails.assignments.keys.list', ...management },
      schema: { summary: "List a guardrail's keys", tags, params: GuardrailParams, response: KeyAssignmentListResponse },
    },
    async (request) => {
      const rows = repo.keyAssignments(requireGuardrail(repo, caller(request).account, request.params.id).id)
      return { data: rows.map(keyAssignmentView), total_count: rows.length }
    },
  )

  app.get(
    '/guardrails/:id/assignments/members',
    {
      config: { operation: 'guardrails.assignments.members.list', ...management },
      schema: { summary: "List a guardrail's members", tags, params: GuardrailParams, response: MemberAssignmentListResponse },
    },
    async (request) => {
      const rows = repo.memberAssignments(requireGuardrail(repo, caller(request).account, request.params.id).id)
      return { data: rows.map(memberAssignmentView), total_count: rows.length }
    },
  )

  // Keys and members are assigned alike; what differs is the body field, who belongs to the account,
  // and the table.
  const targets = [
    {
      path: 'keys',
      schema: KeyHashesBody,
      ids: (body: unknown) => (body as { key_hashes: string[] }).key_hashes,
      belongs: (id: string, accountId: string) => ctx.services.keys.byHash(id)?.account_id === accountId,
      assign: (guardrail_id: string, id: string, assigned_by: string | null) =>
        repo.assignKey({ id: ctx.ids.uuid(ctx.ids.next('assignment')), guardrail_id, key_hash: id, assigned_by, created_at: ctx.clock.now() }),
      unassign: repo.unassignKey,
    },
    {
      path: 'members',
      schema: MemberIdsBody,
      ids: (body: unknown) => (body as { member_user_ids: string[] }).member_user_ids,
      belongs: (id: string, accountId: string) => ctx.services.accounts.member(id)?.account_id === accountId,
      assign: (guardrail_id: string, id: string, assigned_by: string | null) =>
        repo.assignMember({ id: ctx.ids.uuid(ctx.ids.next('assignment')), guardrail_id, member_id: id, assigned_by, created_at: ctx.clock.now() }),
      unassign: repo.unassignMember,
    },
  ] as const

  for (const target of targets) {
    app.post(
      `/guardrails/:id/assignments/${target.path}`,
      {
        config: { operation: `guardrails.assignments.${target.path}.assign`, ...management },
        schema: { summary: `Assign ${target.path} to a guardrail`, tags, params: GuardrailParams, body: target.schema, response: AssignedResponse },
      },
      async (request) => {
        const { account, key } = caller(request)
        const assigned = ctx.db
          .transaction(() => {
            const guardrail = requireGuardrail(repo, account, request.params.id)
            const ids = [...new Set(target.ids(request.body))].filter((id) => target.belongs(id, account.id))
            return ids.filter((id) => target.assign(guardrail.id, id, key.creator_user_id)).length
          })
          .immediate()
        return { assigned_count: assigned }
      },
    )

    app.post(
      `/guardrails/:id/assignments/${target.path}/remove`,
      {
        config: { operation: `guardrails.assignments.${target.path}.unassign`, ...management },
        schema: { summary: `Unassign ${target.path} from a guardrail`, tags, params: GuardrailParams, body: target.schema, response: UnassignedResponse },
      },
      async (request) => {
        const { account } = caller(request)
        const unassigned = ctx.db
          .transaction(() => {
            const guardrail = requireGuardrail(repo, account, request.params.id)
            return [...new Set(target.ids(request.body))].filter((id) => target.unassign(guardrail.id, id)).length
          })
          .immediate()
        return { unassigned_count: unassigned }
      },
    )
  }
}
