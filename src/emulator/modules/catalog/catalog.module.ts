// The model catalog: the running catalog (the fixtures' or an admin's replacement), the policies that
// shape what a caller sees of it, its gateway routes and its admin API.
import type { Limit } from '../../core/limits.ts'
import { defineModule } from '../module.ts'
import { catalogAdminRoutes } from './catalog.admin.ts'
import { loadCatalogDocument } from './catalog-index.service.ts'
import { createCatalogRepo } from './catalog.repo.ts'
import { catalogRoutes } from './catalog.routes.ts'
import type { ProviderObject } from './catalog.schemas.ts'
import { loadProviders } from './catalog-providers.service.ts'
import { catalogState, createCatalogHolder, createPolicyRegistry, type CatalogHolder, type PolicyRegistry } from './catalog.service.ts'
import { CATALOG_RESOLVE_CONFIG } from './catalog-resolve.config.ts'
import {
  GENERIC_KEPT,
  resolveModel,
  SUGGEST_MAX_ID_CHARS,
  SUGGESTIONS,
  tryResolveModel,
  type ModelKind,
  type ResolvedModel,
  type RouterInput,
} from './catalog-resolve.service.ts'

export interface CatalogService extends CatalogHolder {
  /** What restricts a caller's choice of models and endpoints (account settings, guardrails, region). */
  readonly policies: PolicyRegistry
  /** What the fixtures say of the providers behind the endpoints, by slug. */
  readonly providers: ReadonlyMap<string, ProviderObject>
  /**
   * The model a request's `model` names on a route of this kind, read as the real gateway reads it
   * (aliases, variants, the router, clients' names: catalog-resolve.service.ts); the real 400 if none.
   */
  resolve(id: string, kind: ModelKind, router?: RouterInput): ResolvedModel
  /** As resolve, undefined where it would refuse (a list of fallback models tries the next). */
  tryResolve(id: string, kind: ModelKind, router?: RouterInput): ResolvedModel | undefined
}

declare module '../module.ts' {
  interface Services {
    catalog: CatalogService
  }
}

const LIMITS: readonly Limit[] = [
  {
    what: 'Characters of a model id compared with the known ids for "did you mean"',
    value: SUGGEST_MAX_ID_CHARS,
    unit: 'characters',
    beyond: 'the 400 `is not a valid model ID` without suggestions (and no client name is tried)',
  },
  { what: 'Known ids a refusal suggests', value: SUGGESTIONS, unit: 'items', beyond: 'the nearest first; the rest left out' },
  {
    what: 'Generic models kept per catalog (the `generic-models` setting)',
    value: GENERIC_KEPT,
    unit: 'items',
    beyond: 'the oldest dropped, made again when asked',
  },
]

export const catalogModule = defineModule({
  name: 'catalog',
  create: (ctx) => {
    const holder = createCatalogHolder(createCatalogRepo(ctx.db), loadCatalogDocument(ctx.config.fixtures), ctx.warn)
    const options = (kind: ModelKind, router: RouterInput | undefined) => ({ kind, router, seed: ctx.config.seed, generic: ctx.config.genericModels })
    return Object.assign(holder, {
      policies: createPolicyRegistry(),
      providers: loadProviders(ctx.config.fixtures),
      resolve: (id: string, kind: ModelKind, router?: RouterInput) => resolveModel(holder.get(), id, options(kind, router)),
      tryResolve: (id: string, kind: ModelKind, router?: RouterInput) => tryResolveModel(holder.get(), id, options(kind, router)),
    })
  },
  config: CATALOG_RESOLVE_CONFIG,
  limits: LIMITS,
  state: (ctx) => [catalogState(ctx.services.catalog)],
  gateway: catalogRoutes,
  admin: catalogAdminRoutes,
})
