// docs/limits.md lists every bound as the code declares it: the kernel's, each area's (its module's
// `limits`) and every route's body limit, read from a built app. The page is written by
// `npm run docs:limits`; this fails when it is stale, or when a declaration says nothing.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MODULES } from '../../../src/emulator/modules/index.ts'

describe('the limits page', () => {
  it('keeps docs/limits.md as the code declares the bounds (npm run docs:limits rewrites it)', async () => {
    const { currentTables, withLimitsTables } = await import('../../../scripts/limits-table.ts')
    const page = readFileSync(join(import.meta.dirname, '../../../docs/limits.md'), 'utf8')
    expect(withLimitsTables(page, await currentTables())).toBe(page)
  })

  it('has every bound a positive whole number that says what is bounded and what happens past it', () => {
    for (const module of MODULES) {
      for (const limit of module.limits ?? []) {
        expect(Number.isInteger(limit.value) && limit.value > 0, `${module.name}: ${limit.what}`).toBe(true)
        expect(limit.what.length, module.name).toBeGreaterThan(10)
        expect(limit.beyond.length, `${module.name}: ${limit.what}`).toBeGreaterThan(5)
      }
    }
  })
})
