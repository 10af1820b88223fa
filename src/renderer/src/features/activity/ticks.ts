// The spend chart's y-axis: "nice" tick values (multiples of 1, 2, 2.5 or 5 times a power of ten)
// from $0 to just past the biggest day, and labels with as many decimals as the step needs, so a
// day of a few cents reads $0.000, $0.005, $0.010 rather than $0.00, $0.01, $0.01. Pure: no DOM.

const MULTIPLIERS = [1, 2, 2.5, 5, 10] as const

export interface Ticks {
  /** From 0 up, evenly spaced; the last one is at least the maximum. */
  values: number[]
  /** Decimals that tell every value apart (at least 2 below a dollar, as money is written). */
  decimals: number
}

/** About `count` intervals from 0 to `max` (or to $1 when nothing was spent). */
export function spendTicks(max: number, count = 4): Ticks {
  if (!(max > 0) || !Number.isFinite(max)) return { values: [0, 0.25, 0.5, 0.75, 1], decimals: 2 }
  const rough = max / count
  let exponent = Math.floor(Math.log10(rough))
  let multiplier: number = MULTIPLIERS.find((m) => m * 10 ** exponent >= rough * (1 - 1e-9)) ?? 10
  // 10 × 10^k is 1 × 10^(k+1): its labels need one decimal fewer.
  if (multiplier === 10) [exponent, multiplier] = [exponent + 1, 1]
  const step = multiplier * 10 ** exponent
  // 2.5 × 10^k needs one decimal more than the power itself.
  const stepDecimals = Math.max(0, -exponent + (multiplier === 2.5 ? 1 : 0))
  const decimals = stepDecimals === 0 && step >= 1 ? 0 : Math.max(2, stepDecimals)
  const intervals = Math.max(1, Math.ceil(max / step - 1e-9))
  // Rounded to the step's decimals: 3 × 0.1 is 0.30000000000000004 in floating point.
  const values = Array.from({ length: intervals + 1 }, (_, i) => Number((i * step).toFixed(stepDecimals)))
  return { values, decimals }
}

/** A tick's label: `$0.005`, `$1.50`, `$1,200`. */
export const tickLabel = (value: number, decimals: number): string =>
  `$${value.toLocaleString('en', { minimumFractionDigits: decimals, maximumFractionDigits: decimals })}`
