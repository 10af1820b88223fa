// The fixture files the public datasets are generated from (`datasets/*.json` of the fixtures; a folder
// given by --fixtures may replace any of them): which apps, harnesses, task tags and benchmark sources
// exist, and the ranges the generated figures are drawn from. Each file is checked at start: a bad one
// stops the start, naming the file and the field.
import { readFileSync } from 'node:fs'
import { Type, type Static, type TSchema } from 'typebox'
import { resolveFixture } from '../../config.ts'
import { checkFixture } from '../../http/validation.ts'
import { StringEnum } from '../../http/schemas.ts'

/** The real document's enums that fixture names must stay within. */
export const APP_CATEGORIES = ['coding', 'creative', 'productivity', 'entertainment'] as const
export const APP_SUBCATEGORIES = [
  'cli-agent',
  'ide-extension',
  'cloud-agent',
  'programming-app',
  'native-app-builder',
  'creative-writing',
  'video-gen',
  'image-gen',
  'audio-gen',
  'roleplay',
  'game',
  'writing-assistant',
  'general-chat',
  'personal-agent',
  'legal',
] as const
export const CONTEXT_BUCKETS = ['1K', '10K', '100K', '1M', '10M'] as const
export const TURN_RANGES = ['1-turn', '2-9-turns', '10-49-turns', '50-plus-turns'] as const
export const CLASSIC_BENCHMARKS = ['gpqa_diamond', 'tau_bench_verified_airline'] as const
export const SEARCH_BENCHMARKS = ['search_browsecomp', 'search_hle', 'search_dsqa', 'search_widesearch'] as const
export const SEARCH_SURFACES = ['server-tool', 'plugin'] as const
export const BENCHMARK_SOURCES = ['artificial-analysis', 'design-arena', 'openrouter'] as const
export const AA_INDICES = ['intelligence_index', 'coding_index', 'agentic_index'] as const

const Range = (minimum = 0) => Type.Object({ min: Type.Number({ minimum }), max: Type.Number({ minimum }) }, { additionalProperties: false })
export type Range = Static<ReturnType<typeof Range>>
const Share = Type.Number({ minimum: 0, maximum: 1 })
const ShareRange = Type.Object({ min: Share, max: Share }, { additionalProperties: false })
const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' })
const Name = Type.String({ minLength: 1, maxLength: 200 })
const WindowDays = Type.Integer({ minimum: 1, maximum: 3660 })

const RankingsFixture = Type.Object(
  {
    dataset_start: Day,
    top_models: Type.Integer({ minimum: 1, maximum: 500 }),
    max_window_days: WindowDays,
    daily_tokens: Range(1),
    daily_growth: Type.Object({ min: Type.Number({ minimum: -0.1, maximum: 0.1 }), max: Type.Number({ minimum: -0.1, maximum: 0.1 }) }),
    daily_noise: Share,
    weekend_factor: Type.Number({ minimum: 0, maximum: 10 }),
    tool_calling_share: ShareRange,
    context_buckets: Type.Object(Object.fromEntries(CONTEXT_BUCKETS.map((b) => [b, Share])) as Record<(typeof CONTEXT_BUCKETS)[number], typeof Share>, {
      additionalProperties: false,
    }),
    category_share: Type.Object({ listed: ShareRange, unlisted: ShareRange }, { additionalProperties: false }),
    programming_language_share: Type.Object({ programming: ShareRange, other: ShareRange }, { additionalProperties: false }),
    sample_noise: Share,
  },
  { additionalProperties: false },
)
export type RankingsFixture = Static<typeof RankingsFixture>

const AppsFixture = Type.Object(
  {
    dataset_start: Day,
    max_window_days: WindowDays,
    categories: Type.Object(
      {
        coding: Type.Array(StringEnum(APP_SUBCATEGORIES)),
        creative: Type.Array(StringEnum(APP_SUBCATEGORIES)),
        productivity: Type.Array(StringEnum(APP_SUBCATEGORIES)),
        entertainment: Type.Array(StringEnum(APP_SUBCATEGORIES)),
      },
      { additionalProperties: false, description: 'The subcategories of each category (the real document names both, not which goes where)' },
    ),
    apps: Type.Array(
      Type.Object(
        {
          app_id: Type.Integer({ minimum: 1 }),
          app_name: Name,
          subcategories: Type.Array(StringEnum(APP_SUBCATEGORIES), { minItems: 1 }),
        },
        { additionalProperties: false },
      ),
      { maxItems: 10_000 },
    ),
    generated: Type.Object(
      { count: Type.Integer({ minimum: 0, maximum: 10_000 }), first_app_id: Type.Integer({ minimum: 1 }) },
      { additionalProperties: false, description: 'Apps added with names made by faker' },
    ),
    daily_tokens: Range(1),
    daily_growth: Type.Object({ min: Type.Number({ minimum: -0.1, maximum: 0.1 }), max: Type.Number({ minimum: -0.1, maximum: 0.1 }) }),
    daily_noise: Share,
    tokens_per_request: Range(1),
  },
  { additionalProperties: false },
)
export type AppsFixture = Static<typeof AppsFixture>

const SessionCostFixture = Type.Object(
  {
    window_days: WindowDays,
    refresh_weekday: Type.Integer({ minimum: 0, maximum: 6, description: 'The UTC weekday the weekly snapshot is taken (0 = Sunday)' }),
    harnesses: Type.Array(
      Type.Object(
        { app_slug: Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,99}$' }), app_name: Name, models: Type.Integer({ minimum: 1, maximum: 100 }) },
        { additionalProperties: false },
      ),
      { maxItems: 1000 },
    ),
    turns: Type.Object(Object.fromEntries(TURN_RANGES.map((t) => [t, Type.Integer({ minimum: 1, maximum: 100_000 })])) as Record<string, TSchema>, {
      additionalProperties: false,
    }),
    prompt_tokens_per_turn: Range(0),
    completion_tokens_per_turn: Range(0),
    cached_prompt_share: ShareRange,
    weekly_noise: Share,
  },
  { additionalProperties: false },
)
export type SessionCostFixture = Static<typeof SessionCostFixture> & { turns: Record<(typeof TURN_RANGES)[number], number> }

const ClassificationsFixture = Type.Object(
  {
    window_days: WindowDays,
    models_per_tag: Type.Integer({ minimum: 0, maximum: 100 }),
    macro_categories: Type.Array(Type.Object({ key: Type.String({ pattern: '^[a-z_]+$' }), label: Name }, { additionalProperties: false }), {
      minItems: 1,
      maxItems: 100,
    }),
    tags: Type.Array(
      Type.Object(
        { tag: Type.String({ pattern: '^[a-z_]+:[a-z0-9_]+$' }), display_name: Name, prefers: Type.Optional(Type.String()) },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 1000 },
    ),
    tokens_per_request: Range(1),
    daily_noise: Share,
  },
  { additionalProperties: false },
)
export type ClassificationsFixture = Static<typeof ClassificationsFixture>

const SourceFields = { source_url: Type.String({ minLength: 1 }), citation: Type.String({ minLength: 1 }), coverage: Share }
const Entry = Type.Object({ id: Name, display_name: Name }, { additionalProperties: false })
const Arena = Type.Object(
  {
    categories: Type.Array(
      Type.Object(
        {
          name: Type.String({ pattern: '^[a-z0-9-]{1,50}$' }),
          output: Type.Optional(Type.String({ minLength: 1, description: 'The output modality of the catalog models it ranks' })),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 100 },
    ),
    entries: Type.Optional(Type.Array(Entry, { minItems: 1, maxItems: 1000, description: 'What it ranks when not catalog models (builders, agents)' })),
  },
  { additionalProperties: false },
)
const Task = Type.Object({ tasks: Type.Integer({ minimum: 1, maximum: 1_000_000 }), tokens_per_task: Type.Integer({ minimum: 1 }) })
const TaskType = Type.Object(
  {
    index: StringEnum(AA_INDICES),
    design_arena_categories: Type.Array(Type.String()),
    openrouter_benchmarks: Type.Array(StringEnum(CLASSIC_BENCHMARKS)),
  },
  { additionalProperties: false },
)

const BenchmarksFixture = Type.Object(
  {
    refreshed_at_utc_hour: Type.Integer({ minimum: 0, maximum: 23 }),
    sources: Type.Object(
      {
        'artificial-analysis': Type.Object(SourceFields, { additionalProperties: false }),
        'design-arena': Type.Object(
          { ...SourceFields, arenas: Type.Object({ models: Arena, builders: Arena, agents: Arena }, { additionalProperties: false }) },
          { additionalProperties: false },
        ),
        openrouter: Type.Object(
          {
            ...SourceFields,
            benchmarks: Type.Object(
              Object.fromEntries(
                CLASSIC_BENCHMARKS.map((b) => [b, Type.Object({ ...Task.properties, runs: Range(1) }, { additionalProperties: false })]),
              ) as Record<string, TSchema>,
              { additionalProperties: false },
            ),
            search: Type.Object(
              {
                coverage: Share,
                engines: Type.Array(Type.String({ minLength: 1, maxLength: 50 }), { minItems: 1, maxItems: 20 }),
                benchmarks: Type.Object(Object.fromEntries(SEARCH_BENCHMARKS.map((b) => [b, Task])) as Record<string, TSchema>, {
                  additionalProperties: false,
                }),
              },
              { additionalProperties: false },
            ),
          },
          { additionalProperties: false },
        ),
      },
      { additionalProperties: false },
    ),
    task_types: Type.Object({ coding: TaskType, intelligence: TaskType, agentic: TaskType }, { additionalProperties: false }),
  },
  { additionalProperties: false },
)
export type BenchmarksFixture = Static<typeof BenchmarksFixture> & {
  sources: {
    openrouter: {
      benchmarks: Record<(typeof CLASSIC_BENCHMARKS)[number], { tasks: number; tokens_per_task: number; runs: Range }>
      search: { benchmarks: Record<(typeof SEARCH_BENCHMARKS)[number], { tasks: number; tokens_per_task: number }> }
    }
  }
}

export interface DatasetFixtures {
  rankings: RankingsFixture
  apps: AppsFixture
  sessionCost: SessionCostFixture
  classifications: ClassificationsFixture
  benchmarks: BenchmarksFixture
}

function read<T>(fixturesDir: string, name: string, schema: TSchema, check: (value: T) => string | null): T {
  const path = resolveFixture(fixturesDir, `datasets/${name}`)
  let value: unknown
  try {
    value = JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    throw new Error(`datasets ${path}: ${(error as Error).message}`)
  }
  const problem = checkFixture(schema, path, value)
  if (problem) throw new Error(`datasets ${path}: \`${problem.field || '(document)'}\` ${problem.issue}`)
  const rule = check(value as T)
  if (rule) throw new Error(`datasets ${path}: ${rule}`)
  return value as T
}

/** The first of `ranges` (by name) whose min is above its max, as a message; null when all are in order. */
function misordered(ranges: Record<string, Range>): string | null {
  const bad = Object.entries(ranges).find(([, r]) => r.min > r.max)
  return bad ? `\`${bad[0]}.min\` must not be above \`${bad[0]}.max\`` : null
}

const validDay = (day: string): boolean => new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) === day

function duplicate(values: readonly (string | number)[]): string | number | undefined {
  const seen = new Set<string | number>()
  return values.find((v) => (seen.has(v) ? true : (seen.add(v), false)))
}

/** Reads and checks the five files; throws naming the file and the field of the first problem. */
export function loadDatasetFixtures(fixturesDir: string): DatasetFixtures {
  const rankings = read<RankingsFixture>(fixturesDir, 'rankings.json', RankingsFixture, (f) =>
    !validDay(f.dataset_start)
      ? '`dataset_start` is not a calendar date'
      : misordered({ daily_tokens: f.daily_tokens, daily_growth: f.daily_growth, tool_calling_share: f.tool_calling_share }),
  )
  const apps = read<AppsFixture>(fixturesDir, 'apps.json', AppsFixture, (f) => {
    if (!validDay(f.dataset_start)) return '`dataset_start` is not a calendar date'
    const ids = [...f.apps.map((a) => a.app_id), ...Array.from({ length: f.generated.count }, (_, i) => f.generated.first_app_id + i)]
    const twice = duplicate(ids)
    if (twice !== undefined) return `app_id ${twice} is used twice (the generated apps take \`generated.first_app_id\` onwards)`
    return misordered({ daily_tokens: f.daily_tokens, daily_growth: f.daily_growth, tokens_per_request: f.tokens_per_request })
  })
  const sessionCost = read<SessionCostFixture>(fixturesDir, 'session-cost.json', SessionCostFixture, (f) => {
    const twice = duplicate(f.harnesses.map((h) => h.app_slug))
    if (twice !== undefined) return `app_slug ${twice} is used twice`
    return misordered({
      prompt_tokens_per_turn: f.prompt_tokens_per_turn,
      completion_tokens_per_turn: f.completion_tokens_per_turn,
      cached_prompt_share: f.cached_prompt_share,
    })
  })
  const classifications = read<ClassificationsFixture>(fixturesDir, 'classifications.json', ClassificationsFixture, (f) => {
    const keys = new Set(f.macro_categories.map((m) => m.key))
    const orphan = f.tags.findIndex((t) => !keys.has(t.tag.split(':')[0]!))
    if (orphan !== -1) return `\`tags[${orphan}].tag\` has a prefix that is no macro category's key (${[...keys].join(', ')})`
    const twice = duplicate(f.tags.map((t) => t.tag))
    if (twice !== undefined) return `tag ${twice} is listed twice`
    return misordered({ tokens_per_request: f.tokens_per_request })
  })
  const benchmarks = read<BenchmarksFixture>(fixturesDir, 'benchmarks.json', BenchmarksFixture, (f) => {
    for (const [name, arena] of Object.entries(f.sources['design-arena'].arenas)) {
      const twice = duplicate(arena.categories.map((c) => c.name))
      if (twice !== undefined) return `\`sources.design-arena.arenas.${name}\` lists category ${twice} twice`
      if (!arena.entries && arena.categories.some((c) => c.output === undefined)) {
        return `\`sources.design-arena.arenas.${name}\` ranks catalog models: each category needs \`output\`, or the arena needs \`entries\``
      }
    }
    const classic = f.sources.openrouter.benchmarks
    return misordered(Object.fromEntries(CLASSIC_BENCHMARKS.map((name) => [`sources.openrouter.benchmarks.${name}.runs`, classic[name].runs])))
  })
  return { rankings, apps, sessionCost, classifications, benchmarks }
}
