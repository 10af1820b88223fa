import { Type, type Static } from 'typebox'
import { ErrorEnvelope, Nullable, ResetIntervalSchema, Shape, StringEnum } from '../../http/schemas.ts'

/** A key's limit and usage: the part of the key object that GET /key shares with the keys API. */
const KeyLimitAndUsage = {
  limit: Nullable(Type.Number()),
  limit_remaining: Nullable(Type.Number()),
  limit_reset: Nullable(ResetIntervalSchema),
  include_byok_in_limit: Type.Boolean(),
  usage: Type.Number(),
  usage_daily: Type.Number(),
  usage_weekly: Type.Number(),
  usage_monthly: Type.Number(),
  byok_usage: Type.Number(),
  byok_usage_daily: Type.Number(),
  byok_usage_weekly: Type.Number(),
  byok_usage_monthly: Type.Number(),
}

export const KeyObject = Type.Object({
  hash: Type.String(),
  name: Type.String(),
  label: Type.String(),
  disabled: Type.Boolean(),
  ...KeyLimitAndUsage,
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Nullable(Type.String({ format: 'date-time' })),
  expires_at: Nullable(Type.String({ format: 'date-time' })),
  creator_user_id: Nullable(Type.String()),
  workspace_id: Type.String(),
  external_user: Nullable(Type.String()),
})

const DATA_REGIONS = ['global', 'europe', 'us'] as const

/** GET /key: the calling key, with the fields the real service adds beyond its document (the current client requires them). */
export const CurrentKeyObject = Type.Object({
  label: Type.String({ description: 'The key, masked' }),
  is_management_key: Type.Boolean(),
  is_provisioning_key: Type.Boolean({ description: 'Deprecated: the same as is_management_key' }),
  ...KeyLimitAndUsage,
  is_free_tier: Type.Boolean({ description: 'The account has no credits, bought or granted' }),
  expires_at: Nullable(Type.String({ format: 'date-time' })),
  creator_user_id: Nullable(Type.String()),
  organization_id: Nullable(Type.String({ description: 'Always null: accounts are individual, not organizations' })),
  workspace_id: Nullable(Type.String()),
  allowed_data_regions: Type.Array(StringEnum(DATA_REGIONS), { description: 'Always ["global"]' }),
  free_model_daily_requests: Type.Object(
    {
      limit: Type.Integer({ description: '50 a day, or 1000 once the account has had $10 of credits' }),
      remaining: Type.Integer(),
      used: Type.Integer({ description: 'Requests to `:free` models by the account since 00:00 UTC' }),
    },
    { description: 'Informational: the emulator does not enforce this cap' },
  ),
  rate_limit: Type.Object(
    { requests: Type.Integer(), interval: Type.String(), note: Type.String() },
    { description: 'Deprecated: always `{"requests":-1,"interval":"10s"}`' },
  ),
})

// Clients send the flags as strings ("true") or booleans; both arrive here as text and coerce.
export const ListKeysQuery = Type.Object({
  include_disabled: Type.Optional(Type.Boolean()),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1e9 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  workspace_id: Type.Optional(Type.String({ format: 'uuid', description: "The workspace whose keys to list; the account's default when not given" })),
})

export const KeyHashParams = Type.Object({ hash: Type.String({ minLength: 1 }) })

export const UpdateKeyBody = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  disabled: Type.Optional(Type.Boolean()),
  limit: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 1e9 }))),
  limit_reset: Type.Optional(Nullable(ResetIntervalSchema)),
  include_byok_in_limit: Type.Optional(Type.Boolean()),
})

export type UpdateKeyBody = Static<typeof UpdateKeyBody>

/** The most characters of an ISO 8601 time a body may send (the longest valid one is 35). */
const ISO_CHARS = 40

/** POST /keys: the real document's fields; `expires_at` must be UTC and in the future (checked by the route). */
export const NewKeyBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  limit: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 1e9 }))),
  limit_reset: Type.Optional(Nullable(ResetIntervalSchema)),
  include_byok_in_limit: Type.Optional(Type.Boolean()),
  expires_at: Type.Optional(Nullable(Type.String({ format: 'date-time', maxLength: ISO_CHARS }))),
  creator_user_id: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
  workspace_id: Type.Optional(Type.String({ format: 'uuid' })),
})

export type NewKeyBody = Static<typeof NewKeyBody>

export const KeyCreatedResponse = {
  201: Type.Object({ data: KeyObject, key: Type.String({ description: 'The key itself: shown in this answer only, never again' }) }),
  '4xx': ErrorEnvelope,
}
export const KeyDeletedResponse = { 200: Type.Object({ deleted: Type.Literal(true) }), '4xx': ErrorEnvelope }

export const KeyListResponse = { 200: Type.Object({ data: Type.Array(KeyObject) }), '4xx': ErrorEnvelope }
export const KeyResponse = { 200: Type.Object({ data: KeyObject }), '4xx': ErrorEnvelope }

export const CurrentKeyResponse = {
  200: {
    description: 'The key the request authenticated with: its limit, usage and kind',
    headers: {
      'cache-control': Type.String({ description: "Always `private, no-store`: the answer is the caller's own and changes with each request billed" }),
    },
    content: { 'application/json': { schema: Type.Object({ data: CurrentKeyObject }) } },
  },
  '4xx': ErrorEnvelope,
}

// ---- The admin API's keys of an account ----------------------------------------------------------

export const CreateKeyBody = Type.Object({
  kind: Type.Optional(StringEnum(['management', 'standard'] as const)),
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  disabled: Type.Optional(Type.Boolean()),
  limit: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 1e9 }))),
  limit_reset: Type.Optional(Nullable(ResetIntervalSchema)),
  include_byok_in_limit: Type.Optional(Type.Boolean()),
  expires_at: Type.Optional(Nullable(Type.String({ format: 'date-time' }))),
  creator_user_id: Type.Optional(Type.String()),
})

export const KeyKind = StringEnum(['management', 'standard'] as const)
export type KeyKind = Static<typeof KeyKind>
export const AdminKey = Shape({
  ...KeyObject.properties,
  kind: KeyKind,
  key: Nullable(Type.String({ description: 'The token (kept for keys the emulator made)' })),
})
export type AdminKey = Static<typeof AdminKey>
