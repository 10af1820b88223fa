// Bring-your-own-key provider credentials: the real document's bodies and answers, with the fields
// @openrouter/sdk 1.3 also sends and requires (is_byok_only, is_required, declared_zdr).
import { Type, type Static } from 'typebox'
import { ErrorEnvelope, Nullable, Shape } from '../../http/schemas.ts'

/** The real document's BYOKProviderSlug. A provider of the running catalog is taken too (a catalog of one's own may have others). */
export const BYOK_PROVIDER_SLUGS: readonly string[] = [
  'ai21', 'aion-labs', 'akashml', 'alibaba', 'amazon-bedrock', 'amazon-nova', 'ambient', 'anthropic', 'arcee-ai', 'atlas-cloud', 'avian',
  'azure', 'baidu', 'baseten', 'black-forest-labs', 'byteplus', 'cerebras', 'chutes', 'cirrascale', 'clarifai', 'cloudflare', 'cohere',
  'coreweave', 'crusoe', 'darkbloom', 'databricks', 'decart', 'deepgram', 'deepinfra', 'deepseek', 'dekallm', 'digitalocean',
  'featherless', 'fireworks', 'fish-audio', 'friendli', 'gmicloud', 'google-ai-studio', 'google-vertex', 'groq', 'heygen', 'inception',
  'inceptron', 'inferact-vllm', 'inference-net', 'infermatic', 'inflection', 'io-net', 'ionstream', 'krea', 'liquid', 'makora', 'mancer',
  'mara', 'meta', 'minimax', 'mistral', 'modal', 'modelrun', 'modular', 'moonshotai', 'morph', 'ncompass', 'nebius', 'nex-agi', 'nextbit',
  'novita', 'nvidia', 'open-inference', 'openai', 'parasail', 'perceptron', 'perplexity', 'phala', 'poolside', 'quiver', 'recraft', 'reka',
  'relace', 'runway', 'sail-research', 'sakana', 'sakana-ai', 'sambanova', 'seed', 'siliconflow', 'sourceful', 'stepfun', 'streamlake',
  'switchpoint', 'tencent', 'tenstorrent', 'thinkingmachines', 'together', 'upstage', 'venice', 'wafer', 'wandb', 'wandb-legacy', 'xai',
  'xiaomi', 'z-ai',
] // prettier-ignore

/**
 * Credentials one account keeps, and the emulator over every account: an app holds a few per provider,
 * and a suite that adds one per test without deleting any stays far below; a loop that adds them
 * without end (each up to some 60 KB of lists) does not.
 */
export const MAX_ACCOUNT_CREDENTIALS = 500
export const MAX_TOTAL_CREDENTIALS = 5000

/** The longest provider key taken: far beyond any provider's (a JSON service-account file fits). */
export const MAX_KEY_LENGTH = 16_384
const MAX_LIST = 100

/** `api_keys.hash` values: the real document's pattern; each must be a key of the caller's account. */
export const KeyHashList = Nullable(Type.Array(Type.String({ pattern: '^[a-f0-9]{64}$' }), { minItems: 1, maxItems: MAX_LIST }))
const NameList = Nullable(Type.Array(Type.String({ minLength: 1, maxLength: 256 }), { maxItems: MAX_LIST }))

const CredentialFields = {
  name: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
  disabled: Type.Optional(Type.Boolean()),
  is_fallback: Type.Optional(Type.Boolean()),
  is_byok_only: Type.Optional(Type.Boolean({ description: 'Only this provider key for the provider: no fallback to credits' })),
  is_required: Type.Optional(Type.Boolean()),
  declared_zdr: Type.Optional(Nullable(Type.Boolean())),
  allowed_models: Type.Optional(NameList),
  allowed_api_key_hashes: Type.Optional(KeyHashList),
  allowed_user_ids: Type.Optional(NameList),
}

export const CreateByokBody = Type.Object({
  provider: Type.String({ minLength: 1, maxLength: 64, description: 'A provider slug (BYOKProviderSlug), e.g. `openai`' }),
  key: Type.String({ minLength: 1, maxLength: MAX_KEY_LENGTH, description: 'The provider key: kept only as its masked label, never returned' }),
  workspace_id: Type.Optional(Type.String({ format: 'uuid' })),
  ...CredentialFields,
})
export type CreateByokBody = Static<typeof CreateByokBody>

export const UpdateByokBody = Type.Object({
  key: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_KEY_LENGTH, description: 'A new provider key: the label is made again from it' })),
  ...CredentialFields,
})
export type UpdateByokBody = Static<typeof UpdateByokBody>

export const ByokParams = Type.Object({ id: Type.String() })

export const ByokListQuery = Type.Object({
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1e9 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  workspace_id: Type.Optional(Type.String({ format: 'uuid' })),
  provider: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
})
export type ByokListQuery = Static<typeof ByokListQuery>

// ---- Answers -------------------------------------------------------------------------------------

const StringList = Nullable(Type.Array(Type.String()))

export const ByokKeyObject = Type.Object({
  id: Type.String(),
  provider: Type.String(),
  workspace_id: Nullable(Type.String()),
  label: Type.String({ description: 'The head and tail of the key (`sk-...AbCd`): all that is kept of it' }),
  name: Nullable(Type.String()),
  disabled: Type.Boolean(),
  is_fallback: Type.Boolean(),
  is_byok_only: Type.Boolean(),
  is_required: Type.Boolean(),
  declared_zdr: Nullable(Type.Boolean()),
  allowed_models: StringList,
  allowed_api_key_hashes: StringList,
  allowed_user_ids: StringList,
  sort_order: Type.Integer({ description: 'Position among the workspace credentials of the same provider' }),
  created_at: Type.String({ format: 'date-time' }),
})
export type ByokKeyObject = Static<typeof ByokKeyObject>

const errors = { '4xx': ErrorEnvelope }

export const ByokListResponse = {
  200: Type.Object({ data: Type.Array(ByokKeyObject), total_count: Type.Integer() }, { description: "One page of the workspace's credentials, oldest first" }),
  ...errors,
}
export const ByokCreatedResponse = { 201: Type.Object({ data: ByokKeyObject }, { description: 'The new credential (its key is never returned)' }), ...errors }
export const ByokResponse = { 200: Type.Object({ data: ByokKeyObject }, { description: 'The credential' }), ...errors }
export const ByokDeletedResponse = { 200: Type.Object({ deleted: Type.Literal(true) }, { description: 'Deleted' }), ...errors }

/** The admin API's view: every credential of an account, in every workspace. */
export const AccountByokList = Shape({ data: Type.Array(ByokKeyObject), total_count: Type.Integer() })
