// Image inspection for the video router's inputs (first/last frames, reference images). A request
// carries each image as a string: an http(s) URL (accepted as is: the emulator is offline and never
// fetches it), a data URI `data:image/<png|jpeg|jpg|webp>;base64,...`, or raw base64. Inline images
// are measured and identified from their bytes (the declared mime is not trusted), and their width
// and height are read from the header, so the aspect ratio can be checked.
//
// Big images stay cheap: the decoded size comes from the base64 length and padding, only a prefix of
// the base64 is decoded to read the header (a JPEG's marker walk grows it when needed), and the whole
// string is checked to be base64 a slice at a time (slices.ts), other requests answered in between.
import { crc32 } from 'node:zlib'
import { isBase64 } from './slices.ts'

export type ImageFormat = 'png' | 'jpeg' | 'webp'

export type InspectedImage = { kind: 'url'; url: string } | { kind: 'inline'; format: ImageFormat; width: number; height: number; bytes: number }

export type ImageProblemReason = 'ImageFormatInvalid' | 'PageSizeOutOfRange'

export class ImageProblem extends Error {
  override name = 'ImageProblem'
  readonly reason: ImageProblemReason
  readonly detail: string
  constructor(reason: ImageProblemReason, detail: string) {
    super(detail)
    this.reason = reason
    this.detail = detail
  }
}

export const MAX_IMAGE_BYTES = 50 * 1024 * 1024

const MIB = 1024 * 1024
const DATA_MIMES: Record<string, ImageFormat> = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/jpg': 'jpeg', 'image/webp': 'webp' }
const NOT_AN_IMAGE = 'the bytes are not a PNG, JPEG or WebP image'

const invalid = (detail: string): never => {
  throw new ImageProblem('ImageFormatInvalid', detail)
}

/** Identifies an image string; rejects with an ImageProblem when it is not acceptable. */
export async function inspectImage(value: string): Promise<InspectedImage> {
  if (/^https?:\/\//i.test(value)) {
    if (!URL.canParse(value)) invalid('the image URL is not a valid URL')
    return { kind: 'url', url: value }
  }
  let base64 = value
  if (/^data:/i.test(value)) {
    // Only the head is looked at: the payload after the comma can be tens of megabytes.
    const comma = value.indexOf(',')
    const match = comma < 0 ? null : /^([a-z0-9.+-]+\/[a-z0-9.+-]+);base64$/i.exec(value.slice(5, comma))
    if (!match) return invalid('a data URI image must look like data:image/png;base64,... (PNG, JPEG or WebP, base64-encoded)')
    const mime = match[1]!.toLowerCase()
    if (!(mime in DATA_MIMES)) invalid(`a data URI image must be image/png, image/jpeg or image/webp, not ${mime}`)
    base64 = value.slice(comma + 1)
  }
  return inspectBase64(base64)
}

async function inspectBase64(b64: string): Promise<InspectedImage> {
  const bytes = decodedLength(b64)
  if (bytes > MAX_IMAGE_BYTES) {
    throw new ImageProblem('PageSizeOutOfRange', `${megabytes(bytes)} is over the ${MAX_IMAGE_BYTES / MIB} MB limit`)
  }
  if (bytes === 0) invalid('the image is empty')
  if (!(await isBase64(b64))) invalid('the image is not valid base64 (or is not an image at all)')
  const source = new Base64Prefix(b64, bytes)
  source.ensure(12)
  const head = source.buf
  let image: { format: ImageFormat; width: number; height: number }
  if (startsWith(head, PNG_SIGNATURE)) image = { format: 'png', ...pngSize(source) }
  else if (startsWith(head, [0xff, 0xd8, 0xff])) image = { format: 'jpeg', ...jpegSize(source) }
  else if (startsWith(head, RIFF) && startsWith(head.subarray(8), WEBP)) image = { format: 'webp', ...webpSize(source) }
  else return invalid(NOT_AN_IMAGE)
  const { width, height } = image
  // Strictly between 1:4 and 4:1, in integers: no rounding at the boundary.
  if (width >= 4 * height || height >= 4 * width) {
    throw new ImageProblem('PageSizeOutOfRange', `aspect ratio ${ratio(width, height)} (${width}x${height}) is outside 1:4 to 4:1 (exclusive)`)
  }
  return { kind: 'inline', format: image.format, width, height, bytes }
}

/** Decoded byte count of a base64 string, checking its padding; throws when the length is impossible. */
function decodedLength(b64: string): number {
  let padding = 0
  if (b64.endsWith('==')) padding = 2
  else if (b64.endsWith('=')) padding = 1
  const body = b64.length - padding
  if (padding > 0 && b64.length % 4 !== 0) invalid('the image is not valid base64 (misplaced padding)')
  if (body % 4 === 1) invalid('the image is not valid base64 (its length is impossible)')
  return Math.floor(body / 4) * 3 + (body % 4 === 0 ? 0 : (body % 4) - 1)
}

function megabytes(bytes: number): string {
  const mb = bytes / MIB
  const shown = Number.isInteger(mb) ? String(mb) : mb.toFixed(1).replace(/\.0$/, '')
  // Just over the limit would round to "50 MB is over the 50 MB limit": give the bytes then.
  return Number(shown) <= MAX_IMAGE_BYTES / MIB ? `${bytes} bytes` : `${shown} MB`
}

function ratio(width: number, height: number): string {
  const g = gcd(width, height)
  const [w, h] = [width / g, height / g]
  if (w <= 100 && h <= 100) return `${w}:${h}`
  const round = (x: number) => String(Math.round(x * 100) / 100)
  return width >= height ? `${round(width / height)}:1` : `1:${round(height / width)}`
}

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b]
  return a
}

/** The decoded first bytes of a base64 string (checked to be base64 already), grown on demand: only the prefix that is asked for is decoded. */
class Base64Prefix {
  buf: Buffer = Buffer.alloc(0)
  private readonly b64: string
  readonly total: number
  constructor(b64: string, total: number) {
    this.b64 = b64
    this.total = total
  }
  /** Makes at least `end` bytes available (64 KiB at least, doubling); false when the image is shorter. */
  ensure(end: number): boolean {
    if (end <= this.buf.length) return true
    if (this.buf.length >= this.total) return false
    const want = Math.min(this.total, Math.max(end, 64 * 1024, this.buf.length * 2))
    const chars = Math.min(this.b64.length, Math.ceil(want / 3) * 4)
    this.buf = Buffer.from(this.b64.slice(0, chars), 'base64')
    return end <= this.buf.length
  }
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
const RIFF = [0x52, 0x49, 0x46, 0x46]
const WEBP = [0x57, 0x45, 0x42, 0x50]

function startsWith(buf: Buffer, magic: number[]): boolean {
  return buf.length >= magic.length && magic.every((b, i) => buf[i] === b)
}

type Size = { width: number; height: number }

// PNG: the signature, then the IHDR chunk (length 13, "IHDR", width, height, ..., CRC).
function pngSize(src: Base64Prefix): Size {
  if (!src.ensure(33)) invalid('the PNG is truncated: its IHDR header is incomplete')
  const b = src.buf
  if (b.readUInt32BE(8) !== 13 || b.toString('latin1', 12, 16) !== 'IHDR') invalid('the PNG is corrupt: it does not start with an IHDR chunk')
  if (crc32(b.subarray(12, 29)) !== b.readUInt32BE(29)) invalid('the PNG is corrupt: its IHDR checksum does not match')
  const width = b.readUInt32BE(16)
  const height = b.readUInt32BE(20)
  if (width === 0 || height === 0 || width > 0x7fffffff || height > 0x7fffffff) invalid(`the PNG header gives an impossible size ${width}x${height}`)
  return { width, height }
}

// JPEG: markers after SOI, each FF xx; segments carry a 2-byte length (which counts itself) and are
// skipped, until the first frame header SOF0..SOF15 (C0..CF except DHT C4, JPG C8, DAC CC).
function jpegSize(src: Base64Prefix): Size {
  const truncated = 'the JPEG is truncated before its frame header'
  let pos = 2
  for (;;) {
    if (!src.ensure(pos + 2)) invalid(truncated)
    if (src.buf[pos] !== 0xff) invalid('the JPEG is corrupt: a marker was expected')
    while (src.buf[pos + 1] === 0xff) {
      pos += 1 // fill bytes before a marker
      if (!src.ensure(pos + 2)) invalid(truncated)
    }
    const marker = src.buf[pos + 1]!
    pos += 2
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) continue // RSTn, TEM: no length
    if (marker === 0x00 || marker === 0xd8 || marker === 0xd9 || marker === 0xda) {
      invalid('the JPEG is corrupt: it has no frame header before its image data')
    }
    if (!src.ensure(pos + 2)) invalid(truncated)
    const length = src.buf.readUInt16BE(pos)
    if (length < 2) invalid('the JPEG is corrupt: a segment has an impossible length')
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (length < 8 || !src.ensure(pos + 7)) invalid('the JPEG frame header is truncated')
      const height = src.buf.readUInt16BE(pos + 3)
      const width = src.buf.readUInt16BE(pos + 5)
      if (width === 0 || height === 0) invalid(`the JPEG frame header gives an unsupported size ${width}x${height}`)
      return { width, height }
    }
    pos += length
  }
}

// WebP: RIFF <size> WEBP, then the first chunk: "VP8 " (lossy), "VP8L" (lossless) or "VP8X" (extended).
function webpSize(src: Base64Prefix): Size {
  if (!src.ensure(30)) invalid('the WebP is truncated: its header is incomplete')
  const b = src.buf
  const riffSize = b.readUInt32LE(4)
  if (riffSize + 8 > src.total) invalid('the WebP is truncated: it is shorter than its RIFF header says')
  const chunk = b.toString('latin1', 12, 16)
  switch (chunk) {
    case 'VP8 ': {
      // Frame tag (3 bytes, bit 0 clear on a key frame), start code 9D 01 2A, then 14-bit sizes.
      if ((b[20]! & 1) !== 0 || b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) invalid('the WebP (VP8) frame header is corrupt')
      const width = b.readUInt16LE(26) & 0x3fff
      const height = b.readUInt16LE(28) & 0x3fff
      if (width === 0 || height === 0) invalid(`the WebP (VP8) header gives an impossible size ${width}x${height}`)
      return { width, height }
    }
    case 'VP8L': {
      // Signature 0x2f, then 14 bits width-1, 14 bits height-1, 1 bit alpha, 3 bits version (0).
      if (b[20] !== 0x2f) invalid('the WebP (VP8L) header is corrupt: bad signature')
      const bits = b.readUInt32LE(21)
      if (bits >>> 29 !== 0) invalid('the WebP (VP8L) header is corrupt: unknown version')
      return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 }
    }
    case 'VP8X': {
      // Flags (1 byte), reserved (3), canvas width-1 and height-1 (24 bits each).
      return { width: b.readUIntLE(24, 3) + 1, height: b.readUIntLE(27, 3) + 1 }
    }
    default:
      return invalid(`the WebP has an unknown first chunk ${JSON.stringify(chunk)}`)
  }
}
