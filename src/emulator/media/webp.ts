// A small lossless WebP (VP8L) encoder for palette pictures (picture.ts), written here because no
// WebP encoder ships with Node or the emulator's dependencies. It uses one feature of the format: the
// colour-indexing transform, which stores the palette once and packs 2, 4 or 8 pixels' indices into
// each coded pixel. Every channel is written with a fixed prefix code (all symbols 8 bits long, or one
// symbol that costs no bits), so there is no entropy modelling: a 16-colour picture costs 4 bits a
// pixel. The format: https://developers.google.com/speed/webp/docs/webp_lossless_bitstream_specification
import type { Picture } from './picture.ts'

/** The format's largest side (14 bits of width - 1). */
export const WEBP_MAX_SIDE = 16384

/** Bits written least significant first, as VP8L reads them, several at a time. */
class BitWriter {
  private bytes: Uint8Array
  private at = 0
  private acc = 0
  private count = 0
  constructor(capacity: number) {
    this.bytes = new Uint8Array(capacity)
  }
  /** Appends the low `n` bits of `value` (n <= 24). */
  write(value: number, n: number): void {
    this.acc |= value << this.count
    this.count += n
    while (this.count >= 8) {
      if (this.at === this.bytes.length) this.grow()
      this.bytes[this.at++] = this.acc & 0xff
      this.acc >>>= 8
      this.count -= 8
    }
  }
  private grow(): void {
    const bigger = new Uint8Array(this.bytes.length * 2)
    bigger.set(this.bytes)
    this.bytes = bigger
  }
  finish(): Uint8Array {
    if (this.count > 0) this.write(0, 8 - this.count)
    return this.bytes.subarray(0, this.at)
  }
}

/** Each byte's bits reversed: prefix codes are read most significant bit first. */
const REVERSED = Uint8Array.from({ length: 256 }, (_, v) => {
  let r = 0
  for (let i = 0; i < 8; i++) r |= ((v >> i) & 1) << (7 - i)
  return r
})

/** Symbols of the green alphabet: 256 literals and 24 length prefixes (no colour cache). */
const GREEN_SYMBOLS = 256 + 24
/** The order in which the code-length code's lengths are written. */
const CODE_LENGTH_ORDER = [17, 18, 0, 1, 2, 3, 4, 5, 16, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]

/**
 * A "normal" prefix code in which the first 256 symbols are 8 bits long and the rest unused: with
 * symbols in order, each literal's code is its own value. The lengths themselves are written with a
 * code-length code of two 1-bit symbols, 0 (unused) and 8.
 */
function writeFlatCode(bits: BitWriter, symbols: number): void {
  bits.write(0, 1) // a normal code
  const used = CODE_LENGTH_ORDER.indexOf(8) + 1
  bits.write(used - 4, 4)
  for (let i = 0; i < used; i++) {
    const symbol = CODE_LENGTH_ORDER[i]!
    bits.write(symbol === 0 || symbol === 8 ? 1 : 0, 3)
  }
  bits.write(0, 1) // every symbol's length follows
  for (let s = 0; s < symbols; s++) bits.write(s < 256 ? 1 : 0, 1)
}

/** A "simple" prefix code of one symbol, which costs no bits to write. */
function writeOneSymbolCode(bits: BitWriter, symbol: number): void {
  bits.write(1, 1) // a simple code
  bits.write(0, 1) // of one symbol
  bits.write(1, 1) // written in 8 bits
  bits.write(symbol, 8)
}

/** The picture as a lossless WebP file (RIFF, WEBP, one VP8L chunk). */
export function encodeWebp(picture: Picture): Buffer {
  const { width, height, palette, indices } = picture
  if (width > WEBP_MAX_SIDE || height > WEBP_MAX_SIDE) throw new RangeError(`a WebP is at most ${WEBP_MAX_SIDE} pixels a side`)
  if (palette.length === 0 || palette.length > 256) throw new RangeError('a palette picture has 1 to 256 colours')
  // Indices a coded pixel holds: 8 for 2 colours, 4 for up to 4, 2 for up to 16, else 1.
  const widthBits = palette.length <= 2 ? 3 : palette.length <= 4 ? 2 : palette.length <= 16 ? 1 : 0
  const perPixel = 1 << widthBits
  const bitsPerIndex = 8 >> widthBits
  const packedWidth = Math.ceil(width / perPixel)
  const bits = new BitWriter(64 + palette.length * 4 + packedWidth * height + 64)

  bits.write(0x2f, 8) // the VP8L signature
  bits.write(width - 1, 14)
  bits.write(height - 1, 14)
  bits.write(picture.transparent ? 1 : 0, 1)
  bits.write(0, 3) // version

  bits.write(1, 1) // a transform:
  bits.write(3, 2) // colour indexing
  bits.write(palette.length - 1, 8)
  // The palette, a one-row image of its colours, each stored as its difference from the one before.
  bits.write(0, 1) // no colour cache
  for (const symbols of [GREEN_SYMBOLS, 256, 256, 256]) writeFlatCode(bits, symbols)
  writeOneSymbolCode(bits, 0) // distances: none are used
  let previous: readonly number[] = [0, 0, 0, 0]
  for (const colour of palette) {
    const [r, g, b, a] = colour.map((c, i) => (c - previous[i]!) & 0xff) as [number, number, number, number]
    bits.write(REVERSED[g]! | (REVERSED[r]! << 8) | (REVERSED[b]! << 16), 24)
    bits.write(REVERSED[a]!, 8)
    previous = colour
  }
  bits.write(0, 1) // no more transforms

  // The packed indices, in green; red, blue and alpha are one symbol each and cost nothing.
  bits.write(0, 1) // no colour cache
  bits.write(0, 1) // one set of prefix codes for the whole image
  writeFlatCode(bits, GREEN_SYMBOLS)
  for (let i = 0; i < 4; i++) writeOneSymbolCode(bits, 0)
  for (let y = 0; y < height; y++) {
    const row = y * width
    for (let px = 0; px < packedWidth; px++) {
      let green = 0
      const first = px * perPixel
      const last = Math.min(first + perPixel, width)
      for (let x = first; x < last; x++) green |= indices[row + x]! << ((x - first) * bitsPerIndex)
      bits.write(REVERSED[green]!, 8)
    }
  }

  const stream = bits.finish()
  const pad = stream.length % 2 // RIFF chunks are padded to an even size
  const file = Buffer.alloc(20 + stream.length + pad)
  file.write('RIFF', 0, 'latin1')
  file.writeUInt32LE(file.length - 8, 4)
  file.write('WEBPVP8L', 8, 'latin1')
  file.writeUInt32LE(stream.length, 16) // the chunk's size leaves out the padding
  file.set(stream, 20)
  return file
}
