// POST /api/v1/analytics/query: a body checked against the meta (each refusal names its field), then
// one grouped SQL query over the account's usage rows, then ordering, group_limit and limit. Sums are
// kept in nano-USD until the answer, so they agree exactly with activity and the keys' usage.
import { fieldError } from '../../core/errors.ts'
import type { EmulatorContext } from '../module.ts'
import type { AccountRow } from '../accounts/accounts.repo.ts'
import { noSuchClassifier, rangeTooLong, repeated, unknownName } from './analytics.errors.ts'
import {
  dimensionByName,
  DIMENSIONS,
  granularityByName,
  metricByName,
  METRICS,
  OPERATOR_NAMES,
  type DimensionDef,
  type GranularityDef,
  type MetricDef,
  type OperatorName,
} from './analytics-meta.service.ts'
import type { AnalyticsRepo, GroupRow, SqlFilter } from './analytics.repo.ts'
import { MAX_FILTER_VALUES, MAX_VALUE_LENGTH, type AnalyticsFilter, type AnalyticsQueryBody } from './analytics.schemas.ts'

const DAY = 86_400_000
export const DEFAULT_RANGE_DAYS = 7
export const MAX_RANGE_DAYS = 365
/** The real service's bound on queries that read generations (latency, origin, provider...). */
export const RECENT_RANGE_DAYS = 31
export const DEFAULT_LIMIT = 1000

type Direction = 'asc' | 'desc'

interface Order {
  kind: 'metric' | 'dimension' | 'date'
  name: string
  direction: Direction
}

export interface QueryPlan {
  metrics: MetricDef[]
  dimensions: DimensionDef[]
  granularity: GranularityDef | undefined
  filters: SqlFilter[]
  from: number
  to: number
  order: Order
  limit: number
  groupLimit: number | undefined
  warnings: string[]
}

export interface QueryAnswer {
  data: Array<Record<string, unknown>>
  metadata: { query_time_ms: number; row_count: number; truncated: boolean }
  warnings?: string[]
}

const HASH = /^[0-9a-f]{64}$/

function uniqueNames<T>(names: readonly string[], field: string, kind: 'metric' | 'dimension', byName: ReadonlyMap<string, T>, known: readonly string[]): T[] {
  const seen = new Set<string>()
  return names.map((name, i) => {
    const def = byName.get(name)
    if (def === undefined) throw unknownName(`${field}[${i}]`, kind, known)
    if (seen.has(name)) throw repeated(`${field}[${i}]`, name)
    seen.add(name)
    return def
  })
}

/** The stored values a filter value stands for: a model's permaslug covers every id with that slug. */
function storedValues(ctx: EmulatorContext, dimension: string, value: string): string[] {
  if (dimension !== 'model') return [value]
  const ids = ctx.services.catalog
    .get()
    .models.filter((m) => m.canonical_slug === value && m.id !== value)
    .map((m) => m.id)
  return [value, ...ids]
}

function checkFilter(ctx: EmulatorContext, account: AccountRow, filter: AnalyticsFilter, i: number, warnings: string[]): SqlFilter {
  const field = `filters[${i}]`
  const dimension = dimensionByName.get(filter.field)
  if (dimension === undefined)
    throw unknownName(
      `${field}.field`,
      'dimension',
      DIMENSIONS.map((d) => d.name),
    )
  if (!(OPERATOR_NAMES as readonly string[]).includes(filter.operator)) throw fieldError(`${field}.operator`, `must be one of ${OPERATOR_NAMES.join(', ')}`)
  const operator = filter.operator as OperatorName
  const listed = operator === 'in' || operator === 'not_in'
  if (listed !== Array.isArray(filter.value)) {
    throw fieldError(
      `${field}.value`,
      listed ? `must be an array of strings or numbers for \`${operator}\`` : `must be a string or a number for \`${operator}\``,
    )
  }
  const given: unknown[] = Array.isArray(filter.value) ? filter.value : [filter.value]
  if (given.length === 0) throw fieldError(`${field}.value`, 'must not be empty')
  if (given.length > MAX_FILTER_VALUES) throw fieldError(`${field}.value`, `must have at most ${MAX_FILTER_VALUES} items`)
  given.forEach((value, j) => {
    const at = listed ? `${field}.value[${j}]` : `${field}.value`
    if (typeof value !== 'string' && (typeof value !== 'number' || !Number.isFinite(value))) throw fieldError(at, 'must be a string or a number')
    if (typeof value === 'string' && value.length > MAX_VALUE_LENGTH) throw fieldError(at, `must be at most ${MAX_VALUE_LENGTH} characters`)
  })
  const raw = given.map(String)
  if (dimension.name === 'api_key_id') {
    for (const value of raw) {
      const key = HASH.test(value) ? ctx.services.keys.byHash(value) : undefined
      if (key?.account_id !== account.id) warnings.push(`api_key_id filter value "${value}" is no API key hash of this account: it matches nothing`)
    }
  }
  const ordered = operator === 'gt' || operator === 'gte' || operator === 'lt' || operator === 'lte'
  const values = ordered ? raw : [...new Set(raw.flatMap((v) => storedValues(ctx, dimension.name, v)))]
  return { dimension, operator, values, includeUnset: listed && filter.include_unset === true }
}

function checkRange(ctx: EmulatorContext, body: AnalyticsQueryBody, recent: boolean): { from: number; to: number } {
  const now = ctx.clock.now()
  const range = body.time_range
  const from = range ? Date.parse(range.start) : now - DEFAULT_RANGE_DAYS * DAY
  // The end is exclusive; by default the range runs to now, the current millisecond included.
  const to = range ? Date.parse(range.end) : now + 1
  if (to <= from) throw fieldError('time_range.end', 'must be after time_range.start')
  const days = Math.ceil((to - from) / DAY)
  if (days > MAX_RANGE_DAYS) throw rangeTooLong(days, MAX_RANGE_DAYS, 'queries')
  if (recent && days > RECENT_RANGE_DAYS) {
    throw rangeTooLong(days, RECENT_RANGE_DAYS, 'queries with provider, origin, finish_reason, external_user or generation_id, or with avg_latency,')
  }
  return { from, to }
}

function checkOrder(
  body: AnalyticsQueryBody,
  metrics: readonly MetricDef[],
  dimensions: readonly DimensionDef[],
  granularity: GranularityDef | undefined,
): Order {
  const asked = body.order_by
  if (asked === undefined) {
    // Time series read oldest first; otherwise the largest first metric leads.
    return granularity ? { kind: 'date', name: 'date', direction: 'asc' } : { kind: 'metric', name: metrics[0]!.name, direction: 'desc' }
  }
  const { field, direction } = asked
  if (field === 'date') {
    if (!granularity) throw fieldError('order_by.field', 'is `date`, which needs a granularity: add one, or order by a metric or dimension')
    return { kind: 'date', name: 'date', direction }
  }
  if (metrics.some((m) => m.name === field) || field === 'request_count') return { kind: 'metric', name: field, direction }
  if (dimensions.some((d) => d.name === field)) return { kind: 'dimension', name: field, direction }
  throw fieldError('order_by.field', 'must be a requested metric, request_count, a requested dimension, or date')
}

/** Checks a query against the meta and the account; throws a 400 naming the first field at fault. */
export function planQuery(ctx: EmulatorContext, account: AccountRow, body: AnalyticsQueryBody): QueryPlan {
  const metrics = uniqueNames(
    body.metrics,
    'metrics',
    'metric',
    metricByName,
    METRICS.map((m) => m.name),
  )
  const dimensions = uniqueNames(
    body.dimensions ?? [],
    'dimensions',
    'dimension',
    dimensionByName,
    DIMENSIONS.map((d) => d.name),
  )
  const granularity = body.granularity === undefined ? undefined : granularityByName.get(body.granularity)
  const warnings: string[] = []
  const filters = (body.filters ?? []).map((f, i) => checkFilter(ctx, account, f, i, warnings))
  if (body.classifier_dimensions) throw noSuchClassifier('classifier_dimensions.classifier_id', body.classifier_dimensions.classifier_id)
  if (body.classifier_filters) throw noSuchClassifier('classifier_filters.classifier_id', body.classifier_filters.classifier_id)
  const recent = [...metrics, ...dimensions, ...filters.map((f) => f.dimension)].some((d) => d.recent === true)
  const { from, to } = checkRange(ctx, body, recent)
  return {
    metrics,
    dimensions,
    granularity,
    filters,
    from,
    to,
    order: checkOrder(body, metrics, dimensions, granularity),
    limit: body.limit ?? DEFAULT_LIMIT,
    groupLimit: dimensions.length > 0 ? body.group_limit : undefined,
    warnings,
  }
}

type Value = string | number | null

/** Ascending order of two values, nulls last whatever the direction (so an unset bucket never leads). */
function compare(a: Value, b: Value, direction: Direction): number {
  if (a === b) return 0
  if (a === null) return 1
  if (b === null) return -1
  const order = a < b ? -1 : 1
  return direction === 'asc' ? order : -order
}

const dimensionKey = (row: GroupRow, count: number): string => JSON.stringify(Array.from({ length: count }, (_, i) => row.dims[i] ?? null))

/** Runs a checked query: its rows in order, cut by group_limit and limit, with its metadata. */
export function runQuery(ctx: EmulatorContext, repo: AnalyticsRepo, account: AccountRow, plan: QueryPlan): QueryAnswer {
  const needsLatency = plan.metrics.some((m) => m.name === 'avg_latency')
  const groups = repo.grouped({
    accountId: account.id,
    workspaceId: account.workspace_id,
    from: plan.from,
    to: plan.to,
    now: ctx.clock.now(),
    granularity: plan.granularity,
    dimensions: plan.dimensions,
    filters: plan.filters,
    latency: needsLatency,
  })
  const metricOf = (row: GroupRow, name: string): Value => metricByName.get(name)!.value(row.sums)
  const primary = (row: GroupRow): Value =>
    plan.order.kind === 'date'
      ? row.bucket
      : plan.order.kind === 'metric'
        ? metricOf(row, plan.order.name)
        : row.dims[plan.dimensions.findIndex((d) => d.name === plan.order.name)]!
  groups.sort((a, b) => {
    const first = compare(primary(a), primary(b), plan.order.direction)
    if (first !== 0) return first
    // Ties: oldest bucket, then dimension values, so the same rows always come in the same order.
    const byDate = compare(a.bucket, b.bucket, 'asc')
    if (byDate !== 0) return byDate
    for (let i = 0; i < plan.dimensions.length; i++) {
      const byDimension = compare(a.dims[i]!, b.dims[i]!, 'asc')
      if (byDimension !== 0) return byDimension
    }
    return 0
  })

  let kept = groups
  if (plan.groupLimit !== undefined) {
    const perGroup = new Map<string, number>()
    kept = kept.filter((row) => {
      const key = dimensionKey(row, plan.dimensions.length)
      const n = (perGroup.get(key) ?? 0) + 1
      perGroup.set(key, n)
      return n <= plan.groupLimit!
    })
  }
  const truncated = kept.length > plan.limit || kept.length < groups.length
  kept = kept.slice(0, plan.limit)

  const dateKey = plan.granularity ? `date__${plan.granularity.name}` : undefined
  const data = kept.map((row) => {
    const out: Record<string, unknown> = {}
    if (dateKey) out[dateKey] = new Date(row.bucket!).toISOString()
    plan.dimensions.forEach((d, i) => (out[d.name] = row.dims[i] ?? null))
    for (const m of plan.metrics) out[m.name] = m.value(row.sums)
    return out
  })
  const scanned = groups.reduce((n, row) => n + row.sums.request_count, 0)
  return {
    data,
    // A figure derived from the rows read, so the same query over the same state gives the same bytes.
    metadata: { query_time_ms: Math.round((1 + scanned / 500) * 100) / 100, row_count: data.length, truncated },
    ...(plan.warnings.length > 0 && { warnings: plan.warnings }),
  }
}
