// An imported state document read as it arrives, never held as one text: the envelope and the tables
// are walked byte by byte, and each row of a table (and each other value: the clock, the settings) is
// cut out and parsed by itself, with the scope's JSON parser (its prototype checks, its errors). So a
// document of a state as large as the stored bounds allow (683 MB of file parts alone, past V8's
// largest string) imports, holding its rows but never its text; a value larger than any the export
// writes is refused as it passes its bound, and the nesting is bounded as json-body.ts bounds it.
// What is read is what JSON.parse of the whole body gives (duplicate keys: the last wins).
import type { Readable } from 'node:stream'
import { errorCodes, type FastifyInstance, type FastifyRequest } from 'fastify'
import { declaredLength } from '../../http/body-limits.ts'
import { scopeJsonParser } from '../../http/json-body.ts'
import { nestedTooDeep } from '../../http/http.errors.ts'
import { documentValueTooLarge } from './state.errors.ts'
import { Turns } from './state-turns.service.ts'

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_OBJECT = 0x7b
const OPEN_ARRAY = 0x5b
const CLOSE_OBJECT = 0x7d
const CLOSE_ARRAY = 0x5d
const COMMA = 0x2c
const COLON = 0x3a

const isWhitespace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09
/** Where a bare value (a number, true, false, null) ends. */
const endsScalar = (c: number): boolean => isWhitespace(c) || c === COMMA || c === CLOSE_OBJECT || c === CLOSE_ARRAY

/** A chunk larger than this (an injected body comes whole) is read in slices of it, a turn each at most. */
const SLICE_BYTES = 1024 * 1024

export interface DocumentBounds {
  /** The most bytes of the whole body. */
  bodyBytes: number
  /** The most bytes of one value cut out (a row, a key, the clock, the settings). */
  valueBytes: number
  /** The deepest nesting of objects and arrays, the envelope's included. */
  depth: number
}

/** Where the walk is: what the next byte that is not white space may be. */
type Expect =
  | 'top' // the document (an object is walked; anything else is one value)
  | 'key-or-close' // after `{`
  | 'key' // after `,` in an object
  | 'colon'
  | 'value' // a member's value
  | 'member-end' // `,` or `}`
  | 'row-or-close' // after `[` of a table
  | 'row' // after `,` in a table
  | 'row-end' // `,` or `]`
  | 'end' // nothing but white space

/** A value being cut out: its bytes so far, and where its end is looked for. */
interface Cut {
  field: string
  parts: Buffer[]
  bytes: number
  /** A string (a key or a value), an object or array, or a bare value. */
  kind: 'string' | 'container' | 'scalar'
  depth: number
  inString: boolean
  /** The last byte read was the backslash of an escape (the next is skipped). */
  escaped: boolean
  /** Takes the value's text once it ends. */
  take: (text: string) => void
}

const invalidJson = (): Error => new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY()

/** A key of the envelope or of `tables`; `__proto__` is refused, as Fastify's parser refuses it anywhere in a body. */
function parseKey(text: string): string {
  let key: unknown
  try {
    key = JSON.parse(text)
  } catch {
    throw invalidJson()
  }
  if (key === '__proto__') throw invalidJson()
  return key as string
}

/**
 * Walks a state document pushed in chunks. Level 1 is the top object, 2 its `tables` object, 3 one
 * table's array; what is below (a row, or any other member's value) is cut out whole and parsed.
 */
export class StateDocumentReader {
  received = 0
  private expect: Expect = 'top'
  private level = 0
  private cut: Cut | null = null
  private top: unknown = undefined
  private doc: Record<string, unknown> | null = null
  private tables: Record<string, unknown> | null = null
  private rows: unknown[] | null = null
  private tableName = ''
  private key = ''

  private readonly bounds: DocumentBounds
  private readonly parse: (text: string) => unknown

  constructor(bounds: DocumentBounds, parse: (text: string) => unknown) {
    this.bounds = bounds
    this.parse = parse
  }

  /** Reads `chunk`; throws the refusal (an invalid document, a bound passed), after which the reader is done. */
  push(chunk: Buffer): void {
    this.received += chunk.length
    if (this.received > this.bounds.bodyBytes) throw new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE()
    let i = this.received === chunk.length && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf ? 3 : 0
    while (i < chunk.length) {
      if (this.cut) {
        const start = i
        const end = this.scan(this.cut, chunk, i)
        this.cut.parts.push(chunk.subarray(start, end === -1 ? chunk.length : end))
        this.cut.bytes += (end === -1 ? chunk.length : end) - start
        if (this.cut.bytes > this.bounds.valueBytes) throw documentValueTooLarge(this.cut.field, this.bounds.valueBytes)
        if (end === -1) return
        this.finishCut()
        i = end
        continue
      }
      const c = chunk[i]!
      if (isWhitespace(c)) {
        i++
        continue
      }
      i = this.step(c, i)
    }
  }

  /** The document, once every chunk was pushed; throws when it is not whole. */
  finish(): unknown {
    if (this.cut?.kind === 'scalar') this.finishCut()
    if (this.received === 0) throw new errorCodes.FST_ERR_CTP_EMPTY_JSON_BODY()
    if (this.cut || this.expect !== 'end') throw invalidJson()
    return this.doc ?? this.top
  }

  /** One structural byte `c` at `i` of the envelope: answers where to go on. */
  private step(c: number, i: number): number {
    switch (this.expect) {
      case 'top':
        if (c === OPEN_OBJECT) {
          this.doc = {}
          return this.openObject(1, i)
        }
        this.startCut('body', c, (text) => {
          this.top = this.parse(text)
          this.expect = 'end'
        })
        return i
      case 'key-or-close':
      case 'key':
        if (c === CLOSE_OBJECT && this.expect === 'key-or-close') return this.closeObject(i)
        if (c !== QUOTE) throw invalidJson()
        this.startCut(this.level === 1 ? 'body' : 'tables', c, (text) => {
          this.key = parseKey(text)
          this.expect = 'colon'
        })
        return i
      case 'colon':
        if (c !== COLON) throw invalidJson()
        this.expect = 'value'
        return i + 1
      case 'value':
        return this.memberValue(c, i)
      case 'member-end':
        if (c === COMMA) {
          this.expect = 'key'
          return i + 1
        }
        if (c === CLOSE_OBJECT) return this.closeObject(i)
        throw invalidJson()
      case 'row-or-close':
      case 'row': {
        if (c === CLOSE_ARRAY && this.expect === 'row-or-close') return this.closeArray(i)
        const rows = this.rows!
        this.startCut(`tables.${this.tableName}[${rows.length}]`, c, (text) => {
          rows.push(this.parse(text))
          this.expect = 'row-end'
        })
        return i
      }
      case 'row-end':
        if (c === COMMA) {
          this.expect = 'row'
          return i + 1
        }
        if (c === CLOSE_ARRAY) return this.closeArray(i)
        throw invalidJson()
      case 'end':
        throw invalidJson()
    }
  }

  /** A member's value: `tables` (an object) and each table (an array) are walked, anything else cut out. */
  private memberValue(c: number, i: number): number {
    const key = this.key
    if (this.level === 1 && key === 'tables' && c === OPEN_OBJECT) {
      this.tables = {}
      this.doc![key] = this.tables
      return this.openObject(2, i)
    }
    if (this.level === 2 && c === OPEN_ARRAY) {
      this.rows = []
      this.tableName = key
      this.tables![key] = this.rows
      this.level = 3
      this.expect = 'row-or-close'
      return i + 1
    }
    const holder = this.level === 1 ? this.doc! : this.tables!
    this.startCut(this.level === 1 ? key : `tables.${key}`, c, (text) => {
      const value = this.parse(text)
      // As Fastify's parser: a `constructor` whose value has a `prototype` is refused.
      if (key === 'constructor' && typeof value === 'object' && value !== null && Object.hasOwn(value, 'prototype')) throw invalidJson()
      holder[key] = value
      this.expect = 'member-end'
    })
    return i
  }

  private openObject(level: number, i: number): number {
    this.level = level
    this.expect = 'key-or-close'
    return i + 1
  }

  private closeObject(i: number): number {
    this.level -= 1
    this.expect = this.level === 0 ? 'end' : 'member-end'
    return i + 1
  }

  private closeArray(i: number): number {
    this.level = 2
    this.rows = null
    this.expect = 'member-end'
    return i + 1
  }

  private startCut(field: string, c: number, take: (text: string) => void): void {
    // A value cannot begin where one ends (`[1,]`, `{"a":}`).
    if (endsScalar(c) || c === COLON) throw invalidJson()
    const kind = c === QUOTE ? 'string' : c === OPEN_OBJECT || c === OPEN_ARRAY ? 'container' : 'scalar'
    this.cut = { field, parts: [], bytes: 0, kind, depth: 0, inString: false, escaped: false, take }
  }

  private finishCut(): void {
    const cut = this.cut!
    this.cut = null
    const text = (cut.parts.length === 1 ? cut.parts[0]! : Buffer.concat(cut.parts, cut.bytes)).toString('utf8')
    cut.take(text)
  }

  /**
   * Looks for the end of `cut` in `chunk` from `from`: the index just after it (a bare value's is the
   * index of the byte that ends it), or -1 when it goes on past the chunk. Strings are crossed by the
   * engine's own search for their quotes and backslashes.
   */
  private scan(cut: Cut, chunk: Buffer, from: number): number {
    let i = from
    if (cut.kind === 'scalar') {
      while (i < chunk.length && !endsScalar(chunk[i]!)) i++
      return i === chunk.length ? -1 : i
    }
    // The next quote of the chunk (its length when there is none), searched again once passed.
    let quote = -1
    while (i < chunk.length) {
      if (cut.inString) {
        if (cut.escaped) {
          cut.escaped = false
          i++
          continue
        }
        if (quote < i) {
          quote = chunk.indexOf(QUOTE, i)
          if (quote === -1) quote = chunk.length
        }
        const slash = chunk.subarray(i, quote).indexOf(BACKSLASH)
        if (slash !== -1) {
          i += slash + 1
          cut.escaped = true
          continue
        }
        if (quote === chunk.length) return -1
        i = quote + 1
        cut.inString = false
        if (cut.kind === 'string') return i
        continue
      }
      const c = chunk[i]!
      if (c === QUOTE) cut.inString = true
      else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        cut.depth++
        if (this.level + cut.depth > this.bounds.depth) throw nestedTooDeep(this.bounds.depth)
      } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
        cut.depth--
        if (cut.depth === 0) return i + 1
      }
      i++
    }
    return -1
  }
}

/**
 * Reads a state document from `payload` within the route's body limit and `bounds`: `done` gets the
 * document, or the first refusal (the rest of the body is then read and dropped). A chunk is read in
 * slices, a turn of the event loop at most each, the body paused meanwhile.
 */
export function readStateDocument(
  request: FastifyRequest,
  payload: Readable,
  bounds: Omit<DocumentBounds, 'bodyBytes'>,
  parse: (text: string) => unknown,
  done: (error: Error | null, document?: unknown) => void,
): void {
  const limit = request.routeOptions.bodyLimit
  const declared = declaredLength(request.headers)
  if (declared > limit) return done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE())
  const reader = new StateDocumentReader({ ...bounds, bodyBytes: limit }, parse)
  let failed = false
  const fail = (error: Error): void => {
    if (failed) return
    failed = true
    payload.removeListener('data', onData)
    payload.removeListener('end', onEnd)
    payload.removeListener('error', onError)
    // The stream flows on with no listener: the rest of the body is read and dropped.
    payload.resume()
    done(error)
  }
  // Chunks already received come one after the other without a turn between: the turns span them.
  const turns = new Turns()
  async function read(chunk: Buffer): Promise<void> {
    for (let at = 0; at < chunk.length && !failed; at += SLICE_BYTES) {
      reader.push(chunk.subarray(at, at + SLICE_BYTES))
      if (turns.due()) await turns.next()
    }
  }
  function onData(data: Buffer | string): void {
    payload.pause()
    read(typeof data === 'string' ? Buffer.from(data) : data).then(
      () => {
        if (!failed) payload.resume()
      },
      (error: unknown) => fail(error as Error),
    )
  }
  function onEnd(): void {
    if (failed) return
    if (!Number.isNaN(declared) && reader.received !== declared) return fail(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH())
    let document: unknown
    try {
      document = reader.finish()
    } catch (error) {
      return fail(error as Error)
    }
    failed = true
    done(null, document)
  }
  function onError(error: Error & { statusCode?: number }): void {
    if (!(typeof error.statusCode === 'number' && error.statusCode >= 400)) error.statusCode = 400
    fail(error)
  }
  payload.on('data', onData)
  payload.on('end', onEnd)
  payload.on('error', onError)
  payload.resume()
}

/** JSON bodies in `scope` (the import's) are read by readStateDocument, their values parsed by the scope's JSON parser. */
export function installStateDocumentParser(scope: FastifyInstance, bounds: Omit<DocumentBounds, 'bodyBytes'>): void {
  const parseJson = scopeJsonParser(scope)
  scope.removeContentTypeParser('application/json')
  scope.addContentTypeParser('application/json', (request, payload, done) => {
    const parse = (text: string): unknown => parseJson(request, text)
    readStateDocument(request, payload, bounds, parse, done)
  })
}
