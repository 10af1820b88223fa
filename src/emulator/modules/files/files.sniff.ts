// A file's type from its bytes, as the real gateway decides it (not from the name or the declared
// content type): PDF, PNG/JPEG/GIF/WebP, DOCX/XLSX/PPTX, MP3/WAV/FLAC/OGG, or UTF-8 text reported by
// its structure (JSON, NDJSON, CSV, Markdown, plain). Anything else is null: the upload is refused.

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

const isJson = (text: string): boolean => {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

const MARKDOWN = /^(#{1,6} \S|[-*+] \S|\d+\. \S|> |```|\|.*\|\s*$)|\[[^\]]+\]\([^)]+\)|\*\*[^*]+\*\*/m

/** Text by its structure: JSON, one JSON value a line, comma-separated rows, Markdown, or plain. */
function textType(text: string): string {
  const trimmed = text.trim()
  if ((trimmed.startsWith('{') || trimmed.startsWith('[')) && isJson(trimmed)) return 'application/json'
  const lines = trimmed
    .split(/\r?\n/, MAX_STRUCTURE_LINES)
    .map((l) => l.trim())
    .filter((l) => l !== '')
  if (lines.length >= 2 && lines.every((l) => (l.startsWith('{') || l.startsWith('[')) && isJson(l))) return 'application/x-ndjson'
  if (lines.length >= 2) {
    const commas = lines.map((l) => l.split(',').length - 1)
    if (commas[0]! > 0 && commas.every((c) => c === commas[0])) return 'text/csv'
  }
  if (MARKDOWN.test(trimmed)) return 'text/markdown'
  return 'text/plain'
}

/** Tab, line feed, form feed and carriage return: the only C0 controls text has. */
const TEXT_CONTROLS = new Set([0x09, 0x0a, 0x0c, 0x0d])

/** The UTF-8 text of `bytes`, or null when they are not text (invalid UTF-8, or the control bytes of binary data). */
function utf8Text(bytes: Uint8Array): string | null {
  for (const byte of bytes) if (byte < 0x20 && !TEXT_CONTROLS.has(byte)) return null
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return null
  }
}

export function sniffFileType(bytes: Uint8Array): string | null {
  if (startsWith(bytes, ascii('%PDF-'))) return 'application/pdf'
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png'
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg'
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'image/gif'
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp'
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WAVE'), 8)) return 'audio/wav'
  if (startsWith(bytes, ascii('fLaC'))) return 'audio/flac'
  if (startsWith(bytes, ascii('OggS'))) return 'audio/ogg'
  if (startsWith(bytes, ascii('ID3')) || isMpegFrame(bytes)) return 'audio/mpeg'
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return officeType(bytes)
  const text = utf8Text(bytes)
  return text === null ? null : textType(text)
}

/** What the gateway takes, for the words of a refusal. */
export const ACCEPTED_TYPES = 'a PDF, a PNG/JPEG/GIF/WebP image, a DOCX/XLSX/PPTX document, an MP3/WAV/FLAC/OGG audio file, or UTF-8 text'
