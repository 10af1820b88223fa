// A past generation (GET /generation), its stored content (GET /generation/content) and feedback on it
// (POST /generation/feedback), in the real document's shapes.
import { Type, type Static } from 'typebox'
import { ErrorEnvelope, Nullable, Shape, StringEnum } from '../../http/schemas.ts'

/**
 * The text generations whose content (prompt and answer) the emulator keeps, per account and over every
 * account: the newest, by count and by bytes. Older content is dropped (the generation and its usage
 * row stay, so activity and analytics are whole); a suite reads back the content of calls it just made.
 * The bytes are what an in-memory emulator can afford beside its ledger (docs/performance.md: the whole
 * process under 150 MB after 100,000 requests): a chat's content is about 0.5 KB, so the count binds
 * first for small ones and the bytes for large prompts.
 */
export const MAX_ACCOUNT_CONTENTS = 10_000
export const MAX_ACCOUNT_CONTENT_BYTES = 8 * 1024 * 1024
export const MAX_TOTAL_CONTENTS = 40_000
export const MAX_TOTAL_CONTENT_BYTES = 32 * 1024 * 1024

export const ContentQuery = Type.Object({ id: Type.String({ minLength: 1, maxLength: 256, description: 'The generation' }) })

const ErrorAttempt = Type.Object({
  code: Type.Integer(),
  message: Type.String(),
  provider_name: Nullable(Type.String()),
  raw: Nullable(Type.String()),
})

export const ContentError = Type.Object({
  status: Nullable(Type.Integer({ description: 'The status the client got, where known' })),
  message: Nullable(Type.String()),
  provider_name: Nullable(Type.String()),
  raw: Nullable(Type.String()),
  previous_errors: Type.Array(ErrorAttempt),
})

/** What was asked: a legacy completion's prompt, or the messages of a chat, Responses or Messages call. */
export const ContentInput = Type.Union([
  Type.Object({ prompt: Type.String() }),
  Type.Object({ messages: Type.Array(Type.Unknown(), { description: '`{role, content}` (and `tool_calls`), as the emulator read them' }) }),
])
export type ContentInput = Static<typeof ContentInput>

export const GenerationContent = Type.Object({
  input: ContentInput,
  output: Type.Object({
    completion: Nullable(Type.String({ description: "The first answer's text" })),
    reasoning: Nullable(Type.String()),
  }),
  error: Type.Union([ContentError, Type.Null()], { description: 'How the generation failed, or null when it did not' }),
})
export type GenerationContent = Static<typeof GenerationContent>

export const ContentResponse = {
  200: Type.Object({ data: GenerationContent }, { description: "The stored prompt and answer (the emulator's own keys redacted)" }),
  '4xx': ErrorEnvelope,
}

export const FEEDBACK_CATEGORIES = ['latency', 'incoherence', 'incorrect_response', 'formatting', 'billing', 'api_error', 'other'] as const

export const FeedbackBody = Type.Object({
  generation_id: Type.String({ minLength: 1, maxLength: 256 }),
  category: StringEnum(FEEDBACK_CATEGORIES),
  comment: Type.Optional(Type.String({ maxLength: 1000 })),
})
export type FeedbackBody = Static<typeof FeedbackBody>

export const FeedbackResponse = {
  200: Type.Object({ data: Type.Object({ success: Type.Literal(true) }) }, { description: "Recorded (a generation's later feedback replaces its earlier)" }),
  '4xx': ErrorEnvelope,
}

// ---- Admin ---------------------------------------------------------------------------------------

export const FeedbackView = Shape({
  generation_id: Type.String(),
  category: StringEnum(FEEDBACK_CATEGORIES),
  comment: Nullable(Type.String()),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Nullable(Type.String({ format: 'date-time' })),
})
export type FeedbackView = Static<typeof FeedbackView>

// ---- GET /generation -------------------------------------------------------------------------------

export const GenerationQuery = Type.Object({ id: Type.String({ minLength: 1, maxLength: 256 }) })

export const GenerationView = Type.Object(
  {
    id: Type.String(),
    model: Type.String(),
    provider_name: Nullable(Type.String()),
    total_cost: Type.Number(),
    usage: Type.Number(),
    tokens_prompt: Nullable(Type.Integer()),
    tokens_completion: Nullable(Type.Integer()),
    streamed: Nullable(Type.Boolean()),
    finish_reason: Nullable(Type.String()),
    latency: Nullable(Type.Number({ description: 'ms to the first token' })),
    generation_time: Nullable(Type.Number({ description: 'ms in all' })),
    created_at: Type.String(),
  },
  { additionalProperties: true },
)

/** What GET /generation answers in `data`: the view's fields and the rest of the document's (served as the handler writes them). */
export type GenerationDocument = Static<typeof GenerationView> & Record<string, unknown>

export const GenerationResponse = {
  200: {
    description: 'A past chat or text completion of the calling key’s account',
    content: { 'application/json': { schema: Type.Object({ data: GenerationView }) } },
  },
  '4xx': ErrorEnvelope,
}
