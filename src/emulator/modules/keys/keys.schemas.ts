import { Type, type Static } from 'typebox'
import { ErrorEnvelope, Nullable, ResetIntervalSchema } from '../../http/schemas.ts'

export const KeyObject = Type.Object({
  hash: Type.String(),
  name: Type.String(),
  label: Type.String(),
  disabled: Type.Boolean(),
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
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Nullable(Type.String({ format: 'date-time' })),
  expires_at: Nullable(Type.String({ format: 'date-time' })),
  creator_user_id: Nullable(Type.String()),
  workspace_id: Type.String(),
  external_user: Nullable(Type.String()),
})

// Clients send the flags as strings ("true") or booleans; both arrive here as text and coerce.
export const ListKeysQuery = Type.Object({
  include_disabled: Type.Optional(Type.Boolean()),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1e9 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
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

export const KeyListResponse = { 200: Type.Object({ data: Type.Array(KeyObject) }), '4xx': ErrorEnvelope }
export const KeyResponse = { 200: Type.Object({ data: KeyObject }), '4xx': ErrorEnvelope }
