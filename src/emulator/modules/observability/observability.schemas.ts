// Observability destinations: the real document's bodies and answers (ObservabilityDestination and its
// requests), with the `regions` @openrouter/sdk 1.3 also sends and requires.
import { Type, type Static } from 'typebox'
import { ErrorEnvelope, Nullable, Shape, StringEnum } from '../../http/schemas.ts'
import { KeyHashList } from '../byok/byok.schemas.ts'
import { DESTINATION_TYPES } from './observability-destinations.service.ts'

export const FILTER_FIELDS = [
  'model',
  'provider',
  'session_id',
  'user_id',
  'api_key_name',
  'finish_reason',
  'input',
  'output',
  'total_cost',
  'total_tokens',
  'prompt_tokens',
  'completion_tokens',
] as const
export const FILTER_OPERATORS = [
  'equals',
  'not_equals',
  'contains',
  'not_contains',
  'regex',
  'starts_with',
  'ends_with',
  'gt',
  'lt',
  'gte',
  'lte',
  'exists',
  'not_exists',
] as const

export const FilterRule = Type.Object({
  field: StringEnum(FILTER_FIELDS),
  operator: StringEnum(FILTER_OPERATORS),
  value: Type.Optional(Type.Union([Type.String({ maxLength: 256 }), Type.Number()])),
})
export type FilterRule = Static<typeof FilterRule>

const FilterGroup = Type.Object({ logic: Type.Optional(StringEnum(['and', 'or'] as const)), rules: Type.Array(FilterRule, { maxItems: 20 }) })

export const FilterRules = Type.Object(
  { enabled: Type.Optional(Type.Boolean()), groups: Type.Array(FilterGroup, { maxItems: 10 }) },
  { description: "Which generations are sent: each group's rules joined by its logic, every group must match" },
)
export type FilterRules = Static<typeof FilterRules>

/** What the SDK sends; `eu` is `europe`'s other spelling. */
export const REGIONS_IN = ['global', 'europe', 'us', 'eu'] as const
export type RegionIn = (typeof REGIONS_IN)[number]

const DestinationFields = {
  enabled: Type.Optional(Type.Boolean()),
  privacy_mode: Type.Optional(Type.Boolean()),
  broadcast_generation_cost: Type.Optional(Type.Boolean({ description: 'Traces carry the cost and whether it was paid with your own provider key' })),
  broadcast_generation_identity: Type.Optional(Type.Boolean({ description: "Traces carry the end user's id and the key's name" })),
  broadcast_generation_request_context: Type.Optional(Type.Boolean({ description: 'Traces carry the referer, app title and user agent' })),
  sampling_rate: Type.Optional(Type.Number({ minimum: 0.0001, maximum: 1 })),
  api_key_hashes: Type.Optional(KeyHashList),
  filter_rules: Type.Optional(Nullable(FilterRules)),
  regions: Type.Optional(Type.Array(StringEnum(REGIONS_IN), { minItems: 1, maxItems: 4 })),
}

/** A config is checked by its type's rules (observability-destinations.service.ts), naming `config.<field>`. */
const Config = Type.Record(Type.String(), Type.Unknown(), { maxProperties: 32, description: "The type's settings; secrets are masked in every answer" })

export const CreateDestinationBody = Type.Object({
  type: StringEnum(DESTINATION_TYPES),
  name: Type.String({ minLength: 1, maxLength: 255 }),
  config: Config,
  workspace_id: Type.Optional(Type.String({ format: 'uuid' })),
  ...DestinationFields,
})
export type CreateDestinationBody = Static<typeof CreateDestinationBody>

export const UpdateDestinationBody = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  config: Type.Optional(Config),
  ...DestinationFields,
})
export type UpdateDestinationBody = Static<typeof UpdateDestinationBody>

export const DestinationParams = Type.Object({ id: Type.String() })

export const DestinationListQuery = Type.Object({
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1e9 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  workspace_id: Type.Optional(Type.String({ format: 'uuid' })),
})
export type DestinationListQuery = Static<typeof DestinationListQuery>

// ---- Answers -------------------------------------------------------------------------------------

const Timestamp = Type.String({ format: 'date-time' })

export const DestinationObject = Type.Object({
  id: Type.String(),
  workspace_id: Type.String(),
  type: StringEnum(DESTINATION_TYPES),
  name: Nullable(Type.String()),
  enabled: Type.Boolean(),
  privacy_mode: Type.Boolean(),
  broadcast_generation_cost: Type.Boolean(),
  broadcast_generation_identity: Type.Boolean(),
  broadcast_generation_request_context: Type.Boolean(),
  sampling_rate: Type.Number(),
  api_key_hashes: Nullable(Type.Array(Type.String())),
  filter_rules: Nullable(FilterRules),
  regions: Type.Array(StringEnum(['global', 'europe', 'us'] as const)),
  config: Type.Object({}, { additionalProperties: true, description: 'Its settings, secrets masked (`sk-l...AbCd`)' }),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type DestinationObject = Static<typeof DestinationObject>

const errors = { '4xx': ErrorEnvelope }

export const DestinationListResponse = {
  200: Type.Object(
    { data: Type.Array(DestinationObject), total_count: Type.Integer() },
    { description: "One page of the workspace's destinations, oldest first" },
  ),
  ...errors,
}
export const DestinationCreatedResponse = { 201: Type.Object({ data: DestinationObject }, { description: 'The new destination' }), ...errors }
export const DestinationResponse = { 200: Type.Object({ data: DestinationObject }, { description: 'The destination' }), ...errors }
export const DestinationDeletedResponse = { 200: Type.Object({ deleted: Type.Literal(true) }, { description: 'Deleted: it is sent nothing more' }), ...errors }

/** The admin API's view: every destination of an account, in every workspace. */
export const AccountDestinationList = Shape({ data: Type.Array(DestinationObject), total_count: Type.Integer() })
