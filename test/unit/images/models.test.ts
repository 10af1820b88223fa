// The image models' facts (fixtures/images/models.json): every image model of the bundled catalog is
// described, each described model is an image model of it, and a fixtures folder's own file is checked.
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { BUNDLED_FIXTURES } from '../../../src/emulator/config.ts'
import type { CatalogModel } from '../../../src/emulator/modules/catalog/catalog.schemas.ts'
import { loadImageModels } from '../../../src/emulator/modules/images/images.models.ts'

const catalog = JSON.parse(readFileSync(join(BUNDLED_FIXTURES, 'catalog', 'catalog.json'), 'utf8')) as { models: CatalogModel[] }
const bundled = JSON.parse(readFileSync(join(BUNDLED_FIXTURES, 'images', 'models.json'), 'utf8')) as { defaults: object; models: Record<string, object> }

/** A fixtures folder holding only this images/models.json. */
function folderWith(document: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'images-fixtures-'))
  mkdirSync(join(dir, 'images'))
  writeFileSync(join(dir, 'images', 'models.json'), JSON.stringify(document))
  return dir
}

describe('the image models’ facts', () => {
  it('describe exactly the image models of the bundled catalog', () => {
    const imageModels = catalog.models.filter((m) => m.architecture.output_modalities.includes('image')).map((m) => m.id)
    expect(Object.keys(bundled.models).sort()).toEqual(imageModels.sort())
  })

  it('give a model the file does not name the defaults', () => {
    const models = loadImageModels(BUNDLED_FIXTURES)
    const unnamed = { ...catalog.models[0]!, id: 'someone/new-image-model' }
    expect(models.factsOf(unnamed)).toEqual(bundled.defaults)
  })

  it('refuse a file of the wrong shape, naming the field', () => {
    const bad = folderWith({ ...bundled, models: { 'x/y': { ...bundled.models['openai/dall-e-3']!, max_n: 11 } } })
    expect(() => loadImageModels(bad)).toThrow(/images .*models\.json: `models\.x\/y\.max_n` must be <= 10/)
    const neither = folderWith({ ...bundled, models: { 'x/y': { ...bundled.models['openai/dall-e-3']!, sizes: undefined } } })
    expect(() => loadImageModels(neither)).toThrow('`x/y` needs either `sizes` or `resolutions`, `aspect_ratios` and `max_pixels`')
  })
})
