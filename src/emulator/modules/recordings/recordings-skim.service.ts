// Skimming a JSON answer too large to hold (an upstream answer relayed as it arrives, not saved): its
// bytes pass through once, and only the small values near its top are kept (`model`, `provider`, the
// `id`, `usage` and its details, each choice's `finish_reason`, each output item's `type`), as a
// skeleton of the document that the answer readers (recordings-answers.service.ts) read as they read a whole
// answer. Long strings (an image's base64, a text) and anything deeper (vectors) are passed over
// without being kept, so the memory it takes is bounded whatever the answer's size.

/** Values deeper than this (`usage.completion_tokens_details.reasoning_tokens` is 3) are not kept. */
const MAX_PATH = 3
/** A string longer than this is passed over: what billing reads (ids, names, reasons) is short. */
const MAX_STRING_BYTES = 1024
/** A key longer than this names nothing kept. */
const MAX_KEY_BYTES = 256
/** At most this many values are kept (an output of many items). */
const MAX_VALUES = 10_000
/** A number or a literal longer than this is no value worth keeping. */
const MAX_SCALAR_CHARS = 64

const QUOTE = 0x22
const BACKSLASH = 0x5c

type Key = string | number
interface Frame {
  kind: 'object' | 'array'
  /** The key (object) or index (array) of the value being read in it; null before an object's first key. */
  key: Key | null
  /** An object waits for a key (after `{` or `,`) rather than a value (after `:`). */
  wantsKey: boolean
  /** A key too long to keep: the value under it is not kept. */
  lostKey: boolean
}

type Json = Record<string, unknown>

/**
 * Reads JSON bytes pushed in pieces (split anywhere, even inside a string or an escape) and keeps the
 * scalars whose path is at most MAX_PATH deep. Lenient: bytes that are no JSON end the reading, and
 * what was kept so far is the skeleton.
 */
export class JsonSkimmer {
  /** The containers down to MAX_PATH deep; those deeper are only counted. */
  private readonly stack: Frame[] = []
  private beyond = 0
  /** Inside a string: its kept bytes (null where it is passed over), and whether it is a key. */
  private string: { parts: Buffer[] | null; length: number; isKey: boolean } | null = null
  /** The last byte was a backslash that escapes the next one (which may come in the next piece). */
  private escaped = false
  /** A number or literal being read. */
  private scalar: string | null = null
  private kept = 0
  private broken = false
  private readonly root: Json = {}

  push(chunk: Buffer): void {
    let i = 0
    while (i < chunk.length && !this.broken) {
      if (this.string) i = this.inString(chunk, i)
      else if (this.scalar !== null) i = this.inScalar(chunk, i)
      else i = this.token(chunk, i)
    }
  }

  /** The document's kept values, as objects and arrays (arrays are sparse where items were passed over). */
  skeleton(): Json {
    if (this.scalar !== null) this.endScalar()
    return this.root
  }

  private token(chunk: Buffer, i: number): number {
    const byte = chunk[i]!
    switch (byte) {
      case 0x20:
      case 0x09:
      case 0x0a:
      case 0x0d:
        return i + 1
      case 0x7b: // {
      case 0x5b: // [
        if (this.beyond > 0 || this.stack.length === MAX_PATH) this.beyond++
        else this.stack.push({ kind: byte === 0x7b ? 'object' : 'array', key: byte === 0x7b ? null : 0, wantsKey: byte === 0x7b, lostKey: false })
        return i + 1
      case 0x7d: // }
      case 0x5d: // ]
        if (this.beyond > 0) this.beyond--
        else this.stack.pop()
        return i + 1
      case 0x3a: {
        // :
        const top = this.beyond > 0 ? undefined : this.stack.at(-1)
        if (top) top.wantsKey = false
        return i + 1
      }
      case 0x2c: {
        // ,
        const top = this.beyond > 0 ? undefined : this.stack.at(-1)
        if (top?.kind === 'array') top.key = (top.key as number) + 1
        else if (top) top.wantsKey = true
        return i + 1
      }
      case QUOTE: {
        const top = this.beyond > 0 ? undefined : this.stack.at(-1)
        const isKey = top?.kind === 'object' && top.wantsKey
        const wanted = isKey || this.keeps()
        this.string = { parts: wanted ? [] : null, length: 0, isKey }
        this.escaped = false
        return i + 1
      }
      default:
        if ((byte >= 0x30 && byte <= 0x39) || byte === 0x2d || byte === 0x74 || byte === 0x66 || byte === 0x6e) {
          this.scalar = ''
          return i
        }
        this.broken = true
        return chunk.length
    }
  }

  /** Reads a string's bytes up to its closing quote (found with indexOf: long strings cost little). */
  private inString(chunk: Buffer, start: number): number {
    const string = this.string!
    let from = start
    if (this.escaped) {
      // The escaped byte: whatever it is, it does not end the string.
      this.escaped = false
      from++
    }
    for (;;) {
      const quote = chunk.indexOf(QUOTE, from)
      const end = quote === -1 ? chunk.length : quote
      let backslashes = 0
      while (end - backslashes - 1 >= from && chunk[end - backslashes - 1] === BACKSLASH) backslashes++
      if (quote === -1) {
        // An odd run of backslashes at the end escapes the first byte of the next piece.
        this.escaped = backslashes % 2 === 1
        this.keep(string, chunk.subarray(start, chunk.length))
        return chunk.length
      }
      if (backslashes % 2 === 1) {
        from = quote + 1
        continue
      }
      this.keep(string, chunk.subarray(start, quote))
      this.string = null
      this.endString(string)
      return quote + 1
    }
  }

  private keep(string: NonNullable<JsonSkimmer['string']>, bytes: Buffer): void {
    if (string.parts === null) return
    string.length += bytes.length
    if (string.length > (string.isKey ? MAX_KEY_BYTES : MAX_STRING_BYTES)) string.parts = null
    // Copied: the piece's buffer is not ours to keep.
    else if (bytes.length > 0) string.parts.push(Buffer.from(bytes))
  }

  private endString(string: NonNullable<JsonSkimmer['string']>): void {
    const top = this.stack.at(-1)
    let text: string | null = null
    if (string.parts !== null) {
      try {
        text = JSON.parse(`"${Buffer.concat(string.parts).toString('utf8')}"`) as string
      } catch {
        text = null
      }
    }
    if (string.isKey) {
      top!.key = text
      top!.lostKey = text === null
      return
    }
    if (text !== null) this.set(text)
  }

  private inScalar(chunk: Buffer, start: number): number {
    let i = start
    while (i < chunk.length) {
      const byte = chunk[i]!
      if (byte === 0x2c || byte === 0x7d || byte === 0x5d || byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09 || byte === 0x3a) break
      i++
    }
    if (this.scalar!.length + (i - start) <= MAX_SCALAR_CHARS) this.scalar += chunk.toString('latin1', start, i)
    else this.scalar = this.scalar!.padEnd(MAX_SCALAR_CHARS + 1, ' ')
    if (i < chunk.length) this.endScalar()
    return i
  }

  private endScalar(): void {
    const text = this.scalar!
    this.scalar = null
    if (text.length > MAX_SCALAR_CHARS || !this.keeps()) return
    if (text === 'true') this.set(true)
    else if (text === 'false') this.set(false)
    else if (text === 'null') this.set(null)
    else {
      const value = Number(text)
      if (Number.isFinite(value)) this.set(value)
    }
  }

  /** Whether the value about to be read is kept: near the top, under keys short enough to keep. */
  private keeps(): boolean {
    return this.beyond === 0 && this.stack.length > 0 && this.kept < MAX_VALUES && this.stack.every((f) => !f.lostKey && f.key !== null)
  }

  /** Sets the value at the current path in the skeleton, making its objects and arrays on the way. */
  private set(value: unknown): void {
    if (!this.keeps()) return
    this.kept++
    let at: Json | unknown[] = this.root
    for (const [depth, frame] of this.stack.entries()) {
      const key = frame.key!
      if (depth === this.stack.length - 1) {
        ;(at as Record<Key, unknown>)[key] = value
        return
      }
      const next = this.stack[depth + 1]!
      const existing = (at as Record<Key, unknown>)[key]
      const made = existing !== null && typeof existing === 'object' ? existing : next.kind === 'array' ? [] : {}
      ;(at as Record<Key, unknown>)[key] = made
      at = made as Json | unknown[]
    }
  }
}
