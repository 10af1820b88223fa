// The public datasets' queries and answers, as the real document declares them: /benchmarks,
// /classifications/task and /datasets/{app-rankings,rankings-daily,session-cost}.
import { Type } from 'typebox'
import { ErrorEnvelope, Nullable, StringEnum } from '../../http/schemas.ts'
import { CATEGORIES } from '../catalog/catalog.schemas.ts'
import {
  APP_CATEGORIES,
  APP_SUBCATEGORIES,
  BENCHMARK_SOURCES,
  CLASSIC_BENCHMARKS,
  CONTEXT_BUCKETS,
  SEARCH_BENCHMARKS,
  SEARCH_SURFACES,
  TURN_RANGES,
} from './datasets.fixtures.ts'

const Day = (description: string) => Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description })
const StartDate = Day('First day of the window (UTC, inclusive); defaults to 30 days before end_date, clamped to the first day of the dataset')
const EndDate = Day('Last day of the window (UTC, inclusive); defaults to the most recent completed day (a later day is clamped to it)')
/** The catalog's categories: the rankings rank by the same ones. */
const RANKING_CATEGORIES = CATEGORIES

// ---- Queries -------------------------------------------------------------------------------------

export const BenchmarksQuery = Type.Object({
  source: Type.Optional(StringEnum(BENCHMARK_SOURCES)),
  task_type: Type.Optional(StringEnum(['coding', 'intelligence', 'agentic', 'search'] as const)),
  benchmark_type: Type.Optional(StringEnum([...CLASSIC_BENCHMARKS, ...SEARCH_BENCHMARKS] as const)),
  include_run_config: Type.Optional(Type.Boolean({ default: false })),
  search_engine: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })),
  search_surface: Type.Optional(StringEnum(SEARCH_SURFACES)),
  arena: Type.Optional(StringEnum(['models', 'builders', 'agents'] as const)),
  category: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })),
  max_results: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
})

export const TaskClassificationsQuery = Type.Object({
  window: Type.Optional(StringEnum(['7d'] as const, { default: '7d', description: 'Only the trailing 7 days' })),
})

export const AppRankingsQuery = Type.Object({
  category: Type.Optional(StringEnum(APP_CATEGORIES)),
  subcategory: Type.Optional(StringEnum(APP_SUBCATEGORIES)),
  sort: Type.Optional(StringEnum(['popular', 'trending'] as const, { default: 'popular' })),
  start_date: Type.Optional(StartDate),
  end_date: Type.Optional(EndDate),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  offset: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 100 }))),
})

export const RankingsDailyQuery = Type.Object({
  start_date: Type.Optional(StartDate),
  end_date: Type.Optional(EndDate),
  period: Type.Optional(StringEnum(['day', 'week', 'month'] as const)),
  modality: Type.Optional(StringEnum(['text', 'image', 'image_output', 'audio', 'tool_calling'] as const)),
  context_bucket: Type.Optional(StringEnum(CONTEXT_BUCKETS)),
  category: Type.Optional(StringEnum(RANKING_CATEGORIES)),
  language_type: Type.Optional(StringEnum(['natural', 'programming'] as const)),
})

export const SessionCostQuery = Type.Object({
  app_slug: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  model: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  turn_range: Type.Optional(StringEnum(TURN_RANGES)),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })),
  offset: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 5000 }))),
})

// ---- Answers -------------------------------------------------------------------------------------

const Pricing = Nullable(Type.Object({ prompt: Type.String(), completion: Type.String() }, { description: 'USD per token, as the catalog prices the model' }))
const Score = Nullable(Type.Number())

const ArtificialAnalysisItem = Type.Object({
  source: StringEnum(['artificial-analysis'] as const),
  model_permaslug: Type.String(),
  display_name: Type.String(),
  intelligence_index: Score,
  coding_index: Score,
  agentic_index: Score,
  pricing: Pricing,
})

const Place = Nullable(Type.Integer())
const DesignArenaItem = Type.Object({
  source: StringEnum(['design-arena'] as const),
  model_permaslug: Type.String(),
  display_name: Type.String(),
  arena: Type.String(),
  category: Type.String(),
  elo: Type.Number(),
  win_rate: Type.Number({ description: 'Percent, 0-100' }),
  avg_generation_time_ms: Score,
  tournament_stats: Type.Object({ first_place: Place, second_place: Place, third_place: Place, fourth_place: Place, total: Place }),
  pricing: Pricing,
})

const OpenRouterItem = Type.Object({
  source: StringEnum(['openrouter'] as const),
  model_permaslug: Type.String(),
  display_name: Type.String(),
  benchmark_type: StringEnum(CLASSIC_BENCHMARKS),
  accuracy: Type.Number(),
  accuracy_stddev: Score,
  avg_cost_per_task: Score,
  total_tasks: Type.Integer(),
  last_run_timestamp: Type.String(),
})

const SearchItem = Type.Object({
  source: StringEnum(['openrouter'] as const),
  model_permaslug: Type.String(),
  display_name: Type.String(),
  benchmark_type: StringEnum(SEARCH_BENCHMARKS),
  primary_metric: StringEnum(['accuracy', 'f1_by_item'] as const),
  primary_score: Type.Number(),
  total_tasks: Type.Integer(),
  avg_cost_per_task: Score,
  avg_latency_per_task_ms: Score,
  search_engine: Type.String(),
  search_surface: StringEnum(SEARCH_SURFACES),
  last_run_timestamp: Type.String(),
  run_config: Type.Optional(
    Type.Object(
      { max_agent_turns: Nullable(Type.Integer()), reasoning_effort: Nullable(Type.String()), temperature: Score },
      { description: 'Only with include_run_config=true' },
    ),
  ),
})

export const BenchmarksResponse = {
  200: Type.Object({
    data: Type.Array(Type.Union([ArtificialAnalysisItem, DesignArenaItem, OpenRouterItem, SearchItem])),
    meta: Type.Object({
      as_of: Type.String({ description: 'The latest daily refresh' }),
      version: StringEnum(['v1'] as const),
      source: Nullable(StringEnum(BENCHMARK_SOURCES)),
      source_url: Nullable(Type.String()),
      citation: Nullable(Type.String()),
      model_count: Type.Integer(),
      task_type: Nullable(Type.String()),
    }),
  }),
  '4xx': ErrorEnvelope,
}

const Share = (description: string) => Type.Number({ minimum: 0, maximum: 1, description })

export const TaskClassificationsResponse = {
  200: Type.Object({
    data: Type.Object({
      window_days: Type.Integer(),
      as_of: Type.String({ description: 'The last day of the window (yesterday, UTC)' }),
      classifications: Type.Array(
        Type.Object({
          tag: Type.String(),
          display_name: Type.String(),
          macro_category: Type.String(),
          usage_share: Share('Share of classified requests'),
          token_share: Share('Share of classified tokens'),
          category_usage_share: Share('Share of its macro category’s requests'),
          category_token_share: Share('Share of its macro category’s tokens'),
          models: Type.Array(
            Type.Object({ id: Type.String(), tag_usage_share: Share('Of the tag’s requests'), tag_token_share: Share('Of the tag’s tokens') }),
          ),
        }),
      ),
      macro_categories: Type.Array(
        Type.Object({ key: Type.String(), label: Type.String(), usage_share: Share('Of all requests'), token_share: Share('Of all tokens') }),
      ),
    }),
  }),
  '4xx': ErrorEnvelope,
}

const RankingsMeta = Type.Object({
  as_of: Type.String({ description: 'When the answer was made (virtual clock)' }),
  version: StringEnum(['v1'] as const),
  start_date: Type.String({ description: 'The resolved first day of the window' }),
  end_date: Type.String({ description: 'The resolved last day of the window' }),
})

export const AppRankingsResponse = {
  200: Type.Object({
    data: Type.Array(
      Type.Object({
        rank: Type.Integer({ description: 'Absolute: offset + position' }),
        app_id: Type.Integer(),
        app_name: Type.String(),
        total_tokens: Type.String({ description: 'Prompt plus completion tokens in the window, as a decimal string' }),
        total_requests: Type.Integer(),
      }),
    ),
    meta: RankingsMeta,
  }),
  '4xx': ErrorEnvelope,
}

export const RankingsDailyResponse = {
  200: Type.Object({
    data: Type.Array(
      Type.Object({
        date: Type.String({ description: 'The day, or the first day of the week or month' }),
        model_permaslug: Type.String({ description: '`other` for the sum of the models outside the top 50' }),
        total_tokens: Type.String(),
      }),
    ),
    meta: RankingsMeta,
  }),
  '4xx': ErrorEnvelope,
}

export const SessionCostResponse = {
  200: Type.Object({
    data: Type.Array(
      Type.Object({
        app_slug: Type.String(),
        app_name: Type.String(),
        turn_range: StringEnum(TURN_RANGES),
        model_permaslug: Type.String(),
        median_session_cost_usd: Type.Number(),
      }),
    ),
    meta: Type.Object({
      as_of: Type.String(),
      version: StringEnum(['v1'] as const),
      window_days: Nullable(Type.Integer()),
      window_end_date: Nullable(Type.String({ description: 'The day before the latest weekly snapshot' })),
    }),
  }),
  '4xx': ErrorEnvelope,
}
