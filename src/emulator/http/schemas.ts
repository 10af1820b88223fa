// Schema helpers shared by every API area. Nullable values use JSON Schema type arrays rather than
// anyOf, so a failure gives one clear message ("must be a number or null") instead of three.
import { Type, type TSchema, type Static } from 'typebox'

export function Nullable<T extends TSchema>(schema: T): ReturnType<typeof Type.Unsafe<Static<T> | null>> {
  const raw = schema as unknown as Record<string, unknown>
  const out: Record<string, unknown> = { ...raw, type: [raw.type, 'null'] }
  if (Array.isArray(raw.enum)) out.enum = [...(raw.enum as unknown[]), null]
  return Type.Unsafe<Static<T> | null>(out)
}

export function StringEnum<const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options })
}

export const ResetIntervalSchema = StringEnum(['daily', 'weekly', 'monthly'] as const)

/** The main API's error body, for response schemas and the OpenAPI document. */
export const ErrorEnvelope = Type.Object({
  error: Type.Object({
    code: Type.Integer(),
    message: Type.String(),
    metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  }),
})

/** A body schema that also accepts a request with no body at all (the validator reads the marker). */
export function OptionalBody<T extends TSchema>(schema: T): ReturnType<typeof Type.Unsafe<Static<T> | undefined>> {
  return Type.Unsafe<Static<T> | undefined>({ ...(schema as object), [OPTIONAL_BODY]: true })
}

export const OPTIONAL_BODY = 'x-optional-body'
