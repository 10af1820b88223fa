// The pictures and their files: every format opens in a real decoder at the size drawn and with the
// picture's own pixels (libwebp for WebP, pngjs, jpeg-js), the same identity gives the same bytes, and
// a different prompt or seed a picture that differs at a glance.
import jpegJs from 'jpeg-js'
import pngjs from 'pngjs'
import { describe, expect, it } from 'vitest'
import { encodePicture } from '../../../src/emulator/media/image-encode.ts'
import { drawPicture, toRgba, type Picture, type Rgba } from '../../../src/emulator/media/picture.ts'
import { encodeWebp, WEBP_MAX_SIDE } from '../../../src/emulator/media/webp.ts'
import { decodeWebp } from '../../helpers/webp-decoder.ts'

/** A picture of stripes of `colours` colours, one per column (every palette size the encoder packs differently). */
function stripes(width: number, height: number, colours: number, alpha = 255): Picture {
  const palette: Rgba[] = Array.from({ length: colours }, (_, i) => [(i * 37) & 255, (i * 91 + 7) & 255, (255 - i * 13) & 255, alpha])
  const indices = Uint8Array.from({ length: width * height }, (_, i) => (i % width) % colours)
  return { width, height, indices, palette, transparent: alpha !== 255 }
}

/** The share of pixels that differ between two RGBA buffers of the same size. */
function differing(a: Buffer, b: Buffer): number {
  let count = 0
  for (let i = 0; i < a.length; i += 4) if (a[i] !== b[i] || a[i + 1] !== b[i + 1] || a[i + 2] !== b[i + 2]) count++
  return count / (a.length / 4)
}

describe('the WebP encoder', () => {
  it.each([
    [1, 7, 5],
    [2, 9, 3],
    [3, 10, 2],
    [4, 13, 4],
    [5, 17, 6],
    [16, 31, 7],
    [17, 5, 5],
    [200, 300, 2],
  ])('%i colours at %ix%i: libwebp decodes the exact pixels', (colours, width, height) => {
    const picture = stripes(width, height, colours)
    const file = encodeWebp(picture)
    expect(file.subarray(0, 4).toString('latin1')).toBe('RIFF')
    expect(file.readUInt32LE(4)).toBe(file.length - 8)
    expect(file.subarray(8, 16).toString('latin1')).toBe('WEBPVP8L')
    expect(file.length % 2).toBe(0)
    const decoded = decodeWebp(file)
    expect([decoded.width, decoded.height]).toEqual([width, height])
    expect(decoded.data.equals(toRgba(picture))).toBe(true)
  })

  it('keeps alpha: a transparent palette decodes with its alpha', () => {
    const picture = stripes(12, 4, 3, 0)
    const decoded = decodeWebp(encodeWebp(picture))
    expect(decoded.data[3]).toBe(0)
    expect(decoded.data.equals(toRgba(picture))).toBe(true)
  })

  it('refuses what the format cannot hold', () => {
    expect(() => encodeWebp(stripes(WEBP_MAX_SIDE + 1, 1, 2))).toThrow(RangeError)
    expect(() => encodeWebp({ ...stripes(4, 4, 2), palette: [] })).toThrow(RangeError)
  })
})

describe('pictures', () => {
  it('opens in each format at the size drawn, with the same pixels (JPEG within its loss)', () => {
    const picture = drawPicture(7, 'a red panda astronaut', 320, 180, false)
    const rgba = toRgba(picture)
    const png = pngjs.PNG.sync.read(encodePicture(picture, 'png'))
    expect([png.width, png.height]).toEqual([320, 180])
    expect(png.data.equals(rgba)).toBe(true)
    const webp = decodeWebp(encodePicture(picture, 'webp'))
    expect(webp.data.equals(rgba)).toBe(true)
    const jpeg = jpegJs.decode(encodePicture(picture, 'jpeg', 95), { useTArray: true })
    expect([jpeg.width, jpeg.height]).toEqual([320, 180])
    // Lossy, but the same picture: the mean difference per channel is small.
    let total = 0
    for (let i = 0; i < rgba.length; i += 4) for (let c = 0; c < 3; c++) total += Math.abs(rgba[i + c]! - jpeg.data[i + c]!)
    expect(total / ((rgba.length / 4) * 3)).toBeLessThan(6)
  })

  it('is transparent where asked: the background has alpha 0 in PNG and WebP', () => {
    const picture = drawPicture(7, 'a logo', 64, 64, true)
    const png = pngjs.PNG.sync.read(encodePicture(picture, 'png'))
    expect(png.data[3]).toBe(0)
    expect(decodeWebp(encodePicture(picture, 'webp')).data[3]).toBe(0)
    expect(png.data.some((v, i) => i % 4 === 3 && v === 255)).toBe(true)
  })

  it('is a function of (seed, identity, size): the same bytes again, other pictures for other prompts and seeds', () => {
    const once = encodePicture(drawPicture(1, 'a lighthouse at dusk', 256, 256, false), 'png')
    expect(encodePicture(drawPicture(1, 'a lighthouse at dusk', 256, 256, false), 'png').equals(once)).toBe(true)
    const base = toRgba(drawPicture(1, 'a lighthouse at dusk', 256, 256, false))
    // Most pixels change: another background, other shapes.
    expect(differing(base, toRgba(drawPicture(1, 'a lighthouse at dawn', 256, 256, false)))).toBeGreaterThan(0.5)
    expect(differing(base, toRgba(drawPicture(2, 'a lighthouse at dusk', 256, 256, false)))).toBeGreaterThan(0.5)
  })

  it('looks the same at two sizes: the colours are the same and in the same places', () => {
    const small = drawPicture(3, 'a fox', 100, 50, false)
    const large = drawPicture(3, 'a fox', 400, 200, false)
    expect(large.palette).toEqual(small.palette)
    let same = 0
    for (let y = 0; y < 50; y++) for (let x = 0; x < 100; x++) if (small.indices[y * 100 + x] === large.indices[(y * 4 + 2) * 400 + x * 4 + 2]) same++
    expect(same / 5000).toBeGreaterThan(0.95)
  })

  it('has at most 16 colours, and every pixel names one of them', () => {
    for (const identity of ['a', 'b', 'c', 'd', 'e']) {
      for (const transparent of [false, true]) {
        const picture = drawPicture(9, identity, 96, 96, transparent)
        expect(picture.palette.length).toBeLessThanOrEqual(16)
        expect(Math.max(...picture.indices)).toBeLessThan(picture.palette.length)
      }
    }
  })
})
