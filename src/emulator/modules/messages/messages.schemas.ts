// POST /api/v1/messages, the Anthropic Messages API. The body schema checks the simple fields; system,
// messages (content blocks of many kinds), tools, tool_choice, thinking and output_config have several
// shapes each and are checked by hand (messages.input.ts) so that each problem names its exact place
// (`messages[1].content[0].tool_use_id`). Fields of the real schema that change nothing here
// (context_management, plugins, service_tier, speed...) are accepted and ignored; cache_control is read by hand
// (prompt caching: text-cache.input.ts).
import { Type, type Static } from 'typebox'
import { Nullable, StringEnum } from '../../http/schemas.ts'
import { ProviderPreferences } from '../catalog/catalog-routing.service.ts'

/** More than any real conversation, far below what would make counting its tokens slow. */
export const MAX_MESSAGES = 4096
export const MAX_TOOLS = 128
/** Content blocks in one message (or one tool result, or the system prompt). */
export const MAX_BLOCKS = 4096
export const MAX_STOP_SEQUENCES = 64

const Model = Type.String({ minLength: 1, maxLength: 256 })

export const MessagesBody = Type.Object({
  model: Model,
  models: Type.Optional(Type.Array(Model, { maxItems: 16 })),
  fallbacks: Type.Optional(Nullable(Type.Array(Type.Object({ model: Model }), { maxItems: 3 }))),
  messages: Type.Array(Type.Unknown(), { maxItems: MAX_MESSAGES }),
  system: Type.Optional(Type.Unknown()),
  max_tokens: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000_000 })),
  stop_sequences: Type.Optional(Type.Array(Type.String({ maxLength: 1024 }), { maxItems: MAX_STOP_SEQUENCES })),
  stream: Type.Optional(Type.Boolean()),
  temperature: Type.Optional(Type.Number({ minimum: 0, maximum: 2 })),
  top_p: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  top_k: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
  tools: Type.Optional(Type.Array(Type.Unknown(), { maxItems: MAX_TOOLS })),
  tool_choice: Type.Optional(Type.Unknown()),
  thinking: Type.Optional(Type.Unknown()),
  output_config: Type.Optional(Type.Unknown()),
  metadata: Type.Optional(Type.Object({ user_id: Type.Optional(Nullable(Type.String({ maxLength: 1024 }))) })),
  user: Type.Optional(Type.String({ maxLength: 256 })),
  session_id: Type.Optional(Type.String({ maxLength: 256 })),
  service_tier: Type.Optional(Type.String({ maxLength: 64 })),
  speed: Type.Optional(Nullable(StringEnum(['fast', 'standard'] as const))),
  provider: Type.Optional(Nullable(ProviderPreferences)),
})
export type MessagesBody = Static<typeof MessagesBody>

// ---- Answers (documented; the service writes them as text, so nothing is dropped) -----------------

/** The Messages API's error body (the real document's AnthropicMessagesErrorResponse). */
export const AnthropicErrorSchema = Type.Object(
  {
    type: Type.Literal('error'),
    error: Type.Object({
      type: Type.String({
        description:
          'invalid_request_error, authentication_error, billing_error, permission_error, not_found_error, rate_limit_error, api_error, overloaded_error or timeout_error',
      }),
      message: Type.String(),
      error_type: Type.Optional(Type.String({ description: "The gateway's own error type (rate_limit_exceeded, payment_required...)" })),
    }),
    metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    request_id: Nullable(Type.String({ description: 'Also in the `request-id` header' })),
  },
  { description: "Anthropic's error envelope, for every error of this route (its 404s included)" },
)

const Usage = Type.Object(
  {
    input_tokens: Type.Integer(),
    output_tokens: Type.Integer({ description: 'Thinking included' }),
    cache_creation_input_tokens: Nullable(Type.Integer()),
    cache_read_input_tokens: Nullable(Type.Integer()),
    cache_creation: Nullable(
      Type.Object(
        { ephemeral_5m_input_tokens: Type.Integer(), ephemeral_1h_input_tokens: Type.Integer() },
        { description: 'Tokens written to the prompt cache, by life' },
      ),
    ),
    inference_geo: Type.Null(),
    output_tokens_details: Type.Object({ thinking_tokens: Type.Integer() }),
    server_tool_use: Nullable(
      Type.Object(
        { web_search_requests: Type.Integer(), web_fetch_requests: Type.Integer() },
        { description: 'The server tools run for the request (a web search: one); null where none ran' },
      ),
    ),
    service_tier: Type.String(),
    cost: Type.Number({ description: 'USD charged' }),
    is_byok: Type.Boolean(),
  },
  { additionalProperties: true },
)

const ContentBlock = Type.Union([
  Type.Object({ type: Type.Literal('thinking'), thinking: Type.String(), signature: Type.String() }),
  Type.Object({
    type: Type.Literal('text'),
    text: Type.String(),
    citations: Nullable(
      Type.Array(
        Type.Object({
          type: Type.Literal('web_search_result_location'),
          url: Type.String(),
          title: Nullable(Type.String()),
          cited_text: Type.String(),
          encrypted_index: Type.String(),
        }),
        { description: 'The pages a web search found that the text cites; null without a search' },
      ),
    ),
  }),
  Type.Object({
    type: Type.Literal('server_tool_use'),
    id: Type.String({ description: '`srvtoolu_` and 24 hex digits' }),
    name: Type.String(),
    input: Type.Record(Type.String(), Type.Unknown()),
    caller: Type.Object({ type: Type.Literal('direct') }),
  }),
  Type.Object({
    type: Type.Literal('web_search_tool_result'),
    tool_use_id: Type.String(),
    content: Type.Array(
      Type.Object({
        type: Type.Literal('web_search_result'),
        url: Type.String(),
        title: Type.String(),
        encrypted_content: Type.String(),
        page_age: Nullable(Type.String()),
      }),
    ),
    caller: Type.Object({ type: Type.Literal('direct') }),
  }),
  Type.Object({
    type: Type.Literal('web_fetch_tool_result'),
    tool_use_id: Type.String(),
    content: Type.Object(
      { type: StringEnum(['web_fetch_result', 'web_fetch_tool_result_error'] as const) },
      { additionalProperties: true, description: 'The page read (url, retrieved_at, a text document), or an error_code' },
    ),
    caller: Type.Object({ type: Type.Literal('direct') }),
  }),
  Type.Object({
    type: Type.Literal('bash_code_execution_tool_result'),
    tool_use_id: Type.String(),
    content: Type.Object(
      {
        type: Type.Literal('bash_code_execution_result'),
        stdout: Type.String(),
        stderr: Type.String(),
        return_code: Type.Integer(),
        content: Type.Array(Type.Object({ type: Type.Literal('bash_code_execution_output'), file_id: Type.String() })),
      },
      { description: 'A forced code execution’s made-up result (nothing is run)' },
    ),
  }),
  Type.Object({
    type: Type.Literal('tool_use'),
    id: Type.String({ description: '`toolu_` and 24 hex digits' }),
    name: Type.String(),
    input: Type.Record(Type.String(), Type.Unknown(), { description: 'Valid against the tool’s `input_schema`' }),
    caller: Type.Object({ type: Type.Literal('direct') }),
  }),
])

export const MessagesResult = Type.Object(
  {
    id: Type.String({ description: '`msg_<unix seconds>-<20 alphanumerics>`: the generation id (`X-Generation-Id`) with `msg_` for `gen-`' }),
    type: Type.Literal('message'),
    role: Type.Literal('assistant'),
    model: Type.String(),
    provider: Type.String(),
    content: Type.Array(ContentBlock),
    stop_reason: Type.String({ description: '`end_turn`, `max_tokens`, `stop_sequence` or `tool_use`' }),
    stop_sequence: Nullable(Type.String()),
    stop_details: Type.Null(),
    container: Type.Null(),
    usage: Usage,
  },
  { additionalProperties: true },
)

export const MessagesResponse = {
  200: {
    description:
      'The message; with `stream: true`, server-sent events with `event:` names: message_start, ping, then content_block_start / content_block_delta (thinking_delta, signature_delta, citations_delta, text_delta, input_json_delta) / content_block_stop for each block, message_delta (stop_reason, usage) and message_stop; a fault part way ends it with `event: error`',
    content: { 'application/json': { schema: MessagesResult }, 'text/event-stream': { schema: Type.String() } },
  },
  '4xx': AnthropicErrorSchema,
  '5xx': AnthropicErrorSchema,
}
