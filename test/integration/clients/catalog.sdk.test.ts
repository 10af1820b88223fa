// The catalog through both generations of the official TypeScript client, over real HTTP: every
// response passes the clients' own schema validation.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { OpenRouter } from '@openrouter/sdk'
import * as errors from '@openrouter/sdk/models/errors'
import { OpenRouter as LegacyOpenRouter } from 'openrouter-sdk-legacy'
import * as legacyErrors from 'openrouter-sdk-legacy/models/errors'
import { describe, expect, it } from 'vitest'
import type { CatalogDocument } from '../../../src/emulator/modules/catalog/catalog.schemas.ts'
import { listeningEmulator } from '../../helpers/emulator.ts'

const FIXTURE: CatalogDocument = JSON.parse(readFileSync(join(import.meta.dirname, '../../../fixtures/catalog/catalog.json'), 'utf8'))
const textIds = FIXTURE.models.filter((m) => m.architecture.output_modalities.includes('text')).map((m) => m.id)
const embeddingIds = FIXTURE.models.filter((m) => m.architecture.output_modalities.includes('embeddings')).map((m) => m.id)
const free = FIXTURE.models.find((m) => m.id.endsWith(':free'))!

describe('@openrouter/sdk 1.x', () => {
  const clientFor = (url: string, apiKey = 'unused') => new OpenRouter({ apiKey, serverURL: `${url}/api/v1`, retryConfig: { strategy: 'none' } })

  it('lists models, with filters, and iterates pages', async () => {
    const emu = await listeningEmulator()
    const client = clientFor(emu.url)
    const all = await client.models.list()
    expect(all.result.data.map((m) => m.id)).toEqual(textIds)
    expect(all.result.totalCount).toBe(textIds.length)
    expect(all.result.data[0]!.links.details).toContain('/endpoints')

    const embeddings = await client.models.list({ outputModalities: 'embeddings' })
    expect(embeddings.result.data.map((m) => m.id)).toEqual(embeddingIds)

    const seen: string[] = []
    for await (const page of await client.models.list({ outputModalities: 'all', limit: 10 })) seen.push(...page.result.data.map((m) => m.id))
    expect(seen).toEqual(FIXTURE.models.map((m) => m.id))

    const programming = await client.models.list({ category: 'programming' })
    expect(programming.result.data.length).toBeGreaterThan(0)
    expect(programming.result.data.length).toBeLessThan(textIds.length)
  })

  it('lists the models for a user, with the key passed per call', async () => {
    const emu = await listeningEmulator()
    const res = await clientFor(emu.url).models.listForUser({ bearer: emu.keys.standard })
    expect(res.result.data.map((m) => m.id)).toEqual(textIds)
    const err = await clientFor(emu.url)
      .models.listForUser({ bearer: 'sk-gw-v1-nobody' })
      .catch((e: unknown) => e)
    expect(err).toBeInstanceOf(errors.UnauthorizedResponseError)
  })

  it("lists a model's endpoints, a :free one included, and 404s an unknown one", async () => {
    const emu = await listeningEmulator()
    const client = clientFor(emu.url)
    const [author, slug] = free.id.split('/') as [string, string]
    const res = await client.endpoints.list({ author, slug })
    expect(res.data.id).toBe(free.id)
    expect(res.data.endpoints).toHaveLength(free.endpoints.length)
    expect(res.data.endpoints[0]!.supportsToolChoice).toBeDefined()
    const missing = await client.endpoints.list({ author: 'nobody', slug: 'nothing:free' }).catch((e: unknown) => e)
    expect(missing).toBeInstanceOf(errors.NotFoundResponseError)
  })

  it('gets one model, a :free variant included, and 404s an unknown one', async () => {
    const emu = await listeningEmulator()
    const client = clientFor(emu.url)
    const [author, slug] = free.id.split('/') as [string, string]
    const res = await client.models.get({ author, slug })
    expect(res.data.id).toBe(free.id)
    expect(res.data.links.details).toContain('/endpoints')
    const missing = await client.models.get({ author: 'nobody', slug: 'nothing' }).catch((e: unknown) => e)
    expect(missing).toBeInstanceOf(errors.NotFoundResponseError)
  })

  it('lists the embeddings models, whole and page by page', async () => {
    const emu = await listeningEmulator()
    const client = clientFor(emu.url)
    const all = await client.embeddings.listModels()
    expect(all.result.data.map((m) => m.id)).toEqual(embeddingIds)
    const seen: string[] = []
    for await (const page of await client.embeddings.listModels({ offset: 0, limit: 2 })) seen.push(...page.result.data.map((m) => m.id))
    expect(seen).toEqual(embeddingIds)
  })

  it('lists the providers behind the endpoints, each described', async () => {
    const emu = await listeningEmulator()
    const res = await clientFor(emu.url).providers.list()
    const slugs = [...new Set(FIXTURE.models.flatMap((m) => m.endpoints.map((e) => e.provider)))].sort()
    expect(res.data.map((p) => p.slug)).toEqual(slugs)
    expect(res.data.find((p) => p.slug === 'openai')).toMatchObject({
      name: 'OpenAI',
      headquarters: 'US',
      privacyPolicyUrl: expect.stringContaining('openai.com'),
    })
  })

  it('previews the ZDR endpoints', async () => {
    const emu = await listeningEmulator()
    const res = await clientFor(emu.url).endpoints.listZdrEndpoints()
    expect(res.data.length).toBe(FIXTURE.models.flatMap((m) => m.endpoints.filter((e) => e.zdr)).length)
    expect(res.data[0]!.pricing.discount).toBe(0)
  })

  it('surfaces a bad filter as the typed 400', async () => {
    const emu = await listeningEmulator()
    const err = await clientFor(emu.url)
      .models.list({ outputModalities: 'smell' })
      .catch((e: unknown) => e)
    expect(err).toBeInstanceOf(errors.BadRequestResponseError)
    expect((err as errors.BadRequestResponseError).error.message).toContain('output_modalities')
  })
})

describe('@openrouter/sdk 0.11 (previous generation)', () => {
  const clientFor = (url: string) => new LegacyOpenRouter({ apiKey: 'unused', serverURL: `${url}/api/v1` })

  it('lists models and the models for a user', async () => {
    const emu = await listeningEmulator()
    const list = await clientFor(emu.url).models.list({ outputModalities: 'embeddings' })
    expect(list.data.map((m) => m.id)).toEqual(embeddingIds)
    const user = await clientFor(emu.url).models.listForUser({ bearer: emu.keys.standard })
    expect(user.data.map((m) => m.id)).toEqual(textIds)
  })

  it('lists endpoints and the ZDR preview, and 404s an unknown model', async () => {
    const emu = await listeningEmulator()
    const model = FIXTURE.models[0]!
    const [author, slug] = model.id.split('/') as [string, string]
    const res = await clientFor(emu.url).endpoints.list({ author, slug })
    expect(res.data.endpoints.map((e) => e.providerName)).toEqual(model.endpoints.map((e) => e.provider_name))
    const zdr = await clientFor(emu.url).endpoints.listZdrEndpoints()
    expect(zdr.data.length).toBeGreaterThan(0)
    const missing = await clientFor(emu.url)
      .endpoints.list({ author: 'nobody', slug: 'nothing' })
      .catch((e: unknown) => e)
    expect(missing).toBeInstanceOf(legacyErrors.NotFoundResponseError)
  })
})
