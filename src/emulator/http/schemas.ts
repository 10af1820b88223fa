// Schema helpers shared by every API area. Nullable values use JSON Schema type arrays rather than
// anyOf, so a failure gives one clear message ("must be a number or null") instead of three.
import { Type, type TProperties, type TSchema, type Static } from 'typebox'

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

/** The video router's error body, for its routes' response schemas and the document. */
export const RouterErrorSchema = Type.Object(
  {
    code: Type.Integer({ description: 'The HTTP status' }),
    reason: Type.String({ description: 'A stable reason, e.g. FieldInvalid or TaskNotFound' }),
    message: Type.String({ description: "The vendor's fixed words for the reason, e.g. `invalid field: model`" }),
    metadata: Type.Object({ trace_id: Type.String() }, { additionalProperties: true }),
  },
  { description: "The vendor's error envelope. The emulator's own explanation, when it has one, is in the X-Emulator-Detail response header." },
)

// ---- Envelopes of the admin API ----------------------------------------------------------------
// Admin shapes only grow: every object is open (`additionalProperties: true`), so a field added to a
// view is served even before its schema says so, never silently dropped by the serializer.

/** An object whose listed fields are documented and typed, and which may carry more. */
export const Shape = <T extends TProperties>(properties: T, description?: string) =>
  Type.Object(properties, { additionalProperties: true, ...(description && { description }) })

/** An ISO 8601 date-time string. */
export const Iso = (description?: string) => Type.String({ format: 'date-time', ...(description && { description }) })

/** The answers of a route: `{"data": ...}` on success, the main API's error envelope otherwise. */
export const data = <T extends TSchema>(schema: T, status: 200 | 201 = 200) => ({ [status]: Shape({ data: schema }), '4xx': ErrorEnvelope })
/** `{"data": [...], "total_count": n}`. */
export const page = <T extends TSchema>(item: T) => ({ 200: Shape({ data: Type.Array(item), total_count: Type.Integer() }), '4xx': ErrorEnvelope })
/** Any JSON object: documents (state, catalog, HAR) whose shape has its own reference. */
export const OpenObject = (description: string) => Type.Object({}, { additionalProperties: true, description })

export const Deleted = Shape({ deleted: Type.Boolean() })
