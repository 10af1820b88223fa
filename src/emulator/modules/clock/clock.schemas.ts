// What the clock admin routes take and answer.
import { Type } from 'typebox'
import { Iso, Shape, StringEnum } from '../../http/schemas.ts'

export const ClockAdvanceBody = Type.Object({
  ms: Type.Optional(Type.Integer({ minimum: 0, maximum: 1e13 })),
  by: Type.Optional(Type.String({ minLength: 1 })),
  to: Type.Optional(Type.String({ format: 'date-time' })),
})

export const ClockSetBody = Type.Object({ to: Type.String({ format: 'date-time' }) })

export const ClockState = Shape({ now: Iso('The virtual now'), mode: StringEnum(['system', 'manual'] as const) })
