// Money helpers (core/money.ts): every conversion between stored nano-USD, the USD numbers the APIs
// speak, catalog price strings and USDC base units. The rounding rules pinned here are the ones the
// served numbers depend on; test/integration/core/money.test.ts follows the largest amounts through the HTTP API.
import { describe, expect, it } from 'vitest'
import {
  formatPricePerMillion,
  formatUsd,
  nanosToUsd,
  NANOS_PER_USDC_UNIT,
  percentOf,
  priceUsd,
  usdcUnitsToNanos,
  usdToNanos,
  usdToUsdcUnits,
} from '../../../src/emulator/core/money.ts'

describe('usdToNanos and nanosToUsd', () => {
  it('convert exactly and absorb float noise', () => {
    expect(usdToNanos(0.25)).toBe(250_000_000)
    expect(usdToNanos(0.1 + 0.2)).toBe(300_000_000)
    expect(usdToNanos(1.005)).toBe(1_005_000_000)
    expect(nanosToUsd(123_456_789)).toBe(0.123456789)
    // Sums are made in nanos, so 0.1 + 0.2 comes back as 0.3.
    expect(nanosToUsd(usdToNanos(0.1) + usdToNanos(0.2))).toBe(0.3)
    expect(nanosToUsd(0)).toBe(0)
    expect(nanosToUsd(1)).toBe(1e-9)
  })

  it('round half a nano towards +infinity, on either side of zero', () => {
    expect(usdToNanos(0.0000000015)).toBe(2)
    expect(usdToNanos(0.0000000025)).toBe(3)
    expect(usdToNanos(-0.0000000015)).toBe(-1)
    expect(usdToNanos(-0.0000000025)).toBe(-2)
    expect(usdToNanos(0.0000000004)).toBe(0)
    // A fractional nano count (a share of a sum) is rounded before it is shown.
    expect(nanosToUsd(0.5)).toBe(1e-9)
    expect(nanosToUsd(2.5)).toBe(3e-9)
    expect(nanosToUsd(-1.5)).toBe(-1e-9)
    expect(Object.is(nanosToUsd(-0.5), -0)).toBe(true)
    expect(JSON.stringify({ usd: nanosToUsd(-0.5) })).toBe('{"usd":0}')
  })

  it('keep negative amounts (a balance below zero) symmetric with positive ones', () => {
    expect(usdToNanos(-0.25)).toBe(-250_000_000)
    expect(nanosToUsd(-250_000_000)).toBe(-0.25)
    expect(nanosToUsd(usdToNanos(-1e9))).toBe(-1e9)
  })

  it('hold the largest amounts the APIs accept, and stay exact up to the largest safe integer of nanos', () => {
    // 1e9 USD is the schemas' maximum for credits and limits: 1e18 nanos is exactly representable.
    expect(usdToNanos(1e9)).toBe(1e18)
    expect(nanosToUsd(1e18)).toBe(1e9)
    expect(usdToNanos(123_456.789012345)).toBe(123_456_789_012_345)
    expect(nanosToUsd(123_456_789_012_345)).toBe(123_456.789012345)
    expect(usdToNanos(nanosToUsd(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER)
  })
})

describe('formatUsd', () => {
  it("writes an amount as messages show it, in JavaScript's shortest form", () => {
    expect(formatUsd(250_000_000)).toBe('$0.25')
    expect(formatUsd(0)).toBe('$0')
    expect(formatUsd(39_260)).toBe('$0.00003926')
    expect(formatUsd(1)).toBe('$1e-9')
    expect(formatUsd(2_000_000_000_000)).toBe('$2000')
    expect(formatUsd(-500_000_000)).toBe('$-0.5')
  })
})

describe('catalog prices', () => {
  it('reads a price string, scientific notation included; an absent or negative price is free', () => {
    expect(priceUsd('0.00000002')).toBe(0.00000002)
    expect(priceUsd('1.5e-7')).toBe(1.5e-7)
    expect(priceUsd('-1')).toBe(0)
    expect(priceUsd(undefined)).toBe(0)
  })

  it('formats a price per million tokens for the models feed', () => {
    expect(formatPricePerMillion('0.00000015')).toBe('$0.15')
    expect(formatPricePerMillion('0.000000125')).toBe('$0.13')
    expect(formatPricePerMillion('0')).toBe('$0.00')
    expect(formatPricePerMillion('0.00006')).toBe('$60.00')
    expect(formatPricePerMillion(undefined)).toBe('$0.00')
  })
})

describe('USDC units and fees', () => {
  it('converts USD to whole USDC base units (via whole nanos), halves up', () => {
    expect(NANOS_PER_USDC_UNIT).toBe(1000)
    expect(usdToUsdcUnits(10)).toBe(10_000_000)
    expect(usdToUsdcUnits(0.000001)).toBe(1)
    expect(usdToUsdcUnits(0.0000005)).toBe(1)
    expect(usdToUsdcUnits(0.0000004994)).toBe(0)
    // The amount is taken to the nano first: 499.9 nanos is 500, half a unit, so one unit.
    expect(usdToUsdcUnits(0.0000004999)).toBe(1)
    expect(usdToUsdcUnits(0.0000015)).toBe(2)
    expect(usdToUsdcUnits(1999.9999995)).toBe(2_000_000_000)
    expect(usdcUnitsToNanos(1)).toBe(1000)
    expect(nanosToUsd(usdcUnitsToNanos(usdToUsdcUnits(33.333333)))).toBe(33.333333)
  })

  it('takes a percentage in whole units, halves up', () => {
    expect(percentOf(150, 1)).toBe(2)
    expect(percentOf(149, 1)).toBe(1)
    expect(percentOf(50, 1)).toBe(1)
    expect(percentOf(49, 1)).toBe(0)
    expect(percentOf(0, 1)).toBe(0)
  })

  it('the largest charge: its units, fee and nanos are exact', () => {
    const units = usdToUsdcUnits(2000)
    expect(units).toBe(2_000_000_000)
    expect(percentOf(units, 1)).toBe(20_000_000)
    expect(usdcUnitsToNanos(units)).toBe(2_000_000_000_000)
    expect(nanosToUsd(usdcUnitsToNanos(units))).toBe(2000)
  })
})
