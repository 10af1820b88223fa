// GET /organization/members, GET /scim/groups and the SCIM group mappings (management key). Members are
// the account's own; groups come from its deterministic directory; a mapping gives one of those groups
// a role in one of the account's workspaces.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { toIso } from '../../core/clock.ts'
import { caller } from '../../http/auth.ts'
import type { EmulatorContext } from '../module.ts'
import type { MemberRow } from '../accounts/accounts.repo.ts'
import { mappingExists, mappingNotFound, scimGroupNotFound, tooManyMappings } from './organization.errors.ts'
import type { MappingRow, OrganizationRepo } from './organization.repo.ts'
import {
  CreateMappingBody,
  DeleteMappingQuery,
  MappingCreatedResponse,
  MappingDeletedResponse,
  MappingListResponse,
  MappingParams,
  MappingResponse,
  MAX_ACCOUNT_MAPPINGS,
  MAX_TOTAL_MAPPINGS,
  MemberListResponse,
  PageQuery,
  ScimGroupListResponse,
  UpdateMappingBody,
  type OrganizationMember,
  type ScimGroupMapping,
} from './organization.schemas.ts'
import { requireWorkspace } from './organization-workspace.service.ts'

const DEFAULT_LIMIT = 50

/** A member's name as first and last: the first word, then the rest (null where there is none). */
export function memberView(row: MemberRow): OrganizationMember {
  const [first = '', ...rest] = row.name.trim().split(/\s+/)
  return {
    id: row.id,
    first_name: first === '' ? null : first,
    last_name: rest.length === 0 ? null : rest.join(' '),
    email: row.email,
    role: row.role === 'admin' ? 'org:admin' : 'org:member',
  }
}

export const mappingView = (row: MappingRow): ScimGroupMapping => ({
  id: row.id,
  organization_id: row.account_id,
  scim_group_id: row.scim_group_id,
  workspace_id: row.workspace_id,
  role: row.role,
  created_at: toIso(row.created_at),
  updated_at: toIso(row.updated_at),
})

function requireMapping(repo: OrganizationRepo, accountId: string, id: string): MappingRow {
  const row = repo.get(id, accountId)
  if (!row) throw mappingNotFound(id)
  return row
}

export const organizationRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  const { mappings: repo, directory } = ctx.services.organization
  const management = { auth: 'management' as const }
  const page = (query: PageQuery) => ({ offset: query.offset ?? 0, limit: query.limit ?? DEFAULT_LIMIT })

  app.get(
    '/organization/members',
    {
      config: { operation: 'organization.members.list', ...management },
      schema: { summary: "List the organization's members", tags: ['organization'], querystring: PageQuery, response: MemberListResponse },
    },
    async (request) => {
      const members = ctx.services.accounts.members(caller(request).account.id)
      const { offset, limit } = page(request.query)
      return { data: members.slice(offset, offset + limit).map(memberView), total_count: members.length }
    },
  )

  app.get(
    '/scim/groups',
    {
      config: { operation: 'scim.groups.list', ...management },
      schema: { summary: 'List SCIM groups', tags: ['scim'], querystring: PageQuery, response: ScimGroupListResponse },
    },
    async (request) => {
      const groups = await directory.groups(caller(request).account)
      const { offset, limit } = page(request.query)
      return { data: groups.slice(offset, offset + limit), total_count: groups.length }
    },
  )

  app.get(
    '/scim/group-mappings',
    {
      config: { operation: 'scim.mappings.list', ...management },
      schema: { summary: 'List SCIM group mappings', tags: ['scim'], querystring: PageQuery, response: MappingListResponse },
    },
    async (request) => {
      const { account } = caller(request)
      const { offset, limit } = page(request.query)
      return { data: repo.list(account.id, limit, offset).map(mappingView), total_count: repo.count(account.id) }
    },
  )

  app.post(
    '/scim/group-mappings',
    {
      config: { operation: 'scim.mappings.create', ...management },
      schema: { summary: 'Map a SCIM group to a workspace role', tags: ['scim'], body: CreateMappingBody, response: MappingCreatedResponse },
    },
    async (request, reply) => {
      const { account } = caller(request)
      const { scim_group_id, workspace_id, role } = request.body
      // The directory is made before the transaction (it may load faker); it never changes.
      const groups = await directory.groups(account)
      if (!groups.some((g) => g.id === scim_group_id)) throw scimGroupNotFound(scim_group_id)
      const row = ctx.db
        .transaction((): MappingRow => {
          requireWorkspace(ctx, account.id, workspace_id, 'workspace_id')
          const existing = repo.forPair(account.id, scim_group_id, workspace_id)
          if (existing) throw mappingExists(scim_group_id, workspace_id, existing.id)
          if (repo.count(account.id) >= MAX_ACCOUNT_MAPPINGS) throw tooManyMappings('account', MAX_ACCOUNT_MAPPINGS)
          if (repo.countAll() >= MAX_TOTAL_MAPPINGS) throw tooManyMappings('emulator', MAX_TOTAL_MAPPINGS)
          const now = ctx.clock.now()
          const created: MappingRow = {
            id: ctx.ids.uuid(ctx.ids.next('scim-mapping')),
            account_id: account.id,
            scim_group_id,
            workspace_id,
            role,
            created_at: now,
            updated_at: now,
          }
          repo.insert(created)
          return created
        })
        .immediate()
      return reply.code(201).send({ data: mappingView(row) })
    },
  )

  app.get(
    '/scim/group-mappings/:id',
    {
      config: { operation: 'scim.mappings.get', ...management },
      schema: { summary: 'Get a SCIM group mapping', tags: ['scim'], params: MappingParams, response: MappingResponse },
    },
    async (request) => ({ data: mappingView(requireMapping(repo, caller(request).account.id, request.params.id)) }),
  )

  app.patch(
    '/scim/group-mappings/:id',
    {
      config: { operation: 'scim.mappings.update', ...management },
      schema: { summary: "Change a SCIM group mapping's role", tags: ['scim'], params: MappingParams, body: UpdateMappingBody, response: MappingResponse },
    },
    async (request) => {
      const { account } = caller(request)
      const row = ctx.db
        .transaction((): MappingRow => {
          const found = requireMapping(repo, account.id, request.params.id)
          const now = ctx.clock.now()
          repo.setRole(found.id, request.body.role, now)
          return { ...found, role: request.body.role, updated_at: now }
        })
        .immediate()
      return { data: mappingView(row) }
    },
  )

  app.delete(
    '/scim/group-mappings/:id',
    {
      config: { operation: 'scim.mappings.delete', ...management },
      schema: {
        summary: 'Delete a SCIM group mapping',
        tags: ['scim'],
        params: MappingParams,
        querystring: DeleteMappingQuery,
        response: MappingDeletedResponse,
      },
    },
    async (request) => {
      const { account } = caller(request)
      ctx.db.transaction(() => repo.delete(requireMapping(repo, account.id, request.params.id).id)).immediate()
      return { deleted: true as const }
    },
  )
}
