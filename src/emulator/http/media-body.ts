// JSON bodies that carry media (a video's inline frames, an image's references, a transcription's base64
// audio, a server-side file), read as they arrive instead of whole: each media field is bounded by its
// own limit as its characters come in, everything else in the body together by a small one, and the
// nesting by json-body.ts' depth. A body that breaks a bound is refused the moment it does, holding only
// what it has read so far (the rest is read and dropped): a 147 MB video whose first frame is over the
// 50 MB an image may hold is refused 50 MB into that frame, where the body read whole, decoded and parsed
// grew RSS by half a gigabyte. A body within its bounds is never held as one text either (MediaBodyReader):
// each media value is decoded as it arrives, the rest is parsed by the scope's JSON parser (its checks,
// its errors) and the values put back, so what is accepted, and what is refused, is unchanged.
import { isAscii } from 'node:buffer'
import { StringDecoder } from 'node:string_decoder'
import type { Readable } from 'node:stream'
import { errorCodes, type FastifyInstance, type FastifyRequest } from 'fastify'
import { ApiError } from '../core/errors.ts'
import { declaredLength } from './body-limits.ts'
import { MAX_JSON_DEPTH, scopeJsonParser } from './json-body.ts'
import { nestedTooDeep, tooMuchBesidesMedia } from './http.errors.ts'

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

/** Where a value is in the body: its keys and indices from the top. */
export type ValuePath = Array<string | number>

/** What the scanner tells a reader of the bytes it walks, in order, each byte once. */
export interface MediaSink {
  /** Bytes outside any media value (a media value's quotes included). */
  other(bytes: Buffer): void
  /** Bytes of the media value being read, as written (escapes undecoded); `pendingEscape` characters at their end begin an escape that is not finished. */
  media(bytes: Buffer, pendingEscape: number): void
  /** The media value being read has ended (its closing quote comes next, as other bytes). */
  mediaEnd(at: ValuePath): void
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
  private readonly sink: MediaSink | null
  /** Where the bytes of the chunk being walked that the sink has not had yet begin. */
  private given = 0

  constructor(body: MediaBody, depthLimit = MAX_JSON_DEPTH, sink: MediaSink | null = null) {
    this.fields = body.fields.map((field) => ({ field, segments: compile(field.path) }))
    this.otherLimit = body.otherBytes
    this.depthLimit = depthLimit
    this.sink = sink
  }

  /** Characters at the end of what was read that begin an escape not yet finished (`\`, `\u12`). */
  get pendingEscape(): number {
    if (this.mode === ESCAPE) return 1
    return this.mode === UNICODE_ESCAPE ? 2 + (4 - this.hexLeft) : 0
  }

  /** The next bytes of the body; the refusal of the first bound they break, if any. */
  push(chunk: Buffer): ApiError | null {
    const n = chunk.length
    let i = 0
    this.given = 0
    while (i < n) {
      if (this.mode === OUTSIDE) {
        const problem = this.outside(chunk[i]!)
        i++
        if (problem) return problem
        // A media value opens: the bytes up to its quote are other bytes.
        if (this.kind === MEDIA) this.give(chunk, i, false)
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
            this.endMedia(chunk, quote)
            this.closeString()
            i++
          }
          continue
        }
      }
      // Escapes or other UTF-8: byte by byte, to the string's end or the chunk's.
      while (i < n && this.mode !== OUTSIDE) {
        const c = chunk[i]!
        if (c === QUOTE && this.mode === IN_STRING) this.endMedia(chunk, i)
        this.inString(c)
        i++
        const problem = this.check()
        if (problem) return problem
      }
    }
    this.give(chunk, n, this.kind === MEDIA)
    return null
  }

  /** The bytes of `chunk` from where the sink's last ones ended to `end`, as a media value's or as other bytes. */
  private give(chunk: Buffer, end: number, media: boolean): void {
    if (!this.sink || end <= this.given) return
    const bytes = chunk.subarray(this.given, end)
    this.given = end
    if (media) this.sink.media(bytes, this.pendingEscape)
    else this.sink.other(bytes)
  }

  /** The string being read ends at the quote at `quote` in `chunk`: if it is a media value, the sink is told. */
  private endMedia(chunk: Buffer, quote: number): void {
    if (this.kind !== MEDIA || !this.sink) return
    this.give(chunk, quote, true)
    this.sink.mediaEnd(this.frames.map((frame) => (frame.array ? frame.index : frame.key!)))
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
    return tooMuchBesidesMedia(media, this.otherLimit, field)
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

/** A media value as read: where it is, its string, and its text as written (the same string unless it has escapes). */
interface MediaValue {
  at: ValuePath
  value: string
  raw: string
  /** A piece of its text that is no JSON string (a control character, a bad escape), if any. */
  problem: string | null
}

/** A media value being read, a piece at a time. */
interface OpenValue {
  /** Its text decoded from the latest chunks and not yet made a piece, and how long; the characters at its end that begin an unfinished escape. */
  held: string[]
  heldChars: number
  pendingEscape: number
  decoder: StringDecoder
  /** Its string, in pieces; and its text as written, in pieces (the same strings unless it has escapes). */
  pieces: string[]
  raw: string[]
  /** An escape begun at the end of the last piece, decoded with the next one. */
  carry: string
  escaped: boolean
  problem: string | null
}

/** Characters a JSON string may not hold as they are: those below U+0020. */
const CONTROL = /[^\u0020-\uffff]/
/**
 * Characters of a media value made one piece at a time. Pieces this large are made where the garbage
 * collector never moves them (chunk-sized ones were copied about by it: half a second for 180 MB of
 * images); each chunk is decoded as it comes, so its bytes are garbage the next young collection frees.
 */
const PIECE_CHARS = 1024 * 1024

const openValue = (): OpenValue => ({
  held: [],
  heldChars: 0,
  pendingEscape: 0,
  decoder: new StringDecoder('utf8'),
  pieces: [],
  raw: [],
  carry: '',
  escaped: false,
  problem: null,
})

/**
 * A media body read as it arrives, without ever holding it as one text: each media value is decoded as
 * its bytes come (a 60 MB image is one string, made once, when its last byte is in), and the rest of
 * the body, with the media values left out (the skeleton: `"images":["",""]`), is parsed by the route's
 * JSON parser; the values are then put back where they were. Read whole, a 180 MB body was a concat, a
 * decode and a parse of 180 MB each, two seconds in which no other request was answered. The text as
 * it arrived is kept too, as a rope of its pieces (no copy), for the journal and the recorder.
 */
export class MediaBodyReader {
  private readonly scanner: MediaBodyScanner
  /** The body in order: runs of other bytes (copied: they are few), and media values. */
  private readonly parts: Array<Buffer[] | MediaValue> = [[]]
  private open: OpenValue | null = null
  private readonly pieceChars: number
  received = 0

  /** `pieceChars`: characters of a media value made one piece at a time (fewer in tests, to cut escapes and characters). */
  constructor(body: MediaBody, depthLimit = MAX_JSON_DEPTH, pieceChars = PIECE_CHARS) {
    this.pieceChars = pieceChars
    this.scanner = new MediaBodyScanner(body, depthLimit, {
      other: (bytes) => (this.parts.at(-1) as Buffer[]).push(Buffer.from(bytes)),
      media: (bytes, pendingEscape) => this.mediaBytes(bytes, pendingEscape),
      mediaEnd: (at) => this.mediaEnd(at),
    })
  }

  /** The next bytes of the body; the refusal of the first bound they break, if any. */
  push(chunk: Buffer): ApiError | null {
    this.received += chunk.length
    return this.scanner.push(chunk)
  }

  private mediaBytes(bytes: Buffer, pendingEscape: number): void {
    const open = (this.open ??= openValue())
    const text = open.decoder.write(bytes)
    open.held.push(text)
    open.heldChars += text.length
    open.pendingEscape = pendingEscape
    if (open.heldChars >= this.pieceChars) this.decode(open)
  }

  /** The text held of a media value made one piece of it, escapes decoded. */
  private decode(open: OpenValue): void {
    if (open.heldChars === 0) return
    const text = open.held.length === 1 ? open.held[0]! : open.held.join('')
    const pendingEscape = open.pendingEscape
    open.held = []
    open.heldChars = 0
    open.raw.push(text)
    if (open.problem !== null) return
    const all = open.carry + text
    const ready = all.slice(0, all.length - pendingEscape)
    open.carry = all.slice(ready.length)
    if (!ready.includes('\\') && !CONTROL.test(ready)) {
      open.pieces.push(ready)
      return
    }
    // Escapes (or what no JSON string holds): decoded by the engine's parser, a piece at a time.
    open.escaped = true
    try {
      open.pieces.push(JSON.parse(`"${ready}"`) as string)
    } catch {
      open.problem = ready
    }
  }

  private mediaEnd(at: ValuePath): void {
    const open = this.open ?? openValue()
    this.open = null
    this.decode(open)
    // Bytes of a character cut short by the closing quote: a replacement character, as a whole decode makes.
    const tail = open.decoder.end()
    if (tail !== '') {
      open.raw.push(tail)
      open.pieces.push(tail)
    }
    // Made one string now, while the rest of the body is still to come, rather than all at once at its end.
    const value = open.pieces.length === 1 ? open.pieces[0]! : open.pieces.join('')
    // Its text as written, for the body's text: a rope of its pieces, copied only if someone reads it.
    const raw = open.escaped ? open.raw.reduce((rope, piece) => rope + piece, '') : value
    this.parts.push({ at, value, raw, problem: open.problem }, [])
  }

  /**
   * The body as it arrived (a rope), and its value: the skeleton parsed by `parse` with each media
   * value put back; or, for a body that is not JSON, the error `parse` gives for text that is not (the
   * route's parser says no more than that: no position, which the skeleton would not keep).
   */
  finish(parse: (text: string) => unknown): { text: string; value?: unknown; error?: Error } {
    let text = ''
    let skeleton = ''
    const values: MediaValue[] = []
    for (const part of this.parts) {
      if (Array.isArray(part)) {
        const run = (part.length === 1 ? part[0]! : Buffer.concat(part)).toString('utf8')
        text += run
        skeleton += run
      } else {
        text += part.raw
        values.push(part)
      }
    }
    // A body that ends inside a media value: its skeleton ends in an open string, which is no JSON.
    if (this.open) text += this.open.raw.join('') + this.open.held.join('') + this.open.decoder.end()
    try {
      const bad = values.find((v) => v.problem !== null)
      if (bad) {
        // The parser's refusal of the piece that is no JSON string (small): what it says of any text that is not JSON.
        parse(`"${bad.problem}"`)
        // (It took the piece after all: then the body whole decides.)
        return { text, value: parse(text) }
      }
      return { text, value: putBack(parse(skeleton), values) }
    } catch (error) {
      return { text, error: error as Error }
    }
  }
}

/** The media values put back into `root` where the skeleton left them out, the last of any path first (the one JSON.parse keeps). */
function putBack(root: unknown, values: readonly MediaValue[]): unknown {
  const placed = new Map<object, Set<string | number>>()
  for (let k = values.length - 1; k >= 0; k--) {
    const { at, value } = values[k]!
    let holder: unknown = root
    for (const step of at.slice(0, -1))
      holder = holder !== null && typeof holder === 'object' && Object.hasOwn(holder, step) ? (holder as Record<string, unknown>)[step] : undefined
    const key = at.at(-1)!
    if (holder === null || typeof holder !== 'object' || !Object.hasOwn(holder, key)) continue
    const slots = placed.get(holder) ?? new Set()
    // Another value of the same path, later in the body, took this place: this one was overwritten.
    if (slots.has(key) || (holder as Record<string, unknown>)[key] !== '') continue
    ;(holder as Record<string, unknown>)[key] = value
    placed.set(holder, slots.add(key))
  }
  return root
}

/**
 * Reads a media body from `payload` within the route's limit and `body`'s bounds: `done` gets its text
 * and value (`parse` reads its skeleton), or the refusal of the first bound it broke (the rest of the
 * body is then read and dropped), or the parser's error.
 */
function readMediaBody(
  request: FastifyRequest,
  payload: Readable,
  body: MediaBody,
  parse: (text: string) => unknown,
  done: (error: Error | null, read?: { text: string; value: unknown }) => void,
): void {
  const limit = request.routeOptions.bodyLimit
  const declared = declaredLength(request.headers)
  if (declared > limit) return done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE())
  let reader: MediaBodyReader | null = new MediaBodyReader(body)
  const stop = () => {
    payload.removeListener('data', onData)
    payload.removeListener('end', onEnd)
    payload.removeListener('error', onEnd)
    reader = null
  }
  function onData(data: Buffer | string): void {
    const chunk = typeof data === 'string' ? Buffer.from(data) : data
    const problem = reader!.received + chunk.length > limit ? new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE() : reader!.push(chunk)
    if (problem) {
      // The stream keeps flowing with no listener: the rest of the body is read and dropped.
      stop()
      done(problem)
    }
  }
  function onEnd(error?: Error & { statusCode?: number }): void {
    const read = reader!
    stop()
    if (error) {
      if (!(typeof error.statusCode === 'number' && error.statusCode >= 400)) error.statusCode = 400
      return done(error)
    }
    if (!Number.isNaN(declared) && read.received !== declared) return done(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH())
    // A turn of the event loop first: the last media value was made one string just now (200 ms for
    // 60 MB on a slow machine), and what the route does with the body comes after other requests.
    setImmediate(() => {
      const { text, value, error: malformed } = read.finish(parse)
      request.bodyText = text
      request.bodyBytes = read.received
      if (malformed) return done(malformed)
      done(null, { text, value })
    })
  }
  payload.on('data', onData)
  payload.on('end', onEnd)
  payload.on('error', onEnd)
  payload.resume()
}

/**
 * JSON bodies in `scope` (a plugin of routes that take media) are read by the media reader with
 * `body`'s bounds, their skeletons parsed by the scope's JSON parser (its prototype checks, its errors).
 * Other routes keep the plain JSON parser (http/json-body.ts), whose string read is the faster for small
 * bodies.
 */
export function installMediaJsonParser(scope: FastifyInstance, body: MediaBody): void {
  const parseJson = scopeJsonParser(scope)
  scope.removeContentTypeParser('application/json')
  scope.addContentTypeParser('application/json', (request, payload, done) => {
    const parse = (text: string): unknown => parseJson(request, text)
    readMediaBody(request, payload, body, parse, (error, read) => done(error, read?.value))
  })
}
