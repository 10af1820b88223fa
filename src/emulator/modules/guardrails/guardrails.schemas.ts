// Guardrails: named policies (a budget per reset window, provider and model allow/ignore lists, zero
// data retention) assigned to keys and members. Fields the current client may also send (content
// filters, data regions, training flags...) are accepted and stored as they are.
import { Type, type Static } from 'typebox'
import { Nullable, ResetIntervalSchema } from '../../http/schemas.ts'

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
