// The providers list: every provider of the catalog's endpoints, once, by slug, described where the
// fixtures describe it and with nulls where nothing is known.
import { describe, expect, it } from 'vitest'
import type { CatalogModel, ProviderObject } from '../../../src/emulator/modules/catalog/catalog.schemas.ts'
import { providersOf } from '../../../src/emulator/modules/catalog/catalog-providers.service.ts'

const endpoint = (provider: string, provider_name: string) => ({ provider, provider_name }) as CatalogModel['endpoints'][number]
const model = (...endpoints: Array<CatalogModel['endpoints'][number]>) => ({ endpoints }) as CatalogModel

const OPENAI: ProviderObject = {
  slug: 'openai',
  name: 'OpenAI',
  headquarters: 'US',
  datacenters: ['US'],
  privacy_policy_url: 'https://openai.com/policies/privacy-policy/',
  terms_of_service_url: null,
  status_page_url: null,
}

describe('providersOf', () => {
  it('lists each provider once, by slug, with what the fixtures know of it', () => {
    const models = [model(endpoint('zeta', 'Zeta'), endpoint('openai', 'OpenAI')), model(endpoint('openai', 'OpenAI'))]
    expect(providersOf(models, new Map([['openai', OPENAI]]))).toEqual([
      OPENAI,
      { slug: 'zeta', name: 'Zeta', headquarters: null, datacenters: null, privacy_policy_url: null, terms_of_service_url: null, status_page_url: null },
    ])
  })

  it('lists no provider the catalog has no endpoint of', () => {
    expect(providersOf([model(endpoint('zeta', 'Zeta'))], new Map([['openai', OPENAI]])).map((p) => p.slug)).toEqual(['zeta'])
  })
})
