// The organization's directory over the management API: its members, its SCIM groups, and the
// mappings that give a group a role in a workspace. Shapes as the real document has them.
import { Type, type Static } from 'typebox'
import { ErrorEnvelope, Nullable, StringEnum } from '../../http/schemas.ts'

/**
 * SCIM group mappings one account keeps, and every account together: a directory has a few groups
 * (4 to 9 here), each mapped to a few workspaces; hundreds are a loop, not an organisation.
 */
export const MAX_ACCOUNT_MAPPINGS = 500
export const MAX_TOTAL_MAPPINGS = 5000

export const PageQuery = Type.Object({
  offset: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 1e9, description: 'Records to skip' }))),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Records to return (at most 100; 50 when left out)' })),
})
export type PageQuery = Static<typeof PageQuery>

const Timestamp = Type.String({ description: 'ISO 8601' })
const errors = { '4xx': ErrorEnvelope }

// ---- Members -------------------------------------------------------------------------------------

export const OrganizationMember = Type.Object({
  id: Type.String({ description: 'The member (`user_...`)' }),
  first_name: Nullable(Type.String()),
  last_name: Nullable(Type.String()),
  email: Type.String(),
  role: StringEnum(['org:admin', 'org:member'] as const),
})
export type OrganizationMember = Static<typeof OrganizationMember>

export const MemberListResponse = {
  200: Type.Object(
    { data: Type.Array(OrganizationMember), total_count: Type.Integer({ description: 'Every member, whatever the page' }) },
    { description: "One page of the account's members, oldest first" },
  ),
  ...errors,
}

// ---- SCIM groups ---------------------------------------------------------------------------------

export const ScimGroup = Type.Object({
  id: Type.String({ format: 'uuid' }),
  organization_id: Type.String({ description: 'The account' }),
  external_id: Nullable(Type.String({ description: "The identity provider's id of the group" })),
  display_name: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type ScimGroup = Static<typeof ScimGroup>

export const ScimGroupListResponse = {
  200: Type.Object(
    { data: Type.Array(ScimGroup), total_count: Type.Integer() },
    { description: "One page of the account's SCIM groups (a directory made from the seed and the account), oldest first" },
  ),
  ...errors,
}

// ---- SCIM group mappings -------------------------------------------------------------------------

const MappingRole = StringEnum(['admin', 'member'] as const, { description: 'The role members of the group get in the workspace' })

export const CreateMappingBody = Type.Object({
  scim_group_id: Type.String({ format: 'uuid' }),
  workspace_id: Type.String({ format: 'uuid' }),
  role: MappingRole,
})
export type CreateMappingBody = Static<typeof CreateMappingBody>

export const UpdateMappingBody = Type.Object({ role: MappingRole })
export type UpdateMappingBody = Static<typeof UpdateMappingBody>

export const MappingParams = Type.Object({ id: Type.String() })

export const DeleteMappingQuery = Type.Object({
  keep_members: Type.Boolean({
    description: 'Required, with no default: `true` keeps the members the mapping granted, `false` removes them',
  }),
})

export const ScimGroupMapping = Type.Object({
  id: Type.String({ format: 'uuid' }),
  organization_id: Type.String({ description: 'The account' }),
  scim_group_id: Type.String({ format: 'uuid' }),
  workspace_id: Type.String({ format: 'uuid' }),
  role: MappingRole,
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type ScimGroupMapping = Static<typeof ScimGroupMapping>

export const MappingListResponse = {
  200: Type.Object({ data: Type.Array(ScimGroupMapping), total_count: Type.Integer() }, { description: 'One page of mappings, oldest first' }),
  ...errors,
}
export const MappingCreatedResponse = { 201: Type.Object({ data: ScimGroupMapping }, { description: 'The new mapping' }), ...errors }
export const MappingResponse = { 200: Type.Object({ data: ScimGroupMapping }, { description: 'The mapping' }), ...errors }
export const MappingDeletedResponse = { 200: Type.Object({ deleted: Type.Literal(true) }, { description: 'Deleted' }), ...errors }
