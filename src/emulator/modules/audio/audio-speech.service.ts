// Speech: checks the model, voice and length, bills the text and the audio, then synthesizes the
// audio and encodes it (media/synth.ts, media/audio-encode.ts) in a media worker thread. A 402, a
// full media queue (429) or any refusal comes before any sound is made; a long WAV or PCM answer is
// sent as the worker writes it.
import type { RequestOrigin } from '../../http/request-origin.ts'
import { countTokens, loadTokenizer } from '../../core/tokens.ts'
import type { EmulatorContext } from '../module.ts'
import type { AuthContext } from '../caller.ts'
import type { CatalogModel, Region } from '../catalog/catalog.schemas.ts'
import { speechNanos } from '../meter/meter-pricers.service.ts'
import { billAudio } from './audio-billing.service.ts'
import { noVoiceCloning, notASpeechModel, overContext, overSpeechLength, unknownVoice } from './audio.errors.ts'
import { MAX_SPEECH_SECONDS, type SpeechBody, type SpeechFormat } from './audio.schemas.ts'
import type { Readable } from 'node:stream'
import { WAV_HEADER_BYTES } from '../../media/audio-encode.ts'
import { GrowingBody } from '../../media/growing-body.ts'
import { speechFileBytes, type SpeechJob } from '../../media/jobs.ts'
import { SAMPLE_RATE, speechSamples } from '../../media/synth.ts'

/** Audio tokens billed per second of speech made (one per 50 ms, OpenAI's rate for audio output). */
export const SPEECH_TOKENS_PER_SECOND = 20

export const CONTENT_TYPES: Record<SpeechFormat, 'audio/pcm' | 'audio/mpeg' | 'audio/wav'> = { pcm: 'audio/pcm', mp3: 'audio/mpeg', wav: 'audio/wav' }

/** A model whose output is speech, or audio without text (a chat model that can also speak is not one). */
export const isSpeechModel = (model: CatalogModel): boolean => {
  const outputs = model.architecture.output_modalities
  return outputs.includes('speech') || (outputs.includes('audio') && !outputs.includes('text'))
}

export function speechModel(ctx: EmulatorContext, id: string): CatalogModel {
  const { model } = ctx.services.catalog.resolve(id, 'speech')
  if (!isSpeechModel(model)) throw notASpeechModel(id, model.architecture.output_modalities)
  return model
}

/** The voice a request speaks in: the one it names (among the model's), else the model's first. */
function voiceOf(model: CatalogModel, voice: string | undefined): string {
  const voices = model.supported_voices ?? []
  if (voice === undefined) return voices[0] ?? 'default'
  if (voices.length > 0 && !voices.includes(voice)) throw unknownVoice(voice, model.id, voices)
  return voice
}

/** The document: speed is "only used by models that support it (e.g. OpenAI TTS); ignored by other providers". */
const honoursSpeed = (model: CatalogModel): boolean => model.id.startsWith('openai/')

export interface Speech {
  generationId: string
  contentType: string
  /** Bytes of the answer, for its Content-Length. */
  length: number
  /** The answer: whole, or (a long WAV or PCM) sent as the worker writes it. */
  body: Buffer | Readable
}

/** The audio as the inspector plays it (raw PCM wrapped as WAV), handed over once it is whole. */
export type KeepPlayable = (playable: { contentType: 'audio/pcm' | 'audio/mpeg' | 'audio/wav'; bytes: Buffer }) => void

/**
 * Answers longer than this are streamed as they are made (the journal keeps no answer body this
 * long, only its files); shorter ones go out whole once made.
 */
const STREAM_FROM_BYTES = 4 * 1024 * 1024

const asBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)

export async function createSpeech(
  ctx: EmulatorContext,
  caller: AuthContext,
  body: SpeechBody,
  region: Region | null,
  origin: RequestOrigin,
  keep: KeepPlayable,
): Promise<Speech> {
  const model = speechModel(ctx, body.model)
  if (body.input_references !== undefined) throw noVoiceCloning(model.id)
  const voice = voiceOf(model, body.voice)
  const format: SpeechFormat = body.response_format ?? 'pcm'
  const speed = honoursSpeed(model) ? (body.speed ?? 1) : 1
  const samples = speechSamples(body.input, speed)
  const seconds = samples / SAMPLE_RATE
  if (seconds > MAX_SPEECH_SECONDS) throw overSpeechLength(seconds, speed, MAX_SPEECH_SECONDS)
  await loadTokenizer()
  const textTokens = countTokens(body.input)
  if (model.context_length > 0 && textTokens > model.context_length) throw overContext(textTokens, model.context_length, model.id)
  const audioTokens = Math.ceil(seconds * SPEECH_TOKENS_PER_SECOND)

  // A place in the account's media queue first: a full one is refused before the bill.
  const ticket = ctx.media.reserve(caller.account.id)
  let billed
  try {
    billed = billAudio(ctx, caller, model, region, {
      operation: 'audio.speech',
      apiType: 'tts',
      tokens: { prompt: textTokens, completion: audioTokens },
      price: (endpoint) => speechNanos(endpoint.pricing, textTokens, audioTokens),
      workTokens: audioTokens,
      origin,
      user: body.user ?? null,
    })
  } catch (error) {
    ticket.release()
    throw error
  }

  const job: SpeechJob = {
    kind: 'speech',
    text: body.input,
    voiceKey: `${ctx.config.seed}\u0000${model.id}\u0000${voice}`,
    styleKey: body.instructions ?? '',
    speed,
    format,
  }
  const answer = { generationId: billed.id, contentType: CONTENT_TYPES[format] }
  if (format === 'mp3') {
    const made = await ticket.run(job)
    if (made.kind !== 'mp3') throw new Error(`a ${made.kind} came back for an mp3`)
    const bytes = asBuffer(made.file)
    keep({ contentType: 'audio/mpeg', bytes })
    return { ...answer, length: bytes.length, body: bytes }
  }
  // wav and pcm are one WAV file (pcm is its samples), written by the worker in slices.
  const skip = format === 'pcm' ? WAV_HEADER_BYTES : 0
  const length = speechFileBytes(job) - skip
  let file: Uint8Array | undefined
  const stream = length > STREAM_FROM_BYTES ? new GrowingBody(length) : null
  let begun: () => void = () => {}
  const firstSlice = new Promise<void>((resolve) => (begun = resolve))
  const made = ticket.run(job, (wav, ready) => {
    file = wav
    stream?.grow(wav.subarray(skip), ready - skip)
    begun()
  })
  const whole = made.then(() => {
    // The inspector's copy is the whole file, handed over before the answer's last byte goes.
    keep({ contentType: 'audio/wav', bytes: asBuffer(file!) })
    stream?.finish()
    return asBuffer(file!.subarray(skip))
  })
  if (!stream) return { ...answer, length, body: await whole }
  // A failure before the first slice is this request's error; after it, the answer is cut short.
  whole.catch((error: unknown) => stream.destroy(error as Error))
  await Promise.race([firstSlice, made])
  return { ...answer, length, body: stream }
}
