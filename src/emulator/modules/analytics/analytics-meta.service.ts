// What the analytics query can compute, as GET /api/v1/analytics/meta lists it: metrics, dimensions,
// filter operators and granularities, named as the real gateway names them. Every metric and dimension
// is read from the ledger's usage rows (and, for what only a generation records, its generation), so
// a query agrees with GET /api/v1/activity and the keys' usage to the nano-dollar.
import { nanosToUsd } from '../../core/money.ts'

export const DISPLAY_FORMATS = ['number', 'currency', 'percent', 'latency', 'throughput'] as const
export const OPERATOR_NAMES = ['eq', 'neq', 'in', 'not_in', 'gt', 'gte', 'lt', 'lte'] as const
export const GRANULARITY_NAMES = ['minute', 'hour', 'day', 'week', 'month'] as const

export type OperatorName = (typeof OPERATOR_NAMES)[number]
export type Granularity = (typeof GRANULARITY_NAMES)[number]

/** The sums one group of usage rows is reduced to; every metric is computed from them. */
export interface GroupSums {
  request_count: number
  usage_nanos: number
  byok_nanos: number
  prompt_tokens: number
  completion_tokens: number
  reasoning_tokens: number
  /** Mean latency of the rows with a recorded generation; null when none has one. */
  avg_latency: number | null
}

export interface MetricDef {
  name: string
  display_label: string
  is_rate: boolean
  display_format: (typeof DISPLAY_FORMATS)[number]
  value(sums: GroupSums): number | null
  /** Read from generations: the real service keeps it for 31 days of queries. */
  recent?: boolean
}

export const METRICS: readonly MetricDef[] = [
  { name: 'request_count', display_label: 'Request Count', is_rate: false, display_format: 'number', value: (s) => s.request_count },
  { name: 'total_usage', display_label: 'Spend', is_rate: false, display_format: 'currency', value: (s) => nanosToUsd(s.usage_nanos) },
  { name: 'byok_usage', display_label: 'BYOK Spend', is_rate: false, display_format: 'currency', value: (s) => nanosToUsd(s.byok_nanos) },
  { name: 'tokens_prompt', display_label: 'Prompt Tokens', is_rate: false, display_format: 'number', value: (s) => s.prompt_tokens },
  { name: 'tokens_completion', display_label: 'Completion Tokens', is_rate: false, display_format: 'number', value: (s) => s.completion_tokens },
  { name: 'reasoning_tokens', display_label: 'Reasoning Tokens', is_rate: false, display_format: 'number', value: (s) => s.reasoning_tokens },
  { name: 'tokens_total', display_label: 'Total Tokens', is_rate: false, display_format: 'number', value: (s) => s.prompt_tokens + s.completion_tokens },
  {
    name: 'avg_cost_per_request',
    display_label: 'Average Cost per Request',
    is_rate: true,
    display_format: 'currency',
    value: (s) => (s.request_count === 0 ? null : nanosToUsd(s.usage_nanos / s.request_count)),
  },
  {
    name: 'avg_latency',
    display_label: 'Average Latency',
    is_rate: true,
    display_format: 'latency',
    value: (s) => (s.avg_latency === null ? null : Math.round(s.avg_latency * 1000) / 1000),
    recent: true,
  },
]

/** The first generation recorded for a usage row (a request records one). */
const generation = (column: string): string => `(SELECT g.${column} FROM generations g WHERE g.usage_id = u.id ORDER BY g.created_at, g.id LIMIT 1)`

export interface DimensionDef {
  name: string
  display_label: string
  /** Its value for one usage row `u`, as SQL (`@workspace_id` is the account's default workspace). */
  sql: string
  /** Read from generations or too fine-grained: the real service allows 31 days of queries with it. */
  recent?: boolean
}

export const DIMENSIONS: readonly DimensionDef[] = [
  { name: 'model', display_label: 'Model', sql: 'u.model' },
  {
    name: 'variant',
    display_label: 'Variant',
    sql: `CASE WHEN instr(u.model, ':') > 0 THEN substr(u.model, instr(u.model, ':') + 1) ELSE 'standard' END`,
  },
  { name: 'provider', display_label: 'Provider', sql: 'u.provider', recent: true },
  { name: 'api_key_id', display_label: 'API Key', sql: 'u.key_hash' },
  { name: 'user', display_label: 'User', sql: 'u.member_id' },
  { name: 'workspace', display_label: 'Workspace', sql: '@workspace_id' },
  { name: 'origin', display_label: 'Origin', sql: generation('http_referer'), recent: true },
  { name: 'finish_reason', display_label: 'Finish Reason', sql: generation('finish_reason'), recent: true },
  { name: 'external_user', display_label: 'External User', sql: generation('external_user'), recent: true },
  { name: 'generation_id', display_label: 'Generation ID', sql: generation('id'), recent: true },
]

export const OPERATORS: ReadonlyArray<{ name: OperatorName; value_type: 'scalar' | 'array' }> = OPERATOR_NAMES.map((name) => ({
  name,
  value_type: name === 'in' || name === 'not_in' ? 'array' : 'scalar',
}))

export interface GranularityDef {
  name: Granularity
  display_label: string
  /** The start of the bucket of a usage row, in epoch milliseconds, as SQL. */
  sql: string
}

const DAY_INDEX = '(u.created_at / 86400000)'

export const GRANULARITIES: readonly GranularityDef[] = [
  { name: 'minute', display_label: 'Minute', sql: '(u.created_at / 60000) * 60000' },
  { name: 'hour', display_label: 'Hour', sql: '(u.created_at / 3600000) * 3600000' },
  { name: 'day', display_label: 'Day', sql: `${DAY_INDEX} * 86400000` },
  // Day 0 (1970-01-01) was a Thursday: (day + 3) % 7 is the days since Monday.
  { name: 'week', display_label: 'Week', sql: `(${DAY_INDEX} - ((${DAY_INDEX} + 3) % 7)) * 86400000` },
  { name: 'month', display_label: 'Month', sql: `CAST(strftime('%s', u.created_at / 1000, 'unixepoch', 'start of month') AS INTEGER) * 1000` },
]

export const metricByName = new Map(METRICS.map((m) => [m.name, m]))
export const dimensionByName = new Map(DIMENSIONS.map((d) => [d.name, d]))
export const granularityByName = new Map(GRANULARITIES.map((g) => [g.name, g]))

/** The meta answer: names and labels only. */
export const analyticsMeta = () => ({
  metrics: METRICS.map(({ name, display_label, is_rate, display_format }) => ({ name, display_label, is_rate, display_format })),
  dimensions: DIMENSIONS.map(({ name, display_label }) => ({ name, display_label })),
  operators: OPERATORS.map((o) => ({ ...o })),
  granularities: GRANULARITIES.map(({ name, display_label }) => ({ name, display_label })),
})
