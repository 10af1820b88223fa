// Seeded randomness: every draw of the emulator comes from here. Two kinds:
// - deriveHex()/deriveUnit(): a value fixed by (seed, label), independent of call order, for things
//   tests hard-code (the seeded keys, member ids) and for draws that must not depend on what ran
//   before (a task's outcome, a fault's probability);
// - createRng(): a fast stream (sfc32) for probabilities and picks, seeded from (seed, label); faker
//   draws from one too (core/faker.ts).
import { createHash } from 'node:crypto'

export interface Rng {
  /** Uniform float in [0, 1). */
  next(): number
  int(minInclusive: number, maxInclusive: number): number
  pick<T>(items: readonly T[]): T
  hex(chars: number): string
  chance(probability: number): boolean
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}

/** `chars` hex digits fixed by (seed, label); longer outputs chain further hashes. */
export function deriveHex(seed: number, label: string, chars = 64): string {
  let out = ''
  for (let block = 0; out.length < chars; block++) out += sha256Hex(`${seed}\u0000${label}\u0000${block}`)
  return out.slice(0, chars)
}

/** A draw in [0, 1) fixed by (seed, label): 48 bits of deriveHex. */
export const deriveUnit = (seed: number, label: string): number => Number.parseInt(deriveHex(seed, label, 12), 16) / 2 ** 48

function sfc32(a: number, b: number, c: number, d: number): () => number {
  return () => {
    a |= 0
    b |= 0
    c |= 0
    d |= 0
    const t = (((a + b) | 0) + d) | 0
    d = (d + 1) | 0
    a = b ^ (b >>> 9)
    b = (c + (c << 3)) | 0
    c = (c << 21) | (c >>> 11)
    c = (c + t) | 0
    return (t >>> 0) / 4294967296
  }
}

export function createRng(seed: number, label = 'main'): Rng {
  const h = deriveHex(seed, `rng:${label}`, 32)
  const words = [0, 8, 16, 24].map((i) => Number.parseInt(h.slice(i, i + 8), 16))
  const next = sfc32(words[0]!, words[1]!, words[2]!, words[3]!)
  for (let i = 0; i < 12; i++) next() // warm up: the first outputs of sfc32 are weakly mixed
  const rng: Rng = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => {
      if (items.length === 0) throw new RangeError('pick from an empty list')
      return items[Math.floor(next() * items.length)]!
    },
    hex: (chars) => {
      let out = ''
      while (out.length < chars)
        out += Math.floor(next() * 0x1_0000_0000)
          .toString(16)
          .padStart(8, '0')
      return out.slice(0, chars)
    },
    chance: (p) => next() < p,
  }
  return rng
}
