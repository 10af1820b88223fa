// What the workspaces API takes and answers, as the real document's CreateWorkspaceRequest,
// UpdateWorkspaceRequest, UpsertWorkspaceBudgetRequest, Bulk*WorkspaceMembersRequest and their answers.
import { Type, type Static } from 'typebox'
import { ErrorEnvelope, Nullable, Shape, StringEnum } from '../../http/schemas.ts'
import { BUDGET_INTERVALS } from './workspaces.repo.ts'

/** The document's slug rule: lowercase alphanumeric segments separated by single hyphens. */
export const SLUG_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$'
export const PROVIDER_SORTS = ['price', 'throughput', 'latency', 'exacto'] as const

/**
 * Workspaces one account adds to its default one, and every account together: an organisation has a
 * few, and a suite that adds one per test without deleting any stays far below these.
 */
export const MAX_ACCOUNT_WORKSPACES = 500
export const MAX_TOTAL_WORKSPACES = 5000

/** Model ids are short; the bound keeps a client's mistake a 400 rather than a stored megabyte. */
const ModelId = Type.String({ minLength: 1, maxLength: 200 })

const WorkspaceSettings = {
  description: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
  default_text_model: Type.Optional(Nullable(ModelId)),
  default_image_model: Type.Optional(Nullable(ModelId)),
  default_provider_sort: Type.Optional(Nullable(StringEnum(PROVIDER_SORTS))),
  io_logging_api_key_ids: Type.Optional(Nullable(Type.Array(Type.Integer({ minimum: 0 }), { maxItems: 1000 }))),
  io_logging_sampling_rate: Type.Optional(Type.Number({ minimum: 0.0001, maximum: 1 })),
  is_data_discount_logging_enabled: Type.Optional(Type.Boolean()),
  is_observability_broadcast_enabled: Type.Optional(Type.Boolean()),
  is_observability_io_logging_enabled: Type.Optional(Type.Boolean()),
}
const Name = Type.String({ minLength: 1, maxLength: 100 })
const Slug = Type.String({ minLength: 1, maxLength: 50, pattern: SLUG_PATTERN })

export const CreateWorkspaceBody = Type.Object({ name: Name, slug: Slug, ...WorkspaceSettings })
export const UpdateWorkspaceBody = Type.Object({ name: Type.Optional(Name), slug: Type.Optional(Slug), ...WorkspaceSettings })
export type CreateWorkspaceBody = Static<typeof CreateWorkspaceBody>
export type UpdateWorkspaceBody = Static<typeof UpdateWorkspaceBody>

export const WorkspaceParams = Type.Object({ id: Type.String({ minLength: 1 }) })
export const BudgetParams = Type.Object({ id: Type.String({ minLength: 1 }), interval: StringEnum(BUDGET_INTERVALS) })

export const PageQuery = Type.Object({
  offset: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 1e9 }))),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
})

export const UpsertBudgetBody = Type.Object({
  limit_usd: Type.Number({ exclusiveMinimum: 0, maximum: 1e9, description: 'Spending limit in USD; must be greater than 0' }),
  include_byok_in_budgets: Type.Optional(Type.Boolean({ description: 'Workspace-wide: applies to every interval; omit to leave it as it is' })),
})
export type UpsertBudgetBody = Static<typeof UpsertBudgetBody>

const UserIds = Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: 100 })
export const MemberIdsBody = Type.Object({ user_ids: UserIds })

// ---- Answers -------------------------------------------------------------------------------------

const Timestamp = Type.String({ format: 'date-time' })

export const WorkspaceObject = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  slug: Type.String(),
  description: Nullable(Type.String()),
  default_guardrail_id: Type.String({ format: 'uuid', description: "Derived from the workspace's id" }),
  default_text_model: Nullable(Type.String()),
  default_image_model: Nullable(Type.String()),
  default_provider_sort: Nullable(Type.String()),
  include_byok_in_budgets: Type.Boolean({ description: "Whether BYOK spend counts toward the workspace's budgets (set with the budget operations)" }),
  io_logging_api_key_ids: Nullable(Type.Array(Type.Integer())),
  io_logging_sampling_rate: Type.Number(),
  is_data_discount_logging_enabled: Type.Boolean(),
  is_observability_broadcast_enabled: Type.Boolean(),
  is_observability_io_logging_enabled: Type.Boolean(),
  created_at: Timestamp,
  updated_at: Nullable(Timestamp),
  created_by: Nullable(Type.String({ description: 'The member (`user_...`) whose key created it' })),
})
export type WorkspaceObject = Static<typeof WorkspaceObject>

export const BudgetObject = Type.Object({
  id: Type.String({ format: 'uuid' }),
  workspace_id: Type.String({ format: 'uuid' }),
  limit_usd: Type.Number(),
  reset_interval: Nullable(StringEnum(['daily', 'weekly', 'monthly'] as const, { description: 'null for the lifetime budget' })),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type BudgetObject = Static<typeof BudgetObject>

export const MembershipObject = Type.Object({
  id: Type.String({ format: 'uuid' }),
  workspace_id: Type.String({ format: 'uuid' }),
  user_id: Type.String({ description: 'The member (`user_...`)' }),
  role: StringEnum(['admin', 'member'] as const, { description: 'The role the member holds in the account' }),
  created_at: Timestamp,
})
export type MembershipObject = Static<typeof MembershipObject>

const errors = { '4xx': ErrorEnvelope }
const total = Type.Integer({ description: 'All of them, whatever the page' })
const includeByok = Type.Boolean({ description: "Whether BYOK spend counts toward the workspace's budgets (every interval)" })

export const WorkspaceListResponse = {
  200: Type.Object({ data: Type.Array(WorkspaceObject), total_count: total }, { description: "One page of the account's workspaces, the default first" }),
  ...errors,
}
export const WorkspaceCreatedResponse = { 201: Type.Object({ data: WorkspaceObject }, { description: 'The new workspace' }), ...errors }
export const WorkspaceResponse = { 200: Type.Object({ data: WorkspaceObject }, { description: 'The workspace' }), ...errors }
export const DeletedResponse = { 200: Type.Object({ deleted: Type.Literal(true) }), ...errors }
export const BudgetListResponse = {
  200: Type.Object(
    { data: Type.Array(BudgetObject), include_byok_in_budgets: includeByok },
    { description: "The workspace's budgets, narrowest interval first" },
  ),
  ...errors,
}
export const BudgetResponse = { 200: Type.Object({ data: BudgetObject, include_byok_in_budgets: includeByok }), ...errors }
export const MemberListResponse = {
  200: Type.Object(
    { data: Type.Array(MembershipObject), total_count: total },
    { description: "One page of the workspace's members; the default workspace's are every member of the account" },
  ),
  ...errors,
}
export const MembersAddedResponse = {
  200: Type.Object({
    data: Type.Array(MembershipObject, { description: 'The memberships this call created' }),
    added_count: Type.Integer({ description: 'Memberships this call created: a repeat counts 0' }),
  }),
  ...errors,
}
export const MembersRemovedResponse = {
  200: Type.Object({ removed_count: Type.Integer({ description: 'Memberships actually removed' }) }),
  ...errors,
}

// ---- Admin answers -------------------------------------------------------------------------------

/** The admin API's view of a workspace (the inspector's Data view): the API's object, its budgets and how many members it has. */
export const AccountWorkspace = Shape({
  ...WorkspaceObject.properties,
  budgets: Type.Array(BudgetObject, { description: 'Narrowest interval first' }),
  member_count: Type.Integer({ description: "Its members; the default workspace's are every member of the account" }),
})
export type AccountWorkspace = Static<typeof AccountWorkspace>
