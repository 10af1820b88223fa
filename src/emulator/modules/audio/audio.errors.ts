// The words for an audio request refused for its model, its voice, its length or its upload.
import { ApiError } from '../../core/errors.ts'

export const notASpeechModel = (id: string, outputs: readonly string[]): ApiError =>
  new ApiError(400, `${id} is not a text-to-speech model (it outputs ${outputs.join(', ')}); choose a model whose output is speech or audio only`, {
    metadata: { field: 'model', location: 'body' },
  })

export const notATranscriptionModel = (id: string, outputs: readonly string[]): ApiError =>
  new ApiError(400, `${id} is not a speech-to-text model (it outputs ${outputs.join(', ')}); choose a model whose output is transcription`, {
    metadata: { field: 'model', location: 'body' },
  })

export const unknownVoice = (voice: string, model: string, voices: readonly string[]): ApiError =>
  new ApiError(400, `Field \`voice\` must be one of ${voices.join(', ')} (the voices of ${model}); ${JSON.stringify(voice)} is none of them`, {
    metadata: { field: 'voice', location: 'body', issue: 'unknown voice', supported_voices: voices },
  })

export const noVoiceCloning = (model: string): ApiError =>
  new ApiError(404, `No endpoints found that support voice cloning (input_references) for ${model}`, {
    metadata: { field: 'input_references', location: 'body', model },
  })

export const overSpeechLength = (seconds: number, speed: number, maxSeconds: number): ApiError =>
  new ApiError(
    400,
    `Field \`input\` would be ${Math.round(seconds)} seconds of speech at speed ${speed}, more than the ${maxSeconds} one request may make: shorten it or raise speed`,
    { metadata: { field: 'input', location: 'body', issue: 'over speech length', limit_seconds: maxSeconds } },
  )

export const overContext = (tokens: number, contextTokens: number, model: string): ApiError =>
  new ApiError(400, `Field \`input\` is ${tokens} tokens, more than the ${contextTokens}-token context length of ${model}: shorten it`, {
    metadata: { field: 'input', location: 'body', issue: 'over context length', limit: contextTokens, tokens },
  })

export const fileTooLarge = (limitBytes: number): ApiError =>
  new ApiError(
    413,
    `Field \`file\` is larger than ${limitBytes / 1024 / 1024} MB, the most one upload may hold: send larger audio as base64 JSON in input_audio`,
    { metadata: { field: 'file', location: 'body', limit_bytes: limitBytes } },
  )

export const malformedForm = (why: string): ApiError =>
  new ApiError(400, `Malformed multipart/form-data body: ${why}`, { metadata: { field: 'body', location: 'body' } })

export const unsupportedContentType = (accepted: string): ApiError =>
  new ApiError(400, `Unsupported Content-Type: send the body as ${accepted}`, { metadata: { field: 'content-type', location: 'headers' } })
/** A transcription sent with no body at all. */
export const transcriptionBodyRequired = (): ApiError =>
  new ApiError(400, 'Request body is required: JSON with input_audio, or a multipart/form-data form with file', {
    metadata: { field: 'body', location: 'body' },
  })
