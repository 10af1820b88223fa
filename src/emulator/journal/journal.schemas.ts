// What the journal's admin routes take (TypeBox only, so admin/types.ts derives its types from it).
import { Type } from 'typebox'

export const JournalListQuery = Type.Object({
  status: Type.Optional(Type.Integer({ minimum: 100, maximum: 599 })),
  operation: Type.Optional(Type.String()),
  path: Type.Optional(Type.String()),
  key: Type.Optional(Type.String()),
  fault: Type.Optional(Type.String()),
  since: Type.Optional(Type.String({ format: 'date-time' })),
  until: Type.Optional(Type.String({ format: 'date-time' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1e9 })),
})
