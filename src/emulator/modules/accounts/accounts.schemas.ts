// What the accounts admin routes take and answer (TypeBox only, so admin/types.ts derives from it).
import { Type, type Static } from 'typebox'
import { Iso, Shape } from '../../http/schemas.ts'

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

export const Member = Shape({ id: Type.String(), name: Type.String(), email: Type.String(), role: Type.String() })
export type Member = Static<typeof Member>

export const Account = Shape({
  id: Type.String(),
  name: Type.String(),
  credits_usd: Type.Number({ description: 'Credits bought (USD)' }),
  spent_usd: Type.Number({ description: 'Spent so far (USD)' }),
  balance_usd: Type.Number({ description: 'credits_usd - spent_usd; negative when spend ran past the credits' }),
  workspace_id: Type.String(),
  created_at: Iso(),
  ignored_providers: Type.Array(Type.String()),
  zdr_only: Type.Boolean(),
})
export type Account = Static<typeof Account>

export const AccountDetail = Shape({ ...Account.properties, members: Type.Array(Member) })
export type AccountDetail = Static<typeof AccountDetail>

export const CreatedAccount = Shape({
  id: Type.String(),
  name: Type.String(),
  management_key: Type.String({ description: 'The new management key (sk-gw-v1-...)' }),
  standard_key: Type.String({ description: 'The new standard key (sk-gw-v1-...)' }),
  credits_usd: Type.Number(),
  workspace_id: Type.String(),
  members: Type.Array(Member),
})
export type CreatedAccount = Static<typeof CreatedAccount>
