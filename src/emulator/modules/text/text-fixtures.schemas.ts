// Chat fixtures and the chat engine's settings as the admin API takes them (TypeBox only, so
// admin/types.ts can derive the shared types): what a rule matches in a chat or text completion
// request, the answer it gives instead of the generated one, and how long and how fast answers are.
import { Type, type Static } from 'typebox'
import { Iso, Nullable, Shape } from '../../http/schemas.ts'

export const TOOL_NAME_PATTERN = '^[a-zA-Z0-9_-]{1,64}$'

export const ChatFixtureMatch = Type.Object(
  {
    /** A model id; `*` stands for any run of characters (`openai/*`). */
    model: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    /** Text the last user message contains (case-insensitive). */
    last_user: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
    /** A regular expression (RE2 syntax, case-insensitive, found anywhere) the last user message matches. */
    last_user_regex: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
    /** Text the system (or developer) messages contain (case-insensitive). */
    system: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
    /** The same for the system (or developer) messages. */
    system_regex: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
    /** A tool the request offers, by name. */
    tool: Type.Optional(Type.String({ pattern: TOOL_NAME_PATTERN })),
    /** The value the request's `X-Emulator-Fixture` header must carry. */
    header: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
)

export const ChatFixtureToolCall = Type.Object(
  {
    name: Type.String({ pattern: TOOL_NAME_PATTERN }),
    /** The arguments: an object, or its JSON text. Stored and answered as JSON text. */
    arguments: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.String({ maxLength: 100_000 })]),
  },
  { additionalProperties: false },
)

export const ChatFixtureAnswer = Type.Object(
  {
    /** The text of the answer (cut by `stop` and `max_tokens` as a generated one). */
    content: Type.Optional(Type.String({ maxLength: 100_000 })),
    /** Tool calls to answer with (`finish_reason: "tool_calls"`); ids are made per answer. */
    tool_calls: Type.Optional(Type.Array(ChatFixtureToolCall, { minItems: 1, maxItems: 16 })),
    /** An error instead of an answer: the status with the gateway's message and headers for it, or `message`. */
    error: Type.Optional(
      Type.Object(
        { status: Type.Integer({ minimum: 400, maximum: 599 }), message: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })) },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
)

const RuleFields = {
  name: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  enabled: Type.Optional(Type.Boolean()),
  /** Answer the next N matching requests only; null: every one. */
  times: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 1_000_000 }))),
  /** Where the rule goes in the account's list (0 first); the first rule that matches answers. */
  position: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
}

export const CreateChatFixtureBody = Type.Object(
  { match: Type.Optional(ChatFixtureMatch), answer: ChatFixtureAnswer, ...RuleFields },
  { additionalProperties: false },
)
export const UpdateChatFixtureBody = Type.Object(
  { match: Type.Optional(ChatFixtureMatch), answer: Type.Optional(ChatFixtureAnswer), ...RuleFields },
  { additionalProperties: false },
)

/** POST /accounts/:id/chat-fixtures/test: a request as the chat route would see it. */
export const TestChatFixtureBody = Type.Object(
  {
    model: Type.String({ minLength: 1, maxLength: 200 }),
    messages: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 1000 })),
    /** A legacy completion's prompt (the last user message). */
    prompt: Type.Optional(Type.String({ maxLength: 1_000_000 })),
    tools: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 128 })),
    /** The `X-Emulator-Fixture` header's value. */
    header: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
)

export type ChatFixtureMatch = Static<typeof ChatFixtureMatch>
export type ChatFixtureAnswer = Static<typeof ChatFixtureAnswer>
export type CreateChatFixtureBody = Static<typeof CreateChatFixtureBody>
export type UpdateChatFixtureBody = Static<typeof UpdateChatFixtureBody>
export type TestChatFixtureBody = Static<typeof TestChatFixtureBody>

/** The chat engine's run-time settings (GET/PUT /_emulator/api/chat/settings). */
export const ChatSettings = Type.Object(
  {
    /** About how many tokens a text answer has (whole sentences), before `max_tokens` cuts it. */
    answer_tokens: Type.Integer({ minimum: 1, maximum: 100_000 }),
    /** The same, per model id: a model listed here answers at its own length. */
    model_answer_tokens: Type.Record(Type.String({ minLength: 1, maxLength: 200 }), Type.Integer({ minimum: 1, maximum: 100_000 }), {
      maxProperties: 10_000,
    }),
    /** Streamed timing as a multiple of the serving endpoint's latency and throughput; 0 sends at once. */
    speed: Type.Number({ minimum: 0, maximum: 1000 }),
  },
  { additionalProperties: false },
)
export const ChatSettingsBody = Type.Partial(ChatSettings, { additionalProperties: false })
export type ChatSettings = Static<typeof ChatSettings>

// ---- Admin answers -------------------------------------------------------------------------------

export const ChatFixture = Shape({
  id: Type.String(),
  account_id: Type.String(),
  name: Nullable(Type.String()),
  enabled: Type.Boolean(),
  position: Type.Integer({ description: "The rule's place in its account's list: the first that matches answers" }),
  match: ChatFixtureMatch,
  answer: ChatFixtureAnswer,
  times: Nullable(Type.Integer({ description: 'How many requests it answers; null: every one' })),
  remaining: Nullable(Type.Integer()),
  hits: Type.Integer(),
  explanation: Type.String({ description: 'What the rule does, in one sentence' }),
  created_at: Iso(),
  updated_at: Nullable(Iso()),
})
export type ChatFixture = Static<typeof ChatFixture>

export const ChatFixtureTest = Shape({
  fixture: Nullable(ChatFixture),
  checks: Type.Array(
    Shape({
      id: Type.String(),
      name: Nullable(Type.String()),
      answers: Type.Boolean(),
      reason: Nullable(Type.String({ description: 'Why it does not answer' })),
    }),
    { description: 'Every rule of the account, in order, with why it would or would not answer (the first that would, answers)' },
  ),
})
export type ChatFixtureTest = Static<typeof ChatFixtureTest>
