// GET /api/v1/datasets/session-cost: the median cost of a session per harness (the fixture's), model
// and turn range. Each harness runs a few of the catalog's tool-using models (drawn from the seed); a
// session's cost is its turns times the tokens of a turn at the model's own catalog prices (cached
// prompt tokens at the cache-read price), so a pricier model costs more, with a little weekly noise.
// The snapshot is refreshed weekly on the virtual clock, as the real one is.
import type { Static } from 'typebox'
import { createRng } from '../../core/rng.ts'
import type { EmulatorContext } from '../module.ts'
import type { CatalogModel } from '../catalog/catalog.schemas.ts'
import { estimateUsd } from '../meter/meter-pricers.service.ts'
import { TURN_RANGES, type SessionCostFixture } from './datasets.fixtures.ts'
import type { SessionCostQuery, SessionCostResponse } from './datasets.schemas.ts'
import { constant, dayIndex, isoDay, keyOf, unitAt, within } from './datasets-draws.service.ts'
import { outputs, permaslugOf } from './datasets.models.ts'

type Query = Static<typeof SessionCostQuery>
type Cell = Static<(typeof SessionCostResponse)[200]>['data'][number]

/** The day of the latest weekly snapshot (its window ends the day before). */
function snapshotDay(now: number, weekday: number): number {
  const today = dayIndex(now)
  // Day 0 (1970-01-01) was a Thursday, weekday 4 counting Sunday as 0.
  return today - ((((today + 4) % 7) - weekday + 7) % 7)
}

/** `count` of `candidates`, drawn without repeats from the harness's own stream. */
function harnessModels(seed: number, slug: string, candidates: readonly CatalogModel[], count: number): CatalogModel[] {
  const rng = createRng(seed, `datasets:session-cost:${slug}`)
  const pool = [...candidates]
  for (let i = pool.length - 1; i > 0; i--) {
    const j = rng.int(0, i)
    ;[pool[i], pool[j]] = [pool[j]!, pool[i]!]
  }
  return pool.slice(0, count)
}

export function sessionCost(ctx: EmulatorContext, fixture: SessionCostFixture, query: Query): Static<(typeof SessionCostResponse)[200]> {
  const seed = ctx.config.seed
  const snapshot = snapshotDay(ctx.clock.now(), fixture.refresh_weekday)
  const candidates = ctx.services.catalog
    .get()
    .models.filter((m) => outputs(m, 'text') && m.supported_parameters.includes('tools') && !m.id.endsWith(':free'))
    .sort((a, b) => (a.id < b.id ? -1 : 1))
  const cells: Cell[] = []
  for (const harness of [...fixture.harnesses].sort((a, b) => (a.app_slug < b.app_slug ? -1 : 1))) {
    if (query.app_slug !== undefined && harness.app_slug !== query.app_slug) continue
    const models = harnessModels(seed, harness.app_slug, candidates, harness.models)
      .map((model) => ({ model, slug: permaslugOf(model) }))
      .sort((a, b) => (a.slug < b.slug ? -1 : 1))
    for (const { model, slug } of models) {
      if (query.model !== undefined && slug !== query.model) continue
      const key = keyOf(seed, `session-cost:${harness.app_slug}:${model.id}`)
      const prompt = within(fixture.prompt_tokens_per_turn, constant(key, 0))
      const completion = within(fixture.completion_tokens_per_turn, constant(key, 1))
      const cached = within(fixture.cached_prompt_share, constant(key, 2))
      for (const [i, turnRange] of TURN_RANGES.entries()) {
        if (query.turn_range !== undefined && turnRange !== query.turn_range) continue
        const turns = fixture.turns[turnRange]
        // The context grows as a session goes on, so a long session's turns read more.
        const promptPerTurn = prompt * (1 + 0.1 * Math.log(turns))
        const perTurn = estimateUsd(model.pricing, { prompt: promptPerTurn, completion, cachedShare: cached })
        const noise = 1 + fixture.weekly_noise * (2 * unitAt(key, snapshot * 4 + i) - 1)
        cells.push({
          app_slug: harness.app_slug,
          app_name: harness.app_name,
          turn_range: turnRange,
          model_permaslug: slug,
          median_session_cost_usd: Math.round(turns * perTurn * noise * 10_000) / 10_000,
        })
      }
    }
  }
  const offset = query.offset ?? 0
  return {
    data: cells.slice(offset, offset + (query.limit ?? 100)),
    meta: { as_of: new Date(ctx.clock.now()).toISOString(), version: 'v1', window_days: fixture.window_days, window_end_date: isoDay(snapshot - 1) },
  }
}
