// A file's type from its bytes, as the real gateway decides it (not from the name or the declared
// content type): PDF, PNG/JPEG/GIF/WebP, DOCX/XLSX/PPTX, MP3/WAV/FLAC/OGG, or UTF-8 text reported by
// its structure (JSON, NDJSON, CSV, Markdown, plain). Anything else is null: the upload is refused.
// A pure function of the bytes, linear in time and in memory (no JSON value is built, no pattern
// backtracks), so a large text can be read in a worker thread of the media pool (jobs.ts).

const startsWith = (bytes: Uint8Array, prefix: readonly number[], at = 0): boolean =>
  bytes.length >= at + prefix.length && prefix.every((b, i) => bytes[at + i] === b)

const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0))

const OFFICE = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
} as const

/** The most central directory entries read from a ZIP: enough for any real document. */
const MAX_ZIP_ENTRIES = 10_000
/** The most lines a text's structure is judged by (the rest is text either way). */
const MAX_STRUCTURE_LINES = 10_000

/** The entry names of a ZIP's central directory, or null when it has none that can be read. */
function zipEntryNames(bytes: Uint8Array): string[] | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  // The end-of-central-directory record is in the last 22 bytes plus a comment of at most 64 KiB.
  const earliest = Math.max(0, bytes.length - 22 - 0xffff)
  let end = -1
  for (let i = bytes.length - 22; i >= earliest; i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      end = i
      break
    }
  }
  if (end === -1) return null
  const entries = Math.min(view.getUint16(end + 10, true), MAX_ZIP_ENTRIES)
  let at = view.getUint32(end + 16, true)
  const names: string[] = []
  const decoder = new TextDecoder()
  for (let n = 0; n < entries; n++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50) return names.length > 0 ? names : null
    const nameLength = view.getUint16(at + 28, true)
    const extraLength = view.getUint16(at + 30, true)
    const commentLength = view.getUint16(at + 32, true)
    if (at + 46 + nameLength > bytes.length) break
    names.push(decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength)))
    at += 46 + nameLength + extraLength + commentLength
  }
  return names
}

function officeType(bytes: Uint8Array): string | null {
  const names = zipEntryNames(bytes)
  if (!names?.includes('[Content_Types].xml')) return null
  if (names.some((n) => n.startsWith('word/'))) return OFFICE.docx
  if (names.some((n) => n.startsWith('xl/'))) return OFFICE.xlsx
  if (names.some((n) => n.startsWith('ppt/'))) return OFFICE.pptx
  return null
}

/** An MPEG audio frame header: 11 sync bits, then a version and a layer that are not "reserved". */
function isMpegFrame(bytes: Uint8Array): boolean {
  if (bytes.length < 4 || bytes[0] !== 0xff || (bytes[1]! & 0xe0) !== 0xe0) return false
  const version = (bytes[1]! >> 3) & 0x03
  const layer = (bytes[1]! >> 1) & 0x03
  return version !== 0x01 && layer !== 0x00
}

// ---- JSON, checked without building it -----------------------------------------------------------

/** The character codes the JSON check reads. */
const C = {
  Tab: 0x09,
  LineFeed: 0x0a,
  Return: 0x0d,
  Space: 0x20,
  Quote: 0x22,
  Plus: 0x2b,
  Comma: 0x2c,
  Minus: 0x2d,
  Dot: 0x2e,
  Zero: 0x30,
  One: 0x31,
  Nine: 0x39,
  Colon: 0x3a,
  UpperE: 0x45,
  OpenBracket: 0x5b,
  Backslash: 0x5c,
  CloseBracket: 0x5d,
  LowerE: 0x65,
  OpenBrace: 0x7b,
  CloseBrace: 0x7d,
} as const

const isDigit = (c: number): boolean => c >= C.Zero && c <= C.Nine
const isHex = (c: number): boolean => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66)
/** The escapes a JSON string may hold after a backslash (`u` and its four hex digits apart). */
const SIMPLE_ESCAPES = new Set(ascii('"\\/bfnrt'))

/**
 * Whether `JSON.parse(text)` would succeed, decided in one pass without building the value: a 24 MB
 * array of empty arrays would take hundreds of MB as values. The nesting is a stack of one byte a
 * level (JSON.parse takes any depth, so this does too).
 */
export function isJsonText(text: string): boolean {
  const n = text.length
  let at = 0
  // 1: in an object, 0: in an array.
  let stack = new Uint8Array(64)
  let depth = 0
  const space = (): void => {
    for (; at < n; at++) {
      const c = text.charCodeAt(at)
      if (c !== C.Space && c !== C.Tab && c !== C.LineFeed && c !== C.Return) return
    }
  }
  const push = (inObject: number): void => {
    if (depth === stack.length) {
      const grown = new Uint8Array(stack.length * 2)
      grown.set(stack)
      stack = grown
    }
    stack[depth++] = inObject
  }
  /** A string from its opening quote; `at` after its closing one. */
  const string = (): boolean => {
    at++
    while (at < n) {
      const c = text.charCodeAt(at++)
      if (c === C.Quote) return true
      if (c < C.Space) return false
      if (c !== C.Backslash) continue
      const escape = text.charCodeAt(at++)
      if (escape === 0x75) {
        for (let i = 0; i < 4; i++) if (!isHex(text.charCodeAt(at++))) return false
      } else if (!SIMPLE_ESCAPES.has(escape)) return false
    }
    return false
  }
  const digits = (): boolean => {
    const from = at
    while (at < n && isDigit(text.charCodeAt(at))) at++
    return at > from
  }
  const number = (): boolean => {
    if (text.charCodeAt(at) === C.Minus) at++
    const first = text.charCodeAt(at)
    if (first === C.Zero) at++
    else if (first >= C.One && first <= C.Nine) digits()
    else return false
    if (text.charCodeAt(at) === C.Dot) {
      at++
      if (!digits()) return false
    }
    const e = text.charCodeAt(at)
    if (e === C.LowerE || e === C.UpperE) {
      at++
      const sign = text.charCodeAt(at)
      if (sign === C.Plus || sign === C.Minus) at++
      if (!digits()) return false
    }
    return true
  }
  const word = (literal: string): boolean => {
    if (!text.startsWith(literal, at)) return false
    at += literal.length
    return true
  }
  /** An object's key and its colon, `at` on the key's quote. */
  const key = (): boolean => {
    if (text.charCodeAt(at) !== C.Quote || !string()) return false
    space()
    if (text.charCodeAt(at) !== C.Colon) return false
    at++
    space()
    return true
  }

  space()
  for (;;) {
    // A value starts at `at`.
    const c = text.charCodeAt(at)
    let scalar: boolean
    if (c === C.OpenBrace || c === C.OpenBracket) {
      at++
      space()
      const close = c === C.OpenBrace ? C.CloseBrace : C.CloseBracket
      if (text.charCodeAt(at) === close) {
        at++
        scalar = true
      } else {
        push(c === C.OpenBrace ? 1 : 0)
        if (c === C.OpenBrace && !key()) return false
        continue
      }
    } else if (c === C.Quote) scalar = string()
    else if (c === C.Minus || isDigit(c)) scalar = number()
    else if (c === 0x74) scalar = word('true')
    else if (c === 0x66) scalar = word('false')
    else if (c === 0x6e) scalar = word('null')
    else return false
    if (!scalar) return false
    // After a value: a comma and the next, or the end of its containers.
    for (;;) {
      space()
      if (depth === 0) return at === n
      const inObject = stack[depth - 1] === 1
      const next = text.charCodeAt(at)
      if (next === C.Comma) {
        at++
        space()
        if (inObject && !key()) return false
        break
      }
      if (next !== (inObject ? C.CloseBrace : C.CloseBracket)) return false
      at++
      depth--
    }
  }
}

// ---- Markdown, found in one pass -----------------------------------------------------------------

/** Markdown a line starts with: a heading, a list item, a quote, a code fence, a table row. Linear: anchored at line starts. */
const MARKDOWN_LINE = /^(#{1,6} \S|[-*+] \S|\d+\. \S|> |```|\|.*\|\s*$)/m
/** Bold text. Linear: each run between asterisks is tried from the one `**` before it. */
const MARKDOWN_BOLD = /\*\*[^*]+\*\*/

/**
 * Whether the text holds a link, as /\[[^\]]+\]\([^)]+\)/ finds one, in one pass (that pattern takes
 * time quadratic in a text of many `[` and no `]`): a `]` directly followed by `(`, with a `[` at least
 * two places before it and no `]` between them, and after the `(` a character that is not `)` and
 * later a `)`.
 */
function hasLink(text: string): boolean {
  const lastParen = text.lastIndexOf(')')
  let previousClose = -1
  // The first `[` after the previous `]` (-1: none), found again only once a `]` passes it.
  let open = text.indexOf('[')
  for (let close = text.indexOf(']'); close !== -1 && open !== -1; close = text.indexOf(']', close + 1)) {
    if (open < previousClose) {
      open = text.indexOf('[', previousClose + 1)
      if (open === -1) return false
    }
    if (open <= close - 2 && text.charCodeAt(close + 1) === 0x28 && close + 2 < text.length && text.charCodeAt(close + 2) !== 0x29 && lastParen > close + 2)
      return true
    previousClose = close
  }
  return false
}

/** Whether the text holds Markdown: what MARKDOWN_LINE, a link or bold text find. */
export function hasMarkdown(text: string): boolean {
  return MARKDOWN_LINE.test(text) || hasLink(text) || MARKDOWN_BOLD.test(text)
}

// ---- Text ----------------------------------------------------------------------------------------

const startsLikeJson = (text: string): boolean => text.startsWith('{') || text.startsWith('[')

/** How many commas a line holds. */
function commas(line: string): number {
  let count = 0
  for (let at = line.indexOf(','); at !== -1; at = line.indexOf(',', at + 1)) count++
  return count
}

/** Text by its structure: JSON, one JSON value a line, comma-separated rows, Markdown, or plain. */
function textType(text: string): string {
  const trimmed = text.trim()
  if (startsLikeJson(trimmed) && isJsonText(trimmed)) return 'application/json'
  const lines = trimmed
    .split(/\r?\n/, MAX_STRUCTURE_LINES)
    .map((l) => l.trim())
    .filter((l) => l !== '')
  if (lines.length >= 2 && lines.every((l) => startsLikeJson(l) && isJsonText(l))) return 'application/x-ndjson'
  if (lines.length >= 2) {
    const first = commas(lines[0]!)
    if (first > 0 && lines.every((l) => commas(l) === first)) return 'text/csv'
  }
  if (hasMarkdown(trimmed)) return 'text/markdown'
  return 'text/plain'
}

/** The UTF-8 text of `bytes`, or null when they are not text (invalid UTF-8, or the control bytes of binary data). */
function utf8Text(bytes: Uint8Array): string | null {
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!
    // Tab, line feed, form feed and carriage return are the only C0 controls text has.
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d) return null
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return null
  }
}

/**
 * What the first bytes alone say: a type, null for what is refused whatever follows, or undefined when
 * the whole file must be read (a ZIP's directory, text). Whatever it says, sniffFileType says too.
 */
export function sniffHead(bytes: Uint8Array): string | null | undefined {
  if (startsWith(bytes, ascii('%PDF-'))) return 'application/pdf'
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png'
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg'
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'image/gif'
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp'
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WAVE'), 8)) return 'audio/wav'
  if (startsWith(bytes, ascii('fLaC'))) return 'audio/flac'
  if (startsWith(bytes, ascii('OggS'))) return 'audio/ogg'
  if (startsWith(bytes, ascii('ID3')) || isMpegFrame(bytes)) return 'audio/mpeg'
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return undefined
  // Text has no control byte but tab, line and form feeds and carriage returns: the first byte may say it is none.
  const first = bytes[0]
  if (first !== undefined && first < 0x20 && first !== 0x09 && first !== 0x0a && first !== 0x0c && first !== 0x0d) return null
  return undefined
}

export function sniffFileType(bytes: Uint8Array): string | null {
  const head = sniffHead(bytes)
  if (head !== undefined) return head
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return officeType(bytes)
  const text = utf8Text(bytes)
  return text === null ? null : textType(text)
}

/** What the gateway takes, for the words of a refusal. */
export const ACCEPTED_TYPES = 'a PDF, a PNG/JPEG/GIF/WebP image, a DOCX/XLSX/PPTX document, an MP3/WAV/FLAC/OGG audio file, or UTF-8 text'
