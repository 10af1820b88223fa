// The request detail of the gateway's other surfaces, read from a journal entry: an image generation
// (the prompt, the options, the usage when the answer was kept whole), speech (the text spoken, the
// voice and format), a transcription (the text heard, the audio's seconds, the usage) and a rerank
// (the query, then the documents in the order ranked with their scores and original places). The
// files an answer carried (images, speech, video) are listed by `mediaItems`, with the admin API
// address each is served at. Pure: no DOM, no requests.
import type { JournalEntry } from '../../../../emulator/admin/types.ts'
import { errorOf, type GatewayError } from '../../chat/answer.ts'
import { header, jsonBody, kept, LIMIT_HINT } from './body.ts'
import { type Json, isObject, num, str } from '../../chat/json.ts'

export type SurfaceKind = 'images' | 'speech' | 'transcription' | 'rerank'

const SURFACES: Record<string, SurfaceKind> = {
  'images.create': 'images',
  'images.generations': 'images',
  'audio.speech': 'speech',
  'audio.transcriptions': 'transcription',
  'rerank.create': 'rerank',
}

/** The surface an operation's detail is shown as, or null (completions have a transcript instead). */
export const surfaceOf = (operation: string): SurfaceKind | null => SURFACES[operation] ?? null

/** The parts of a journal entry the surfaces read. */
export type SurfaceSource = Pick<JournalEntry, 'id' | 'operation' | 'status' | 'request' | 'response'> & Partial<Pick<JournalEntry, 'media'>>

/** Shown label and value; a null value is left out. */
export type Fact = [label: string, value: string | null]

interface Common {
  /** Facts about the call: model, tokens, cost, generation id... */
  facts: Fact[]
  /** Why the request's fields are not shown, when they are not. */
  requestProblem: string | null
  /** Why the answer is not shown (or only partly), when it is not. */
  answerProblem: string | null
  /** The gateway's error, for a failed call. */
  error: GatewayError | null
}

export interface ImagesDetail extends Common {
  kind: 'images'
  prompt: string | null
  /** The options that shape the images (n, size, aspect_ratio, output_format...), as sent. */
  options: Fact[]
}

export interface SpeechDetail extends Common {
  kind: 'speech'
  /** The text spoken. */
  input: string | null
}

export interface TranscriptionSegment {
  start: number | null
  end: number | null
  text: string
}

export interface TranscriptionDetail extends Common {
  kind: 'transcription'
  /** The text heard. */
  text: string | null
  segments: TranscriptionSegment[]
  /** What the request sent, briefly: the audio's format and size, or that it was a form upload. */
  audio: string | null
}

export interface RankedDocument {
  /** 1 for the most relevant. */
  rank: number
  /** Its place in the request's `documents` (from 0). */
  index: number
  score: number | null
  text: string | null
  /** A document's image (a URL or a data URI), briefly. */
  image: string | null
}

export interface RerankDetail extends Common {
  kind: 'rerank'
  query: string | null
  /** The documents sent, or null when the request is not known. */
  documentCount: number | null
  topN: number | null
  ranked: RankedDocument[]
}

export type SurfaceDetail = ImagesDetail | SpeechDetail | TranscriptionDetail | RerankDetail

const KB = 1024
/** A byte count, briefly: 512 B, 29 KB, 1.4 MB. */
export const byteSize = (bytes: number): string =>
  bytes < KB ? `${bytes} B` : bytes < KB * KB ? `${Math.round(bytes / KB)} KB` : `${(bytes / (KB * KB)).toFixed(1)} MB`

/** A long text (a data URI) cut to a readable length. */
const brief = (text: string, max = 80): string =>
  text.startsWith('data:')
    ? `${text.slice(0, text.search(/[;,]/))} data URI, ${byteSize(text.length)}`
    : text.length > max
      ? `${text.slice(0, max - 1)}…`
      : text

const usd = (n: number | null): string | null => {
  if (n === null) return null
  if (n === 0) return '$0'
  const digits = Math.abs(n) >= 0.01 ? 4 : Math.min(12, 2 - Math.floor(Math.log10(Math.abs(n))))
  // Trailing zeros say nothing: $0.002, $0.04, $1.5 (but $1.00 for a whole dollar).
  return `$${n
    .toFixed(digits)
    .replace(/(\.\d*?[1-9])0+$/, '$1')
    .replace(/\.0+$/, '.00')}`
}
const text = (value: unknown): string | null => (value === undefined || value === null ? null : typeof value === 'string' ? value : JSON.stringify(value))

/** The request's JSON object, or why there is none. */
function requestOf(entry: SurfaceSource): { body: Json; problem: string | null } {
  const read = jsonBody(entry.request.body, 'request')
  if ('problem' in read) return { body: {}, problem: read.problem }
  return isObject(read.value) ? { body: read.value, problem: null } : { body: {}, problem: 'The request body is not a JSON object; see it below.' }
}

/** The answer's JSON object, the error it carries, or why there is none. */
function answerOf(entry: SurfaceSource): { body: Json; error: GatewayError | null; problem: string | null } {
  if (entry.status === 0) return { body: {}, error: null, problem: 'No answer: the connection was closed before one was sent.' }
  const read = jsonBody(entry.response.body, 'answer')
  if ('problem' in read) return { body: {}, error: null, problem: read.problem }
  const body = isObject(read.value) ? read.value : {}
  return { body, error: errorOf(body), problem: null }
}

const generationId = (entry: SurfaceSource, body: Json): string | null => header(entry.response.headers, 'x-generation-id') ?? str(body.id)

function tokens(usage: Json, input: string, output: string): string | null {
  const a = num(usage[input])
  const b = num(usage[output])
  return a === null && b === null ? null : `${a ?? '?'} input + ${b ?? '?'} output`
}

const IMAGE_OPTIONS = ['n', 'size', 'aspect_ratio', 'resolution', 'quality', 'output_format', 'background', 'seed', 'response_format'] as const

function imagesDetail(entry: SurfaceSource): ImagesDetail {
  const request = requestOf(entry)
  const answer = imageAnswer(entry)
  const usage = isObject(answer.body.usage) ? answer.body.usage : {}
  const count = Array.isArray(answer.body.data) ? answer.body.data.length : (entry.media?.length ?? null)
  return {
    kind: 'images',
    prompt: str(request.body.prompt),
    options: IMAGE_OPTIONS.map((name): Fact => [name, text(request.body[name])]).filter(([, value]) => value !== null),
    facts: [
      ['Model', str(request.body.model)],
      ['Images', count === null || answer.error ? null : String(count)],
      ['Tokens', tokens(usage, 'prompt_tokens', 'completion_tokens')],
      ['Cost', usd(num(usage.cost))],
      ['Generation id', generationId(entry, answer.body)],
    ],
    requestProblem: request.problem,
    answerProblem: answer.problem,
    error: answer.error,
  }
}

/** An image answer is mostly base64: the journal usually keeps only its start, which is said plainly. */
function imageAnswer(entry: SurfaceSource): ReturnType<typeof answerOf> {
  const body = kept(entry.response.body, 'answer')
  if (entry.status !== 0 && !('problem' in body) && body.cutBytes !== null) {
    const files = entry.media?.length ? ' The images themselves are shown from the journal’s own copies, below.' : ''
    return {
      body: {},
      error: null,
      problem: `The journal kept only the first part of the answer (${body.cutBytes} more bytes were cut, most of them base64 image data), so its usage is not shown: ${LIMIT_HINT}.${files}`,
    }
  }
  return answerOf(entry)
}

function speechDetail(entry: SurfaceSource): SpeechDetail {
  const request = requestOf(entry)
  const type = header(entry.response.headers, 'content-type')
  const failed = entry.status >= 400 || entry.status === 0
  const answer = failed ? answerOf(entry) : null
  return {
    kind: 'speech',
    input: str(request.body.input),
    facts: [
      ['Model', str(request.body.model)],
      ['Voice', str(request.body.voice)],
      // The document's default format is pcm.
      ['Format', str(request.body.response_format) ?? (request.problem ? null : 'pcm (the default)')],
      ['Speed', text(request.body.speed)],
      ['Audio', failed ? null : `${type ?? 'audio'}, ${byteSize(entry.response.body_bytes)}`],
      ['Generation id', header(entry.response.headers, 'x-generation-id')],
    ],
    requestProblem: request.problem,
    answerProblem: answer?.problem ?? null,
    error: answer?.error ?? null,
  }
}

/** A transcription's JSON request is mostly base64 audio: the journal usually keeps only its start, which is said plainly. */
function transcriptionRequest(entry: SurfaceSource): { body: Json; problem: string | null; cut?: true } {
  const body = kept(entry.request.body, 'request')
  if (!('problem' in body) && body.cutBytes !== null) {
    return {
      body: {},
      cut: true,
      problem: `The journal kept only the first part of the request body (${body.cutBytes} more bytes were cut, most of them base64 audio), so its fields are not shown here: ${LIMIT_HINT}.`,
    }
  }
  return requestOf(entry)
}

function transcriptionDetail(entry: SurfaceSource): TranscriptionDetail {
  const form = (header(entry.request.headers, 'content-type') ?? '').startsWith('multipart/form-data')
  const request: { body: Json; problem: string | null; cut?: true } = form ? { body: {}, problem: null } : transcriptionRequest(entry)
  const answer = answerOf(entry)
  const usage = isObject(answer.body.usage) ? answer.body.usage : {}
  const audio = isObject(request.body.input_audio) ? request.body.input_audio : null
  const data = audio ? str(audio.data) : null
  const seconds = num(usage.seconds) ?? num(answer.body.duration)
  return {
    kind: 'transcription',
    text: str(answer.body.text),
    segments: Array.isArray(answer.body.segments)
      ? answer.body.segments.filter(isObject).map((s) => ({ start: num(s.start), end: num(s.end), text: str(s.text) ?? '' }))
      : [],
    audio: form
      ? `a file uploaded as a multipart form (${byteSize(entry.request.body_bytes)})`
      : audio
        ? `${str(audio.format) ?? 'audio'}${data !== null ? `, ${byteSize(Math.floor((data.length * 3) / 4))}` : ''} (base64 in input_audio)`
        : request.cut
          ? `base64 audio in input_audio (a ${byteSize(entry.request.body_bytes)} request)`
          : null,
    facts: [
      ['Model', str(request.body.model)],
      ['Audio length', seconds === null ? null : `${seconds} s`],
      ['Language', str(answer.body.language) ?? str(request.body.language)],
      ['Tokens', tokens(usage, 'input_tokens', 'output_tokens')],
      ['Cost', usd(num(usage.cost))],
      ['Generation id', generationId(entry, answer.body)],
    ],
    requestProblem: request.problem,
    answerProblem: answer.problem,
    error: answer.error,
  }
}

/** A document as sent or echoed: a string, or `{text, image}`. */
function documentOf(value: unknown): { text: string | null; image: string | null } {
  if (typeof value === 'string') return { text: value, image: null }
  if (!isObject(value)) return { text: null, image: null }
  const image = str(value.image)
  return { text: str(value.text), image: image && brief(image) }
}

function rerankDetail(entry: SurfaceSource): RerankDetail {
  const request = requestOf(entry)
  const answer = answerOf(entry)
  const documents = Array.isArray(request.body.documents) ? request.body.documents : null
  const usage = isObject(answer.body.usage) ? answer.body.usage : {}
  const results = Array.isArray(answer.body.results) ? answer.body.results.filter(isObject) : []
  return {
    kind: 'rerank',
    query: str(request.body.query),
    documentCount: documents?.length ?? null,
    topN: num(request.body.top_n),
    ranked: results.map((result, i) => {
      const index = num(result.index) ?? i
      // The answer echoes each document; the request's copy stands in where it does not.
      const echoed = documentOf(result.document)
      const sent = documentOf(documents?.[index])
      return { rank: i + 1, index, score: num(result.relevance_score), text: echoed.text ?? sent.text, image: echoed.image ?? sent.image }
    }),
    facts: [
      ['Model', str(answer.body.model) ?? str(request.body.model)],
      ['Provider', str(answer.body.provider)],
      ['Search units', text(usage.search_units)],
      ['Tokens', text(usage.total_tokens)],
      ['Cost', usd(num(usage.cost))],
      ['Generation id', generationId(entry, answer.body)],
    ],
    requestProblem: request.problem,
    answerProblem: answer.problem,
    error: answer.error,
  }
}

/** An entry's detail as its surface shows it, or null for an operation that is not one of them. */
export function surfaceDetail(entry: SurfaceSource): SurfaceDetail | null {
  switch (surfaceOf(entry.operation)) {
    case 'images':
      return imagesDetail(entry)
    case 'speech':
      return speechDetail(entry)
    case 'transcription':
      return transcriptionDetail(entry)
    case 'rerank':
      return rerankDetail(entry)
    default:
      return null
  }
}

// ---- The files an answer carried ----

export type MediaKind = 'image' | 'audio' | 'video' | 'file'

export interface MediaItem {
  index: number
  kind: MediaKind
  /** Where the admin API serves it (same origin), or null for a file the journal dropped. */
  url: string | null
  contentType: string | null
  bytes: number | null
  /** A browser can show or play it in place (raw PCM it cannot: it has no header). */
  playable: boolean
  /** The name a download is saved as. */
  filename: string
  /** What it is, for an image's alt text and a player's name: "Image 1 of 2: a red panda astronaut". */
  description: string
}

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'audio/wav': 'wav',
  'audio/mpeg': 'mp3',
  'audio/pcm': 'pcm',
  'video/mp4': 'mp4',
}

const kindOf = (type: string | null): MediaKind =>
  type?.startsWith('image/') ? 'image' : type?.startsWith('audio/') ? 'audio' : type?.startsWith('video/') ? 'video' : 'file'

/** What a file of a dropped entry was (the journal forgets its type with its bytes), from the operation that made it. */
const kindByOperation = (operation: string): MediaKind =>
  operation.startsWith('images.') || operation === 'chat.create' || operation === 'responses.create'
    ? 'image'
    : operation.startsWith('audio.')
      ? 'audio'
      : operation.startsWith('video')
        ? 'video'
        : 'file'

/** The text of a message's content: a string, or its text parts joined. */
function contentText(content: unknown): string | null {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return null
  const texts = content
    .filter(isObject)
    .map((part) => str(part.text))
    .filter((t): t is string => t !== null)
  return texts.length > 0 ? texts.join(' ') : null
}

/** What the files were made from: an image's or a video's prompt, the text spoken, the last user message of a chat. */
export function promptOf(operation: string, requestBody: string | null): string | null {
  const read = jsonBody(requestBody, 'request')
  if ('problem' in read || !isObject(read.value)) return null
  const body = read.value
  if (operation === 'audio.speech') return str(body.input)
  const prompt = str(body.prompt)
  if (prompt !== null) return prompt
  if (typeof body.input === 'string') return body.input
  const turns = Array.isArray(body.messages) ? body.messages : Array.isArray(body.input) ? body.input : []
  const lastUser = turns.filter(isObject).findLast((m) => m.role === 'user')
  return lastUser ? contentText(lastUser.content) : null
}

const NOUNS: Record<MediaKind, string> = { image: 'Image', audio: 'Audio', video: 'Video', file: 'File' }

/** The files the entry's answer carried, kept or dropped, described from the request that made them. */
export function mediaItems(entry: Pick<JournalEntry, 'id' | 'operation' | 'media'> & { request?: { body: string | null } }): MediaItem[] {
  const prompt = entry.request ? promptOf(entry.operation, entry.request.body) : null
  const shown = prompt === null ? null : brief(prompt.replace(/\s+/g, ' ').trim(), 200)
  const total = entry.media.length
  return entry.media.map((file) => {
    const kind = file.content_type === null ? kindByOperation(entry.operation) : kindOf(file.content_type)
    const noun = entry.operation === 'audio.speech' && kind === 'audio' ? 'Speech' : NOUNS[kind]
    const numbered = total > 1 ? `${noun} ${file.index + 1} of ${total}` : noun
    const made = shown === null ? '' : noun === 'Speech' ? ` of “${shown}”` : `: ${shown}`
    return {
      index: file.index,
      kind,
      url: file.kept ? `/_emulator/api/journal/${entry.id}/media/${file.index}` : null,
      contentType: file.content_type,
      bytes: file.bytes,
      playable: file.kept && file.content_type !== 'audio/pcm' && kind !== 'file',
      filename: `request-${entry.id}-${kind}-${file.index + 1}.${EXTENSIONS[file.content_type ?? ''] ?? 'bin'}`,
      description: `${numbered}${made}`,
    }
  })
}
