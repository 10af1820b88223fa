// GET /api/v1/benchmarks: scores of the catalog's models from the three sources the real endpoint
// unifies (Artificial Analysis indices, Design Arena ELO, OpenRouter's own evals and search evals), in
// their four item shapes. Which models each source covers, and each score, are fixed draws of the seed
// pulled towards the model's quality (datasets.models.ts), so a frontier model leads every board; prices are
// the catalog's. The filters and their combinations are the real document's.
import type { Static } from 'typebox'
import type { EmulatorContext } from '../module.ts'
import type { CatalogModel } from '../catalog/catalog.schemas.ts'
import { estimateUsd } from '../meter/meter-pricers.service.ts'
import { notTogether, unknownCategory } from './datasets.errors.ts'
import { CLASSIC_BENCHMARKS, SEARCH_BENCHMARKS, type BenchmarksFixture } from './datasets.fixtures.ts'
import type { BenchmarksQuery, BenchmarksResponse } from './datasets.schemas.ts'
import { constant, DAY, dayIndex, keyOf, unitAt, within } from './datasets-draws.service.ts'
import { outputs, permaslugOf, qualityOf, shortName } from './datasets.models.ts'

type Query = Static<typeof BenchmarksQuery>
type Answer = Static<(typeof BenchmarksResponse)[200]>
type Item = Answer['data'][number]
type Source = 'artificial-analysis' | 'design-arena' | 'openrouter'
type Classic = (typeof CLASSIC_BENCHMARKS)[number]
type Search = (typeof SEARCH_BENCHMARKS)[number]

const round = (value: number, digits: number): number => Math.round(value * 10 ** digits) / 10 ** digits
const clamp = (value: number, min: number, max: number): number => Math.min(max, Math.max(min, value))
const secondsIso = (ms: number): string => `${new Date(ms).toISOString().slice(0, 19)}Z`

interface Scored {
  model: CatalogModel
  slug: string
  key: number
  quality: number
}

const pricingOf = (model: CatalogModel) => ({ prompt: model.pricing.prompt, completion: model.pricing.completion })

/** USD of one task of `tokens` (four fifths prompt, one fifth completion) at the model's prices. */
const taskCost = (model: CatalogModel, tokens: number): number => round(estimateUsd(model.pricing, { prompt: tokens * 0.8, completion: tokens * 0.2 }), 6)

/** The day of a board's latest run: boards rerun fortnightly, each on its own day of the cycle. */
const lastRun = (key: number, today: number): string => secondsIso((today - ((today + Math.floor(constant(key, 9) * 14)) % 14)) * DAY + 12 * 3_600_000)

interface Selection {
  sources: Set<Source>
  searchOnly: boolean
  aaIndex: 'intelligence_index' | 'coding_index' | 'agentic_index'
  aaNeedsIndex: boolean
  arena: 'models' | 'builders' | 'agents'
  categories: string[]
  classic: Classic[]
  search: Search[]
}

function select(fixture: BenchmarksFixture, query: Query): Selection {
  const searchType = query.benchmark_type?.startsWith('search_') === true
  const searchOnly = query.task_type === 'search' || searchType
  if (searchOnly && query.source !== undefined && query.source !== 'openrouter') {
    throw notTogether(
      query.task_type === 'search' ? 'task_type' : 'benchmark_type',
      'source',
      `search results are OpenRouter's only, and source is ${query.source}`,
    )
  }
  if (query.benchmark_type !== undefined && query.task_type !== undefined && searchType !== (query.task_type === 'search')) {
    throw notTogether(
      'benchmark_type',
      'task_type',
      `${query.benchmark_type} is ${searchType ? '' : 'not '}a search benchmark, and task_type is ${query.task_type}`,
    )
  }
  for (const field of ['arena', 'category'] as const) {
    if (query[field] !== undefined && query.source !== undefined && query.source !== 'design-arena') {
      throw notTogether(field, 'source', `${field} applies to Design Arena results, and source is ${query.source}`)
    }
  }
  const all: Source[] = ['artificial-analysis', 'design-arena', 'openrouter']
  const sources = new Set<Source>(searchOnly ? ['openrouter'] : query.source !== undefined ? [query.source] : all)
  const task = query.task_type !== undefined && query.task_type !== 'search' ? fixture.task_types[query.task_type] : undefined
  const arena = query.arena ?? 'models'
  const known = fixture.sources['design-arena'].arenas[arena].categories.map((c) => c.name)
  if (query.category !== undefined && !known.includes(query.category)) throw unknownCategory('category', query.category, known)
  const categories = known.filter(
    (c) => (query.category === undefined || c === query.category) && (task === undefined || task.design_arena_categories.includes(c)),
  )
  const classic = CLASSIC_BENCHMARKS.filter(
    (b) => (task === undefined || task.openrouter_benchmarks.includes(b)) && (query.benchmark_type === undefined || query.benchmark_type === b),
  )
  const search = SEARCH_BENCHMARKS.filter((b) => query.benchmark_type === undefined || query.benchmark_type === b)
  return { sources, searchOnly, aaIndex: task?.index ?? 'intelligence_index', aaNeedsIndex: task !== undefined, arena, categories, classic, search }
}

function artificialAnalysis(fixture: BenchmarksFixture, models: readonly Scored[], s: Selection): Item[] {
  const coverage = fixture.sources['artificial-analysis'].coverage
  const items = models
    .filter((m) => outputs(m.model, 'text') && constant(m.key, 20) < coverage)
    .map((m) => {
      const intelligence = clamp(round(12 + 62 * m.quality + 8 * (constant(m.key, 21) - 0.5), 1), 0, 100)
      const coding = clamp(
        round(intelligence * ((m.model.categories as string[]).includes('programming') ? 1.06 : 0.88) + 6 * (constant(m.key, 22) - 0.5), 1),
        0,
        100,
      )
      const agentic = m.model.supported_parameters.includes('tools') ? clamp(round(intelligence * 0.85 + 10 * (constant(m.key, 23) - 0.5), 1), 0, 100) : null
      return {
        source: 'artificial-analysis' as const,
        model_permaslug: m.slug,
        display_name: shortName(m.model),
        intelligence_index: intelligence,
        coding_index: coding,
        agentic_index: agentic,
        pricing: pricingOf(m.model),
      }
    })
    .filter((item) => !s.aaNeedsIndex || item[s.aaIndex] !== null)
  return items.sort((a, b) => (b[s.aaIndex] ?? -1) - (a[s.aaIndex] ?? -1) || (a.model_permaslug < b.model_permaslug ? -1 : 1))
}

function designArena(seed: number, fixture: BenchmarksFixture, models: readonly Scored[], s: Selection): Item[] {
  const source = fixture.sources['design-arena']
  const arena = source.arenas[s.arena]
  const items: Item[] = []
  for (const name of s.categories) {
    const category = arena.categories.find((c) => c.name === name)!
    const categoryKey = keyOf(seed, `design-arena:${s.arena}:${name}`)
    const contenders = arena.entries
      ? arena.entries.map((e) => ({ slug: e.id, display: e.display_name, key: keyOf(seed, `arena-entry:${e.id}`), quality: 0, model: undefined }))
      : models
          .filter((m) => outputs(m.model, category.output!) && unitAt(m.key ^ categoryKey, 0) < source.coverage)
          .map((m) => ({ slug: m.slug, display: m.model.name, key: m.key, quality: m.quality, model: m.model }))
    const board = contenders.map((c) => {
      const quality = c.model ? c.quality : constant(c.key, 0)
      const draw = unitAt(c.key ^ categoryKey, 1)
      const elo = round(1000 + 480 * quality + 70 * (draw - 0.5), 1)
      const total = 8 + Math.floor(constant(c.key, 30) * 190)
      const first = Math.round(total * clamp(0.1 + 0.5 * quality, 0, 0.7))
      const second = Math.round((total - first) * 0.4)
      const third = Math.round((total - first - second) * 0.5)
      return {
        source: 'design-arena' as const,
        model_permaslug: c.slug,
        display_name: c.display,
        arena: s.arena,
        category: name,
        elo,
        win_rate: round(clamp(50 + (elo - 1240) / 6, 1, 99), 1),
        avg_generation_time_ms: Math.round((category.output === 'video' ? 45_000 : 3_000) + 60_000 * constant(c.key, 31)),
        tournament_stats: { first_place: first, second_place: second, third_place: third, fourth_place: total - first - second - third, total },
        pricing: c.model ? pricingOf(c.model) : null,
      }
    })
    items.push(...board.sort((a, b) => b.elo - a.elo || (a.model_permaslug < b.model_permaslug ? -1 : 1)))
  }
  return items
}

function openRouterClassic(fixture: BenchmarksFixture, models: readonly Scored[], s: Selection, today: number): Item[] {
  const source = fixture.sources.openrouter
  const items: Item[] = []
  for (const [b, benchmark] of s.classic.map((name) => [name, source.benchmarks[name]] as const)) {
    const board = models
      .filter((m) => outputs(m.model, 'text') && (b !== 'tau_bench_verified_airline' || m.model.supported_parameters.includes('tools')))
      .filter((m) => unitAt(m.key, 3000 + CLASSIC_BENCHMARKS.indexOf(b)) < source.coverage)
      .map((m) => {
        const draw = unitAt(m.key, 3100 + CLASSIC_BENCHMARKS.indexOf(b))
        const runs = Math.round(within(benchmark.runs, constant(m.key, 40)))
        return {
          source: 'openrouter' as const,
          model_permaslug: m.slug,
          display_name: shortName(m.model),
          benchmark_type: b,
          accuracy: round(clamp((b === 'gpqa_diamond' ? 0.25 : 0.15) + 0.68 * m.quality + 0.1 * (draw - 0.5), 0, 1), 4),
          accuracy_stddev: runs > 1 ? round(0.005 + 0.04 * constant(m.key, 41), 4) : null,
          avg_cost_per_task: taskCost(m.model, benchmark.tokens_per_task),
          total_tasks: benchmark.tasks * runs,
          last_run_timestamp: lastRun(m.key, today),
        }
      })
    items.push(...board.sort((a, b2) => b2.accuracy - a.accuracy || (a.model_permaslug < b2.model_permaslug ? -1 : 1)))
  }
  return items
}

function openRouterSearch(fixture: BenchmarksFixture, models: readonly Scored[], s: Selection, query: Query, today: number): Item[] {
  const search = fixture.sources.openrouter.search
  const items: Item[] = []
  for (const b of s.search) {
    const benchmark = search.benchmarks[b]
    const index = SEARCH_BENCHMARKS.indexOf(b)
    const board = models
      .filter((m) => outputs(m.model, 'text') && m.model.supported_parameters.includes('tools') && unitAt(m.key, 4000 + index) < search.coverage)
      .map((m) => {
        const surface = unitAt(m.key, 4100 + index) < 0.6 ? ('server-tool' as const) : ('plugin' as const)
        const engine = search.engines[Math.floor(unitAt(m.key, 4200 + index) * search.engines.length)]!
        const runs = 1 + Math.floor(constant(m.key, 50) * 3)
        const reasons = m.model.supported_parameters.includes('reasoning')
        return {
          source: 'openrouter' as const,
          model_permaslug: m.slug,
          display_name: shortName(m.model),
          benchmark_type: b,
          primary_metric: b === 'search_widesearch' ? ('f1_by_item' as const) : ('accuracy' as const),
          primary_score: round(clamp(0.05 + 0.7 * m.quality + 0.12 * (unitAt(m.key, 4300 + index) - 0.5), 0, 1), 4),
          total_tasks: benchmark.tasks * runs,
          avg_cost_per_task: taskCost(m.model, benchmark.tokens_per_task),
          avg_latency_per_task_ms: Math.round(15_000 + 120_000 * unitAt(m.key, 4400 + index)),
          search_engine: engine,
          search_surface: surface,
          last_run_timestamp: lastRun(m.key ^ (index + 1), today),
          ...(query.include_run_config === true && {
            run_config: {
              max_agent_turns: surface === 'plugin' ? null : [10, 20, 30, 50][Math.floor(constant(m.key, 51) * 4)]!,
              reasoning_effort: reasons ? ['low', 'medium', 'high'][Math.floor(constant(m.key, 52) * 3)]! : null,
              temperature: constant(m.key, 53) < 0.5 ? null : round(constant(m.key, 54), 1),
            },
          }),
        }
      })
      .filter(
        (item) =>
          (query.search_engine === undefined || item.search_engine === query.search_engine) &&
          (query.search_surface === undefined || item.search_surface === query.search_surface),
      )
    items.push(...board.sort((a, b2) => b2.primary_score - a.primary_score || (a.model_permaslug < b2.model_permaslug ? -1 : 1)))
  }
  return items
}

export function benchmarks(ctx: EmulatorContext, fixture: BenchmarksFixture, query: Query): Answer {
  const s = select(fixture, query)
  const seed = ctx.config.seed
  const now = ctx.clock.now()
  // Boards refresh daily at a fixed hour; as_of is the latest refresh.
  const refreshed = Math.floor((now - fixture.refreshed_at_utc_hour * 3_600_000) / DAY) * DAY + fixture.refreshed_at_utc_hour * 3_600_000
  const today = dayIndex(refreshed)
  const models: Scored[] = ctx.services.catalog
    .get()
    .models.filter((m) => !m.id.endsWith(':free'))
    .map((m) => ({ model: m, slug: permaslugOf(m), key: keyOf(seed, `benchmarks:${m.id}`), quality: qualityOf(seed, m) }))
  const items: Item[] = [
    ...(s.sources.has('artificial-analysis') ? artificialAnalysis(fixture, models, s) : []),
    ...(s.sources.has('design-arena') ? designArena(seed, fixture, models, s) : []),
    ...(s.sources.has('openrouter') && !s.searchOnly ? openRouterClassic(fixture, models, s, today) : []),
    ...(s.searchOnly ? openRouterSearch(fixture, models, s, query, today) : []),
  ]
  const data = query.max_results === undefined ? items : items.slice(0, query.max_results)
  const single = s.sources.size === 1 ? fixture.sources[[...s.sources][0]!] : undefined
  return {
    data,
    meta: {
      as_of: secondsIso(refreshed),
      version: 'v1',
      source: query.source ?? null,
      source_url: single?.source_url ?? null,
      citation: single?.citation ?? null,
      model_count: new Set(data.map((item) => item.model_permaslug)).size,
      task_type: query.task_type ?? null,
    },
  }
}
