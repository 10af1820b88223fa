// The draws the datasets are made of, all fixed by the emulator's seed: a 32-bit key per thing (a model,
// an app, a tag) derived from (seed, label) by core/rng, then a draw per index (a day, a week) mixed from
// that key, so any day of any window is computed directly, the same whichever window asks for it.
import { deriveHex } from '../../core/rng.ts'
import type { Range } from './datasets.fixtures.ts'

export const DAY = 86_400_000

/** A thing's key: 32 bits fixed by (seed, label). */
export const keyOf = (seed: number, label: string): number => Number.parseInt(deriveHex(seed, `datasets:${label}`, 8), 16) | 0

/** A draw in [0, 1) fixed by (key, index): splitmix32's finaliser over the pair. */
export function unitAt(key: number, index: number): number {
  let z = (key + Math.imul(index | 0, 0x9e3779b9)) | 0
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b)
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35)
  z ^= z >>> 16
  return (z >>> 0) / 4_294_967_296
}

/** Fixed properties of a thing use negative indices, so they never collide with its days (0 and up). */
export const constant = (key: number, which: number): number => unitAt(key, -1 - which)

export const within = (range: Range, unit: number): number => range.min + (range.max - range.min) * unit

/** Uniform on a log scale: volumes spread over orders of magnitude. */
export const logWithin = (range: Range, unit: number): number => Math.exp(Math.log(range.min) + (Math.log(range.max) - Math.log(range.min)) * unit)

/** Days since 1970-01-01 (UTC) of a time. */
export const dayIndex = (ms: number): number => Math.floor(ms / DAY)
export const isoDay = (day: number): string => new Date(day * DAY).toISOString().slice(0, 10)

/** A YYYY-MM-DD calendar date as a day index, or undefined (2026-02-31 is not one). */
export function parseDay(text: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return undefined
  const ms = Date.parse(`${text}T00:00:00Z`)
  return Number.isNaN(ms) || isoDay(ms / DAY) !== text ? undefined : ms / DAY
}

/** Monday of the ISO week of a day (day 0, 1970-01-01, was a Thursday). */
export const weekStart = (day: number): number => day - ((day + 3) % 7)
export const monthStart = (day: number): number => {
  const d = new Date(day * DAY)
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / DAY
}
export const isWeekend = (day: number): boolean => (day + 3) % 7 >= 5

/**
 * Shares of a whole from weights, in millionths that add up to `total` millionths exactly (the largest
 * remainders get the spare ones), so shares a client sums come to the whole.
 */
export function millionths(weights: readonly number[], total = 1_000_000): number[] {
  const sum = weights.reduce((a, b) => a + b, 0)
  if (sum <= 0) return weights.map(() => 0)
  const exact = weights.map((w) => (w / sum) * total)
  const floors = exact.map(Math.floor)
  let spare = total - floors.reduce((a, b) => a + b, 0)
  const order = exact.map((e, i) => [e - floors[i]!, i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1])
  for (const [, i] of order) {
    if (spare <= 0) break
    floors[i]!++
    spare--
  }
  return floors
}

export const fromMillionths = (units: number): number => units / 1_000_000
