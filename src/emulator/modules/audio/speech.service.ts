// Speech: checks the model, voice and length, bills the text and the audio, then synthesizes the
// audio (synth.ts) and encodes it. A 402 or any refusal comes before any sound is made.
import type { RequestOrigin } from '../../http/request-origin.ts'
import { priceUsd, usdToNanos } from '../../core/money.ts'
import { countTokens, loadTokenizer } from '../../core/tokens.ts'
import type { EmulatorContext } from '../module.ts'
import type { AuthContext } from '../caller.ts'
import type { CatalogEndpoint, CatalogModel, Region } from '../catalog/catalog.schemas.ts'
import { invalidModelId } from '../catalog/catalog.errors.ts'
import { billAudio } from './audio.billing.ts'
import { noVoiceCloning, notASpeechModel, overContext, overSpeechLength, unknownVoice } from './audio.errors.ts'
import { MAX_SPEECH_SECONDS, type SpeechBody, type SpeechFormat } from './audio.schemas.ts'
import { mp3Bytes, pcmBytes, wavBytes } from './encode.ts'
import { embedText, SAMPLE_RATE, speechSamples, synthesize } from './synth.ts'

/** Audio tokens billed per second of speech made (one per 50 ms, OpenAI's rate for audio output). */
export const SPEECH_TOKENS_PER_SECOND = 20

export const CONTENT_TYPES: Record<SpeechFormat, 'audio/pcm' | 'audio/mpeg' | 'audio/wav'> = { pcm: 'audio/pcm', mp3: 'audio/mpeg', wav: 'audio/wav' }

/** A model whose output is speech, or audio without text (a chat model that can also speak is not one). */
export const isSpeechModel = (model: CatalogModel): boolean => {
  const outputs = model.architecture.output_modalities
  return outputs.includes('speech') || (outputs.includes('audio') && !outputs.includes('text'))
}

export function speechModel(ctx: EmulatorContext, id: string): CatalogModel {
  const model = ctx.services.catalog.get().find(id)
  if (!model) throw invalidModelId(id)
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

/**
 * What speech costs at an endpoint: the text's tokens at its prompt price, and the audio's tokens at
 * its audio output price (`audio_output`, else `audio`, as the catalog gives TTS models, else
 * `completion`), and its request price, rounded once.
 */
export function speechCostNanos(endpoint: CatalogEndpoint, textTokens: number, audioTokens: number): number {
  const pricing = endpoint.pricing
  const audioPrice = priceUsd(pricing.audio_output ?? pricing.audio ?? pricing.completion)
  return usdToNanos(textTokens * priceUsd(pricing.prompt) + audioTokens * audioPrice + priceUsd(pricing.request))
}

export interface Speech {
  generationId: string
  contentType: string
  bytes: Buffer
  /** The audio as the inspector plays it (raw PCM wrapped as WAV). */
  playable: { contentType: 'audio/pcm' | 'audio/mpeg' | 'audio/wav'; bytes: Buffer }
}

export async function createSpeech(ctx: EmulatorContext, caller: AuthContext, body: SpeechBody, region: Region | null, origin: RequestOrigin): Promise<Speech> {
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

  const billed = billAudio(ctx, caller, model, region, {
    operation: 'audio.speech',
    apiType: 'tts',
    price: (endpoint) => ({ prompt_tokens: textTokens, completion_tokens: audioTokens, cost_nanos: speechCostNanos(endpoint, textTokens, audioTokens) }),
    workTokens: audioTokens,
    origin,
    user: body.user ?? null,
  })

  const sound = synthesize({
    text: body.input,
    voiceKey: `${ctx.config.seed}\u0000${model.id}\u0000${voice}`,
    styleKey: body.instructions ?? '',
    speed,
  })
  embedText(sound, body.input)
  const bytes = format === 'mp3' ? await mp3Bytes(sound, body.input) : format === 'wav' ? wavBytes(sound) : pcmBytes(sound)
  // Raw PCM is kept for the inspector as WAV, which a browser can play.
  const playable = format === 'pcm' ? { contentType: 'audio/wav' as const, bytes: wavBytes(sound) } : { contentType: CONTENT_TYPES[format], bytes }
  return { generationId: billed.id, contentType: CONTENT_TYPES[format], bytes, playable }
}
