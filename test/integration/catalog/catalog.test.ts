// The model catalog over HTTP: filters, paging, RSS, the caller's view, one model's endpoints, the ZDR
// preview, and changing the catalog through the admin API and the fixtures directory.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { XMLParser } from 'fast-xml-parser'
import { describe, expect, it } from 'vitest'
import { createEmulator } from '../../../src/emulator/index.ts'
import { validateCatalog } from '../../../src/emulator/modules/catalog/catalog-index.service.ts'
import type { CatalogDocument, CatalogModel } from '../../../src/emulator/modules/catalog/catalog.schemas.ts'
import { listeningEmulator, testEmulator } from '../../helpers/emulator.ts'

const FIXTURE: CatalogDocument = JSON.parse(readFileSync(join(import.meta.dirname, '../../../fixtures/catalog/catalog.json'), 'utf8'))
const ids = (models: Array<{ id: string }>) => models.map((m) => m.id)
const outputs = (m: CatalogModel) => m.architecture.output_modalities
const textModels = FIXTURE.models.filter((m) => outputs(m).includes('text'))
const hasEu = (m: CatalogModel) => m.endpoints.some((e) => e.regions.includes('eu'))
const EMULATOR_ONLY = ['categories', 'embedding_dimensions', 'endpoints']

describe('the bundled catalog', () => {
  it('is a valid catalog document (start-up trusts it without a check)', () => {
    expect(validateCatalog(structuredClone(FIXTURE), 'bundled')).toEqual(FIXTURE)
  })

  it('is realistic enough to mean something', () => {
    const authors = new Set(FIXTURE.models.map((m) => m.id.split('/')[0]))
    expect(FIXTURE.models.length).toBeGreaterThanOrEqual(40)
    expect(authors.size).toBeGreaterThanOrEqual(10)
    for (const modality of ['text', 'image', 'audio', 'embeddings']) {
      expect(
        FIXTURE.models.some((m) => outputs(m).includes(modality)),
        modality,
      ).toBe(true)
    }
    const dims = new Set(FIXTURE.models.map((m) => m.embedding_dimensions))
    for (const d of [1536, 3072, 1024, 768]) expect(dims.has(d), String(d)).toBe(true)
    expect(FIXTURE.models.filter((m) => m.id.endsWith(':free')).length).toBeGreaterThanOrEqual(3)
    expect(FIXTURE.models.some((m) => /-\d{8}$|-\d{4}-\d{2}-\d{2}$/.test(m.canonical_slug))).toBe(true)
    const endpoints = FIXTURE.models.flatMap((m) => m.endpoints)
    expect(endpoints.some((e) => e.status < 0)).toBe(true)
    expect(endpoints.some((e) => e.zdr)).toBe(true)
    expect(endpoints.some((e) => e.regions.includes('eu'))).toBe(true)
    expect(FIXTURE.models.every((m) => m.endpoints.length >= 1)).toBe(true)
  })
})

describe('GET /api/v1/models', () => {
  it('lists text-output models by default with total_count and links, no key needed', async () => {
    const emu = await testEmulator()
    const res = await emu.get('/api/v1/models')
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(res.headers['cache-control']).toBe('public, max-age=120, stale-while-revalidate=3600, stale-if-error=3600')
    expect(ids(res.body.data)).toEqual(ids(textModels))
    expect(res.body.total_count).toBe(textModels.length)
    expect(res.body.links).toEqual({ next: null })
    const first = res.body.data[0]
    for (const field of EMULATOR_ONLY) expect(first).not.toHaveProperty(field)
    expect(first.links.details).toMatch(/^\/api\/v1\/models\/[^/]+\/[^/]+\/endpoints$/)
    expect(typeof first.pricing.prompt).toBe('string')
    expect(Number.isInteger(first.created)).toBe(true)
  })

  it('filters by output_modalities: one, a comma list, and all', async () => {
    const emu = await testEmulator()
    const embeddings = await emu.get('/api/v1/models?output_modalities=embeddings')
    const expected = FIXTURE.models.filter((m) => outputs(m).includes('embeddings'))
    expect(ids(embeddings.body.data)).toEqual(ids(expected))
    expect(embeddings.body.data.every((m: CatalogModel) => m.architecture.output_modalities.includes('embeddings'))).toBe(true)
    const imageOrAudio = await emu.get('/api/v1/models?output_modalities=image,audio')
    expect(ids(imageOrAudio.body.data)).toEqual(ids(FIXTURE.models.filter((m) => outputs(m).includes('image') || outputs(m).includes('audio'))))
    const rerank = await emu.get('/api/v1/models?output_modalities=rerank')
    expect(ids(rerank.body.data).sort()).toEqual(['cohere/rerank-v3.5', 'cohere/rerank-v4.0-fast'])
    const all = await emu.get('/api/v1/models?output_modalities=all')
    expect(all.body.total_count).toBe(FIXTURE.models.length)
  })

  it.each([
    [
      'output_modalities=hologram',
      'Query parameter `output_modalities` must be a comma-separated list of text, image, embeddings, audio, video, rerank, speech, transcription, or all (got "hologram")',
    ],
    [
      'output_modalities=',
      'Query parameter `output_modalities` must be a comma-separated list of text, image, embeddings, audio, video, rerank, speech, transcription, or all (got "")',
    ],
    [
      'category=cooking',
      'Query parameter `category` must be one of programming, roleplay, marketing, marketing/seo, technology, science, translation, legal, finance, health, trivia, academia',
    ],
    ['limit=0', 'Query parameter `limit` must be >= 1'],
    ['limit=1001', 'Query parameter `limit` must be <= 1000'],
    ['offset=-1', 'Query parameter `offset` must be >= 0'],
    ['region=mars', 'Query parameter `region` must be one of eu, us'],
    ['use_rss=perhaps', 'Query parameter `use_rss` must be a boolean'],
  ])('400 for ?%s, naming the parameter', async (query, message) => {
    const emu = await testEmulator()
    const res = await emu.get(`/api/v1/models?${query}`)
    expect(res.status).toBe(400)
    expect(res.body.error).toMatchObject({ code: 400, message })
    expect(res.body.error.metadata.location).toBe('querystring')
  })

  it('filters by category', async () => {
    const emu = await testEmulator()
    const res = await emu.get('/api/v1/models?category=programming')
    const expected = textModels.filter((m) => m.categories.includes('programming'))
    expect(expected.length).toBeGreaterThan(0)
    expect(ids(res.body.data)).toEqual(ids(expected))
    const seo = await emu.get('/api/v1/models?category=marketing%2Fseo&output_modalities=all')
    expect(ids(seo.body.data)).toEqual(ids(FIXTURE.models.filter((m) => m.categories.includes('marketing/seo'))))
  })

  it('keeps models that support every one of supported_parameters', async () => {
    const emu = await testEmulator()
    const res = await emu.get('/api/v1/models?supported_parameters=tools,response_format')
    const expected = textModels.filter((m) => m.supported_parameters.includes('tools') && m.supported_parameters.includes('response_format'))
    expect(expected.length).toBeGreaterThan(0)
    expect(expected.length).toBeLessThan(textModels.length)
    expect(ids(res.body.data)).toEqual(ids(expected))
  })

  it('pages with limit and offset, links.next keeping the filters, until it is null', async () => {
    const emu = await testEmulator()
    const seen: string[] = []
    let url: string | null = '/api/v1/models?output_modalities=all&limit=7'
    let pages = 0
    while (url) {
      const res = await emu.get(url)
      expect(res.body.total_count).toBe(FIXTURE.models.length)
      expect(res.body.data.length).toBeLessThanOrEqual(7)
      seen.push(...ids(res.body.data))
      url = res.body.links.next
      if (url) expect(url).toContain('output_modalities=all')
      pages++
    }
    expect(seen).toEqual(ids(FIXTURE.models))
    expect(pages).toBe(Math.ceil(FIXTURE.models.length / 7))
    const past = await emu.get('/api/v1/models?offset=10000')
    expect(past.body).toMatchObject({ data: [], total_count: textModels.length, links: { next: null } })
  })

  it('ignores unknown query keys that clients send', async () => {
    const emu = await testEmulator()
    const res = await emu.get('/api/v1/models?sort=newest&q=gpt&zdr=true&workspace_id=x')
    expect(res.status).toBe(200)
    expect(res.body.total_count).toBe(textModels.length)
  })

  it('?region=eu keeps models with an EU in-region endpoint', async () => {
    const emu = await testEmulator()
    const res = await emu.get('/api/v1/models?region=eu')
    expect(ids(res.body.data)).toEqual(ids(textModels.filter(hasEu)))
    expect(res.body.total_count).toBeLessThan(textModels.length)
  })

  it('counts models with the same filters', async () => {
    const emu = await testEmulator()
    expect((await emu.get('/api/v1/models/count')).body).toEqual({ data: { count: textModels.length } })
    expect((await emu.get('/api/v1/models/count?output_modalities=all')).body).toEqual({ data: { count: FIXTURE.models.length } })
  })
})

describe('GET /api/v1/models?use_rss=true', () => {
  const parser = new XMLParser({ ignoreAttributes: false })

  it('is an RSS 2.0 feed with one item per model', async () => {
    const emu = await testEmulator()
    const res = await emu.request({ method: 'GET', url: '/api/v1/models?use_rss=true', headers: { host: '127.0.0.1:8710' } })
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('application/rss+xml; charset=utf-8')
    const feed = parser.parse(res.body as string)
    expect(feed.rss['@_version']).toBe('2.0')
    const items = feed.rss.channel.item as Array<Record<string, string | Record<string, string>>>
    expect(items).toHaveLength(textModels.length)
    const model = textModels[0]!
    expect(items[0]).toMatchObject({
      title: `${model.name} (${model.id})`,
      link: `http://127.0.0.1:8710/_emulator/models/${model.id}`,
      guid: { '#text': model.id, '@_isPermaLink': 'false' },
    })
    expect(items[0]!.title).toMatch(/^[^:]+: .+ \([^)]+\)$/)
    expect(new Date(items[0]!.pubDate as string).getTime()).toBe(model.created * 1000)
    expect(items[0]!.description).toContain(model.description.slice(0, 20))
  })

  it('honours the filters, and use_rss_chat_links switches item links to chat', async () => {
    const emu = await testEmulator()
    const res = await emu.request({
      method: 'GET',
      url: '/api/v1/models?use_rss=true&use_rss_chat_links=true&output_modalities=embeddings',
      headers: { host: 'localhost:9' },
    })
    const items = [parser.parse(res.body as string).rss.channel.item].flat() as Array<{ link: string }>
    const embeddings = FIXTURE.models.filter((m) => outputs(m).includes('embeddings'))
    expect(items).toHaveLength(embeddings.length)
    expect(items[0]!.link).toBe(`http://localhost:9/_emulator/chat?models=${encodeURIComponent(embeddings[0]!.id)}`)
  })
})

describe('GET /api/v1/models/user', () => {
  it('401 without a valid key', async () => {
    const emu = await testEmulator()
    const res = await emu.get('/api/v1/models/user')
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ error: { code: 401, message: 'No auth credentials found' } })
    expect((await emu.get('/api/v1/models/user', 'sk-gw-v1-bogus')).status).toBe(401)
  })

  it('lists what the public list does when nothing restricts the caller, for standard and management keys', async () => {
    const emu = await testEmulator()
    const standard = await emu.get('/api/v1/models/user', emu.keys.standard)
    expect(standard.status).toBe(200)
    expect(ids(standard.body.data)).toEqual(ids(textModels))
    const management = await emu.get('/api/v1/models/user?output_modalities=all&limit=3', emu.keys.management)
    expect(management.body.data).toHaveLength(3)
    expect(management.body.total_count).toBe(FIXTURE.models.length)
  })

  it('drops models whose every endpoint is from a provider the account ignores, and keeps ZDR ones only when the account says so', async () => {
    const emu = await testEmulator()
    const account = (await emu.get('/_emulator/api/accounts')).body.data[0]
    // The provider that serves the most models alone.
    const soleProvider = new Map<string, number>()
    for (const m of textModels)
      if (new Set(m.endpoints.map((e) => e.provider)).size === 1)
        soleProvider.set(m.endpoints[0]!.provider, (soleProvider.get(m.endpoints[0]!.provider) ?? 0) + 1)
    const provider = [...soleProvider.entries()].sort((a, b) => b[1] - a[1])[0]![0]
    const patched = await emu.send('PATCH', `/_emulator/api/accounts/${account.id}`, { ignored_providers: [provider] })
    expect(patched.body.data.ignored_providers).toEqual([provider])
    const ignored = await emu.get('/api/v1/models/user', emu.keys.standard)
    expect(ids(ignored.body.data)).toEqual(ids(textModels.filter((m) => m.endpoints.some((e) => e.provider !== provider))))
    // The public list is not the caller's view.
    expect((await emu.get('/api/v1/models')).body.total_count).toBe(textModels.length)

    await emu.send('PATCH', `/_emulator/api/accounts/${account.id}`, { ignored_providers: [], zdr_only: true })
    const zdr = await emu.get('/api/v1/models/user', emu.keys.standard)
    expect(ids(zdr.body.data)).toEqual(ids(textModels.filter((m) => m.endpoints.some((e) => e.zdr))))
    expect(zdr.body.total_count).toBeLessThan(textModels.length)
  })

  it('keeps only models with an EU in-region endpoint through the EU listener and with ?region=eu', async () => {
    const emu = await listeningEmulator()
    const auth = { authorization: `Bearer ${emu.keys.standard}` }
    const viaEu = (await (await fetch(`${emu.euUrl}/api/v1/models/user`, { headers: auth })).json()) as { data: CatalogModel[] }
    expect(ids(viaEu.data)).toEqual(ids(textModels.filter(hasEu)))
    const viaQuery = (await (await fetch(`${emu.url}/api/v1/models/user?region=eu`, { headers: auth })).json()) as { data: CatalogModel[] }
    expect(ids(viaQuery.data)).toEqual(ids(viaEu.data))
    const main = (await (await fetch(`${emu.url}/api/v1/models/user`, { headers: auth })).json()) as { data: CatalogModel[] }
    expect(main.data.length).toBeGreaterThan(viaEu.data.length)
    // The public list on the EU listener is EU-only too.
    const publicEu = (await (await fetch(`${emu.euUrl}/api/v1/models`)).json()) as { data: CatalogModel[] }
    expect(ids(publicEu.data)).toEqual(ids(viaEu.data))
  })
})

describe('GET /api/v1/models/:author/:slug/endpoints', () => {
  const versioned = FIXTURE.models.find((m) => m.canonical_slug !== m.id && !m.id.endsWith(':free'))!
  const free = FIXTURE.models.find((m) => m.id.endsWith(':free'))!

  it('finds a model by id and by canonical slug, with every endpoint', async () => {
    const emu = await testEmulator()
    const byId = await emu.get(`/api/v1/models/${versioned.id}/endpoints`)
    expect(byId.status).toBe(200)
    expect(byId.body.data).toMatchObject({ id: versioned.id, name: versioned.name, created: versioned.created, description: versioned.description })
    expect(byId.body.data.architecture).toEqual(versioned.architecture)
    expect(byId.body.data.endpoints).toHaveLength(versioned.endpoints.length)
    const endpoint = byId.body.data.endpoints[0]
    expect(endpoint).toMatchObject({
      model_id: versioned.id,
      model_name: versioned.name,
      provider_name: versioned.endpoints[0]!.provider_name,
      status: versioned.endpoints[0]!.status,
    })
    for (const field of ['zdr', 'regions', 'provider', 'id']) expect(endpoint).not.toHaveProperty(field)
    const bySlug = await emu.get(`/api/v1/models/${versioned.canonical_slug}/endpoints`)
    expect(bySlug.body).toEqual(byId.body)
  })

  it('decodes a percent-encoded :free slug', async () => {
    const emu = await testEmulator()
    const [author, slug] = free.id.split('/')
    const res = await emu.get(`/api/v1/models/${author}/${encodeURIComponent(slug!)}/endpoints`)
    expect(res.status).toBe(200)
    expect(res.body.data.id).toBe(free.id)
    expect(res.body.data.endpoints.every((e: { pricing: { prompt: string } }) => e.pricing.prompt === '0')).toBe(true)
  })

  it('404 in the envelope for an unknown model, :free included', async () => {
    const emu = await testEmulator()
    const res = await emu.get('/api/v1/models/nonexistent/not-a-model%3Afree/endpoints')
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ error: { code: 404, message: 'Model nonexistent/not-a-model:free not found' } })
  })
})

describe('GET /api/v1/endpoints/zdr', () => {
  it('lists every zero-data-retention endpoint with the full set of pricing keys', async () => {
    const emu = await testEmulator()
    const res = await emu.get('/api/v1/endpoints/zdr')
    expect(res.status).toBe(200)
    const expected = FIXTURE.models.flatMap((m) => m.endpoints.filter((e) => e.zdr).map((e) => `${m.id}|${e.provider_name}`))
    expect(res.body.data.map((e: { model_id: string; provider_name: string }) => `${e.model_id}|${e.provider_name}`)).toEqual(expected)
    const keys = [
      'prompt',
      'completion',
      'request',
      'image',
      'image_token',
      'image_output',
      'audio',
      'audio_output',
      'input_audio_cache',
      'web_search',
      'internal_reasoning',
      'input_cache_read',
      'input_cache_write',
    ]
    for (const e of res.body.data) {
      for (const key of keys) expect(typeof e.pricing[key], key).toBe('string')
      expect(e.pricing.discount).toBe(0)
    }
  })
})

describe('changing the catalog', () => {
  const extra = (id: string): CatalogModel => {
    const model = structuredClone(FIXTURE.models[0]!)
    return { ...model, id, canonical_slug: id, name: 'Acme: Test Model', endpoints: model.endpoints.map((e) => ({ ...e, id: `${e.id}-${id}` })) }
  }

  it('adds, replaces and removes models through the admin API; reset restores the fixtures', async () => {
    const emu = await testEmulator()
    const added = await emu.send('POST', '/_emulator/api/catalog/models', { models: [extra('acme/test-model')] })
    expect(added.status).toBe(200)
    expect(added.body.data.models).toBe(FIXTURE.models.length + 1)
    expect((await emu.get('/api/v1/models/acme/test-model/endpoints')).status).toBe(200)
    const removed = await emu.send('DELETE', '/_emulator/api/catalog/models/acme/test-model')
    expect(removed.body.data.models).toBe(FIXTURE.models.length)
    expect((await emu.get('/api/v1/models/acme/test-model/endpoints')).status).toBe(404)

    const replaced = await emu.send('PUT', '/_emulator/api/catalog', { version: 1, models: [extra('acme/only')] })
    expect(replaced.body.data).toEqual({ models: 1, endpoints: FIXTURE.models[0]!.endpoints.length })
    expect(ids((await emu.get('/api/v1/models?output_modalities=all')).body.data)).toEqual(['acme/only'])
    await emu.reset()
    expect((await emu.get('/api/v1/models?output_modalities=all')).body.total_count).toBe(FIXTURE.models.length)
  })

  it('takes prices as the real document writes them (1.5e-7), serves them as given, and bills by them; -1 bills nothing', async () => {
    const emu = await testEmulator()
    const embedder = FIXTURE.models.find((m) => m.id === 'openai/text-embedding-3-small')!
    const priced = (id: string, prompt: string): CatalogModel => ({
      ...structuredClone(embedder),
      id,
      canonical_slug: id,
      endpoints: embedder.endpoints.map((e) => ({ ...e, id: `${e.id}-${id}`, pricing: { ...e.pricing, prompt } })),
    })
    const added = await emu.send('POST', '/_emulator/api/catalog/models', { models: [priced('acme/sci', '1.5e-7'), priced('acme/routed', '-1')] })
    expect(added.status).toBe(200)
    const endpoints = await emu.get('/api/v1/models/acme/sci/endpoints')
    expect(endpoints.body.data.endpoints[0].pricing.prompt).toBe('1.5e-7')
    const billed = await emu.send('POST', '/api/v1/embeddings', { model: 'acme/sci', input: 'hello world, priced in scientific notation' }, emu.keys.standard)
    expect(billed.status).toBe(200)
    expect(billed.body.usage.cost).toBe(Math.round(billed.body.usage.prompt_tokens * 1.5e-7 * 1e9) / 1e9)
    const free = await emu.send('POST', '/api/v1/embeddings', { model: 'acme/routed', input: 'hello' }, emu.keys.standard)
    expect(free.status).toBe(200)
    expect(free.body.usage.cost).toBe(0)
    // Not a number: a 400 naming the field.
    const bad = await emu.send('POST', '/_emulator/api/catalog/models', { models: [priced('acme/bad', '1.5e')] })
    expect(bad.status).toBe(400)
    expect(bad.body.error.message).toMatch(/^Field `models\[0\]\.endpoints\[0\]\.pricing\.prompt` /)
  })

  it('rejects a malformed catalog with a 400 naming the field, and keeps the running one', async () => {
    const emu = await testEmulator()
    const bad = extra('acme/bad') as unknown as { endpoints: Array<{ pricing: { prompt: unknown } }> }
    bad.endpoints[0]!.pricing.prompt = 0.5
    const res = await emu.send('POST', '/_emulator/api/catalog/models', { models: [bad] })
    expect(res.status).toBe(400)
    expect(res.body.error.message).toBe('Field `models[0].endpoints[0].pricing.prompt` must be a string')
    const twice = await emu.send('PUT', '/_emulator/api/catalog', { version: 1, models: [extra('acme/a'), extra('acme/a')] })
    expect(twice.status).toBe(400)
    expect(twice.body.error).toMatchObject({ message: 'catalog: `models[1].id` acme/a appears twice', metadata: { field: 'models[1].id' } })
    expect((await emu.get('/api/v1/models?output_modalities=all')).body.total_count).toBe(FIXTURE.models.length)
  })

  it('keeps an admin change across a restart of a file database', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'gwe-catalog-')), 'emulator.db')
    const first = await createEmulator({ db, clock: 'manual' })
    await first.app.inject({ method: 'POST', url: '/_emulator/api/catalog/models', payload: { models: [extra('acme/kept')] } })
    await first.close()
    const second = await createEmulator({ db, clock: 'manual' })
    expect((await second.app.inject('/api/v1/models/acme/kept/endpoints')).statusCode).toBe(200)
    await second.close()
  })

  it('reads a replacement and extensions from --fixtures, and names the file and field of a bad one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gwe-fixtures-'))
    mkdirSync(join(dir, 'catalog'))
    writeFileSync(join(dir, 'catalog', 'catalog.json'), JSON.stringify({ version: 1, models: [extra('acme/base')] }))
    writeFileSync(join(dir, 'catalog', 'more.json'), JSON.stringify({ models: [extra('acme/more')] }))
    const emu = await testEmulator({ fixtures: dir })
    expect(ids((await emu.get('/api/v1/models?output_modalities=all')).body.data)).toEqual(['acme/base', 'acme/more'])

    const broken = extra('acme/broken') as unknown as Record<string, unknown>
    delete broken.name
    writeFileSync(join(dir, 'catalog', 'more.json'), JSON.stringify({ models: [broken] }))
    await expect(createEmulator({ fixtures: dir })).rejects.toThrow(`catalog ${join(dir, 'catalog', 'more.json')}: \`models[0].name\` is required`)
  })
})
