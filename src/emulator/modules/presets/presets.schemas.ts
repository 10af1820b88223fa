// Presets: a named configuration (model or models, provider preferences, system prompt, sampling
// and reasoning parameters) made from an inference request body of chat completions, the Messages API
// or the Responses API. Each create body checks the fields a preset keeps with the bounds of its own
// API; everything else of the body (messages, input, stream, tools...) is accepted and ignored, as the
// real document says. The stored `config` uses chat completions' names, whichever API it came from.
import { Type, type Static, type TSchema } from 'typebox'
import { ErrorEnvelope, Nullable, Shape } from '../../http/schemas.ts'
import { ProviderPreferences } from '../catalog/catalog-routing.service.ts'
import { MAX_MESSAGES, ReasoningEffort, SummaryVerbosity } from '../text/text.schemas.ts'

/** Characters of a preset's system prompt: it is prepended to every request that names the preset. */
export const MAX_SYSTEM_PROMPT_CHARS = 100_000
/** Presets one account keeps, and versions one preset keeps. */
export const MAX_PRESETS = 1000
export const MAX_VERSIONS = 1000
/**
 * What one account's presets hold together: versions, and bytes of their system prompts and settings
 * (8 MiB: some 80 versions with the longest system prompt, thousands of a real app's). A suite's
 * presets are a few, of short prompts; making them by the thousand, 100,000 characters each, is an attack.
 */
export const MAX_ACCOUNT_VERSIONS = 5000
export const MAX_ACCOUNT_PRESET_BYTES = 8 * 1024 * 1024
/** The same over every account together: the emulator's memory, when its database is `:memory:`. */
export const MAX_TOTAL_PRESETS = 10_000
export const MAX_TOTAL_VERSIONS = 50_000
export const MAX_TOTAL_PRESET_BYTES = 64 * 1024 * 1024

/** What names a preset: lowercase letters, digits, `-` and `_` (it follows `@preset/` in a model id). */
/** A preset's slug: a fixed pattern (never a user's), linear to match. */
export const SLUG = /^[a-z0-9][a-z0-9_-]{0,63}$/
export const SLUG_PATTERN = SLUG.source

const ModelId = Type.String({ minLength: 1, maxLength: 256 })
const ModelList = Type.Array(ModelId, { minItems: 1, maxItems: 16 })
const MaxTokens = Type.Integer({ minimum: 1, maximum: 10_000_000 })

/** The sampling parameters every API's body may carry, with the real document's bounds. */
const SAMPLING = {
  temperature: Type.Number({ minimum: 0, maximum: 2 }),
  top_p: Type.Number({ minimum: 0, maximum: 1 }),
  top_k: Type.Integer({ minimum: 0, maximum: 1_000_000 }),
  frequency_penalty: Type.Number({ minimum: -2, maximum: 2 }),
  presence_penalty: Type.Number({ minimum: -2, maximum: 2 }),
  repetition_penalty: Type.Number({ minimum: 0, maximum: 2 }),
  min_p: Type.Number({ minimum: 0, maximum: 1 }),
  top_a: Type.Number({ minimum: 0, maximum: 1 }),
  seed: Type.Integer(),
}
export type SamplingName = keyof typeof SAMPLING
export const SAMPLING_NAMES = Object.keys(SAMPLING) as SamplingName[]

const PresetReasoning = Type.Object(
  {
    effort: Type.Optional(ReasoningEffort),
    max_tokens: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000_000 })),
    enabled: Type.Optional(Type.Boolean()),
    exclude: Type.Optional(Type.Boolean()),
    summary: Type.Optional(SummaryVerbosity),
  },
  { additionalProperties: false },
)

/** A version's `config` as stored (and as an imported row must hold it): chat completions' names. */
export const PresetConfig = Type.Object(
  {
    model: Type.Optional(ModelId),
    models: Type.Optional(ModelList),
    provider: Type.Optional(ProviderPreferences),
    ...Object.fromEntries(SAMPLING_NAMES.map((name) => [name, Type.Optional(SAMPLING[name])])),
    max_tokens: Type.Optional(MaxTokens),
    stop: Type.Optional(Type.Array(Type.String({ maxLength: 1024 }), { minItems: 1, maxItems: 64 })),
    reasoning: Type.Optional(PresetReasoning),
  },
  { additionalProperties: false },
)
export interface PresetConfig {
  model?: string
  models?: string[]
  provider?: ProviderPreferences
  temperature?: number
  top_p?: number
  top_k?: number
  frequency_penalty?: number
  presence_penalty?: number
  repetition_penalty?: number
  min_p?: number
  top_a?: number
  seed?: number
  max_tokens?: number
  stop?: string[]
  reasoning?: Static<typeof PresetReasoning>
}

// ---- Create bodies: one per API, with that API's names -------------------------------------------

const optional = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema))
const SamplingFields = {
  temperature: optional(SAMPLING.temperature),
  top_p: optional(SAMPLING.top_p),
  top_k: optional(SAMPLING.top_k),
  frequency_penalty: optional(SAMPLING.frequency_penalty),
  presence_penalty: optional(SAMPLING.presence_penalty),
  repetition_penalty: optional(SAMPLING.repetition_penalty),
  min_p: optional(SAMPLING.min_p),
  top_a: optional(SAMPLING.top_a),
  seed: optional(SAMPLING.seed),
}

export const ChatPresetBody = Type.Object({
  messages: Type.Array(Type.Unknown(), { maxItems: MAX_MESSAGES, description: 'Its system and developer messages become the system prompt' }),
  model: Type.Optional(ModelId),
  models: Type.Optional(ModelList),
  provider: optional(ProviderPreferences),
  ...SamplingFields,
  max_tokens: optional(MaxTokens),
  max_completion_tokens: optional(MaxTokens),
  stop: Type.Optional(Type.Union([Type.String({ maxLength: 256 }), Type.Array(Type.String({ maxLength: 256 }), { maxItems: 4 }), Type.Null()])),
  reasoning: optional(
    Type.Object({
      effort: optional(ReasoningEffort),
      max_tokens: optional(Type.Integer({ minimum: 0, maximum: 10_000_000 })),
      enabled: optional(Type.Boolean()),
      exclude: optional(Type.Boolean()),
    }),
  ),
  reasoning_effort: optional(ReasoningEffort),
})
export type ChatPresetBody = Static<typeof ChatPresetBody>

export const MessagesPresetBody = Type.Object({
  model: ModelId,
  messages: Type.Array(Type.Unknown(), { maxItems: MAX_MESSAGES }),
  models: Type.Optional(ModelList),
  system: Type.Optional(Type.Unknown({ description: 'A string or text blocks: the system prompt' })),
  max_tokens: Type.Optional(MaxTokens),
  stop_sequences: Type.Optional(Type.Array(Type.String({ maxLength: 1024 }), { maxItems: 64 })),
  temperature: Type.Optional(SAMPLING.temperature),
  top_p: Type.Optional(SAMPLING.top_p),
  top_k: Type.Optional(SAMPLING.top_k),
  thinking: Type.Optional(Type.Unknown({ description: 'Kept as `reasoning`' })),
  output_config: Type.Optional(Type.Unknown({ description: 'Its `effort` goes with adaptive thinking' })),
  provider: optional(ProviderPreferences),
})
export type MessagesPresetBody = Static<typeof MessagesPresetBody>

export const ResponsesPresetBody = Type.Object({
  model: Type.Optional(ModelId),
  models: Type.Optional(ModelList),
  instructions: optional(Type.String({ maxLength: MAX_SYSTEM_PROMPT_CHARS, description: 'The system prompt' })),
  provider: optional(ProviderPreferences),
  ...SamplingFields,
  max_output_tokens: optional(MaxTokens),
  reasoning: optional(
    Type.Object({
      effort: optional(ReasoningEffort),
      summary: optional(SummaryVerbosity),
      max_tokens: optional(Type.Integer({ minimum: 0, maximum: 10_000_000 })),
      enabled: optional(Type.Boolean()),
    }),
  ),
})
export type ResponsesPresetBody = Static<typeof ResponsesPresetBody>

export const PresetParams = Type.Object({ slug: Type.String({ minLength: 1, maxLength: 64, pattern: SLUG_PATTERN }) })
export const PresetVersionParams = Type.Object({
  slug: Type.String({ minLength: 1, maxLength: 64, pattern: SLUG_PATTERN }),
  version: Type.String({ pattern: '^[1-9][0-9]{0,8}$', description: 'The version number (1, 2, ...)' }),
})

export const PresetListQuery = Type.Object({
  offset: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 1e9 }))),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
})

// ---- Answers -------------------------------------------------------------------------------------

const Timestamp = Type.String({ format: 'date-time' })

export const PresetVersionObject = Type.Object({
  id: Type.String(),
  preset_id: Type.String(),
  creator_id: Type.String({ description: 'The member (`user_...`) whose key made the version' }),
  version: Type.Integer(),
  system_prompt: Nullable(Type.String()),
  config: Type.Object({}, { additionalProperties: true, description: "The preset's fields, in chat completions' names" }),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type PresetVersionObject = Static<typeof PresetVersionObject>

const PresetFields = {
  id: Type.String(),
  creator_user_id: Nullable(Type.String()),
  workspace_id: Nullable(Type.String()),
  name: Type.String(),
  slug: Type.String(),
  description: Nullable(Type.String()),
  status: Type.Union([Type.Literal('active'), Type.Literal('disabled'), Type.Literal('archived')]),
  designated_version_id: Nullable(Type.String({ description: 'The latest version: the one a request naming the preset gets' })),
  created_at: Timestamp,
  updated_at: Timestamp,
  status_updated_at: Nullable(Timestamp),
}

export const PresetObject = Type.Object(PresetFields)
export type PresetObject = Static<typeof PresetObject>
export const PresetWithVersion = Type.Object({ ...PresetFields, designated_version: Nullable(PresetVersionObject) })
export type PresetWithVersion = Static<typeof PresetWithVersion>

const errors = { '4xx': ErrorEnvelope }
const total = Type.Integer({ description: 'All of them, whatever the page' })

export const PresetCreatedResponse = {
  200: Type.Object({ data: PresetWithVersion }, { description: 'The preset with its new version designated' }),
  ...errors,
}
export const PresetResponse = { 200: Type.Object({ data: PresetWithVersion }, { description: 'The preset with its designated version' }), ...errors }
export const PresetListResponse = {
  200: Type.Object({ data: Type.Array(PresetObject), total_count: total }, { description: "One page of the account's presets, most recently updated first" }),
  ...errors,
}
export const PresetVersionListResponse = {
  200: Type.Object({ data: Type.Array(PresetVersionObject), total_count: total }, { description: "One page of the preset's versions, oldest first" }),
  ...errors,
}
export const PresetVersionResponse = { 200: Type.Object({ data: PresetVersionObject }, { description: 'The version' }), ...errors }

// ---- Admin answers -------------------------------------------------------------------------------

export const AccountPreset = Shape({ ...PresetFields, versions: Type.Array(PresetVersionObject) })
export type AccountPreset = Static<typeof AccountPreset>
