// The pictures the emulator "generates": a poster of flat colours, drawn from a seeded stream so the
// same (seed, identity) always gives the same picture, and a different prompt or seed a different one
// a person tells apart at a glance: a banded gradient between two hues in one of eight directions,
// and three to five shapes (discs, rings, rectangles, diamonds) in contrasting colours. Positions and
// sizes are fractions of the canvas, so one picture asked at two sizes looks the same at both.
//
// A picture is at most 16 colours: an index per pixel and a palette. PNG and JPEG get it expanded to
// RGBA; the WebP encoder packs the indices (webp.ts). Only integer and basic IEEE arithmetic is used
// (no trigonometry), so the bytes are the same on every machine.
import { createRng, type Rng } from '../core/rng.ts'

/** Red, green, blue, alpha: 0-255 each. */
export type Rgba = readonly [number, number, number, number]

export interface Picture {
  width: number
  height: number
  /** One palette index per pixel, row by row. */
  indices: Uint8Array
  /** At most 16 colours. */
  palette: Rgba[]
  /** Whether any colour is not opaque. */
  transparent: boolean
}

/** Steps of the background gradient. */
const BANDS = 8
/** Directions of the gradient, as (x, y) weights: across, down, the diagonals, and between. */
const DIRECTIONS: ReadonlyArray<readonly [number, number]> = [
  [1, 0],
  [0, 1],
  [1, 1],
  [1, -1],
  [2, 1],
  [1, 2],
  [-1, 2],
  [2, -1],
]
type ShapeKind = 'disc' | 'ring' | 'rectangle' | 'diamond'
const SHAPES: readonly ShapeKind[] = ['disc', 'ring', 'rectangle', 'diamond']

/** A colour of a hue (degrees), saturation and lightness (percent), opaque. */
export function hsl(hue: number, saturation: number, lightness: number): Rgba {
  const h = (((hue % 360) + 360) % 360) / 60
  const s = saturation / 100
  const l = lightness / 100
  const chroma = (1 - Math.abs(2 * l - 1)) * s
  const x = chroma * (1 - Math.abs((h % 2) - 1))
  const m = l - chroma / 2
  const [r, g, b] = h < 1 ? [chroma, x, 0] : h < 2 ? [x, chroma, 0] : h < 3 ? [0, chroma, x] : h < 4 ? [0, x, chroma] : h < 5 ? [x, 0, chroma] : [chroma, 0, x]
  return [Math.round((r + m) * 255), Math.round((g + m) * 255), Math.round((b + m) * 255), 255]
}

const mixColours = (a: Rgba, b: Rgba, t: number): Rgba => [
  Math.round(a[0] + (b[0] - a[0]) * t),
  Math.round(a[1] + (b[1] - a[1]) * t),
  Math.round(a[2] + (b[2] - a[2]) * t),
  255,
]

/** Draws the picture of `identity` (what was asked: model, prompt, seed, references, index) at a size. */
export function drawPicture(seed: number, identity: string, width: number, height: number, transparentBackground: boolean): Picture {
  const rng = createRng(seed, `image:${identity}`)
  const hue = rng.int(0, 359)
  const from = hsl(hue, rng.int(55, 85), rng.int(20, 35))
  const to = hsl(hue + rng.int(60, 160), rng.int(55, 85), rng.int(65, 80))
  const [dx, dy] = rng.pick(DIRECTIONS)
  const palette: Rgba[] = transparentBackground ? [[0, 0, 0, 0]] : Array.from({ length: BANDS }, (_, band) => mixColours(from, to, band / (BANDS - 1)))
  const indices = new Uint8Array(width * height)
  if (!transparentBackground) paintBands(indices, width, height, dx, dy)
  const shapes = rng.int(3, 5)
  for (let s = 0; s < shapes; s++) {
    palette.push(hsl(hue + 180 + rng.int(-50, 50) + s * 37, rng.int(60, 95), rng.int(30, 70)))
    paintShape(indices, width, height, palette.length - 1, rng)
  }
  return { width, height, indices, palette, transparent: transparentBackground }
}

/** The gradient: the band of each pixel by its position along (dx, dy), from 0 to BANDS - 1. */
function paintBands(indices: Uint8Array, width: number, height: number, dx: number, dy: number): void {
  // Position along the direction, with x and y scaled to the canvas so the bands cross it whatever its shape.
  const corners = [0, dx, dy, dx + dy]
  const low = Math.min(...corners)
  const scale = BANDS / (Math.max(...corners) - low)
  // Each column's share of the position, worked out once rather than per pixel.
  const across = Float64Array.from({ length: width }, (_, x) => (dx * (x + 0.5)) / width)
  for (let y = 0; y < height; y++) {
    const row = y * width
    const down = (dy * (y + 0.5)) / height - low
    for (let x = 0; x < width; x++) {
      const band = Math.floor((down + across[x]!) * scale)
      indices[row + x] = band < 0 ? 0 : band >= BANDS ? BANDS - 1 : band
    }
  }
}

/** One shape, its size and place drawn from the stream as fractions of the canvas, filled with `colour`. */
function paintShape(indices: Uint8Array, width: number, height: number, colour: number, rng: Rng): void {
  const kind = rng.pick(SHAPES)
  const cx = (0.15 + rng.next() * 0.7) * width
  const cy = (0.15 + rng.next() * 0.7) * height
  const unit = Math.min(width, height)
  const radius = Math.max(1, (0.1 + rng.next() * 0.22) * unit)
  // A rectangle's sides differ; the other shapes use the radius alone.
  const halfW = kind === 'rectangle' ? radius * (0.6 + rng.next() * 0.8) : radius
  const halfH = kind === 'rectangle' ? radius * (0.6 + rng.next() * 0.8) : radius
  const inner = radius * 0.55
  const x0 = Math.max(0, Math.floor(cx - halfW))
  const x1 = Math.min(width - 1, Math.ceil(cx + halfW))
  const y0 = Math.max(0, Math.floor(cy - halfH))
  const y1 = Math.min(height - 1, Math.ceil(cy + halfH))
  for (let y = y0; y <= y1; y++) {
    const py = y + 0.5 - cy
    const row = y * width
    for (let x = x0; x <= x1; x++) {
      const px = x + 0.5 - cx
      let inside: boolean
      if (kind === 'disc') inside = px * px + py * py <= radius * radius
      else if (kind === 'ring') {
        const d = px * px + py * py
        inside = d <= radius * radius && d >= inner * inner
      } else if (kind === 'diamond') inside = Math.abs(px) + Math.abs(py) <= radius
      else inside = Math.abs(px) <= halfW && Math.abs(py) <= halfH
      if (inside) indices[row + x] = colour
    }
  }
}

/** The picture as RGBA bytes, 4 per pixel (for PNG and JPEG). */
export function toRgba(picture: Picture): Buffer {
  // Its own ArrayBuffer (not the shared pool), so a 32-bit view of it is aligned.
  const out = Buffer.allocUnsafeSlow(picture.indices.length * 4)
  // Each palette colour as one word in this machine's byte order, so writing the word writes r, g, b, a.
  const colour = new Uint8Array(4)
  const word = new Uint32Array(colour.buffer)
  const flat = Uint32Array.from(picture.palette, (rgba) => (colour.set(rgba), word[0]!))
  const words = new Uint32Array(out.buffer, out.byteOffset, picture.indices.length)
  for (let i = 0; i < picture.indices.length; i++) words[i] = flat[picture.indices[i]!]!
  return out
}
