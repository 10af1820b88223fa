// POST /api/v1/audio/speech and POST /api/v1/audio/transcriptions: the bodies (JSON, and the
// transcription's multipart form), the transcription's answer, and the bounds of each.
import { Type, type Static } from 'typebox'
import { ErrorEnvelope, OpenObject, StringEnum } from '../../http/schemas.ts'

// ---- Speech --------------------------------------------------------------------------------------

/** Characters of text one speech request may hold (OpenAI's bound for its speech endpoint). */
export const MAX_SPEECH_CHARS = 4096
/** Seconds of speech one request may make, whatever its text and speed. */
export const MAX_SPEECH_SECONDS = 600
/** The real document's `mp3` and `pcm`, and `wav` (OpenAI's API has it; a player opens it as it is). */
export const SPEECH_FORMATS = ['mp3', 'pcm', 'wav'] as const
export type SpeechFormat = (typeof SPEECH_FORMATS)[number]

const Provider = Type.Object(
  { options: Type.Optional(OpenObject('Options by provider slug; accepted and ignored by the emulator')) },
  { description: 'Provider-specific passthrough configuration' },
)

const SpeechReference = Type.Object(
  {
    type: StringEnum(['input_audio', 'text'] as const),
    input_audio: Type.Optional(
      Type.Object({
        data: Type.String({ minLength: 1, maxLength: 20_971_520, description: 'Base64 reference audio (optionally a data URI)' }),
        format: Type.Optional(Type.String({ maxLength: 32 })),
      }),
    ),
    text: Type.Optional(Type.String({ maxLength: 10_000 })),
  },
  { description: 'A voice sample (`input_audio`) or its transcript (`text`), for stateless voice cloning' },
)

export const SpeechBody = Type.Object({
  model: Type.String({ minLength: 1, description: 'A text-to-speech model: one whose output is speech, or audio without text' }),
  input: Type.String({ minLength: 1, maxLength: MAX_SPEECH_CHARS, description: `The text to say, at most ${MAX_SPEECH_CHARS} characters` }),
  voice: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: "One of the model's `supported_voices`; its first one when absent" })),
  response_format: Type.Optional(
    StringEnum(SPEECH_FORMATS, {
      description: '`pcm` (the default): 16-bit little-endian mono at 24 kHz; `wav`: the same in a WAV file; `mp3`: MPEG Layer III at 24 kHz, 48 kbps',
    }),
  ),
  speed: Type.Optional(
    Type.Number({ minimum: 0.25, maximum: 4, description: 'Playback speed, used by OpenAI models (the length divides by it) and ignored by the others' }),
  ),
  instructions: Type.Optional(Type.String({ maxLength: 4096, description: 'How to say it: changes the melody, not the length' })),
  input_references: Type.Optional(
    Type.Array(SpeechReference, {
      minItems: 1,
      maxItems: 2,
      description: 'Voice cloning: only routed to endpoints that support it (none in the catalog, so a 404)',
    }),
  ),
  provider: Type.Optional(Provider),
  session_id: Type.Optional(Type.String({ maxLength: 256 })),
  user: Type.Optional(Type.String({ maxLength: 256 })),
})
export type SpeechBody = Static<typeof SpeechBody>

const Binary = (description: string) => ({ schema: Type.String({ format: 'binary', description }) })

export const SpeechResponse = {
  200: {
    description: 'The audio, raw: its length follows the text (15 characters a second at speed 1)',
    content: {
      'audio/pcm': Binary('16-bit little-endian mono PCM at 24 kHz'),
      'audio/mpeg': Binary('MP3 (MPEG-2 Layer III, 24 kHz mono, 48 kbps) behind an ID3 tag holding the text'),
      'audio/wav': Binary('WAV: 16-bit PCM, mono, 24 kHz'),
    },
  },
  '4xx': ErrorEnvelope,
}

// ---- Transcription -------------------------------------------------------------------------------

/** Bytes of one uploaded file at most (the real document: 25 MB; larger audio goes as base64 JSON). */
export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024
/** Bytes of audio one JSON request may carry, decoded. */
export const MAX_JSON_AUDIO_BYTES = 32 * 1024 * 1024
/** Characters of base64 that carry MAX_JSON_AUDIO_BYTES (and a line break every 76, as `base64` writes them). */
export const MAX_BASE64_CHARS = Math.ceil((Math.ceil(MAX_JSON_AUDIO_BYTES / 3) * 4 * 77) / 76)

const TRANSCRIPTION_FORMATS = ['json', 'verbose_json'] as const
const Granularities = Type.Array(StringEnum(['word', 'segment'] as const), {
  maxItems: 2,
  description: 'With `verbose_json`: `segment` (always given) and `word` (adds `words`)',
})

/** The fields a transcription request has besides its audio, in JSON and in a form alike. */
const transcriptionFields = {
  model: Type.String({ minLength: 1, description: 'A speech-to-text model: one whose output is transcription' }),
  language: Type.Optional(Type.String({ maxLength: 16, description: 'ISO-639-1 code of the language (two letters, e.g. `en`)' })),
  response_format: Type.Optional(
    StringEnum(TRANSCRIPTION_FORMATS, { description: '`json` (the default): text and usage; `verbose_json` adds task, language, duration and segments' }),
  ),
  temperature: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
}

export const TranscriptionBody = Type.Object({
  ...transcriptionFields,
  input_audio: Type.Object({
    // Neither maxLength nor minLength, which count every character of a 43 MB string again in JavaScript
    // (90 ms): the body's reader bounds it as it arrives (audio-transcription.input.ts: TRANSCRIPTION_MEDIA), in
    // the area's words, and askFromJson refuses it empty.
    data: Type.String({
      description: `Base64 of the audio (raw bytes, not a data URI), at most ${MAX_BASE64_CHARS} characters: ${MAX_JSON_AUDIO_BYTES / 1024 / 1024} MB decoded`,
    }),
    format: Type.String({ minLength: 1, maxLength: 32, description: 'wav, pcm (16-bit mono at 24 kHz), mp3, flac, ogg or m4a' }),
  }),
  timestamp_granularities: Type.Optional(Granularities),
  provider: Type.Optional(Provider),
  session_id: Type.Optional(Type.String({ maxLength: 256 })),
  user: Type.Optional(Type.String({ maxLength: 256 })),
})
export type TranscriptionBody = Static<typeof TranscriptionBody>

/** A form's text fields, checked once the form is read (the file is read apart). */
export const TranscriptionFormFields = Type.Object({
  ...transcriptionFields,
  'timestamp_granularities[]': Type.Optional(Granularities),
  session_id: Type.Optional(Type.String({ maxLength: 256 })),
  user: Type.Optional(Type.String({ maxLength: 256 })),
})
export type TranscriptionFormFields = Static<typeof TranscriptionFormFields>

/** The form as the document shows it. */
const TranscriptionForm = Type.Object({
  file: Type.String({
    format: 'binary',
    description: `The audio, at most ${MAX_UPLOAD_BYTES / 1024 / 1024} MB; its format from the file name's extension, else its content type, else its bytes`,
  }),
  ...TranscriptionFormFields.properties,
})

export const TranscriptionRequest = {
  content: {
    'application/json': { schema: TranscriptionBody },
    'multipart/form-data': { schema: TranscriptionForm },
  },
}

const Segment = Type.Object({
  id: Type.Integer(),
  seek: Type.Integer(),
  start: Type.Number(),
  end: Type.Number(),
  text: Type.String(),
  tokens: Type.Array(Type.Integer()),
  temperature: Type.Number(),
  avg_logprob: Type.Number(),
  compression_ratio: Type.Number(),
  no_speech_prob: Type.Number(),
})

const Word = Type.Object({ word: Type.String(), start: Type.Number(), end: Type.Number() })

export const TranscriptionResult = Type.Object({
  task: Type.Optional(Type.Literal('transcribe')),
  language: Type.Optional(Type.String({ description: 'The language by name (`english`)' })),
  duration: Type.Optional(Type.Number({ description: 'Seconds of audio' })),
  text: Type.String(),
  segments: Type.Optional(Type.Array(Segment)),
  words: Type.Optional(Type.Array(Word)),
  usage: Type.Object({
    seconds: Type.Number({ description: 'Seconds of audio, to the millisecond' }),
    input_tokens: Type.Integer({ description: 'Audio tokens: 10 a second' }),
    output_tokens: Type.Integer({ description: 'Tokens of the text' }),
    total_tokens: Type.Integer(),
    cost: Type.Number({ description: 'USD charged' }),
  }),
})
export type TranscriptionResult = Static<typeof TranscriptionResult>

export const TranscriptionResponse = { 200: TranscriptionResult, '4xx': ErrorEnvelope }
