// Real, small image files for tests: a decoder opens each of them. PNG and WebP are written by hand
// (a solid color); JPEG comes from jpeg-js (a pure-JS encoder, a devDependency) with a gradient.
import jpegJs from 'jpeg-js'
import { crc32, deflateSync } from 'node:zlib'

export type Rgb = readonly [number, number, number]
const DEFAULT_COLOR: Rgb = [0x33, 0x99, 0xcc]

function checkSize(width: number, height: number, max: number): void {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1 || width > max || height > max) {
    throw new RangeError(`image size ${width}x${height} must be whole numbers from 1 to ${max}`)
  }
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(data.length, 0)
  head.write(type, 4, 'latin1')
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0)
  return Buffer.concat([head, data, crc])
}

/** A solid-color 8-bit RGB PNG: signature, IHDR, one zlib IDAT (filter 0 on every row), IEND. */
export function png(width: number, height: number, color: Rgb = DEFAULT_COLOR): Buffer {
  checkSize(width, height, 0x7fffffff)
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr[8] = 8 // bit depth
  ihdr[9] = 2 // color type: truecolor RGB
  // compression 0, filter 0, interlace 0
  const row = Buffer.alloc(1 + width * 3)
  for (let x = 0; x < width; x++) row.set(color, 1 + x * 3)
  const raw = Buffer.alloc(row.length * height)
  for (let y = 0; y < height; y++) row.copy(raw, y * row.length)
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ])
}

/** A baseline JPEG (SOF0, from jpeg-js) of a horizontal/vertical gradient. */
export function jpeg(width: number, height: number, quality = 80): Buffer {
  checkSize(width, height, 0xffff)
  const data = Buffer.alloc(width * height * 4)
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4
      data[i] = Math.floor((x * 255) / width)
      data[i + 1] = Math.floor((y * 255) / height)
      data[i + 2] = 0x80
      data[i + 3] = 0xff
    }
  }
  return jpegJs.encode({ data, width, height }, quality).data
}

/**
 * A solid-color lossless WebP (RIFF/WEBP with one VP8L chunk). The bitstream has no transforms, no
 * color cache, no meta prefix codes, and five "simple" prefix codes of one symbol each (green, red,
 * blue, alpha, distance): a one-symbol code takes zero bits, so every pixel is that literal color
 * and the pixel data is empty whatever the size.
 */
export function webp(width: number, height: number, color: Rgb = DEFAULT_COLOR): Buffer {
  checkSize(width, height, 0x4000)
  const bits = new BitWriter()
  bits.write(width - 1, 14)
  bits.write(height - 1, 14)
  bits.write(0, 1) // alpha_is_used: opaque
  bits.write(0, 3) // version 0
  bits.write(0, 1) // no transform
  bits.write(0, 1) // no color cache
  bits.write(0, 1) // no meta prefix codes
  for (const symbol of [color[1], color[0], color[2], 0xff, 0]) {
    bits.write(1, 1) // simple code
    bits.write(0, 1) // one symbol
    bits.write(1, 1) // that symbol is 8 bits wide
    bits.write(symbol, 8)
  }
  const payload = Buffer.concat([Buffer.from([0x2f]), bits.bytes()])
  const pad = payload.length % 2 // RIFF chunks are padded to an even size
  const out = Buffer.alloc(20 + payload.length + pad)
  out.write('RIFF', 0, 'latin1')
  out.writeUInt32LE(out.length - 8, 4)
  out.write('WEBPVP8L', 8, 'latin1')
  out.writeUInt32LE(payload.length, 16) // the chunk size excludes the padding byte
  payload.copy(out, 20)
  return out
}

class BitWriter {
  private readonly out: number[] = []
  private acc = 0
  private count = 0
  /** Appends `n` bits of `value`, least significant first (the VP8L bit order). */
  write(value: number, n: number): void {
    for (let i = 0; i < n; i++) {
      this.acc |= ((value >>> i) & 1) << this.count
      if (++this.count === 8) {
        this.out.push(this.acc)
        this.acc = 0
        this.count = 0
      }
    }
  }
  bytes(): Buffer {
    return Buffer.from(this.count > 0 ? [...this.out, this.acc] : this.out)
  }
}

/** `data:<mime>;base64,<bytes>`. */
export function dataUri(bytes: Buffer, mime: string): string {
  return `data:${mime};base64,${bytes.toString('base64')}`
}
