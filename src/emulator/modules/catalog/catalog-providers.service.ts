// The providers behind the catalog's endpoints (GET /api/v1/providers): each endpoint's provider, with
// what `providers/providers.json` of the fixtures says of it (headquarters, datacenters, policy and
// status pages). A provider the file does not describe (a catalog replaced over the admin API, a
// fixtures folder of one's own) is listed all the same, with nulls where nothing is known.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Type, type Static } from 'typebox'
import { BUNDLED_FIXTURES } from '../../config.ts'
import { checkFixture } from '../../http/validation.ts'
import { ProviderObject, type CatalogModel } from './catalog.schemas.ts'
import { CatalogError } from './catalog-index.service.ts'

const ProvidersDocument = Type.Object({ providers: Type.Array(ProviderObject) })

/** What a fixtures folder says of providers (its own `providers/providers.json`, else the bundled one), by slug. */
export function loadProviders(fixturesDir: string): ReadonlyMap<string, ProviderObject> {
  const own = join(fixturesDir, 'providers', 'providers.json')
  const path = existsSync(own) ? own : join(BUNDLED_FIXTURES, 'providers', 'providers.json')
  let value: unknown
  try {
    value = JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    throw new CatalogError(`providers ${path}: ${(error as Error).message}`)
  }
  const problem = checkFixture(ProvidersDocument, path, value)
  if (problem) throw new CatalogError(`providers ${path}: \`${problem.field || '(document)'}\` ${problem.issue}`, problem.field)
  return new Map((value as Static<typeof ProvidersDocument>).providers.map((p) => [p.slug, p]))
}

/** Every provider of the catalog's endpoints, by slug, described where the fixtures describe it. */
export function providersOf(models: readonly CatalogModel[], known: ReadonlyMap<string, ProviderObject>): ProviderObject[] {
  const names = new Map<string, string>()
  for (const model of models) for (const endpoint of model.endpoints) if (!names.has(endpoint.provider)) names.set(endpoint.provider, endpoint.provider_name)
  return [...names]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(
      ([slug, name]) =>
        known.get(slug) ?? { slug, name, headquarters: null, datacenters: null, privacy_policy_url: null, terms_of_service_url: null, status_page_url: null },
    )
}
