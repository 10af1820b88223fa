// The model catalog: the running catalog (the fixtures' or an admin's replacement), the policies that
// shape what a caller sees of it, its gateway routes and its admin API.
import { defineModule } from '../module.ts'
import { catalogAdminRoutes } from './catalog.admin.ts'
import { loadCatalogDocument } from './catalog-index.service.ts'
import { createCatalogRepo } from './catalog.repo.ts'
import { catalogRoutes } from './catalog.routes.ts'
import type { ProviderObject } from './catalog.schemas.ts'
import { loadProviders } from './catalog-providers.service.ts'
import { catalogState, createCatalogHolder, createPolicyRegistry, type CatalogHolder, type PolicyRegistry } from './catalog.service.ts'

export interface CatalogService extends CatalogHolder {
  /** What restricts a caller's choice of models and endpoints (account settings, guardrails, region). */
  readonly policies: PolicyRegistry
  /** What the fixtures say of the providers behind the endpoints, by slug. */
  readonly providers: ReadonlyMap<string, ProviderObject>
}

declare module '../module.ts' {
  interface Services {
    catalog: CatalogService
  }
}

export const catalogModule = defineModule({
  name: 'catalog',
  create: (ctx) =>
    Object.assign(createCatalogHolder(createCatalogRepo(ctx.db), loadCatalogDocument(ctx.config.fixtures), ctx.warn), {
      policies: createPolicyRegistry(),
      providers: loadProviders(ctx.config.fixtures),
    }),
  state: (ctx) => [catalogState(ctx.services.catalog)],
  gateway: catalogRoutes,
  admin: catalogAdminRoutes,
})
