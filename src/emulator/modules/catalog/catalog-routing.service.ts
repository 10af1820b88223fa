// Routing: which endpoint of a model serves a request. The healthiest allowed one by default; a
// request's provider preferences (`provider` in chat and embeddings bodies) narrow and order the choice.
import { Type, type Static } from 'typebox'
import { noProviderMatch } from './catalog.errors.ts'
import { priceUsd } from '../../core/money.ts'
import type { ProviderSort } from './catalog-resolve.service.ts'
import { StringEnum } from '../../http/schemas.ts'
import type { CatalogEndpoint, CatalogModel } from './catalog.schemas.ts'

const Providers = Type.Array(Type.String({ minLength: 1 }))

/** Routing preferences; other keys of the real schema (sort, max_price...) are accepted and ignored. */
export const ProviderPreferences = Type.Object({
  order: Type.Optional(Providers),
  only: Type.Optional(Providers),
  ignore: Type.Optional(Providers),
  allow_fallbacks: Type.Optional(Type.Boolean()),
  data_collection: Type.Optional(StringEnum(['allow', 'deny'] as const)),
  zdr: Type.Optional(Type.Boolean()),
})
export type ProviderPreferences = Static<typeof ProviderPreferences>

/** Endpoints in good health first (status 0, then the least degraded), keeping catalog order otherwise. */
export function healthiest<E extends Pick<CatalogEndpoint, 'status'>>(allowed: readonly E[]): E {
  return [...allowed].sort((a, b) => b.status - a.status)[0]!
}

const named = (list: readonly string[], e: CatalogEndpoint): boolean =>
  list.some((p) => [e.provider, e.provider_name].some((n) => n.toLowerCase() === p.trim().toLowerCase()))

/** An endpoint's median tokens a second; none counts as the slowest. */
const throughputOf = (e: CatalogEndpoint): number => p50(e.throughput_last_30m) ?? 0
/** What a million prompt and a million completion tokens cost there: the order `:floor` sorts by. */
const priceOf = (e: CatalogEndpoint): number => priceUsd(e.pricing.prompt) + priceUsd(e.pricing.completion)
const takesTools = (e: CatalogEndpoint): number => (e.supported_parameters.includes('tools') ? 0 : 1)

/**
 * How a variant orders the endpoints, best first (ties: the healthier, then catalog order). `:nitro`
 * the fastest; `:floor` the cheapest; `:exacto` the real gateway's quality-first order for tool calls
 * (tool-calling success and throughput, docs/models.md): here the endpoints that take tools, then the
 * most available over the last 30 minutes (the emulator's stand-in for tool-call success), then the fastest.
 */
const SORTS: Record<ProviderSort, (a: CatalogEndpoint, b: CatalogEndpoint) => number> = {
  throughput: (a, b) => throughputOf(b) - throughputOf(a),
  price: (a, b) => priceOf(a) - priceOf(b),
  exacto: (a, b) => takesTools(a) - takesTools(b) || (b.uptime_last_30m ?? 0) - (a.uptime_last_30m ?? 0) || throughputOf(b) - throughputOf(a),
}

/**
 * Picks the serving endpoint by the request's provider preferences: `only`, `ignore` and `zdr` (or
 * `data_collection: "deny"`) narrow the choice; `order` goes first, then, unless `allow_fallbacks` is
 * false, the rest by health, or by the variant's `sort` (`:nitro`, `:floor`, `:exacto`). Deterministic:
 * the same preferences always pick the same endpoint.
 */
export function routeByPreferences(model: CatalogModel, prefs: ProviderPreferences = {}, sort: ProviderSort | null = null) {
  return (allowed: readonly CatalogEndpoint[]): CatalogEndpoint => {
    let candidates = allowed.filter(
      (e) => (!prefs.only || named(prefs.only, e)) && !(prefs.ignore && named(prefs.ignore, e)) && !((prefs.zdr || prefs.data_collection === 'deny') && !e.zdr),
    )
    if (prefs.order && prefs.order.length > 0) {
      const rank = (e: CatalogEndpoint) => prefs.order!.findIndex((p) => named([p], e))
      const ordered = candidates.filter((e) => rank(e) >= 0).sort((a, b) => rank(a) - rank(b))
      if (ordered.length > 0) return ordered[0]!
      if (prefs.allow_fallbacks === false) candidates = []
    }
    if (candidates.length === 0) {
      throw noProviderMatch(
        model.id,
        prefs,
        allowed.map((e) => e.provider),
      )
    }
    if (sort === null) return healthiest(candidates)
    return [...candidates].sort((a, b) => SORTS[sort](a, b) || b.status - a.status)[0]!
  }
}

/** The median of an endpoint's figures (latency, throughput), or null where the catalog has none. */
export const p50 = (figures: { p50?: number | null } | null | undefined): number | null => (typeof figures?.p50 === 'number' ? figures.p50 : null)
