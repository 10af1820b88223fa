// Money is stored as integer nano-USD (1e-9 USD) so that sums of many tiny costs stay exact.
export const NANOS_PER_USD = 1_000_000_000

export const usdToNanos = (usd: number): number => Math.round(usd * NANOS_PER_USD)

/** Back to USD for the API, rounded to 9 decimals so float noise never shows. */
export const nanosToUsd = (nanos: number): number => Math.round(nanos) / NANOS_PER_USD
