// The spend chart's y-axis ticks: nice steps from $0 to just past the biggest day, and labels with
// the decimals that tell them apart (the issue: "$0.01, $0.01, $0.01, $0.00, $0" for a few cents).
import { describe, expect, it } from 'vitest'
import { spendTicks, tickLabel } from '../../../src/renderer/src/features/activity/ticks.ts'

const labels = (max: number): string[] => {
  const ticks = spendTicks(max)
  return ticks.values.map((v) => tickLabel(v, ticks.decimals))
}

describe('spend ticks', () => {
  it('label a few cents with distinct values, a tenth of a cent apart', () => {
    expect(labels(0.012)).toEqual(['$0.000', '$0.005', '$0.010', '$0.015'])
    expect(labels(0.00493)).toEqual(['$0.000', '$0.002', '$0.004', '$0.006'])
  })

  it('use steps of 1, 2, 2.5 or 5 times a power of ten, and as many decimals as the step needs', () => {
    expect(labels(0.3)).toEqual(['$0.00', '$0.10', '$0.20', '$0.30'])
    expect(labels(0.9)).toEqual(['$0.00', '$0.25', '$0.50', '$0.75', '$1.00'])
    expect(labels(0.000_04)).toEqual(['$0.00000', '$0.00001', '$0.00002', '$0.00003', '$0.00004'])
    expect(labels(2.4)).toEqual(['$0', '$1', '$2', '$3'])
    expect(labels(1_200)).toEqual(['$0', '$500', '$1,000', '$1,500'])
  })

  it('always reach the maximum, and keep floating-point noise out of the values', () => {
    for (const max of [0.0007, 0.013, 0.07, 0.3, 1, 3.3, 47, 999, 12_345]) {
      const { values, decimals } = spendTicks(max)
      expect(values[0]).toBe(0)
      expect(values.at(-1)!).toBeGreaterThanOrEqual(max)
      expect(values.length).toBeGreaterThanOrEqual(3)
      expect(values.length).toBeLessThanOrEqual(6)
      expect(new Set(values.map((v) => tickLabel(v, decimals))).size).toBe(values.length)
      for (const value of values) expect(String(value)).not.toMatch(/0000000|9999999/)
    }
  })

  it('draw an axis up to $1 when nothing was spent', () => {
    expect(labels(0)).toEqual(['$0.00', '$0.25', '$0.50', '$0.75', '$1.00'])
  })
})
