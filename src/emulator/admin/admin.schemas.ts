// What the admin routes for accounts, keys and the clock take (TypeBox). Only TypeBox here, so the
// admin API's shared types (types.ts) derive from these schemas without pulling in the routes.
import { Type } from 'typebox'
import { Nullable, ResetIntervalSchema, StringEnum } from '../http/schemas.ts'

export const AccountParams = Type.Object({ id: Type.String({ minLength: 1 }) })

export const CreateAccountBody = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  credits_usd: Type.Optional(Type.Number({ minimum: 0, maximum: 1e9 })),
})

export const UpdateAccountBody = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  ignored_providers: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
  zdr_only: Type.Optional(Type.Boolean()),
})

export const AccountCreditsBody = Type.Object({
  credits_usd: Type.Optional(Type.Number({ minimum: 0, maximum: 1e9 })),
  balance_usd: Type.Optional(Type.Number({ minimum: -1e9, maximum: 1e9 })),
})

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

export const ClockAdvanceBody = Type.Object({
  ms: Type.Optional(Type.Integer({ minimum: 0, maximum: 1e13 })),
  by: Type.Optional(Type.String({ minLength: 1 })),
  to: Type.Optional(Type.String({ format: 'date-time' })),
})

export const ClockSetBody = Type.Object({ to: Type.String({ format: 'date-time' }) })
