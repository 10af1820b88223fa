// POST /api/v1/responses: the body's simple fields are checked by the schema; `input`, `tools`,
// `tool_choice` and `text.format` have several shapes each and are checked by hand
// (responses.input.ts), so that each problem names its exact place (`input[2].content[0].text`).
// Fields of the real schema that change nothing here (plugins, include, truncation, prompt_cache_key,
// service_tier...) are accepted and ignored, as the real gateway ignores what a provider does not take.
import { Type, type Static } from 'typebox'
import { ErrorEnvelope, Nullable, StringEnum } from '../../http/schemas.ts'
import { ProviderPreferences } from '../catalog/catalog-routing.service.ts'
import { ReasoningEffort, ServerToolUseDetails, SummaryVerbosity } from '../text/text.schemas.ts'

/** Input items in one request: more than any real conversation, far below what would make counting its tokens slow. */
export const MAX_INPUT_ITEMS = 4096
/** Characters of `input` when it is one string, and of `instructions`. */
export const MAX_TEXT_CHARS = 4_000_000
export const MAX_TOOLS = 128
/** Keys of `metadata`, and characters of each, as the real API bounds them. */
export const MAX_METADATA_KEYS = 16
export const MAX_METADATA_KEY_CHARS = 64

export { SummaryVerbosity }

export const ResponsesBody = Type.Object({
  model: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  models: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 256 }), { maxItems: 16 })),
  input: Type.Optional(Type.Unknown({ description: 'A string (one user message) or an array of input items' })),
  instructions: Type.Optional(Nullable(Type.String({ maxLength: MAX_TEXT_CHARS }))),
  tools: Type.Optional(Nullable(Type.Array(Type.Unknown(), { maxItems: MAX_TOOLS }))),
  tool_choice: Type.Optional(Type.Unknown()),
  parallel_tool_calls: Type.Optional(Nullable(Type.Boolean())),
  text: Type.Optional(
    Nullable(
      Type.Object({
        format: Type.Optional(Type.Unknown()),
        verbosity: Type.Optional(Nullable(StringEnum(['low', 'medium', 'high', 'xhigh', 'max'] as const))),
      }),
    ),
  ),
  reasoning: Type.Optional(
    Nullable(
      Type.Object({
        effort: Type.Optional(Nullable(ReasoningEffort)),
        summary: Type.Optional(Nullable(SummaryVerbosity)),
        max_tokens: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 10_000_000 }))),
        enabled: Type.Optional(Nullable(Type.Boolean())),
      }),
    ),
  ),
  max_output_tokens: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 10_000_000 }))),
  temperature: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 2 }))),
  top_p: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 1 }))),
  presence_penalty: Type.Optional(Nullable(Type.Number({ minimum: -2, maximum: 2 }))),
  frequency_penalty: Type.Optional(Nullable(Type.Number({ minimum: -2, maximum: 2 }))),
  /** Keys are bounded by hand (responses.input.ts), so the 400 can say what is wrong with which. */
  metadata: Type.Optional(Nullable(Type.Record(Type.String(), Type.String({ maxLength: 512 })))),
  /** Not in the real schema: the emulator's way to vary an answer, as chat's `seed`. */
  seed: Type.Optional(Nullable(Type.Integer())),
  user: Type.Optional(Type.String({ maxLength: 256 })),
  safety_identifier: Type.Optional(Nullable(Type.String({ maxLength: 256 }))),
  provider: Type.Optional(Nullable(ProviderPreferences)),
  stream: Type.Optional(Type.Boolean()),
  store: Type.Optional(Nullable(Type.Boolean())),
  background: Type.Optional(Nullable(Type.Boolean())),
  previous_response_id: Type.Optional(Type.Unknown()),
  prompt: Type.Optional(Type.Unknown()),
  // The real document's five, and the three OpenAI's clients also send (the AI SDK's web search tool
  // asks for `web_search_call.action.sources`): refusing a value a real client sends breaks it unchanged.
  include: Type.Optional(
    Nullable(
      Type.Array(
        StringEnum([
          'file_search_call.results',
          'message.input_image.image_url',
          'computer_call_output.output.image_url',
          'reasoning.encrypted_content',
          'code_interpreter_call.outputs',
          'web_search_call.action.sources',
          'web_search_call.results',
          'message.output_text.logprobs',
        ] as const),
        { maxItems: 16 },
      ),
    ),
  ),
})
export type ResponsesBody = Static<typeof ResponsesBody>

// ---- Answers (documented; the service writes them as text, so the serializer drops nothing) -------

const Usage = Type.Object(
  {
    input_tokens: Type.Integer(),
    input_tokens_details: Type.Object({ cached_tokens: Type.Integer(), cache_write_tokens: Type.Optional(Nullable(Type.Integer())) }),
    output_tokens: Type.Integer({ description: 'Reasoning included' }),
    output_tokens_details: Type.Object({ reasoning_tokens: Type.Integer() }),
    total_tokens: Type.Integer(),
    cost: Type.Number({ description: 'USD charged' }),
    is_byok: Type.Boolean(),
    cost_details: Type.Object({
      upstream_inference_cost: Type.Null(),
      upstream_inference_input_cost: Type.Number(),
      upstream_inference_output_cost: Type.Number(),
    }),
    server_tool_use_details: ServerToolUseDetails,
  },
  { additionalProperties: true },
)

const OutputItem = Type.Object(
  {
    type: StringEnum([
      'reasoning',
      'web_search_call',
      'image_generation_call',
      'code_interpreter_call',
      'file_search_call',
      'message',
      'function_call',
      'custom_tool_call',
      'local_shell_call',
      'shell_call',
      'apply_patch_call',
      'computer_call',
    ] as const),
    id: Type.String(),
    status: StringEnum(['completed', 'incomplete'] as const),
  },
  {
    additionalProperties: true,
    description:
      'A `reasoning` item (summary, content of reasoning_text, and encrypted_content when `include` has `reasoning.encrypted_content`), a `web_search_call` (action: the search, its query and sources), an `image_generation_call` (result: a base64 PNG), a `message` (role assistant, content of output_text), a `function_call` (call_id, name, arguments), a `custom_tool_call` (call_id, name, input: a custom tool’s freeform text), or, where `tool_choice` forces the tool, a made-up call never run: `code_interpreter_call` (code, container_id, outputs of logs) and `file_search_call` (queries, results when `include` has `file_search_call.results`) before the message, or instead of it a `local_shell_call` (call_id, action exec), `shell_call` (call_id, action commands), `apply_patch_call` (call_id, operation create_file) or `computer_call` (call_id, action screenshot, pending_safety_checks) for the client to run',
  },
)

export const ResponseResult = Type.Object(
  {
    id: Type.String({ description: 'The generation id (`gen-<unix seconds>-<20 alphanumerics>`), also in the `X-Generation-Id` header' }),
    object: Type.Literal('response'),
    created_at: Type.Integer(),
    completed_at: Nullable(Type.Integer()),
    model: Type.String(),
    status: StringEnum(['completed', 'incomplete'] as const),
    incomplete_details: Nullable(Type.Object({ reason: Type.Literal('max_output_tokens') })),
    error: Type.Null(),
    output: Type.Array(OutputItem),
    usage: Usage,
  },
  { additionalProperties: true },
)

export const ResponsesResponse = {
  200: {
    description:
      'The response; with `stream: true`, server-sent events (`event: <type>` and `data:` with a `sequence_number`): response.created, response.in_progress, each output item (added, its parts and deltas or the events of a web search (in_progress, searching, completed) or an image generation (in_progress, generating, completed), a code interpreter call (in_progress, code deltas and done, interpreting, completed) or an apply_patch call (diff deltas and done); done), then response.completed or response.incomplete, and `data: [DONE]`',
    content: { 'application/json': { schema: ResponseResult }, 'text/event-stream': { schema: Type.String() } },
  },
  '4xx': ErrorEnvelope,
  '5xx': ErrorEnvelope,
}
