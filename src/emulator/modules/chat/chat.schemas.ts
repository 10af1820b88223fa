// POST /api/v1/chat/completions, POST /api/v1/completions and GET /api/v1/generation. The body schema
// checks the simple fields; messages, tools, tool_choice and response_format have several shapes each
// and are checked by hand (text.input.ts) so that each problem names its exact place. Fields of the
// real schema that change nothing here (top_k, logit_bias, plugins, usage...) are accepted and ignored,
// as the real gateway ignores what a provider does not support.
import { Type, type Static } from 'typebox'
import { ErrorEnvelope, Nullable, StringEnum } from '../../http/schemas.ts'
import { ProviderPreferences } from '../catalog/catalog-routing.service.ts'
import { MAX_MESSAGES, ReasoningEffort, ServerToolUseDetails } from '../text/text.schemas.ts'

export { MAX_MESSAGES, ReasoningEffort }
export const MAX_TOOLS = 128
/** Choices per request (`n`). */
export const MAX_CHOICES = 8

const Stop = Type.Union([Type.String({ maxLength: 256 }), Type.Array(Type.String({ maxLength: 256 }), { maxItems: 4 }), Type.Null()])

const Common = {
  model: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  models: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 256 }), { maxItems: 16 })),
  max_tokens: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 10_000_000 }))),
  temperature: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 2 }))),
  top_p: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 1 }))),
  seed: Type.Optional(Nullable(Type.Integer())),
  stop: Type.Optional(Stop),
  n: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: MAX_CHOICES }))),
  stream: Type.Optional(Nullable(Type.Boolean())),
  stream_options: Type.Optional(Nullable(Type.Object({ include_usage: Type.Optional(Nullable(Type.Boolean())) }))),
  user: Type.Optional(Type.String({ maxLength: 1024 })),
  provider: Type.Optional(Nullable(ProviderPreferences)),
}

export const ChatBody = Type.Object({
  ...Common,
  messages: Type.Array(Type.Unknown(), { maxItems: MAX_MESSAGES }),
  max_completion_tokens: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 10_000_000 }))),
  tools: Type.Optional(Nullable(Type.Array(Type.Unknown(), { maxItems: MAX_TOOLS }))),
  tool_choice: Type.Optional(Type.Unknown()),
  parallel_tool_calls: Type.Optional(Nullable(Type.Boolean())),
  response_format: Type.Optional(Type.Unknown()),
  reasoning: Type.Optional(
    Nullable(
      Type.Object({
        effort: Type.Optional(Nullable(ReasoningEffort)),
        max_tokens: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 10_000_000 }))),
        enabled: Type.Optional(Nullable(Type.Boolean())),
        exclude: Type.Optional(Nullable(Type.Boolean())),
      }),
    ),
  ),
  reasoning_effort: Type.Optional(Nullable(ReasoningEffort)),
  include_reasoning: Type.Optional(Nullable(Type.Boolean())),
  modalities: Type.Optional(
    Nullable(
      Type.Array(StringEnum(['text', 'image', 'audio'] as const), {
        maxItems: 3,
        description: 'With `image`, a model that makes images answers with `message.images`',
      }),
    ),
  ),
  image_config: Type.Optional(
    Nullable(Type.Record(Type.String(), Type.Unknown(), { description: '`aspect_ratio` and `image_size` (1K, 2K, 4K) shape the images' })),
  ),
})
export type ChatBody = Static<typeof ChatBody>

export const CompletionBody = Type.Object({
  ...Common,
  prompt: Type.Union([Type.String({ maxLength: 4_000_000 }), Type.Array(Type.String({ maxLength: 4_000_000 }), { minItems: 1, maxItems: 1 })]),
})
export type CompletionBody = Static<typeof CompletionBody>

// ---- Answers (documented; the service writes them, so extra fields are never dropped) --------------

const Usage = Type.Object(
  {
    prompt_tokens: Type.Integer(),
    completion_tokens: Type.Integer(),
    total_tokens: Type.Integer(),
    cost: Type.Number({ description: 'USD charged' }),
    is_byok: Type.Boolean(),
    prompt_tokens_details: Type.Object({
      cached_tokens: Type.Integer({ description: 'Prompt tokens read from the prompt cache' }),
      cache_write_tokens: Type.Optional(
        Type.Integer({ description: 'Prompt tokens written to the prompt cache, where a breakpoint wrote some at a write price' }),
      ),
      audio_tokens: Type.Integer(),
    }),
    completion_tokens_details: Type.Object({ reasoning_tokens: Type.Integer() }),
    server_tool_use_details: ServerToolUseDetails,
  },
  { additionalProperties: true },
)

const ToolCall = Type.Object({
  id: Type.String(),
  type: Type.Literal('function'),
  function: Type.Object({ name: Type.String(), arguments: Type.String({ description: 'JSON valid against the tool’s `parameters`' }) }),
})

const ReasoningFormat = StringEnum(['openai-responses-v1', 'anthropic-claude-v1', 'google-gemini-v1', 'xai-responses-v1', 'unknown'] as const)

/** A reasoning answer's details, by its model's author (the real document's ReasoningDetailUnion, the kinds the emulator gives). */
const ReasoningDetails = Type.Array(
  Type.Union([
    Type.Object({
      type: Type.Literal('reasoning.text'),
      text: Type.String(),
      signature: Nullable(Type.String({ description: 'anthropic/*: base64, fixed by the model and the thought' })),
      format: ReasoningFormat,
      index: Type.Integer(),
    }),
    Type.Object({ type: Type.Literal('reasoning.summary'), summary: Type.String(), id: Type.String(), format: ReasoningFormat, index: Type.Integer() }),
    Type.Object({
      type: Type.Literal('reasoning.encrypted'),
      data: Type.String({ description: 'Opaque base64, fixed by the model and the thought' }),
      id: Type.Optional(Type.String()),
      format: ReasoningFormat,
      index: Type.Integer(),
    }),
  ]),
  { description: 'Present when the answer reasons; streamed as `delta.reasoning_details` before the content' },
)

const FinishReason = Nullable(Type.String({ description: '`stop`, `length`, `tool_calls` or `error`' }))

export const ChatResult = Type.Object(
  {
    id: Type.String({ description: '`gen-<unix seconds>-<20 alphanumerics>`, also in the `X-Generation-Id` header' }),
    object: Type.Literal('chat.completion'),
    created: Type.Integer(),
    model: Type.String(),
    provider: Type.String(),
    system_fingerprint: Nullable(Type.String()),
    choices: Type.Array(
      Type.Object({
        index: Type.Integer(),
        finish_reason: FinishReason,
        native_finish_reason: FinishReason,
        logprobs: Type.Null(),
        message: Type.Object({
          role: Type.Literal('assistant'),
          content: Nullable(Type.String()),
          refusal: Type.Null(),
          reasoning: Nullable(Type.String()),
          reasoning_details: Type.Optional(ReasoningDetails),
          tool_calls: Type.Optional(Type.Array(ToolCall)),
          images: Type.Optional(
            Type.Array(
              Type.Object({
                type: Type.Literal('image_url'),
                image_url: Type.Object({ url: Type.String({ description: 'A PNG data URL' }) }),
                index: Type.Integer(),
              }),
            ),
          ),
        }),
      }),
    ),
    usage: Usage,
  },
  { additionalProperties: true },
)

export const ChatResponse = {
  200: {
    description:
      'The answer; with `stream: true`, server-sent events of `chat.completion.chunk` objects (role, content or tool-call argument deltas, the finish reason, usage), then `data: [DONE]`',
    content: { 'application/json': { schema: ChatResult }, 'text/event-stream': { schema: Type.String() } },
  },
  '4xx': ErrorEnvelope,
  '5xx': ErrorEnvelope,
}

export const CompletionResult = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('text_completion'),
    created: Type.Integer(),
    model: Type.String(),
    provider: Type.String(),
    choices: Type.Array(Type.Object({ index: Type.Integer(), text: Type.String(), finish_reason: FinishReason, logprobs: Type.Null() })),
    usage: Usage,
  },
  { additionalProperties: true },
)

export const CompletionResponse = {
  200: { description: 'The text; with `stream: true`, server-sent events', content: { 'application/json': { schema: CompletionResult } } },
  '4xx': ErrorEnvelope,
  '5xx': ErrorEnvelope,
}
