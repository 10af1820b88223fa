// The analytics query's one read: the account's usage rows in a time range, filtered and grouped by
// time bucket and up to two dimensions, reduced to sums. The usage area runs it; this file assembles
// its expressions only from the meta's own (never from a client's text); a client's values are bound
// parameters.
import type { UsageRepo } from '../usage/usage.repo.ts'
import type { DimensionDef, GranularityDef, GroupSums, OperatorName } from './analytics-meta.service.ts'

export interface SqlFilter {
  dimension: DimensionDef
  operator: OperatorName
  /** The stored values it compares with (one for a scalar operator). */
  values: string[]
  /** `in`/`not_in` also keep the rows where the dimension has no value. */
  includeUnset: boolean
}

export interface GroupQuery {
  accountId: string
  /** The account's default workspace: the workspace of usage that records none. */
  workspaceId: string
  from: number
  to: number
  now: number
  granularity: GranularityDef | undefined
  dimensions: readonly DimensionDef[]
  filters: readonly SqlFilter[]
  /** Read the generations' latency (only when asked: it is a lookup per row). */
  latency: boolean
}

export interface GroupRow {
  bucket: number | null
  dims: Array<string | null>
  sums: GroupSums
}

const COMPARISON: Record<OperatorName, string> = { eq: '=', neq: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=', in: 'IN', not_in: 'NOT IN' }

/** The first generation recorded for a usage row (a request records one): its latency. */
const LATENCY = '(SELECT g.latency_ms FROM generations g WHERE g.usage_id = u.id ORDER BY g.created_at, g.id LIMIT 1)'

// Every usage row records its workspace (migration 0010); the account's default stands in where it is null.
const expression = (d: DimensionDef): string => (d.name === 'workspace' ? 'COALESCE(u.workspace_id, @workspace_id)' : d.sql)

export function createAnalyticsRepo(usage: () => UsageRepo) {
  return {
    grouped(query: GroupQuery): GroupRow[] {
      const params: Record<string, unknown> = {
        account_id: query.accountId,
        workspace_id: query.workspaceId,
        from: query.from,
        to: query.to,
        now: query.now,
      }
      const conditions = query.filters.map((f, i) => {
        const column = expression(f.dimension)
        const names = f.values.map((value, j) => {
          params[`f${i}_${j}`] = value
          return `@f${i}_${j}`
        })
        const test =
          f.operator === 'in' || f.operator === 'not_in'
            ? `${column} ${COMPARISON[f.operator]} (${names.join(', ')})`
            : `${column} ${COMPARISON[f.operator]} ${names[0]}`
        return f.includeUnset ? `(${test} OR ${column} IS NULL)` : `(${test})`
      })
      const rows = usage().groupedSums({
        params,
        bucket: query.granularity ? query.granularity.sql : null,
        groups: query.dimensions.map(expression),
        conditions,
        latency: query.latency ? LATENCY : null,
      })
      return rows.map((r) => ({
        bucket: r.bucket,
        dims: query.dimensions.map((_, i) => (i === 0 ? (r.d0 ?? null) : (r.d1 ?? null))),
        sums: {
          request_count: r.request_count,
          usage_nanos: r.usage_nanos,
          byok_nanos: r.byok_nanos,
          prompt_tokens: r.prompt_tokens,
          completion_tokens: r.completion_tokens,
          reasoning_tokens: r.reasoning_tokens,
          avg_latency: r.avg_latency,
        },
      }))
    },
  }
}

export type AnalyticsRepo = ReturnType<typeof createAnalyticsRepo>
