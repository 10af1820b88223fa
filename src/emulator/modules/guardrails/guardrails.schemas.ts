// Guardrails: named policies (a budget per reset window, provider and model allow/ignore lists, zero
// data retention) assigned to keys and members. Fields the current client may also send (content
// filters, data regions, training flags...) are accepted and stored as they are.
import { Type, type Static } from 'typebox'
import { ErrorEnvelope, Nullable, ResetIntervalSchema, Shape } from '../../http/schemas.ts'

/** The real schema's lists of providers and models: null clears one, an empty one is a 400 (it would block everything). */
const NonEmptyStringList = Nullable(Type.Array(Type.String(), { minItems: 1 }))

const GuardrailFields = {
  description: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
  limit_usd: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 1e9 }))),
  reset_interval: Type.Optional(Nullable(ResetIntervalSchema)),
  allowed_providers: Type.Optional(NonEmptyStringList),
  ignored_providers: Type.Optional(NonEmptyStringList),
  allowed_models: Type.Optional(NonEmptyStringList),
  ignored_models: Type.Optional(NonEmptyStringList),
  enforce_zdr: Type.Optional(Nullable(Type.Boolean())),
  include_byok_in_budgets: Type.Optional(Type.Boolean()),
}

export const CreateGuardrailBody = Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }), ...GuardrailFields })
export const UpdateGuardrailBody = Type.Object({ name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })), ...GuardrailFields })
export type CreateGuardrailBody = Static<typeof CreateGuardrailBody>
export type UpdateGuardrailBody = Static<typeof UpdateGuardrailBody>

/** Columns of their own; everything else a client sends is kept in `extras` and echoed back. */
export const GUARDRAIL_COLUMNS = new Set([
  'name',
  'description',
  'limit_usd',
  'reset_interval',
  'allowed_providers',
  'ignored_providers',
  'allowed_models',
  'enforce_zdr',
  'include_byok_in_budgets',
])

/** Client fields that are not ours to set. */
export const READ_ONLY_FIELDS = new Set(['id', 'created_at', 'updated_at', 'workspace_id'])

export const GuardrailParams = Type.Object({ id: Type.String() })

export const KeyHashesBody = Type.Object({ key_hashes: Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }) })
export const MemberIdsBody = Type.Object({ member_user_ids: Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }) })

export const GuardrailListQuery = Type.Object({
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1e9 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
})

// ---- Answers -------------------------------------------------------------------------------------

const StringList = Nullable(Type.Array(Type.String()))
const Timestamp = Type.String({ format: 'date-time' })

/** A guardrail. Fields a client sent beyond these (content filters, training flags...) are echoed back as sent. */
export const GuardrailObject = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    description: Nullable(Type.String()),
    limit_usd: Nullable(Type.Number({ description: 'Budget in USD per reset window; null for none' })),
    reset_interval: Nullable(ResetIntervalSchema),
    allowed_providers: StringList,
    ignored_providers: StringList,
    allowed_models: Nullable(Type.Array(Type.String(), { description: 'Model ids or canonical slugs; null allows every model' })),
    ignored_models: Type.Optional(Nullable(Type.Array(Type.String(), { description: 'Present once a client has set it' }))),
    enforce_zdr: Nullable(Type.Boolean({ description: 'Only zero-data-retention endpoints' })),
    include_byok_in_budgets: Type.Boolean({ description: 'Whether bring-your-own-key spend counts against `limit_usd`' }),
    workspace_id: Type.String(),
    created_at: Timestamp,
    updated_at: Nullable(Timestamp),
  },
  { additionalProperties: true },
)
export type GuardrailObject = Static<typeof GuardrailObject>

export const KeyAssignmentObject = Type.Object({
  id: Type.String(),
  key_hash: Type.String(),
  guardrail_id: Type.String(),
  key_name: Type.String(),
  key_label: Type.String(),
  assigned_by: Nullable(Type.String({ description: 'The member (`user_...`) whose key made the assignment' })),
  created_at: Timestamp,
})
export type KeyAssignmentObject = Static<typeof KeyAssignmentObject>

export const MemberAssignmentObject = Type.Object({
  id: Type.String(),
  user_id: Type.String({ description: 'The member (`user_...`)' }),
  organization_id: Type.String({ description: "The member's account" }),
  guardrail_id: Type.String(),
  assigned_by: Nullable(Type.String({ description: 'The member (`user_...`) whose key made the assignment' })),
  created_at: Timestamp,
})
export type MemberAssignmentObject = Static<typeof MemberAssignmentObject>

const errors = { '4xx': ErrorEnvelope }
const total = Type.Integer({ description: 'All of them, whatever the page' })

export const GuardrailListResponse = {
  200: Type.Object({ data: Type.Array(GuardrailObject), total_count: total }, { description: "One page of the account's guardrails, oldest first" }),
  ...errors,
}
export const GuardrailCreatedResponse = { 201: Type.Object({ data: GuardrailObject }, { description: 'The new guardrail' }), ...errors }
export const GuardrailResponse = { 200: Type.Object({ data: GuardrailObject }, { description: 'The guardrail' }), ...errors }
export const GuardrailDeletedResponse = { 200: Type.Object({ deleted: Type.Literal(true) }, { description: 'Deleted, with its assignments' }), ...errors }
export const KeyAssignmentListResponse = {
  200: Type.Object({ data: Type.Array(KeyAssignmentObject), total_count: Type.Integer() }, { description: 'Key assignments, oldest first' }),
  ...errors,
}
export const MemberAssignmentListResponse = {
  200: Type.Object({ data: Type.Array(MemberAssignmentObject), total_count: Type.Integer() }, { description: 'Member assignments, oldest first' }),
  ...errors,
}
export const AssignedResponse = {
  200: Type.Object({ assigned_count: Type.Integer({ description: 'Assignments this call made: a repeat counts 0, ids of other accounts are skipped' }) }),
  ...errors,
}
export const UnassignedResponse = {
  200: Type.Object({ unassigned_count: Type.Integer({ description: 'Assignments actually removed' }) }),
  ...errors,
}

// ---- Admin answers -------------------------------------------------------------------------------

export const AccountGuardrail = Shape({ ...GuardrailObject.properties, keys: Type.Array(KeyAssignmentObject), members: Type.Array(MemberAssignmentObject) })
export type AccountGuardrail = Static<typeof AccountGuardrail>
