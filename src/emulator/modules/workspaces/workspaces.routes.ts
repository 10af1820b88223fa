// The workspaces API (management key): CRUD by id or slug, budgets per reset interval, and members.
// Every change is one transaction over the caller's account; another account's workspace is a 404.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { caller } from '../../http/auth.ts'
import type { EmulatorContext } from '../module.ts'
import {
  budgetNotFound,
  defaultMembersImplicit,
  defaultWorkspaceUndeletable,
  memberHasKeys,
  notAMember,
  workspaceHasKeys,
  workspaceInUse,
} from './workspaces.errors.ts'
import {
  BudgetListResponse,
  BudgetParams,
  BudgetResponse,
  CreateWorkspaceBody,
  DeletedResponse,
  MemberIdsBody,
  MemberListResponse,
  MembersAddedResponse,
  MembersRemovedResponse,
  PageQuery,
  UpdateWorkspaceBody,
  UpsertBudgetBody,
  WorkspaceCreatedResponse,
  WorkspaceListResponse,
  WorkspaceParams,
  WorkspaceResponse,
} from './workspaces.schemas.ts'
import {
  budgetView,
  implicitMemberships,
  isDefault,
  membershipView,
  newWorkspaceRow,
  nextBudget,
  patchedWorkspaceRow,
  requireWorkspace,
  workspaceView,
} from './workspaces.service.ts'
import type { MembershipRow } from './workspaces.repo.ts'

/** Management bodies are small: a name, a slug, a few settings, at most 100 user ids. */
const BODY_LIMIT = 64 * 1024

const isForeignKeyFailure = (error: unknown): boolean => (error as { code?: unknown } | null)?.code === 'SQLITE_CONSTRAINT_FOREIGNKEY'

export const workspacesRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  const repo = ctx.services.workspaces.repo
  const management = { auth: 'management' as const }
  const tags = ['workspaces']
  const transaction = <T>(work: () => T): T => ctx.db.transaction(work).immediate()

  app.get(
    '/workspaces',
    {
      config: { operation: 'workspaces.list', ...management },
      schema: { summary: 'List workspaces', tags, querystring: PageQuery, response: WorkspaceListResponse },
    },
    async (request) => {
      const { account } = caller(request)
      const rows = repo.list(account.id, request.query.limit ?? 50, request.query.offset ?? 0)
      return { data: rows.map(workspaceView), total_count: repo.count(account.id) }
    },
  )

  app.post(
    '/workspaces',
    {
      bodyLimit: BODY_LIMIT,
      config: { operation: 'workspaces.create', ...management },
      schema: { summary: 'Create a workspace', tags, body: CreateWorkspaceBody, response: WorkspaceCreatedResponse },
    },
    async (request, reply) => {
      const { account, key } = caller(request)
      const row = transaction(() => {
        const created = newWorkspaceRow(ctx, account, key.creator_user_id, request.body)
        repo.insert(created)
        // Its creator is its first member.
        if (key.creator_user_id !== null && ctx.services.accounts.member(key.creator_user_id)?.account_id === account.id) {
          repo.addMember({
            id: ctx.ids.uuid(ctx.ids.next('workspace-member')),
            workspace_id: created.id,
            member_id: key.creator_user_id,
            created_at: created.created_at,
          })
        }
        return created
      })
      return reply.code(201).send({ data: workspaceView(row) })
    },
  )

  app.get(
    '/workspaces/:id',
    {
      config: { operation: 'workspaces.get', ...management },
      schema: { summary: 'Get a workspace', tags, params: WorkspaceParams, response: WorkspaceResponse },
    },
    async (request) => ({ data: workspaceView(requireWorkspace(ctx, caller(request).account, request.params.id)) }),
  )

  app.patch(
    '/workspaces/:id',
    {
      bodyLimit: BODY_LIMIT,
      config: { operation: 'workspaces.update', ...management },
      schema: { summary: 'Update a workspace', tags, params: WorkspaceParams, body: UpdateWorkspaceBody, response: WorkspaceResponse },
    },
    async (request) => {
      const { account } = caller(request)
      const row = transaction(() => {
        const next = patchedWorkspaceRow(ctx, requireWorkspace(ctx, account, request.params.id), request.body)
        repo.update(next)
        return next
      })
      return { data: workspaceView(row) }
    },
  )

  app.delete(
    '/workspaces/:id',
    {
      config: { operation: 'workspaces.delete', ...management },
      schema: { summary: 'Delete a workspace', tags, params: WorkspaceParams, response: DeletedResponse },
    },
    async (request) => {
      const { account } = caller(request)
      transaction(() => {
        const row = requireWorkspace(ctx, account, request.params.id)
        if (isDefault(row, account)) throw defaultWorkspaceUndeletable()
        const keys = ctx.services.keys.countInWorkspace(row.id)
        if (keys > 0) throw workspaceHasKeys(row.slug, keys)
        const held = ctx.services.workspaces.held(account.id, row.id)
        if (held.length > 0) throw workspaceInUse(row.slug, held)
        try {
          // Its budgets and memberships go with it (ON DELETE CASCADE).
          repo.delete(row.id)
        } catch (error) {
          if (isForeignKeyFailure(error)) throw workspaceInUse(row.slug)
          throw error
        }
      })
      return { deleted: true as const }
    },
  )

  // ---- Budgets -----------------------------------------------------------------------------------

  app.get(
    '/workspaces/:id/budgets',
    {
      config: { operation: 'workspaces.budgets.list', ...management },
      schema: { summary: "List a workspace's budgets", tags, params: WorkspaceParams, response: BudgetListResponse },
    },
    async (request) => {
      const row = requireWorkspace(ctx, caller(request).account, request.params.id)
      return { data: repo.budgets(row.id).map(budgetView), include_byok_in_budgets: row.include_byok_in_budgets === 1 }
    },
  )

  app.get(
    '/workspaces/:id/budgets/:interval',
    {
      config: { operation: 'workspaces.budgets.get', ...management },
      schema: { summary: "Get a workspace's budget for an interval", tags, params: BudgetParams, response: BudgetResponse },
    },
    async (request) => {
      const row = requireWorkspace(ctx, caller(request).account, request.params.id)
      const budget = repo.budget(row.id, request.params.interval)
      if (!budget) throw budgetNotFound(row.slug, request.params.interval)
      return { data: budgetView(budget), include_byok_in_budgets: row.include_byok_in_budgets === 1 }
    },
  )

  app.put(
    '/workspaces/:id/budgets/:interval',
    {
      bodyLimit: BODY_LIMIT,
      config: { operation: 'workspaces.budgets.set', ...management },
      schema: {
        summary: "Create or change a workspace's budget for an interval",
        tags,
        params: BudgetParams,
        body: UpsertBudgetBody,
        response: BudgetResponse,
      },
    },
    async (request) => {
      const { account } = caller(request)
      const { limit_usd, include_byok_in_budgets } = request.body
      const [budget, includeByok] = transaction(() => {
        const row = requireWorkspace(ctx, account, request.params.id)
        const next = nextBudget(ctx, row, request.params.interval, limit_usd)
        repo.upsertBudget(next)
        // A workspace-wide setting: it applies to every interval, and an omitted one stays as it is.
        if (include_byok_in_budgets !== undefined) repo.setIncludeByok(row.id, include_byok_in_budgets)
        return [next, include_byok_in_budgets ?? row.include_byok_in_budgets === 1] as const
      })
      return { data: budgetView(budget), include_byok_in_budgets: includeByok }
    },
  )

  app.delete(
    '/workspaces/:id/budgets/:interval',
    {
      config: { operation: 'workspaces.budgets.delete', ...management },
      schema: { summary: "Delete a workspace's budget for an interval", tags, params: BudgetParams, response: DeletedResponse },
    },
    async (request) => {
      const { account } = caller(request)
      // As the real answer: deleted, or there was none.
      transaction(() => repo.deleteBudget(requireWorkspace(ctx, account, request.params.id).id, request.params.interval))
      return { deleted: true as const }
    },
  )

  // ---- Members -----------------------------------------------------------------------------------

  app.get(
    '/workspaces/:id/members',
    {
      config: { operation: 'workspaces.members.list', ...management },
      schema: { summary: "List a workspace's members", tags, params: WorkspaceParams, querystring: PageQuery, response: MemberListResponse },
    },
    async (request) => {
      const { account } = caller(request)
      const row = requireWorkspace(ctx, account, request.params.id)
      const limit = request.query.limit ?? 50
      const offset = request.query.offset ?? 0
      if (isDefault(row, account)) {
        const all = implicitMemberships(ctx, account)
        return { data: all.slice(offset, offset + limit).map(membershipView), total_count: all.length }
      }
      return {
        data: repo.members(row.id, limit, offset, (id) => ctx.services.accounts.member(id)?.role).map(membershipView),
        total_count: repo.memberCount(row.id),
      }
    },
  )

  app.post(
    '/workspaces/:id/members/add',
    {
      bodyLimit: BODY_LIMIT,
      config: { operation: 'workspaces.members.add', ...management },
      schema: { summary: 'Add members to a workspace', tags, params: WorkspaceParams, body: MemberIdsBody, response: MembersAddedResponse },
    },
    async (request) => {
      const { account } = caller(request)
      const added = transaction((): MembershipRow[] => {
        const row = requireWorkspace(ctx, account, request.params.id)
        const members = request.body.user_ids.map((id, i) => {
          const member = ctx.services.accounts.member(id)
          if (member?.account_id !== account.id) throw notAMember(`user_ids[${i}]`, id)
          return member
        })
        // Every member of the account is already in its default workspace.
        if (isDefault(row, account)) return []
        const now = ctx.clock.now()
        const created: MembershipRow[] = []
        for (const member of new Map(members.map((m) => [m.id, m])).values()) {
          const membership = { id: ctx.ids.uuid(ctx.ids.next('workspace-member')), workspace_id: row.id, member_id: member.id, created_at: now }
          if (repo.addMember(membership)) created.push({ ...membership, role: member.role })
        }
        return created
      })
      return { data: added.map(membershipView), added_count: added.length }
    },
  )

  app.post(
    '/workspaces/:id/members/remove',
    {
      bodyLimit: BODY_LIMIT,
      config: { operation: 'workspaces.members.remove', ...management },
      schema: { summary: 'Remove members from a workspace', tags, params: WorkspaceParams, body: MemberIdsBody, response: MembersRemovedResponse },
    },
    async (request) => {
      const { account } = caller(request)
      const removed = transaction(() => {
        const row = requireWorkspace(ctx, account, request.params.id)
        if (isDefault(row, account)) throw defaultMembersImplicit()
        const ids = request.body.user_ids
        ids.forEach((id, i) => {
          const keys = ctx.services.keys.countMadeInWorkspace(row.id, id)
          if (keys > 0) throw memberHasKeys(`user_ids[${i}]`, id, keys)
        })
        return [...new Set(ids)].filter((id) => repo.removeMember(row.id, id)).length
      })
      return { removed_count: removed }
    },
  )
}
