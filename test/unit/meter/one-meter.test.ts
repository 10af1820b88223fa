// Prices become charges in one folder (modules/meter): no other file turns a catalog price into an
// amount. dependency-cruiser keeps the ledger's writes to the meter (.dependency-cruiser.cjs:
// only-the-meter-bills); this keeps the arithmetic there: outside the meter, a catalog price is read only
// to be shown (a price list, a sort key), never converted to nanos.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const SRC = join(import.meta.dirname, '../../../src/emulator')

/** Files that read catalog prices to show them or sort by them (`:floor`'s provider order), and compute no charge. */
const SHOWS_PRICES = new Set([
  'core/money.ts',
  'modules/images/images-views.service.ts',
  'modules/datasets/datasets.models.ts',
  'modules/catalog/catalog-routing.service.ts',
])

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sources(path)
    return entry.name.endsWith('.ts') ? [relative(SRC, path)] : []
  })
}

describe('one meter', () => {
  const files = sources(SRC).filter((file) => !file.startsWith('modules/meter/'))

  it('reads catalog prices outside the meter only to show them', () => {
    const reading = files.filter((file) => /\bpriceUsd\(/.test(readFileSync(join(SRC, file), 'utf8')))
    expect(reading.filter((file) => !SHOWS_PRICES.has(file))).toEqual([])
  })

  it('turns no price into nanos outside the meter', () => {
    for (const file of SHOWS_PRICES) expect(readFileSync(join(SRC, file), 'utf8'), file).not.toMatch(/\busdToNanos\(\s*priceUsd\(/)
    for (const file of [...SHOWS_PRICES].filter((f) => f !== 'core/money.ts')) expect(readFileSync(join(SRC, file), 'utf8'), file).not.toMatch(/\busdToNanos\(/)
  })
})
