// Money is stored as integer nano-USD (1e-9 USD) so that sums of many tiny costs stay exact. Every
// conversion between stored nanos, the USD numbers the APIs speak, the catalog's price strings and
// USDC base units is one of these helpers, so each amount is rounded once, the same way everywhere.
export const NANOS_PER_USD = 1_000_000_000

/** USD to nano-USD: the product rounded to the nearest nano (halves up, towards +infinity). */
export const usdToNanos = (usd: number): number => Math.round(usd * NANOS_PER_USD)

/** Back to USD for the API, rounded to 9 decimals so float noise never shows. */
export const nanosToUsd = (nanos: number): number => Math.round(nanos) / NANOS_PER_USD

/** An amount as messages show it: `$0.25`, `$0`; JavaScript's shortest form, so `$1e-9` for one nano. */
export const formatUsd = (nanos: number): string => `$${nanosToUsd(nanos)}`

/**
 * A catalog price (USD per token, a decimal string as the API serves it: "0.0000025", "1.5e-7") as a
 * number; absent is free, and so is a negative one ("-1": priced elsewhere), so a cost is never negative.
 */
export const priceUsd = (price: string | undefined): number => Math.max(0, Number(price ?? 0))

/** A catalog price per million tokens, as the models feed shows it: `$0.15`. */
export const formatPricePerMillion = (price: string | undefined): string => `$${(priceUsd(price) * 1_000_000).toFixed(2)}`

/** USDC has 6 decimals: one base unit (1e-6 USD) is 1000 nano-USD. */
export const NANOS_PER_USDC_UNIT = 1000

/** USD to whole USDC base units, to the nearest unit (halves up): what a transfer can carry. */
export const usdToUsdcUnits = (usd: number): number => Math.round(usdToNanos(usd) / NANOS_PER_USDC_UNIT)

export const usdcUnitsToNanos = (units: number): number => units * NANOS_PER_USDC_UNIT

/** A percentage of a whole amount, in whole units (halves up): a 1% fee on 150 units is 2. */
export const percentOf = (amount: number, percent: number): number => Math.round((amount * percent) / 100)
