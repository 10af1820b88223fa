// The public datasets: /benchmarks, /classifications/task and /datasets/{app-rankings,rankings-daily,
// session-cost}. Generated from the seed over the catalog's models and the fixture files: valid against
// the real document, the same bytes for the same seed, coherent (windows, ranks, shares that sum, the
// catalog's prices), replaceable through --fixtures, rate-limited as the real ones, and each refusal
// with its status and body.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { testEmulator, type TestEmulator } from '../../helpers/emulator.ts'
import { gatewayProblems, hasRealDocument } from '../contract/shapes.ts'

type Row = Record<string, any>

const bundled = (name: string) => JSON.parse(readFileSync(new URL(`../../../fixtures/datasets/${name}`, import.meta.url), 'utf8')) as Row

const URLS = [
  '/api/v1/benchmarks',
  '/api/v1/benchmarks?task_type=search&include_run_config=true',
  '/api/v1/benchmarks?source=design-arena&arena=builders',
  '/api/v1/classifications/task',
  '/api/v1/datasets/app-rankings',
  '/api/v1/datasets/app-rankings?sort=trending&category=coding',
  '/api/v1/datasets/rankings-daily',
  '/api/v1/datasets/rankings-daily?category=programming&period=month',
  '/api/v1/datasets/session-cost',
]

async function ok(emu: TestEmulator, url: string, key = emu.keys.standard): Promise<Row> {
  const res = await emu.get(url, key)
  expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBe(200)
  return res.body
}

/** The permaslug the datasets name a catalog model by, and the day (UTC) it was added. */
async function catalogModels(emu: TestEmulator): Promise<Map<string, Row>> {
  const models = (await emu.get('/api/v1/models?output_modalities=all')).body.data as Row[]
  return new Map(models.map((m) => [m.canonical_slug + (m.id.includes(':') ? m.id.slice(m.id.indexOf(':')) : ''), m]))
}

const day = (seconds: number): string => new Date(seconds * 1000).toISOString().slice(0, 10)

describe.skipIf(!hasRealDocument)('answers valid against the real document', () => {
  it.each(URLS)('%s', async (url) => {
    const emu = await testEmulator()
    const res = await emu.get(url, emu.keys.standard)
    expect(res.status).toBe(200)
    const path = url.slice('/api/v1'.length).split('?')[0]!
    expect(gatewayProblems('get', path, res)).toEqual([])
  })
})

describe('determinism', () => {
  it('gives the same bytes for the same seed and other figures for another seed', async () => {
    const a = await testEmulator()
    const b = await testEmulator()
    const other = await testEmulator({ seed: 2 })
    for (const url of URLS) {
      const first = await a.request({ method: 'GET', url, headers: { authorization: `Bearer ${a.keys.standard}` } })
      const again = await b.request({ method: 'GET', url, headers: { authorization: `Bearer ${b.keys.standard}` } })
      const changed = await other.request({ method: 'GET', url, headers: { authorization: `Bearer ${other.keys.standard}` } })
      expect(JSON.stringify(again.body), url).toBe(JSON.stringify(first.body))
      expect(JSON.stringify(changed.body.data), url).not.toBe(JSON.stringify(first.body.data))
    }
  })
})

describe('GET /api/v1/datasets/rankings-daily', () => {
  it('answers the last 30 days to yesterday: the top 50 by tokens per day, then `other`, none before a model existed', async () => {
    const emu = await testEmulator()
    const body = await ok(emu, '/api/v1/datasets/rankings-daily')
    expect(body.meta).toEqual({ as_of: '2026-03-04T10:00:00.000Z', version: 'v1', start_date: '2026-02-01', end_date: '2026-03-03' })
    const models = await catalogModels(emu)
    const dates = [...new Set((body.data as Row[]).map((r) => r.date))]
    expect(dates).toEqual([...dates].sort())
    expect(dates[0]).toBe('2026-02-01')
    expect(dates.at(-1)).toBe('2026-03-03')
    for (const date of dates) {
      const rows = (body.data as Row[]).filter((r) => r.date === date)
      const ranked = rows.filter((r) => r.model_permaslug !== 'other')
      expect(ranked.length).toBeLessThanOrEqual(50)
      expect(rows.findIndex((r) => r.model_permaslug === 'other')).toBeOneOf([-1, rows.length - 1])
      const tokens = ranked.map((r) => Number(r.total_tokens))
      expect(tokens).toEqual([...tokens].sort((x, y) => y - x))
      for (const r of ranked) {
        expect(r.total_tokens).toMatch(/^[1-9]\d*$/)
        const model = models.get(r.model_permaslug)
        expect(model, r.model_permaslug).toBeDefined()
        expect(day(model!.created) <= date, `${r.model_permaslug} on ${date}`).toBe(true)
      }
    }
    // The catalog has more than 50 token models: the long tail is summed.
    expect((body.data as Row[]).some((r) => r.model_permaslug === 'other')).toBe(true)
  })

  it('clamps a start before the dataset to its first day and an end past yesterday to yesterday', async () => {
    const emu = await testEmulator()
    const early = await ok(emu, '/api/v1/datasets/rankings-daily?start_date=2024-06-01&end_date=2025-01-10')
    expect(early.meta).toMatchObject({ start_date: '2025-01-01', end_date: '2025-01-10' })
    const late = await ok(emu, '/api/v1/datasets/rankings-daily?start_date=2026-03-01&end_date=2027-01-01')
    expect(late.meta).toMatchObject({ start_date: '2026-03-01', end_date: '2026-03-03' })
    expect([...new Set(late.data.map((r: Row) => r.date))]).toEqual(['2026-03-01', '2026-03-02', '2026-03-03'])
  })

  it('sums the days of a week (from Monday) and a month (from the 1st) into one row per model', async () => {
    const emu = await testEmulator()
    const window = 'start_date=2026-02-16&end_date=2026-02-22'
    const days = (await ok(emu, `/api/v1/datasets/rankings-daily?${window}`)).data as Row[]
    const weeks = (await ok(emu, `/api/v1/datasets/rankings-daily?${window}&period=week`)).data as Row[]
    expect(new Set(weeks.map((r) => r.date))).toEqual(new Set(['2026-02-16']))
    const top = weeks[0]!
    const daily = days.filter((r) => r.model_permaslug === top.model_permaslug).reduce((n, r) => n + Number(r.total_tokens), 0)
    // Each day is rounded on its own: at most half a token each.
    expect(Math.abs(daily - Number(top.total_tokens))).toBeLessThanOrEqual(4)
    const months = (await ok(emu, '/api/v1/datasets/rankings-daily?start_date=2025-12-15&end_date=2026-02-10&period=month')).data as Row[]
    expect([...new Set(months.map((r) => r.date))]).toEqual(['2025-12-01', '2026-01-01', '2026-02-01'])
  })

  it('keeps the models of a modality or context bucket, and reads the weekly sampled estimates for a category', async () => {
    const emu = await testEmulator()
    const models = await catalogModels(emu)
    // `other` is the real document's row for every model outside a day's top 50 (the catalog has hundreds).
    const named = (rows: Row[]) => rows.filter((r) => r.model_permaslug !== 'other')
    const images = named((await ok(emu, '/api/v1/datasets/rankings-daily?modality=image_output')).data)
    expect(images.length).toBeGreaterThan(0)
    for (const r of images) expect(models.get(r.model_permaslug)!.architecture.output_modalities).toContain('image')
    const long = named((await ok(emu, '/api/v1/datasets/rankings-daily?context_bucket=1M')).data)
    for (const r of long) expect(models.get(r.model_permaslug)!.context_length).toBeGreaterThan(100_000)
    const tools = named((await ok(emu, '/api/v1/datasets/rankings-daily?modality=tool_calling')).data)
    for (const r of tools) expect(models.get(r.model_permaslug)!.supported_parameters).toContain('tools')

    const sampled = await ok(emu, '/api/v1/datasets/rankings-daily?category=programming&start_date=2026-02-04&end_date=2026-02-20')
    // Whole ISO weeks, the one holding start_date first; estimates in thousands.
    expect([...new Set(sampled.data.map((r: Row) => r.date))]).toEqual(['2026-02-02', '2026-02-09', '2026-02-16'])
    for (const r of sampled.data as Row[]) expect(Number(r.total_tokens) % 1000).toBe(0)
  })
})

describe('GET /api/v1/datasets/app-rankings', () => {
  it('ranks apps by tokens in the window, with absolute ranks across pages', async () => {
    const emu = await testEmulator()
    const all = await ok(emu, '/api/v1/datasets/app-rankings')
    expect(all.data).toHaveLength(50)
    expect(all.data.map((r: Row) => r.rank)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1))
    const tokens = all.data.map((r: Row) => Number(r.total_tokens))
    expect(tokens).toEqual([...tokens].sort((x, y) => y - x))
    for (const r of all.data as Row[]) expect(r.total_requests).toBeGreaterThan(0)
    const page = await ok(emu, '/api/v1/datasets/app-rankings?offset=10&limit=5')
    expect(page.data).toEqual(all.data.slice(10, 15))
    expect(page.data[0].rank).toBe(11)
  })

  it('ranks by growth over the three windows before for trending, leaving out the apps that did not grow', async () => {
    const emu = await testEmulator()
    const popular = (await ok(emu, '/api/v1/datasets/app-rankings?limit=100')).data as Row[]
    const trending = (await ok(emu, '/api/v1/datasets/app-rankings?sort=trending&limit=100')).data as Row[]
    expect(trending.length).toBeGreaterThan(0)
    expect(trending.length).toBeLessThan(popular.length)
    expect(trending.map((r) => r.rank)).toEqual(trending.map((_, i) => i + 1))
    // The same window's tokens, whatever the order.
    for (const r of trending) expect(r.total_tokens).toBe(popular.find((p) => p.app_id === r.app_id)!.total_tokens)
  })
})

describe('GET /api/v1/datasets/session-cost', () => {
  it('answers cells by harness, model and turn range at the catalog prices, in a stable order, refreshed weekly', async () => {
    const emu = await testEmulator()
    const models = await catalogModels(emu)
    const body = await ok(emu, '/api/v1/datasets/session-cost?limit=500')
    // Wednesday 2026-03-04: the snapshot taken on Monday covers the 30 days to Sunday.
    expect(body.meta).toEqual({ as_of: '2026-03-04T10:00:00.000Z', version: 'v1', window_days: 30, window_end_date: '2026-03-01' })
    const cells = body.data as Row[]
    const harnesses = bundled('session-cost.json').harnesses as Row[]
    expect(cells).toHaveLength(harnesses.reduce((n, h) => n + h.models, 0) * 4)
    const keys = cells.map((c) => `${c.app_slug} ${c.model_permaslug}`)
    expect(keys).toEqual([...keys].sort())
    for (let i = 0; i < cells.length; i += 4) {
      expect(cells.slice(i, i + 4).map((c) => c.turn_range)).toEqual(['1-turn', '2-9-turns', '10-49-turns', '50-plus-turns'])
      const costs = cells.slice(i, i + 4).map((c) => c.median_session_cost_usd)
      expect(costs).toEqual([...costs].sort((x, y) => x - y))
      // A free model's sessions cost nothing (a `:free` variant, or a model the catalog prices at 0); every other model's cost something.
      const pricing = models.get(cells[i]!.model_permaslug)!.pricing as Record<string, string>
      if (Number(pricing.prompt) === 0 && Number(pricing.completion) === 0) expect(costs).toEqual([0, 0, 0, 0])
      else expect(costs[0]).toBeGreaterThan(0)
    }
    const model = cells[0]!.model_permaslug
    const byModel = (await ok(emu, `/api/v1/datasets/session-cost?model=${model}&turn_range=1-turn`)).data as Row[]
    expect(byModel).toEqual(cells.filter((c) => c.model_permaslug === model && c.turn_range === '1-turn'))
    const hermes = (await ok(emu, '/api/v1/datasets/session-cost?app_slug=hermes-agent')).data as Row[]
    expect(hermes).toEqual(cells.filter((c) => c.app_slug === 'hermes-agent'))
    expect((await ok(emu, '/api/v1/datasets/session-cost?offset=4&limit=4')).data).toEqual(cells.slice(4, 8))
    expect((await ok(emu, '/api/v1/datasets/session-cost?app_slug=nobody')).data).toEqual([])

    await emu.clock.advanceTo(Date.parse('2026-03-09T00:00:00Z'))
    const next = await ok(emu, '/api/v1/datasets/session-cost?limit=500')
    expect(next.meta.window_end_date).toBe('2026-03-08')
    expect(next.data.map((c: Row) => c.model_permaslug)).toEqual(cells.map((c) => c.model_permaslug))
    expect(next.data).not.toEqual(cells)
  })
})

describe('GET /api/v1/classifications/task', () => {
  it('gives shares that sum to the whole, overall, per macro category and per tag, with catalog models', async () => {
    const emu = await testEmulator()
    const { data } = await ok(emu, '/api/v1/classifications/task?window=7d')
    expect(data).toMatchObject({ window_days: 7, as_of: '2026-03-03' })
    const tags = data.classifications as Row[]
    expect(tags).toHaveLength(bundled('classifications.json').tags.length)
    const sum = (values: number[]) => values.reduce((a, b) => a + b, 0)
    expect(sum(tags.map((t) => t.usage_share))).toBeCloseTo(1, 9)
    expect(sum(tags.map((t) => t.token_share))).toBeCloseTo(1, 9)
    expect(tags.map((t) => t.usage_share)).toEqual(tags.map((t) => t.usage_share).sort((x, y) => y - x))
    const models = await catalogModels(emu)
    for (const macro of data.macro_categories as Row[]) {
      const members = tags.filter((t) => t.macro_category === macro.key)
      expect(members.every((t) => t.tag.startsWith(`${macro.key}:`))).toBe(true)
      expect(sum(members.map((t) => t.category_usage_share))).toBeCloseTo(1, 9)
      expect(sum(members.map((t) => t.category_token_share))).toBeCloseTo(1, 9)
      expect(macro.usage_share).toBeCloseTo(sum(members.map((t) => t.usage_share)), 9)
    }
    for (const t of tags) {
      expect(t.models).toHaveLength(5)
      expect(sum(t.models.map((m: Row) => m.tag_usage_share))).toBeLessThan(1)
      for (const m of t.models as Row[]) expect(models.has(m.id), m.id).toBe(true)
    }
  })
})

describe('GET /api/v1/benchmarks', () => {
  it('unifies the three sources, search results aside, with the catalog prices', async () => {
    const emu = await testEmulator()
    const models = await catalogModels(emu)
    const all = await ok(emu, '/api/v1/benchmarks')
    const sources = new Set(all.data.map((i: Row) => i.source))
    expect(sources).toEqual(new Set(['artificial-analysis', 'design-arena', 'openrouter']))
    expect(all.data.some((i: Row) => String(i.benchmark_type).startsWith('search_'))).toBe(false)
    expect(all.meta).toMatchObject({ as_of: '2026-03-03T12:00:00Z', version: 'v1', source: null, source_url: null, citation: null, task_type: null })
    expect(all.meta.model_count).toBe(new Set(all.data.map((i: Row) => i.model_permaslug)).size)

    const aa = await ok(emu, '/api/v1/benchmarks?source=artificial-analysis')
    expect(aa.meta).toMatchObject({ source: 'artificial-analysis', source_url: 'https://artificialanalysis.ai' })
    const intelligence = aa.data.map((i: Row) => i.intelligence_index)
    expect(intelligence).toEqual([...intelligence].sort((x, y) => y - x))
    for (const item of aa.data as Row[]) {
      const model = models.get(item.model_permaslug)!
      expect(item.pricing).toEqual({ prompt: model.pricing.prompt, completion: model.pricing.completion })
    }
  })

  it('narrows by task type, benchmark, arena, search engine and count', async () => {
    const emu = await testEmulator()
    const coding = await ok(emu, '/api/v1/benchmarks?task_type=coding')
    const codingAa = coding.data.filter((i: Row) => i.source === 'artificial-analysis').map((i: Row) => i.coding_index)
    expect(codingAa).toEqual([...codingAa].sort((x, y) => y - x))
    expect(new Set(coding.data.filter((i: Row) => i.source === 'design-arena').map((i: Row) => i.category))).toEqual(
      new Set(['codecategories', 'uicomponent', 'gamedev']),
    )
    expect(coding.data.some((i: Row) => i.source === 'openrouter')).toBe(false)
    expect(coding.meta.task_type).toBe('coding')

    const search = await ok(emu, '/api/v1/benchmarks?task_type=search')
    expect(search.data.length).toBeGreaterThan(0)
    for (const item of search.data as Row[]) {
      expect(item.benchmark_type).toMatch(/^search_/)
      expect(item.primary_metric).toBe(item.benchmark_type === 'search_widesearch' ? 'f1_by_item' : 'accuracy')
      expect(item).not.toHaveProperty('run_config')
    }
    expect(search.meta).toMatchObject({ source: null, source_url: 'https://openrouter.ai/rankings' })
    const configured = await ok(emu, '/api/v1/benchmarks?benchmark_type=search_hle&include_run_config=true&search_engine=exa')
    expect(configured.data.length).toBeGreaterThan(0)
    for (const item of configured.data as Row[]) {
      expect(item).toMatchObject({ benchmark_type: 'search_hle', search_engine: 'exa' })
      expect(Object.keys(item.run_config).sort()).toEqual(['max_agent_turns', 'reasoning_effort', 'temperature'])
    }

    // A classic benchmark narrows the OpenRouter items and leaves the other sources' as they are.
    const gpqa = await ok(emu, '/api/v1/benchmarks?benchmark_type=gpqa_diamond')
    const all = await ok(emu, '/api/v1/benchmarks')
    expect(new Set(gpqa.data.filter((i: Row) => i.source === 'openrouter').map((i: Row) => i.benchmark_type))).toEqual(new Set(['gpqa_diamond']))
    expect(gpqa.data.filter((i: Row) => i.source !== 'openrouter')).toEqual(all.data.filter((i: Row) => i.source !== 'openrouter'))

    const builders = await ok(emu, '/api/v1/benchmarks?source=design-arena&arena=builders&category=website')
    const entries = bundled('benchmarks.json').sources['design-arena'].arenas.builders.entries as Row[]
    expect(builders.data.map((i: Row) => i.model_permaslug).sort()).toEqual(entries.map((e) => e.id).sort())
    for (const item of builders.data as Row[]) expect(item).toMatchObject({ arena: 'builders', category: 'website', pricing: null })

    const five = await ok(emu, '/api/v1/benchmarks?max_results=5')
    expect(five.data).toEqual(all.data.slice(0, 5))
  })
})

describe('the fixture files', () => {
  function fixturesDir(files: Record<string, unknown>): string {
    const dir = mkdtempSync(join(tmpdir(), 'emulator-datasets-'))
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
    mkdirSync(join(dir, 'datasets'))
    for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, 'datasets', name), JSON.stringify(content))
    return dir
  }

  it('come from --fixtures when it has them, and from the bundled ones otherwise', async () => {
    const apps = {
      ...bundled('apps.json'),
      apps: [
        { app_id: 7, app_name: 'Our Editor', subcategories: ['ide-extension'] },
        { app_id: 8, app_name: 'Our Storyteller', subcategories: ['creative-writing'] },
        { app_id: 9, app_name: 'Our Terminal', subcategories: ['cli-agent'] },
      ],
      generated: { count: 0, first_app_id: 1000 },
    }
    const sessions = { ...bundled('session-cost.json'), harnesses: [{ app_slug: 'our-harness', app_name: 'Our Harness', models: 2 }] }
    const emu = await testEmulator({ fixtures: fixturesDir({ 'apps.json': apps, 'session-cost.json': sessions }) })
    const ranked = (await ok(emu, '/api/v1/datasets/app-rankings')).data as Row[]
    expect(ranked.map((r) => r.app_name).sort()).toEqual(['Our Editor', 'Our Storyteller', 'Our Terminal'])
    const coding = (await ok(emu, '/api/v1/datasets/app-rankings?category=coding')).data as Row[]
    expect(coding.map((r) => r.app_id).sort()).toEqual([7, 9])
    expect(coding.map((r) => r.rank)).toEqual([1, 2])
    expect((await ok(emu, '/api/v1/datasets/app-rankings?subcategory=creative-writing')).data.map((r: Row) => r.app_id)).toEqual([8])
    const cells = (await ok(emu, '/api/v1/datasets/session-cost')).data as Row[]
    expect(new Set(cells.map((c) => c.app_name))).toEqual(new Set(['Our Harness']))
    expect(cells).toHaveLength(8)
    // The files it does not replace are the bundled ones.
    const bundledEmu = await testEmulator()
    expect((await ok(emu, '/api/v1/classifications/task')).data).toEqual((await ok(bundledEmu, '/api/v1/classifications/task')).data)
  })

  it('stop the start when one is wrong, naming the file and the field', async () => {
    const classifications = { ...bundled('classifications.json'), tags: [{ tag: 'finance:budgets', display_name: 'Budgets' }] }
    const dir = fixturesDir({ 'classifications.json': classifications })
    await expect(testEmulator({ fixtures: dir })).rejects.toThrow(
      `datasets ${join(dir, 'datasets', 'classifications.json')}: \`tags[0].tag\` has a prefix that is no macro category's key (code, data, agent, general)`,
    )
    const rankings = { ...bundled('rankings.json'), top_models: 0 }
    const other = fixturesDir({ 'rankings.json': rankings })
    await expect(testEmulator({ fixtures: other })).rejects.toThrow(`datasets ${join(other, 'datasets', 'rankings.json')}: \`top_models\` must be >= 1`)
  })
})

describe('the rate limit of the datasets: 30 requests a minute per key, 500 a day per account', () => {
  it('answers the 31st request of a minute with the real 429, per key, and again the next minute', async () => {
    const emu = await testEmulator()
    for (let i = 0; i < 30; i++) await ok(emu, i % 2 ? '/api/v1/classifications/task' : '/api/v1/datasets/session-cost?limit=1')
    const refused = await emu.get('/api/v1/benchmarks', emu.keys.standard)
    expect(refused.status).toBe(429)
    expect(refused.body).toEqual({
      error: {
        code: 429,
        message: 'Rate limit exceeded: 30 requests per minute for this key. It resets at 2026-03-04T10:01:00.000Z',
        metadata: {
          limit_source: 'keyPerMinute',
          headers: { 'X-RateLimit-Limit': '30', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(Date.parse('2026-03-04T10:01:00Z')) },
        },
      },
    })
    expect(refused.headers['retry-after']).toBe('60')
    // Another key of the account has its own minute.
    await ok(emu, '/api/v1/benchmarks', emu.keys.management)
    await emu.clock.advance('1m')
    await ok(emu, '/api/v1/benchmarks')
    // A reset of the state starts the counts afresh.
    for (let i = 0; i < 29; i++) await ok(emu, '/api/v1/classifications/task')
    expect((await emu.get('/api/v1/classifications/task', emu.keys.standard)).status).toBe(429)
    await emu.send('POST', '/_emulator/api/reset')
    await ok(emu, '/api/v1/classifications/task')
  })

  it('answers the 501st request of a day of one account with a 429', async () => {
    const emu = await testEmulator()
    for (let i = 0; i < 500; i++) {
      if (i > 0 && i % 30 === 0) await emu.clock.advance('1m')
      const res = await emu.get('/api/v1/classifications/task', emu.keys.standard)
      expect(res.status, `request ${i + 1}`).toBe(200)
    }
    await emu.clock.advance('1m')
    const refused = await emu.get('/api/v1/datasets/rankings-daily', emu.keys.standard)
    expect(refused.status).toBe(429)
    expect(refused.body.error.message).toBe('Rate limit exceeded: 500 requests per day for this account. It resets at 2026-03-05T00:00:00.000Z')
  })
})

describe('refusals name the query parameter', () => {
  const refusals: Array<[string, string]> = [
    ['/api/v1/datasets/rankings-daily?end_date=2024-12-31', 'Query parameter `end_date` must be on or after 2025-01-01, the first day of the dataset'],
    ['/api/v1/datasets/rankings-daily?start_date=2026-02-31', 'Query parameter `start_date` must be a calendar date as YYYY-MM-DD'],
    ['/api/v1/datasets/rankings-daily?start_date=03/01/2026', 'Query parameter `start_date` is not valid (must match pattern "^\\d{4}-\\d{2}-\\d{2}$")'],
    [
      '/api/v1/datasets/rankings-daily?start_date=2026-03-02&end_date=2026-03-01',
      'Query parameter `start_date` (2026-03-02) must be on or before end_date (2026-03-01)',
    ],
    [
      '/api/v1/datasets/rankings-daily?start_date=2025-01-01&end_date=2026-03-01',
      'Query parameter `start_date` opens a window of 425 days; a window spans at most 366 days: move start_date or end_date closer',
    ],
    [
      '/api/v1/datasets/rankings-daily?category=programming&period=day',
      'Query parameter `period` cannot be combined with `category`: day is not available: the category dataset is aggregated weekly (use week or month)',
    ],
    [
      '/api/v1/datasets/rankings-daily?language_type=natural&modality=text',
      'Query parameter `modality` cannot be combined with `language_type`: language_type reads a sampled dataset and modality filters the exact one',
    ],
    [
      '/api/v1/datasets/rankings-daily?category=programming&language_type=natural',
      'Query parameter `language_type` cannot be combined with `category`: each reads its own sampled dataset',
    ],
    ['/api/v1/datasets/rankings-daily?modality=video', 'Query parameter `modality` must be one of text, image, image_output, audio, tool_calling'],
    [
      '/api/v1/datasets/app-rankings?category=creative&subcategory=cli-agent',
      'Query parameter `subcategory` (cli-agent) is not in the `creative` category, whose subcategories are creative-writing, video-gen, image-gen, audio-gen',
    ],
    ['/api/v1/datasets/app-rankings?limit=101', 'Query parameter `limit` must be <= 100'],
    ['/api/v1/datasets/app-rankings?offset=101', 'Query parameter `offset` must be <= 100'],
    ['/api/v1/datasets/app-rankings?sort=newest', 'Query parameter `sort` must be one of popular, trending'],
    ['/api/v1/datasets/session-cost?limit=0', 'Query parameter `limit` must be >= 1'],
    ['/api/v1/datasets/session-cost?offset=5001', 'Query parameter `offset` must be <= 5000'],
    ['/api/v1/datasets/session-cost?turn_range=3-turns', 'Query parameter `turn_range` must be one of 1-turn, 2-9-turns, 10-49-turns, 50-plus-turns'],
    ['/api/v1/classifications/task?window=30d', 'Query parameter `window` must be one of 7d'],
    ['/api/v1/benchmarks?source=elsewhere', 'Query parameter `source` must be one of artificial-analysis, design-arena, openrouter'],
    ['/api/v1/benchmarks?max_results=0', 'Query parameter `max_results` must be >= 1'],
    [
      '/api/v1/benchmarks?task_type=search&source=design-arena',
      "Query parameter `task_type` cannot be combined with `source`: search results are OpenRouter's only, and source is design-arena",
    ],
    [
      '/api/v1/benchmarks?task_type=coding&benchmark_type=search_hle',
      'Query parameter `benchmark_type` cannot be combined with `task_type`: search_hle is a search benchmark, and task_type is coding',
    ],
    [
      '/api/v1/benchmarks?source=openrouter&arena=models',
      'Query parameter `arena` cannot be combined with `source`: arena applies to Design Arena results, and source is openrouter',
    ],
    [
      '/api/v1/benchmarks?category=poetry',
      'Query parameter `category` (poetry) is not one of codecategories, uicomponent, gamedev, 3d, dataviz, svg, image, video',
    ],
  ]

  it.each(refusals)('%s -> 400', async (url, message) => {
    const emu = await testEmulator()
    const res = await emu.get(url, emu.keys.standard)
    expect(res.status).toBe(400)
    expect(res.body.error).toMatchObject({ code: 400, message, metadata: { location: 'querystring' } })
  })

  it('answers no key and an unknown key with 401', async () => {
    const emu = await testEmulator()
    for (const url of URLS) {
      expect((await emu.get(url)).body).toEqual({ error: { code: 401, message: 'No auth credentials found' } })
      expect((await emu.get(url, 'sk-gw-v1-nobody')).body).toEqual({ error: { code: 401, message: 'User not found.' } })
    }
  })
})
