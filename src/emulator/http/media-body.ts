// JSON bodies that carry media (a video's inline frames, an image's references, a transcription's base64
// audio, a server-side file), read as they arrive instead of whole: each media field is bounded by its
// own limit as its characters come in, everything else in the body together by a small one, and the
// nesting by json-body.ts' depth. A body that breaks a bound is refused the moment it does, holding only
// what it has read so far (the rest is read and dropped): a 147 MB video whose first frame is over the
// 50 MB an image may hold is refused 50 MB into that frame, where the body read whole, decoded and parsed
// grew RSS by half a gigabyte. A body within its bounds is parsed as every JSON body is (Fastify's
// parser, with `bodyText` for the journal), so what is accepted is unchanged.
import { isAscii } from 'node:buffer'
import type { Readable } from 'node:stream'
import { errorCodes, type FastifyInstance, type FastifyRequest } from 'fastify'
import { ApiError } from '../core/errors.ts'
import { declaredLength } from './body-limits.ts'
import { MAX_JSON_DEPTH, nestedTooDeep } from './json-body.ts'

export interface MediaField {
  /** Where it is: `frame_images[].image_url.url` (`[]` any index, `*` any key). */
  path: string
  /** The most characters its string may have (as JavaScript counts them, escapes decoded). */
  maxChars: number
  /** The area's refusal of a longer one, given the field as sent (`frame_images[0].image_url.url`). */
  refuse: (field: string) => ApiError
}

export interface MediaBody {
  fields: readonly MediaField[]
  /** The most bytes the rest of a body may hold: everything but the characters of its media fields. */
  otherBytes: number
}

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_OBJECT = 0x7b
const OPEN_ARRAY = 0x5b
const CLOSE_OBJECT = 0x7d
const CLOSE_ARRAY = 0x5d
const COMMA = 0x2c
const LETTER_U = 0x75

/** A key longer than this is no media field's: kept only as far as a message needs. */
const MAX_KEY_BYTES = 256

/** A path segment: an object's key (`*`: any), or any index of an array. */
const INDEX = Symbol('index')
type Segment = string | typeof INDEX

function compile(path: string): Segment[] {
  return path.split('.').flatMap((part) => {
    const name = part.replace(/(\[\])+$/, '')
    const indices = (part.length - name.length) / 2
    return [...(name === '' ? [] : [name]), ...Array<Segment>(indices).fill(INDEX)]
  })
}

const megabytes = (bytes: number): string => `${Number((bytes / 1024 / 1024).toFixed(2))} MB`

interface Frame {
  array: boolean
  /** In an object: the key whose value is being read (null before the first, or when unreadable). */
  key: string | null
  /** In an array: the index of the value being read. */
  index: number
  /** In an object: a string here is a key. */
  expectKey: boolean
}

/** Where the scan is: outside any string, in one, just after its backslash, or in a \uXXXX escape. */
const OUTSIDE = 0
const IN_STRING = 1
const ESCAPE = 2
const UNICODE_ESCAPE = 3
/** What the string being read is: an object's key, a value, or a media field's value. */
const KEY = 0
const VALUE = 1
const MEDIA = 2

/**
 * Follows a JSON text chunk by chunk: where each string is (its path), how many characters a media
 * field has had, and how many bytes the rest of the body has taken. Malformed JSON is not judged here
 * (the parser refuses it at the end); whatever it is, every byte counts against one bound or another.
 */
export class MediaBodyScanner {
  private readonly fields: ReadonlyArray<{ field: MediaField; segments: Segment[] }>
  private readonly otherLimit: number
  private readonly depthLimit: number
  private readonly frames: Frame[] = []
  private mode = OUTSIDE
  private hexLeft = 0
  private kind = VALUE
  private media: MediaField | null = null
  private chars = 0
  private other = 0
  private key: number[] = []

  constructor(body: MediaBody, depthLimit = MAX_JSON_DEPTH) {
    this.fields = body.fields.map((field) => ({ field, segments: compile(field.path) }))
    this.otherLimit = body.otherBytes
    this.depthLimit = depthLimit
  }

  /** The next bytes of the body; the refusal of the first bound they break, if any. */
  push(chunk: Buffer): ApiError | null {
    const n = chunk.length
    let i = 0
    while (i < n) {
      if (this.mode === OUTSIDE) {
        const problem = this.outside(chunk[i]!)
        i++
        if (problem) return problem
        continue
      }
      if (this.mode === IN_STRING) {
        // Most of a media field is plain ASCII up to its closing quote: counted without a pass in JavaScript.
        const quote = chunk.indexOf(QUOTE, i)
        const end = quote === -1 ? n : quote
        const span = chunk.subarray(i, end)
        if (span.indexOf(BACKSLASH) === -1 && isAscii(span)) {
          this.take(span.length, span)
          const problem = this.check()
          if (problem) return problem
          i = end
          if (quote !== -1) {
            i++
            this.closeString()
          }
          continue
        }
      }
      // Escapes or other UTF-8: byte by byte, to the string's end or the chunk's.
      while (i < n && this.mode !== OUTSIDE) {
        this.inString(chunk[i]!)
        i++
        const problem = this.check()
        if (problem) return problem
      }
    }
    return null
  }

  private outside(c: number): ApiError | null {
    this.other++
    const top = this.frames.at(-1)
    if (c === QUOTE) this.openString(top)
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (this.frames.length >= this.depthLimit) return nestedTooDeep(this.depthLimit)
      this.frames.push({ array: c === OPEN_ARRAY, key: null, index: 0, expectKey: c === OPEN_OBJECT })
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) this.frames.pop()
    else if (c === COMMA && top) {
      if (top.array) top.index++
      else top.expectKey = true
    }
    return this.other > this.otherLimit ? this.tooMuchElse() : null
  }

  private openString(top: Frame | undefined): void {
    this.mode = IN_STRING
    this.chars = 0
    this.media = null
    if (top && !top.array && top.expectKey) {
      this.kind = KEY
      this.key = []
      return
    }
    this.media = this.mediaHere()
    this.kind = this.media ? MEDIA : VALUE
  }

  /** The media field the value being opened is, if any. */
  private mediaHere(): MediaField | null {
    for (const { field, segments } of this.fields) {
      if (segments.length !== this.frames.length) continue
      const matches = segments.every((segment, at) => {
        const frame = this.frames[at]!
        return segment === INDEX ? frame.array : !frame.array && frame.key !== null && (segment === '*' || segment === frame.key)
      })
      if (matches) return field
    }
    return null
  }

  /** The `length` bytes of `span`, plain ASCII inside the string. */
  private take(length: number, span: Buffer): void {
    this.chars += length
    if (this.kind !== MEDIA) this.other += length
    if (this.kind === KEY) for (let j = 0; j < length && this.key.length <= MAX_KEY_BYTES; j++) this.key.push(span[j]!)
  }

  /** One byte inside a string, escapes and UTF-8 counted as the characters they make. */
  private inString(c: number): void {
    if (this.kind !== MEDIA) this.other++
    // A key keeps its bytes as written (escapes decoded at its end), all but its closing quote.
    if (this.kind === KEY && this.key.length <= MAX_KEY_BYTES && !(c === QUOTE && this.mode === IN_STRING)) this.key.push(c)
    switch (this.mode) {
      case ESCAPE:
        this.mode = c === LETTER_U ? UNICODE_ESCAPE : IN_STRING
        this.hexLeft = 4
        return
      case UNICODE_ESCAPE:
        if (--this.hexLeft === 0) this.mode = IN_STRING
        return
      default:
        if (c === QUOTE) this.closeString()
        else if (c === BACKSLASH) {
          this.chars++
          this.mode = ESCAPE
        } else if (c < 0x80 || c >= 0xc0) {
          // A lead byte: four-byte sequences are two UTF-16 units; continuation bytes add nothing.
          this.chars += c >= 0xf0 ? 2 : 1
        }
    }
  }

  private closeString(): void {
    this.mode = OUTSIDE
    if (this.kind === KEY) {
      const top = this.frames.at(-1)!
      top.key = this.key.length > MAX_KEY_BYTES ? null : readKey(Buffer.from(this.key))
      top.expectKey = false
    }
    this.media = null
    this.kind = VALUE
  }

  private check(): ApiError | null {
    if (this.media && this.chars > this.media.maxChars) return this.media.refuse(this.field())
    return this.other > this.otherLimit ? this.tooMuchElse() : null
  }

  /** Where the scan is, written as the validator writes fields: `frame_images[0].image_url.url`. */
  private field(): string {
    return this.frames.reduce((path, frame) => {
      if (frame.array) return `${path}[${frame.index}]`
      if (frame.key === null) return path
      return path ? `${path}.${frame.key}` : frame.key
    }, '')
  }

  private tooMuchElse(): ApiError {
    const field = this.field() || 'body'
    const media = this.fields.map(({ field }) => `\`${field.path}\``).join(', ')
    return new ApiError(
      413,
      `Request payload too large: besides its media (${media}), a body of this route holds at most ${megabytes(this.otherLimit)}, and this one passes that at \`${field}\``,
      { metadata: { field, location: 'body', limit_bytes: this.otherLimit } },
    )
  }
}

/** A key's text: its bytes, with escapes decoded when it has any. */
function readKey(bytes: Buffer): string | null {
  if (bytes.indexOf(BACKSLASH) === -1) return bytes.toString('utf8')
  try {
    return JSON.parse(`"${bytes.toString('utf8')}"`) as string
  } catch {
    return null
  }
}

/**
 * Reads a media body from `payload` within the route's limit and `body`'s bounds; `done` gets its text,
 * or the refusal of the first bound it broke (the rest of the body is then read and dropped).
 */
function readMediaBody(request: FastifyRequest, payload: Readable, body: MediaBody, done: (error: Error | null, text?: string) => void): void {
  const limit = request.routeOptions.bodyLimit
  const declared = declaredLength(request.headers)
  if (declared > limit) return done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE())
  const scanner = new MediaBodyScanner(body)
  let chunks: Buffer[] = []
  let received = 0
  const stop = () => {
    payload.removeListener('data', onData)
    payload.removeListener('end', onEnd)
    payload.removeListener('error', onEnd)
    chunks = []
  }
  function onData(data: Buffer | string): void {
    const chunk = typeof data === 'string' ? Buffer.from(data) : data
    received += chunk.length
    const problem = received > limit ? new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE() : scanner.push(chunk)
    if (problem) {
      // The stream keeps flowing with no listener: the rest of the body is read and dropped.
      stop()
      done(problem)
      return
    }
    chunks.push(chunk)
  }
  function onEnd(error?: Error & { statusCode?: number }): void {
    const read = chunks
    stop()
    if (error) {
      if (!(typeof error.statusCode === 'number' && error.statusCode >= 400)) error.statusCode = 400
      return done(error)
    }
    if (!Number.isNaN(declared) && received !== declared) return done(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH())
    done(null, (read.length === 1 ? read[0]! : Buffer.concat(read, received)).toString('utf8'))
  }
  payload.on('data', onData)
  payload.on('end', onEnd)
  payload.on('error', onEnd)
  payload.resume()
}

/**
 * JSON bodies in `scope` (a plugin of routes that take media) are read by the media reader with
 * `body`'s bounds. Other routes keep the plain JSON parser (http/json-body.ts), whose string read is
 * the faster for small bodies.
 */
export function installMediaJsonParser(scope: FastifyInstance, body: MediaBody): void {
  const parse = scope.getDefaultJsonParser('error', 'error')
  scope.removeContentTypeParser('application/json')
  scope.addContentTypeParser('application/json', (request, payload, done) => {
    readMediaBody(request, payload, body, (error, text) => {
      if (error) return done(error, undefined)
      request.bodyText = text!
      void parse(request, text!, done)
    })
  })
}
