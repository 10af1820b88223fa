// Routing: which endpoint of a model serves a request. The healthiest allowed one by default; a
// request's provider preferences (`provider` in chat and embeddings bodies) narrow and order the choice.
import { Type, type Static } from 'typebox'
import { noProviderMatch } from './catalog.errors.ts'
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

/**
 * Picks the serving endpoint by the request's provider preferences: `only`, `ignore` and `zdr` (or
 * `data_collection: "deny"`) narrow the choice; `order` goes first, then, unless `allow_fallbacks` is
 * false, the rest by health. Deterministic: the same preferences always pick the same endpoint.
 */
export function routeByPreferences(model: CatalogModel, prefs: ProviderPreferences = {}) {
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
    return healthiest(candidates)
  }
}

/** The median of an endpoint's figures (latency, throughput), or null where the catalog has none. */
export const p50 = (figures: { p50?: number | null } | null | undefined): number | null => (typeof figures?.p50 === 'number' ? figures.p50 : null)
