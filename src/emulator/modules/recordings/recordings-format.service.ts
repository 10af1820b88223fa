// The recording file: one JSON file per recorded (or hand-written) answer, in a folder given to
// --record (written) or --replay (read). Pretty-printed with keys in a stable order, so a folder of
// recordings reads well in a diff. Never a key or a token: requests are stored as their normalized
// body only, and no header is kept.
//
// A text answer (chat and text completions, the Responses API, the Messages API) is stored by what it
// says, not by the bytes of one API: its text, tool calls and reasoning per choice, its usage and cost,
// and the timing of its stream. So a recording made through chat completions answers the same
// conversation asked through the Responses or the Messages API, as JSON or as a stream, each rendered by
// that API. Other answers (embeddings, images, speech, transcriptions) are stored as the body the
// upstream sent, bounded by RAW_ANSWER_BYTES.
import { Type, type Static } from 'typebox'
import { Nullable, StringEnum } from '../../http/schemas.ts'
import { ChatFixtureMatch, ChatFixtureToolCall } from '../text/text-fixtures.schemas.ts'

export const RECORDING_FORMAT = 'gateway-emulator.recording/1'

/** The most bytes of a raw answer (an image, speech) a recording keeps; a larger answer is relayed and not saved. */
export const RAW_ANSWER_BYTES = 4 * 1024 * 1024

/** The operations whose answers are recorded and replayed: the text surfaces, then the raw ones. */
export const TEXT_OPERATIONS = ['chat.create', 'completions.create', 'responses.create', 'messages.create'] as const
export const RAW_OPERATIONS = ['embeddings.create', 'images.create', 'images.generations', 'audio.speech', 'audio.transcriptions'] as const
export type RecordedOperation = (typeof TEXT_OPERATIONS)[number] | (typeof RAW_OPERATIONS)[number]
/** What each raw operation makes (its stand-in model's output modality); every text operation makes text. */
export const RAW_OUTPUT: Record<(typeof RAW_OPERATIONS)[number], string> = {
  'embeddings.create': 'embeddings',
  'images.create': 'image',
  'images.generations': 'image',
  'audio.speech': 'speech',
  'audio.transcriptions': 'transcription',
}

/**
 * A text request in normal form, whatever API it came through: chat's shape. Two requests match when
 * their normal forms are equal (keys in any order); what changes no answer here (temperature, stream,
 * user, provider preferences, metadata) is not part of it.
 */
export const NormalTextRequest = Type.Object(
  {
    model: Type.String({ minLength: 1, maxLength: 256 }),
    messages: Type.Array(
      Type.Object(
        {
          role: Type.Union([Type.Literal('system'), Type.Literal('developer'), Type.Literal('user'), Type.Literal('assistant'), Type.Literal('tool')]),
          content: Type.String(),
          tool_calls: Type.Optional(Type.Array(ChatFixtureToolCall)),
        },
        { additionalProperties: false },
      ),
      { minItems: 1 },
    ),
    tools: Type.Optional(
      Type.Array(Type.Object({ name: Type.String(), parameters: Type.Record(Type.String(), Type.Unknown()) }, { additionalProperties: false })),
    ),
    tool_choice: Type.Optional(Type.String({ description: 'auto, none, required, or the name of the tool' })),
    response_format: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    max_tokens: Type.Optional(Type.Integer({ minimum: 1 })),
    stop: Type.Optional(Type.Array(Type.String())),
    seed: Type.Optional(Type.Integer()),
    n: Type.Optional(Type.Integer({ minimum: 1 })),
    reasoning: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
)
export type NormalTextRequest = Static<typeof NormalTextRequest>

/** What a text answer says, per choice, and what it cost. */
export const RecordedText = Type.Object(
  {
    choices: Type.Array(
      Type.Object(
        {
          content: Nullable(Type.String()),
          tool_calls: Type.Optional(Type.Array(ChatFixtureToolCall)),
          reasoning: Type.Optional(Nullable(Type.String())),
          finish_reason: Type.String({ description: 'stop, length, tool_calls (chat words; each API renders its own)' }),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 8 },
    ),
    /** The model that answered and the provider that served it, as the upstream said. */
    model: Type.String(),
    provider: Nullable(Type.String()),
    usage: Type.Object(
      {
        prompt_tokens: Type.Integer({ minimum: 0 }),
        completion_tokens: Type.Integer({ minimum: 0 }),
        reasoning_tokens: Type.Optional(Type.Integer({ minimum: 0 })),
        /** USD, as the upstream reported it (`usage.cost`); billed as it is on replay. */
        cost: Type.Number({ minimum: 0 }),
      },
      { additionalProperties: false },
    ),
    /** The stream's timing, for pacing a replay when --chat-speed is above 0. */
    timing: Type.Optional(
      Type.Object({ first_token_ms: Type.Number({ minimum: 0 }), tokens_per_second: Type.Number({ exclusiveMinimum: 0 }) }, { additionalProperties: false }),
    ),
  },
  { additionalProperties: false },
)
export type RecordedText = Static<typeof RecordedText>

/** Another answer, as the upstream sent it: JSON, or bytes as base64. */
export const RecordedRaw = Type.Object(
  {
    status: Type.Integer({ minimum: 200, maximum: 299 }),
    content_type: Type.String(),
    json: Type.Optional(Type.Unknown()),
    base64: Type.Optional(Type.String()),
    model: Type.String(),
    provider: Nullable(Type.String()),
    /** USD, as the upstream reported it; billed as it is on replay. */
    cost: Type.Number({ minimum: 0 }),
  },
  { additionalProperties: false },
)
export type RecordedRaw = Static<typeof RecordedRaw>

/** Loosened matching, as chat fixtures have it, plus `tool_result` (the last message is a tool's result). */
export const RecordingMatch = Type.Object({ ...ChatFixtureMatch.properties, tool_result: Type.Optional(Type.Boolean()) }, { additionalProperties: false })
export type RecordingMatch = Static<typeof RecordingMatch>

export const RecordingFile = Type.Object(
  {
    format: Type.Literal(RECORDING_FORMAT),
    /** The operation it was recorded through; a text answer replays through every text operation. */
    operation: StringEnum([...TEXT_OPERATIONS, ...RAW_OPERATIONS]),
    /**
     * The request in normal form (text operations) or its body (the others). Required unless `match`
     * is given (then it is kept for the reader, and ignored by matching).
     */
    request: Type.Optional(Type.Unknown()),
    /** Loosens the match: when present, the request matches by these conditions instead of equality. */
    match: Type.Optional(RecordingMatch),
    /** Answer this many matching requests, then stay loaded but used up. */
    times: Type.Optional(Type.Integer({ minimum: 1 })),
    text: Type.Optional(RecordedText),
    raw: Type.Optional(RecordedRaw),
    /** Where and when it was recorded (never a key). */
    recorded: Type.Optional(Type.Object({ at: Type.String(), upstream: Type.String(), latency_ms: Type.Number() }, { additionalProperties: false })),
  },
  { additionalProperties: false },
)
export type RecordingFile = Static<typeof RecordingFile>
