// GET /api/v1/datasets/app-rankings: the apps of the fixture (and as many more as it asks for, named by
// faker from the seed), each with a daily token volume on a trend like the models' (datasets-rankings.service.ts), ranked
// by tokens in the window (`popular`) or by growth over the three windows before it (`trending`).
import type { Static } from 'typebox'
import { loadFaker } from '../../core/faker.ts'
import { createRng } from '../../core/rng.ts'
import type { EmulatorContext } from '../module.ts'
import { subcategoryOutsideCategory } from './datasets.errors.ts'
import { APP_SUBCATEGORIES, type AppsFixture } from './datasets.fixtures.ts'
import type { AppRankingsQuery, AppRankingsResponse } from './datasets.schemas.ts'
import { constant, isoDay, isWeekend, keyOf, logWithin, parseDay, unitAt, within } from './datasets-draws.service.ts'
import { resolveWindow, type DayWindow } from './datasets-window.service.ts'

type Query = Static<typeof AppRankingsQuery>

interface App {
  app_id: number
  app_name: string
  subcategories: readonly string[]
  key: number
  base: number
  growth: number
  since: number
  tokensPerRequest: number
}

/** Per fixture (each emulator reads its own at start) and seed. */
const appsCache = new WeakMap<AppsFixture, Map<number, Promise<App[]>>>()
const WEEKEND_FACTOR = 0.85

const capitalised = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1)

/** The fixture's apps and the generated ones, with their fixed draws; made once per seed and fixture. */
function appsOf(seed: number, fixture: AppsFixture): Promise<App[]> {
  let bySeed = appsCache.get(fixture)
  if (!bySeed) appsCache.set(fixture, (bySeed = new Map<number, Promise<App[]>>()))
  const cached = bySeed.get(seed)
  if (cached) return cached
  const made = (async () => {
    const first = parseDay(fixture.dataset_start)!
    const listed = fixture.apps.map((a) => ({ ...a, since: first }))
    const generated: Array<{ app_id: number; app_name: string; subcategories: string[]; since: number }> = []
    if (fixture.generated.count > 0) {
      const faker = (await loadFaker())(createRng(seed, 'datasets:apps'))
      const names = new Set(listed.map((a) => a.app_name))
      for (let i = 0; i < fixture.generated.count; i++) {
        let name = `${capitalised(faker.word.adjective())} ${capitalised(faker.word.noun())}`
        for (let n = 2; names.has(name); n++) name = `${name.replace(/ \d+$/, '')} ${n}`
        names.add(name)
        const subcategories = faker.helpers.arrayElements(APP_SUBCATEGORIES, faker.number.int({ min: 1, max: 2 }))
        generated.push({ app_id: fixture.generated.first_app_id + i, app_name: name, subcategories, since: first + faker.number.int({ min: 0, max: 365 }) })
      }
    }
    return [...listed, ...generated].map((a) => {
      const key = keyOf(seed, `app:${a.app_id}`)
      return {
        ...a,
        key,
        base: logWithin(fixture.daily_tokens, constant(key, 0)),
        growth: within(fixture.daily_growth, constant(key, 1)),
        tokensPerRequest: logWithin(fixture.tokens_per_request, constant(key, 2)),
      }
    })
  })()
  bySeed.set(seed, made)
  return made
}

function tokensIn(app: App, window: DayWindow, first: number, fixture: AppsFixture): number {
  let tokens = 0
  for (let day = Math.max(window.start, first, app.since); day <= window.end; day++) {
    const noise = 1 + fixture.daily_noise * (2 * unitAt(app.key, day) - 1)
    tokens += app.base * Math.exp(app.growth * (day - first)) * noise * (isWeekend(day) ? WEEKEND_FACTOR : 1)
  }
  return Math.round(tokens)
}

export async function appRankings(ctx: EmulatorContext, fixture: AppsFixture, query: Query): Promise<Static<(typeof AppRankingsResponse)[200]>> {
  const window = resolveWindow(ctx, query, fixture)
  const first = parseDay(fixture.dataset_start)!
  let wanted: Set<string> | undefined
  if (query.category !== undefined) {
    const members = fixture.categories[query.category] as string[]
    if (query.subcategory !== undefined && !members.includes(query.subcategory)) throw subcategoryOutsideCategory(query.subcategory, query.category, members)
    wanted = new Set(members)
  }
  if (query.subcategory !== undefined) wanted = new Set([query.subcategory])
  const apps = (await appsOf(ctx.config.seed, fixture)).filter((a) => wanted === undefined || a.subcategories.some((s) => wanted.has(s)))

  const length = window.end - window.start + 1
  const scored = apps.map((app) => {
    const tokens = tokensIn(app, window, first, fixture)
    let score = tokens
    if (query.sort === 'trending') {
      let before = 0
      for (let k = 1; k <= 3; k++) before += tokensIn(app, { start: window.start - k * length, end: window.end - k * length }, first, fixture)
      score = tokens - before / 3
    }
    return { app, tokens, score }
  })
  const ranked = scored
    .filter((s) => s.tokens > 0 && (query.sort !== 'trending' || s.score > 0))
    .sort((a, b) => b.score - a.score || a.app.app_id - b.app.app_id)
  const offset = query.offset ?? 0
  const limit = query.limit ?? 50
  return {
    data: ranked.slice(offset, offset + limit).map((s, i) => ({
      rank: offset + i + 1,
      app_id: s.app.app_id,
      app_name: s.app.app_name,
      total_tokens: String(s.tokens),
      total_requests: Math.max(1, Math.round(s.tokens / s.app.tokensPerRequest)),
    })),
    meta: { as_of: new Date(ctx.clock.now()).toISOString(), version: 'v1', start_date: isoDay(window.start), end_date: isoDay(window.end) },
  }
}
