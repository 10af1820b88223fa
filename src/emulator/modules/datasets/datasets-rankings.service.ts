// GET /api/v1/datasets/rankings-daily: the top models per day (or ISO week, or month) by tokens, plus
// one `other` row for the rest, over the catalog's models. A model's daily tokens are a base volume
// (log-uniform between the fixture's bounds) on a growth trend from the dataset's first day, lower on
// weekends, with daily noise; none before the model was added to the catalog. The modality and context
// filters keep a model's share of its traffic (exact dataset); category and language_type read a
// weekly sampled estimate (rounded to thousands), as the real dataset does.
import type { Static } from 'typebox'
import type { EmulatorContext } from '../module.ts'
import type { CatalogModel } from '../catalog/catalog.schemas.ts'
import { notTogether } from './datasets.errors.ts'
import { CONTEXT_BUCKETS, type RankingsFixture } from './datasets.fixtures.ts'
import type { RankingsDailyQuery, RankingsDailyResponse } from './datasets.schemas.ts'
import { constant, dayIndex, isoDay, isWeekend, keyOf, logWithin, monthStart, parseDay, unitAt, weekStart, within } from './datasets-draws.service.ts'
import { inputs, outputs, permaslugOf } from './datasets.models.ts'
import { resolveWindow } from './datasets-window.service.ts'

type Query = Static<typeof RankingsDailyQuery>
type Bucket = (typeof CONTEXT_BUCKETS)[number]

/** The smallest context a request of each bucket has: a model with less context serves none of them. */
const BUCKET_FLOOR: Record<Bucket, number> = { '1K': 0, '10K': 1_000, '100K': 10_000, '1M': 100_000, '10M': 1_000_000 }

interface RankedModel {
  permaslug: string
  model: CatalogModel
  key: number
  base: number
  growth: number
  /** The day it joined the catalog: no traffic before. */
  since: number
  toolShare: number
  bucketShare: Record<Bucket, number>
  categoryShare: (category: string) => number
  programmingShare: number
}

/** Models whose traffic is counted in tokens (text, images, embeddings), keyed by the catalog's model list. */
const rankedCache = new WeakMap<readonly CatalogModel[], { seed: number; fixture: RankingsFixture; models: RankedModel[] }>()

export function rankedModels(ctx: EmulatorContext, fixture: RankingsFixture): RankedModel[] {
  const catalog = ctx.services.catalog.get().models
  const cached = rankedCache.get(catalog)
  if (cached && cached.seed === ctx.config.seed && cached.fixture === fixture) return cached.models
  const models = catalog
    .filter((m) => ['text', 'image', 'embeddings'].some((o) => outputs(m, o)))
    .map((model): RankedModel => {
      const key = keyOf(ctx.config.seed, `rankings:${model.id}`)
      const allowed = CONTEXT_BUCKETS.filter((b) => model.context_length > BUCKET_FLOOR[b])
      const weights = allowed.map((b, i) => fixture.context_buckets[b] * (0.5 + constant(key, 10 + i)))
      const total = weights.reduce((a, b) => a + b, 0)
      const listedIn = new Set<string>(model.categories)
      return {
        permaslug: permaslugOf(model),
        model,
        key,
        base: logWithin(fixture.daily_tokens, constant(key, 0)),
        growth: within(fixture.daily_growth, constant(key, 1)),
        since: dayIndex(model.created * 1000),
        toolShare: model.supported_parameters.includes('tools') ? within(fixture.tool_calling_share, constant(key, 2)) : 0,
        bucketShare: Object.fromEntries(CONTEXT_BUCKETS.map((b) => [b, total > 0 && allowed.includes(b) ? weights[allowed.indexOf(b)]! / total : 0])) as Record<
          Bucket,
          number
        >,
        categoryShare: (category) =>
          within(listedIn.has(category) ? fixture.category_share.listed : fixture.category_share.unlisted, unitAt(keyOf(ctx.config.seed, category), key)),
        programmingShare: within(
          listedIn.has('programming') ? fixture.programming_language_share.programming : fixture.programming_language_share.other,
          constant(key, 3),
        ),
      }
    })
  rankedCache.set(catalog, { seed: ctx.config.seed, fixture, models })
  return models
}

/** A model's tokens on one day, before any filter. */
export function dayTokens(m: RankedModel, day: number, first: number, fixture: RankingsFixture): number {
  if (day < first || day < m.since) return 0
  const trend = Math.exp(m.growth * (day - first))
  const noise = 1 + fixture.daily_noise * (2 * unitAt(m.key, day) - 1)
  return m.base * trend * noise * (isWeekend(day) ? fixture.weekend_factor : 1)
}

/** The part of a model's traffic a modality or context filter keeps (0 drops the model). */
function exactShare(m: RankedModel, query: Query): number {
  let share = 1
  switch (query.modality) {
    case 'text':
      share *= outputs(m.model, 'text') ? 1 : 0
      break
    case 'image_output':
      share *= outputs(m.model, 'image') ? 1 : 0
      break
    case 'image':
    case 'audio':
      share *= inputs(m.model, query.modality) ? 1 : 0
      break
    case 'tool_calling':
      share *= m.toolShare
      break
    case undefined:
      break
  }
  if (query.context_bucket !== undefined) share *= m.bucketShare[query.context_bucket]
  return share
}

function checkCombinations(query: Query): 'exact' | 'sampled' {
  const sampled = query.category !== undefined ? 'category' : query.language_type !== undefined ? 'language_type' : undefined
  if (query.category !== undefined && query.language_type !== undefined) {
    throw notTogether('language_type', 'category', 'each reads its own sampled dataset')
  }
  if (sampled === undefined) return 'exact'
  for (const exact of ['modality', 'context_bucket'] as const) {
    if (query[exact] !== undefined) throw notTogether(exact, sampled, `${sampled} reads a sampled dataset and ${exact} filters the exact one`)
  }
  if (query.period === 'day') throw notTogether('period', sampled, `day is not available: the ${sampled} dataset is aggregated weekly (use week or month)`)
  return 'sampled'
}

export function rankingsDaily(ctx: EmulatorContext, fixture: RankingsFixture, query: Query): Static<(typeof RankingsDailyResponse)[200]> {
  const kind = checkCombinations(query)
  const window = resolveWindow(ctx, query, fixture)
  const first = parseDay(fixture.dataset_start)!
  const period = query.period ?? (kind === 'sampled' ? 'week' : 'day')
  const bucketOf = (day: number) => (period === 'day' ? day : period === 'week' ? weekStart(day) : monthStart(day))
  const models = rankedModels(ctx, fixture)

  // Tokens by bucket, then by model.
  const totals = new Map<number, Map<RankedModel, number>>()
  const add = (bucket: number, m: RankedModel, tokens: number) => {
    if (tokens <= 0) return
    let byModel = totals.get(bucket)
    if (!byModel) totals.set(bucket, (byModel = new Map<RankedModel, number>()))
    byModel.set(m, (byModel.get(m) ?? 0) + tokens)
  }

  if (kind === 'exact') {
    for (const m of models) {
      const share = exactShare(m, query)
      if (share <= 0) continue
      for (let day = window.start; day <= window.end; day++) add(bucketOf(day), m, dayTokens(m, day, first, fixture) * share)
    }
  } else {
    // Whole weeks, the trailing one past end_date included, each an upsampled estimate.
    const label = query.category ?? `language:${query.language_type}`
    const labelKey = keyOf(ctx.config.seed, `sampled:${label}`)
    for (const m of models) {
      const share =
        query.category !== undefined ? m.categoryShare(query.category) : query.language_type === 'programming' ? m.programmingShare : 1 - m.programmingShare
      for (let week = weekStart(window.start); week <= window.end; week += 7) {
        let tokens = 0
        for (let day = week; day < week + 7; day++) tokens += dayTokens(m, day, first, fixture)
        const noise = 1 + fixture.sample_noise * (2 * unitAt(labelKey ^ m.key, week) - 1)
        add(period === 'week' ? week : monthStart(week), m, Math.round((tokens * share * noise) / 1000) * 1000)
      }
    }
  }

  const data: Array<{ date: string; model_permaslug: string; total_tokens: string }> = []
  for (const bucket of [...totals.keys()].sort((a, b) => a - b)) {
    const ranked = [...totals.get(bucket)!]
      .map(([m, tokens]) => ({ slug: m.permaslug, tokens: Math.round(tokens) }))
      .filter((r) => r.tokens > 0)
      .sort((a, b) => b.tokens - a.tokens || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0))
    const date = isoDay(bucket)
    for (const r of ranked.slice(0, fixture.top_models)) data.push({ date, model_permaslug: r.slug, total_tokens: String(r.tokens) })
    const rest = ranked.slice(fixture.top_models).reduce((n, r) => n + r.tokens, 0)
    if (rest > 0) data.push({ date, model_permaslug: 'other', total_tokens: String(rest) })
  }
  return {
    data,
    meta: { as_of: new Date(ctx.clock.now()).toISOString(), version: 'v1', start_date: isoDay(window.start), end_date: isoDay(window.end) },
  }
}
