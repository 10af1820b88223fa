// Which endpoints of a model a caller may use. Every restriction (the account's provider preferences
// and privacy setting, the EU region, and the guardrails of the key and of its member) is one
// EndpointPolicy; an endpoint is usable when every policy allows it, so lists intersect.
import type { CatalogEndpoint, CatalogModel, Region } from './catalog.schemas.ts'

export interface EndpointPolicy {
  /** Where the restriction comes from, for denial messages: 'account', 'region', 'guardrail <id>'. */
  source: string
  /** Provider slugs or display names; null or absent = any. */
  allowedProviders?: readonly string[] | null
  ignoredProviders?: readonly string[] | null
  /** Model ids or canonical slugs; null or absent = any. */
  allowedModels?: readonly string[] | null
  ignoredModels?: readonly string[] | null
  zdrOnly?: boolean
  region?: Region | null
}

/** The names a model is allowed or ignored by. */
export type ModelNames = Pick<CatalogModel, 'id' | 'canonical_slug'>

/** What the policies read of an endpoint. */
export type PolicyEndpoint = Pick<CatalogEndpoint, 'provider' | 'provider_name' | 'zdr' | 'regions'>

const norm = (s: string): string => s.trim().toLowerCase()

function providerIn(list: readonly string[], endpoint: PolicyEndpoint): boolean {
  const slug = norm(endpoint.provider)
  const name = norm(endpoint.provider_name)
  return list.some((p) => norm(p) === slug || norm(p) === name)
}

/** A model is named by its id, its canonical slug, or its id without the `:free` suffix. */
export function modelNamedIn(list: readonly string[], model: ModelNames): boolean {
  const names = new Set([norm(model.id), norm(model.canonical_slug), norm(model.id.replace(/:free$/, ''))])
  return list.some((m) => names.has(norm(m)))
}

export function endpointAllowed(model: ModelNames, endpoint: PolicyEndpoint, policies: readonly EndpointPolicy[]): boolean {
  for (const p of policies) {
    if (p.allowedModels && !modelNamedIn(p.allowedModels, model)) return false
    if (p.ignoredModels && modelNamedIn(p.ignoredModels, model)) return false
    if (p.allowedProviders && !providerIn(p.allowedProviders, endpoint)) return false
    if (p.ignoredProviders && providerIn(p.ignoredProviders, endpoint)) return false
    if (p.zdrOnly && !endpoint.zdr) return false
    if (p.region && !endpoint.regions.includes(p.region)) return false
  }
  return true
}

/** Those of a model's endpoints that every policy allows, in their order. */
export function availableEndpoints<E extends PolicyEndpoint>(model: ModelNames, endpoints: readonly E[], policies: readonly EndpointPolicy[]): readonly E[] {
  if (policies.length === 0) return endpoints
  return endpoints.filter((e) => endpointAllowed(model, e, policies))
}

export const hasAvailableEndpoint = (model: CatalogModel, policies: readonly EndpointPolicy[]): boolean =>
  policies.length === 0 || model.endpoints.some((e) => endpointAllowed(model, e, policies))
