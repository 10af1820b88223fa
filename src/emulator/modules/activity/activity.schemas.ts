// What the activity read takes, through the gateway and the admin API alike (TypeBox only, so
// admin/types.ts derives its types from it).
import { Type } from 'typebox'

export const ActivityQuery = Type.Object({
  date: Type.Optional(Type.String()),
  api_key_hash: Type.Optional(Type.String()),
  user_id: Type.Optional(Type.String()),
})
