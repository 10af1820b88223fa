// The running catalog and the restrictions that shape what a caller sees of it. The fixtures'
// catalog is the default; an admin change is persisted and outlives restarts until a reset.
import type { AuthContext } from '../caller.ts'
import { buildCatalog, sharedCatalog, validateCatalog, type Catalog } from './catalog-index.service.ts'
import type { CatalogRepo } from './catalog.repo.ts'
import type { CatalogDocument, Region } from './catalog.schemas.ts'
import type { EndpointPolicy } from './catalog-policy.service.ts'
import type { StateOwner } from '../../core/lifecycle.ts'

export interface CatalogHolder {
  get(): Catalog
  /** Replaces the running catalog (already validated) and persists it. */
  replace(document: CatalogDocument, now: number): Catalog
  /** Back to the fixtures' catalog, forgetting any admin change. */
  restore(): Catalog
  /** Re-reads the persisted catalog after the database changed underneath (a state import); throws if it does not validate. */
  reload(): Catalog
}

export function createCatalogHolder(repo: CatalogRepo, fixture: CatalogDocument, warn: (message: string) => void): CatalogHolder {
  // The bundled catalog is built once per process; an admin's change builds its own.
  const fixtureCatalog = sharedCatalog(fixture)
  let current = fixtureCatalog
  const saved = repo.override()
  if (saved !== null) {
    try {
      current = buildCatalog(validateCatalog(JSON.parse(saved), 'the saved catalog'))
    } catch (error) {
      // A catalog saved by another version that no longer validates: fall back rather than refuse to start.
      warn(`${(error as Error).message}; using the fixtures' catalog instead`)
    }
  }
  return {
    get: () => current,
    replace(document, now) {
      current = buildCatalog(document)
      repo.setOverride(JSON.stringify(document), now)
      return current
    },
    restore() {
      repo.clearOverride()
      current = fixtureCatalog
      return current
    },
    reload() {
      const saved = repo.override()
      current = saved === null ? fixtureCatalog : buildCatalog(validateCatalog(JSON.parse(saved), 'the saved catalog'))
      return current
    },
  }
}

/** A source of restrictions for a caller (the guardrails of its key and member plug in here). */
export type PolicySource = (caller: AuthContext) => EndpointPolicy[]

export interface PolicyRegistry {
  add(source: PolicySource): void
  /** Every restriction on what this caller may use, in a stable order; none means everything. */
  for(caller: AuthContext, region?: Region | null): EndpointPolicy[]
}

export function createPolicyRegistry(): PolicyRegistry {
  const sources: PolicySource[] = [accountPolicy]
  return {
    add: (source) => void sources.push(source),
    for(caller, region = null) {
      const policies = sources.flatMap((source) => source(caller))
      if (region) policies.push({ source: 'region', region })
      return policies
    },
  }
}

/** The account's own settings: ignored providers and zero data retention only. */
function accountPolicy({ account }: AuthContext): EndpointPolicy[] {
  const ignored = JSON.parse(account.ignored_providers) as string[]
  if (ignored.length === 0 && account.zdr_only === 0) return []
  return [{ source: 'account', ...(ignored.length > 0 && { ignoredProviders: ignored }), ...(account.zdr_only === 1 && { zdrOnly: true }) }]
}

/** The catalog a client replaced (or extended) over the admin API; the running catalog follows the table after any change of state. */
export function catalogState(holder: CatalogHolder): StateOwner {
  return { name: 'catalog', tables: ['catalog_override'], afterStateChange: () => void holder.reload() }
}
