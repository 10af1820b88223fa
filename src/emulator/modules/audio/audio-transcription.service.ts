// Transcription: reads the audio's length and hashes it (media/audio-probe.ts), writes what it says
// (media/transcript.ts: the text the emulator's own speech endpoint embedded in it, else nothing for
// silence, else sentences seeded by the audio's hash, as long as the audio, and for verbose_json its
// timeline), each a media job run in a worker thread after the account's other media jobs unless it
// is small, then bills its seconds and its text's tokens.
import type { RequestOrigin } from '../../http/request-origin.ts'
import { PiecesBody } from '../../core/buffers.ts'
import { fieldError } from '../../core/errors.ts'
import { nanosToUsd } from '../../core/money.ts'
import type { EmulatorContext } from '../module.ts'
import type { AuthContext } from '../caller.ts'
import type { CatalogModel, Region } from '../catalog/catalog.schemas.ts'
import { transcriptionNanos } from '../meter/meter-pricers.service.ts'
import { billAudio } from './audio-billing.service.ts'
import { notATranscriptionModel } from './audio.errors.ts'
import type { TranscriptionResult } from './audio.schemas.ts'
import { AUDIO_FORMATS, type AudioFormat } from '../../media/audio-probe.ts'
import type { Transcript } from '../../media/transcript.ts'

/** Audio tokens reported per second of input (one per 100 ms, OpenAI's rate for audio input). */
export const INPUT_TOKENS_PER_SECOND = 10

/** What a transcription request asks, whether it came as JSON or as a form. */
export interface TranscriptionAsk {
  model: string
  audio: Buffer
  format: AudioFormat
  /** Where the audio was in the request, and how to name its format otherwise, for errors. */
  audioField: string
  fixFormat: (format: AudioFormat) => string
  language?: string
  responseFormat: 'json' | 'verbose_json'
  temperature?: number
  granularities: readonly ('word' | 'segment')[]
  user?: string
}

const LANGUAGES: Record<string, string> = {
  ar: 'arabic',
  cs: 'czech',
  da: 'danish',
  de: 'german',
  el: 'greek',
  en: 'english',
  es: 'spanish',
  fi: 'finnish',
  fr: 'french',
  he: 'hebrew',
  hi: 'hindi',
  hu: 'hungarian',
  id: 'indonesian',
  it: 'italian',
  ja: 'japanese',
  ko: 'korean',
  nl: 'dutch',
  no: 'norwegian',
  pl: 'polish',
  pt: 'portuguese',
  ro: 'romanian',
  ru: 'russian',
  sv: 'swedish',
  th: 'thai',
  tr: 'turkish',
  uk: 'ukrainian',
  vi: 'vietnamese',
  zh: 'chinese',
}

/** The language by name, as Whisper reports it: the code's, or English (the emulator's text is English) when none is given. */
function languageOf(code: string | undefined): string {
  if (code === undefined) return 'english'
  if (!/^[A-Za-z]{2}$/.test(code)) throw fieldError('language', 'must be an ISO-639-1 code: two letters, such as en')
  return LANGUAGES[code.toLowerCase()] ?? code.toLowerCase()
}

export function transcriptionModel(ctx: EmulatorContext, id: string): CatalogModel {
  const { model } = ctx.services.catalog.resolve(id, 'transcription')
  if (!model.architecture.output_modalities.includes('transcription')) throw notATranscriptionModel(id, model.architecture.output_modalities)
  return model
}

const round3 = (n: number): number => Math.round(n * 1000) / 1000

export async function createTranscription(
  ctx: EmulatorContext,
  caller: AuthContext,
  ask: TranscriptionAsk,
  region: Region | null,
  origin: RequestOrigin,
): Promise<{ generationId: string; body: PiecesBody }> {
  const model = transcriptionModel(ctx, ask.model)
  const language = languageOf(ask.language)
  // The audio goes to the worker (its buffer is handed over): a 400 for audio that is not what it says.
  const probed = await ctx.media.reserve(caller.account.id).run({
    kind: 'audio-probe',
    audio: ask.audio,
    format: ask.format,
    field: ask.audioField,
    fixes: Object.fromEntries(AUDIO_FORMATS.map((format) => [format, ask.fixFormat(format)])) as Record<AudioFormat, string>,
  })
  if (probed.kind !== 'audio-probe') throw new Error(`a ${probed.kind} came back for an audio probe`)
  const { probed: audio, digest } = probed.value
  const seconds = Math.max(0.001, round3(audio.seconds))
  // A place of its own in the account's queue: the text of four hours is a third of a second's work.
  const written = await ctx.media.reserve(caller.account.id).run({
    kind: 'transcript',
    said: audio.embeddedText ?? (audio.silent ? '' : null),
    seconds,
    seed: ctx.config.seed,
    model: model.id,
    digest,
    timeline: ask.responseFormat === 'json' ? null : { temperature: ask.temperature ?? 0, words: ask.granularities.includes('word') },
  })
  if (written.kind !== 'transcript') throw new Error(`a ${written.kind} came back for a transcript`)
  const transcript = written.value
  const inputTokens = Math.ceil(seconds * INPUT_TOKENS_PER_SECOND)
  const outputTokens = transcript.tokens

  const billed = billAudio(ctx, caller, model, region, {
    operation: 'audio.transcriptions',
    apiType: 'stt',
    tokens: { prompt: inputTokens, completion: outputTokens },
    price: (endpoint) => transcriptionNanos(endpoint.pricing, seconds, outputTokens),
    workTokens: outputTokens,
    origin,
    user: ask.user ?? null,
  })

  const usage = {
    seconds,
    input_tokens: inputTokens,
    output_tokens: outputTokens,
    total_tokens: inputTokens + outputTokens,
    cost: nanosToUsd(billed.costNanos),
  }
  return { generationId: billed.id, body: answerBody(transcript, usage, ask.responseFormat === 'json' ? null : { language, duration: seconds }) }
}

/**
 * The answer's bytes as the route's schema (TranscriptionResult) would write them: fast-json-stringify
 * writes the required keys first (text, usage), then the optional ones, each group in the schema's
 * order. The timeline is the JSON the job wrote: a 4-hour verbose transcript is 3 MB of it, which the
 * emulator's thread would otherwise copy out of the worker as objects, serialize and encode again.
 */
export function answerBody(transcript: Transcript, usage: TranscriptionResult['usage'], verbose: { language: string; duration: number } | null): PiecesBody {
  const { seconds, input_tokens, output_tokens, total_tokens, cost } = usage
  const required = `{"text":${JSON.stringify(transcript.text)},"usage":${JSON.stringify({ seconds, input_tokens, output_tokens, total_tokens, cost })}`
  if (verbose === null) return new PiecesBody([Buffer.from(`${required}}`)])
  const head = `${required},"task":"transcribe","language":${JSON.stringify(verbose.language)},"duration":${JSON.stringify(verbose.duration)},"segments":`
  const bytes = (json: Uint8Array): Buffer => Buffer.from(json.buffer, json.byteOffset, json.byteLength)
  const words = transcript.words === null ? [] : [Buffer.from(',"words":'), bytes(transcript.words)]
  return new PiecesBody([Buffer.from(head), transcript.segments === null ? Buffer.from('[]') : bytes(transcript.segments), ...words, Buffer.from('}')])
}
