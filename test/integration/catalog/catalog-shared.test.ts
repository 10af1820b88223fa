// The bundled catalog is parsed, frozen and indexed once per process and shared by every emulator in
// it; an admin's replacement (or an extension, or an alias that names no model) is its own emulator's.
import { describe, expect, it } from 'vitest'
import type { CatalogModel } from '../../../src/emulator/modules/catalog/catalog.schemas.ts'
import { testEmulator } from '../../helpers/emulator.ts'

describe('the bundled catalog', () => {
  it('is one frozen catalog for every emulator of the process, and a replacement stays with its emulator', async () => {
    const [a, b] = await Promise.all([testEmulator(), testEmulator({ seed: 2 })])
    const shared = a.ctx.services.catalog.get()
    expect(b.ctx.services.catalog.get()).toBe(shared)
    const model = shared.find('anthropic/claude-sonnet-4.5')!
    expect(Object.isFrozen(shared.document.models)).toBe(true)
    expect(Object.isFrozen(model.endpoints[0]!.pricing.overrides![0])).toBe(true)
    expect(() => {
      ;(model as { name: string }).name = 'changed'
    }).toThrow(TypeError)

    const own = { ...structuredClone(model), id: 'acme/own', canonical_slug: 'acme/own' } as CatalogModel
    own.endpoints = own.endpoints.map((e) => ({ ...e, id: `${e.id}-own` }))
    const replaced = await a.send('PUT', '/_emulator/api/catalog', { version: 1, aliases: { 'acme/own-20260101': 'acme/own' }, models: [own] })
    expect(replaced.status).toBe(200)
    expect(a.ctx.services.catalog.get().find('acme/own')?.id).toBe('acme/own')
    expect(a.ctx.services.catalog.get().document.aliases).toEqual({ 'acme/own-20260101': 'acme/own' })
    expect(b.ctx.services.catalog.get()).toBe(shared)
    expect((await b.get('/api/v1/models/count')).body.data.count).toBe(shared.filter({ supportedParameters: [], outputModalities: ['text'] }).length)
  })

  it('refuses a replacement whose alias names no model of it, or is a model’s own id', async () => {
    const emu = await testEmulator()
    const model = structuredClone(emu.ctx.services.catalog.get().find('openai/gpt-4o-mini')!) as CatalogModel
    const missing = await emu.send('PUT', '/_emulator/api/catalog', {
      version: 1,
      aliases: { 'openai/gpt-4o-mini-2024-07-18': 'openai/nothing' },
      models: [model],
    })
    expect(missing.status).toBe(400)
    expect(JSON.stringify(missing.body)).toContain('aliases.openai/gpt-4o-mini-2024-07-18')
    expect(JSON.stringify(missing.body)).toContain('openai/nothing, which is no model of the catalog')
    const own = await emu.send('PUT', '/_emulator/api/catalog', { version: 1, aliases: { 'openai/gpt-4o-mini': 'openai/gpt-4o-mini' }, models: [model] })
    expect(own.status).toBe(400)
    expect(JSON.stringify(own.body)).toContain('is the id of a model of the catalog, not an alias')
  })
})
