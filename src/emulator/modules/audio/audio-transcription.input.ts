// A transcription request's two shapes made one: JSON with base64 `input_audio` {data, format}, and
// the OpenAI-style multipart form (a `file` and text fields). Each problem is a 400 naming its field
// (`input_audio.data`, `file`, `temperature`); an upload over 25 MB is a 413, before the form is read
// when its declared length says so.
import type { FastifyRequest, preParsingHookHandler } from 'fastify'
import { ApiError, fieldError } from '../../core/errors.ts'
import { declaredLength } from '../../http/body-limits.ts'
import { readFormFile } from '../../http/form-file.ts'
import type { MediaBody } from '../../http/media-body.ts'
import { compileCheck } from '../../http/validation.ts'
import { fileTooLarge, malformedForm } from './audio.errors.ts'
import { MAX_BASE64_CHARS, MAX_JSON_AUDIO_BYTES, MAX_UPLOAD_BYTES, TranscriptionFormFields, type TranscriptionBody } from './audio.schemas.ts'
import { FORMAT_LIST, formatNamed, formatOfUpload, sniff, type AudioFormat } from '../../media/audio-probe.ts'
import { allMatch } from '../../media/slices.ts'
import type { TranscriptionAsk } from './audio-transcription.service.ts'

/** Base64 in either alphabet, with line breaks allowed (as `base64` writes it), padded or not: its run, then its tail. */
const BASE64_RUN = /^[A-Za-z0-9+/_\-\r\n ]*$/
const BASE64_TAIL = /={0,2}[\r\n ]*$/

function namedFormat(name: string, field: string): AudioFormat {
  const format = formatNamed(name)
  if (!format)
    throw fieldError(field, `must be one of ${FORMAT_LIST} (also wave, mpeg, mpga, oga, opus, mp4); the emulator cannot measure ${JSON.stringify(name)} audio`)
  return format
}

const audioTooLong = (field: string): ApiError => fieldError(field, `must be at most ${MAX_JSON_AUDIO_BYTES / 1024 / 1024} MB of audio`)

/** A JSON body's base64 audio is bounded as it arrives; the rest of the body together at most 64 KB. */
export const TRANSCRIPTION_MEDIA: MediaBody = {
  fields: [{ path: 'input_audio.data', maxChars: MAX_BASE64_CHARS, refuse: audioTooLong }],
  otherBytes: 64 * 1024,
}

/** The JSON request's ask; its audio (up to 43 MB of base64) is checked a slice at a time, other requests answered between. */
export async function askFromJson(body: TranscriptionBody): Promise<TranscriptionAsk> {
  const { data, format } = body.input_audio
  if (data.length === 0) throw fieldError('input_audio.data', 'must not be empty')
  if (data.startsWith('data:')) throw fieldError('input_audio.data', 'must be base64 of the raw bytes, not a data URI')
  const tail = BASE64_TAIL.exec(data.slice(-256))!
  if (!(await allMatch(data, BASE64_RUN, data.length - tail[0].length))) throw fieldError('input_audio.data', 'is not valid base64')
  const audio = Buffer.from(data, 'base64')
  if (audio.length > MAX_JSON_AUDIO_BYTES) throw audioTooLong('input_audio.data')
  return {
    model: body.model,
    audio,
    format: namedFormat(format, 'input_audio.format'),
    audioField: 'input_audio.data',
    fixFormat: (format) => `set input_audio.format to ${format}`,
    ...(body.language !== undefined && { language: body.language }),
    responseFormat: body.response_format ?? 'json',
    ...(body.temperature !== undefined && { temperature: body.temperature }),
    granularities: body.timestamp_granularities ?? [],
    ...(body.user !== undefined && { user: body.user }),
  }
}

/** Limits of a form: one file, a few short fields. */
const FORM_LIMITS = { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 32, fieldSize: 64 * 1024, fieldNameSize: 100, headerPairs: 100 }
/** The longest form these limits allow (its file, its fields, and 64 KB for boundaries and part headers). */
export const MAX_FORM_BYTES = MAX_UPLOAD_BYTES + FORM_LIMITS.fields * FORM_LIMITS.fieldSize + 64 * 1024
/** Fields a form may repeat (the rest must come once). */
const LISTS = new Set(['timestamp_granularities[]'])

interface Upload {
  filename: string
  mimetype: string
  bytes: Buffer
}

/**
 * The route's preParsing hook: a form declared longer than any these limits allow is refused before it
 * is read (or waits its turn), with the 413 of a file over 25 MB; JSON keeps the route's own limit.
 */
export const refuseOversizedForm: preParsingHookHandler = (request, _reply, payload, done) => {
  if (request.headers['content-type']?.startsWith('multipart/form-data') && declaredLength(request.headers) > MAX_FORM_BYTES)
    return done(fileTooLarge(MAX_UPLOAD_BYTES))
  done(null, payload)
}

/** Reads the whole form as it arrives: its text fields, and its one file (at most 25 MB, held once). */
async function readForm(request: FastifyRequest): Promise<{ fields: Record<string, string[]>; file: Upload | undefined }> {
  const declared = declaredLength(request.headers)
  const fields: Record<string, string[]> = {}
  let file: Upload | undefined
  try {
    for await (const part of request.parts({ limits: FORM_LIMITS })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') throw fieldError(part.fieldname, 'is a file, but the only file of this form is `file`')
        const bytes = await readFormFile(part.file, MAX_UPLOAD_BYTES, declared)
        if (bytes === null) throw fileTooLarge(MAX_UPLOAD_BYTES)
        file = { filename: part.filename, mimetype: part.mimetype, bytes }
      } else {
        if (part.valueTruncated) throw fieldError(part.fieldname, `must be at most ${FORM_LIMITS.fieldSize / 1024} KB`)
        ;(fields[part.fieldname] ??= []).push(typeof part.value === 'string' ? part.value : JSON.stringify(part.value))
      }
    }
  } catch (error) {
    throw formError(error)
  }
  return { fields, file }
}

/** The library's and the parser's errors, in the envelope with the field they are about. */
function formError(error: unknown): ApiError {
  if (error instanceof ApiError) return error
  const code = (error as { code?: unknown }).code
  if (code === 'FST_REQ_FILE_TOO_LARGE') return fileTooLarge(MAX_UPLOAD_BYTES)
  if (code === 'FST_FILES_LIMIT') return fieldError('file', 'must be one file: the form holds more')
  if (code === 'FST_FIELDS_LIMIT') return malformedForm(`it has more than ${FORM_LIMITS.fields} fields`)
  if (code === 'FST_PROTO_VIOLATION') return malformedForm('a field is named like a property of every object')
  return malformedForm(error instanceof Error ? error.message : String(error))
}

let checkFields: ReturnType<typeof compileCheck> | undefined

/** A field's text as the type the schema wants: numbers for temperature, a list for the granularities. */
function typed(name: string, values: string[]): unknown {
  if (LISTS.has(name)) return values
  if (values.length > 1) throw fieldError(name, 'must be given once')
  const value = values[0]!
  if (name === 'temperature' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value)
  return value
}

export async function askFromForm(request: FastifyRequest): Promise<TranscriptionAsk> {
  const { fields, file } = await readForm(request)
  const values: Record<string, unknown> = {}
  for (const [name, list] of Object.entries(fields)) {
    // Other fields (prompt, stream, include[], trace...) are accepted and ignored, as JSON's are.
    if (name in TranscriptionFormFields.properties) values[name] = typed(name, list)
  }
  checkFields ??= compileCheck(TranscriptionFormFields)
  const problem = checkFields(values)
  if (problem) throw fieldError(problem.field, problem.issue)
  if (!file) throw fieldError('file', 'is required')
  const form = values as TranscriptionFormFields
  const format = formatOfUpload(file.filename, file.mimetype) ?? sniffed(file.bytes)
  return {
    model: form.model,
    audio: file.bytes,
    format,
    audioField: 'file',
    fixFormat: (format) => `name the file *.${format}`,
    ...(form.language !== undefined && { language: form.language }),
    responseFormat: form.response_format ?? 'json',
    ...(form.temperature !== undefined && { temperature: form.temperature }),
    granularities: form['timestamp_granularities[]'] ?? [],
    ...(form.user !== undefined && { user: form.user }),
  }
}

/** The format of an upload whose name and type do not say it, from its bytes. */
function sniffed(bytes: Buffer): AudioFormat {
  const seen = sniff(bytes)
  if (seen === undefined || seen === 'webm')
    throw fieldError('file', `has no format the emulator can measure: name it with an extension (.wav, .mp3...) or a content type; it reads ${FORMAT_LIST}`)
  return seen
}
