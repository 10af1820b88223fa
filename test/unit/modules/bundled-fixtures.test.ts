// The package's own fixture files are not schema-checked when an emulator starts (checkFixture skips
// them, as the catalog's loader skips the bundled catalog): this suite checks them instead, by loading a
// copy of each from a folder of one's own, which every loader checks in full.
import { cpSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { BUNDLED_FIXTURES } from '../../../src/emulator/config.ts'
import { checkFixture } from '../../../src/emulator/http/validation.ts'
import { loadProviders } from '../../../src/emulator/modules/catalog/catalog-providers.service.ts'
import { loadDatasetFixtures } from '../../../src/emulator/modules/datasets/datasets.fixtures.ts'
import { loadImageModels } from '../../../src/emulator/modules/images/images.models.ts'
import { loadVideoModels } from '../../../src/emulator/modules/videos/videos.models.ts'

/** A fixtures folder holding copies of the bundled `folders`: files of one's own, so checked. */
function copyOf(...folders: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'bundled-fixtures-'))
  for (const folder of folders) cpSync(join(BUNDLED_FIXTURES, folder), join(dir, folder), { recursive: true })
  return dir
}

describe('the bundled fixture files', () => {
  it('pass the checks of their loaders', () => {
    const dir = copyOf('datasets', 'images', 'videos', 'providers')
    expect(() => loadDatasetFixtures(dir)).not.toThrow()
    expect(() => loadImageModels(dir)).not.toThrow()
    expect(loadVideoModels(dir).size).toBeGreaterThan(0)
    expect(loadProviders(dir).size).toBeGreaterThan(0)
  })
})

describe('checkFixture', () => {
  const Schema = Type.Object({ name: Type.String() })

  it('checks a file of a fixtures folder of one’s own, naming the field', () => {
    expect(checkFixture(Schema, join(tmpdir(), 'mine', 'x.json'), { name: 1 })).toEqual({ field: 'name', issue: 'must be a string' })
    expect(checkFixture(Schema, join(tmpdir(), 'mine', 'x.json'), { name: 'a' })).toBeNull()
  })

  it('leaves a bundled file to this suite', () => {
    expect(checkFixture(Schema, join(BUNDLED_FIXTURES, 'x.json'), { name: 1 })).toBeNull()
  })
})
