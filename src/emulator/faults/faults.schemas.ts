// Fault rules as the admin API takes them (TypeBox): what a rule matches and what it does. Only
// TypeBox here, so the admin API's shared types (admin/types.ts) can be derived from these schemas.
import { Type, type Static } from 'typebox'
import { Iso, Nullable, Shape } from '../http/schemas.ts'

export const FaultMatch = Type.Object(
  {
    operation: Type.Optional(Type.String({ minLength: 1 })),
    method: Type.Optional(Type.String({ minLength: 1 })),
    /** A path, where `*` stands for any run of characters: `/api/v1/models*`. */
    path: Type.Optional(Type.String({ minLength: 1 })),
    key_hash: Type.Optional(Type.String({ minLength: 1 })),
    account_id: Type.Optional(Type.String({ minLength: 1 })),
    model: Type.Optional(Type.String({ minLength: 1 })),
  },
  { additionalProperties: false },
)

export const FaultAction = Type.Object(
  {
    status: Type.Optional(Type.Integer({ minimum: 400, maximum: 599 })),
    message: Type.Optional(Type.String({ minLength: 1 })),
    headers: Type.Optional(Type.Record(Type.String(), Type.String())),
    /** Added latency in ms: a fixed delay, or a seeded draw between min and max. */
    latency_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: 600_000 })),
    latency_range_ms: Type.Optional(
      Type.Object(
        { min: Type.Integer({ minimum: 0, maximum: 600_000 }), max: Type.Integer({ minimum: 0, maximum: 600_000 }) },
        { additionalProperties: false },
      ),
    ),
    /** Closes the connection without an answer. */
    drop: Type.Optional(Type.Boolean()),
    /**
     * For a streamed chat or text completion: the answer starts (200) and goes wrong after
     * `after_chunks` chunks or `after_ms` ms: an error chunk with `status`, or with `cut` the
     * connection closes. Other requests get `status` (or `cut`: no answer) at once.
     */
    stream: Type.Optional(
      Type.Object(
        {
          after_chunks: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
          after_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: 600_000 })),
          cut: Type.Optional(Type.Boolean()),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
)

const RuleFields = {
  name: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  enabled: Type.Optional(Type.Boolean()),
  probability: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  remaining: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 1e9 }))),
  expires_at: Type.Optional(Nullable(Type.String({ format: 'date-time' }))),
}

export const CreateFaultBody = Type.Object({ match: Type.Optional(FaultMatch), action: FaultAction, ...RuleFields }, { additionalProperties: false })
export const UpdateFaultBody = Type.Object(
  { match: Type.Optional(FaultMatch), action: Type.Optional(FaultAction), ...RuleFields },
  { additionalProperties: false },
)
export type FaultMatch = Static<typeof FaultMatch>
export type FaultAction = Static<typeof FaultAction>
export type CreateFaultBody = Static<typeof CreateFaultBody>

/** The body of POST /faults/presets/:preset: where the preset applies, and for how long. */
export const PresetBody = Type.Object(
  {
    match: Type.Optional(FaultMatch),
    remaining: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 1e9 }), Type.Null()])),
    probability: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    expires_at: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()])),
  },
  { additionalProperties: false },
)
export type UpdateFaultBody = Static<typeof UpdateFaultBody>
export type PresetBody = Static<typeof PresetBody>

// ---- Admin answers -------------------------------------------------------------------------------

export const FaultRule = Shape({
  id: Type.String(),
  name: Nullable(Type.String()),
  enabled: Type.Boolean(),
  match: FaultMatch,
  action: FaultAction,
  probability: Type.Number(),
  remaining: Nullable(Type.Integer()),
  expires_at: Nullable(Iso()),
  hits: Type.Integer(),
  evaluations: Type.Integer(),
  explanation: Type.String({ description: 'What the rule does, in one sentence' }),
  created_at: Iso(),
  updated_at: Nullable(Iso()),
})
export type FaultRule = Static<typeof FaultRule>

export const FaultPreset = Shape({
  id: Type.String(),
  name: Type.String({ description: 'The name a rule made from it gets' }),
  label: Type.String({ description: 'A short label for a button' }),
  description: Type.String(),
  common: Type.Boolean({ description: 'One of the few offered first (402, 429, 503)' }),
  action: FaultAction,
})
export type FaultPreset = Static<typeof FaultPreset>
