// The analytics query's one read: the account's usage rows in a time range, filtered and grouped by
// time bucket and up to two dimensions, reduced to sums. The SQL is assembled only from the meta's own
// expressions (never from a client's text); a client's values are bound parameters.
import type { Statement } from 'better-sqlite3'
import type { DB } from '../../store/db.ts'
import type { DimensionDef, GranularityDef, GroupSums, OperatorName } from './analytics.meta.ts'

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

interface RawRow {
  bucket: number | null
  d0?: string | null
  d1?: string | null
  request_count: number
  usage_nanos: number
  byok_nanos: number
  prompt_tokens: number
  completion_tokens: number
  reasoning_tokens: number
  avg_latency: number | null
}

const COMPARISON: Record<OperatorName, string> = { eq: '=', neq: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=', in: 'IN', not_in: 'NOT IN' }

/** Distinct SQL texts are few (the meta's combinations): each is compiled once. */
const MAX_STATEMENTS = 200

export function createAnalyticsRepo(db: DB) {
  // A usage row may carry its own workspace (once usage records one); else it is the account's default.
  const usageHasWorkspace = db.prepare(`SELECT 1 FROM pragma_table_info('usage') WHERE name = 'workspace_id'`).get() !== undefined
  const expression = (d: DimensionDef): string => (d.name === 'workspace' && usageHasWorkspace ? 'COALESCE(u.workspace_id, @workspace_id)' : d.sql)
  const statements = new Map<string, Statement<Record<string, unknown>, RawRow>>()
  const prepare = (sql: string) => {
    let statement = statements.get(sql)
    if (!statement) {
      if (statements.size >= MAX_STATEMENTS) statements.clear()
      statement = db.prepare<Record<string, unknown>, RawRow>(sql)
      statements.set(sql, statement)
    }
    return statement
  }

  return {
    grouped(query: GroupQuery): GroupRow[] {
      const params: Record<string, unknown> = {
        account_id: query.accountId,
        workspace_id: query.workspaceId,
        from: query.from,
        to: query.to,
        now: query.now,
      }
      const where = query.filters.map((f, i) => {
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
      const groupColumns = [...(query.granularity ? ['bucket'] : []), ...query.dimensions.map((_, i) => `d${i}`)]
      const sql = /* sql */ `
        SELECT ${query.granularity ? query.granularity.sql : 'NULL'} AS bucket,
               ${query.dimensions.map((d, i) => `${expression(d)} AS d${i},`).join(' ')}
               COUNT(*) AS request_count,
               COALESCE(SUM(CASE WHEN u.byok = 0 THEN u.cost_nanos END), 0) AS usage_nanos,
               COALESCE(SUM(CASE WHEN u.byok = 1 THEN u.cost_nanos END), 0) AS byok_nanos,
               COALESCE(SUM(u.prompt_tokens), 0) AS prompt_tokens,
               COALESCE(SUM(u.completion_tokens), 0) AS completion_tokens,
               COALESCE(SUM(u.reasoning_tokens), 0) AS reasoning_tokens,
               ${query.latency ? 'AVG((SELECT g.latency_ms FROM generations g WHERE g.usage_id = u.id ORDER BY g.created_at, g.id LIMIT 1))' : 'NULL'} AS avg_latency
        FROM usage u
        WHERE u.account_id = @account_id AND u.created_at >= @from AND u.created_at < @to AND u.created_at <= @now
          ${where.map((w) => `AND ${w}`).join(' ')}
        ${groupColumns.length > 0 ? `GROUP BY ${groupColumns.join(', ')}` : ''}`
      // Named parameters the SQL does not use are refused by better-sqlite3: bind only those it names.
      const used = Object.fromEntries(Object.entries(params).filter(([name]) => sql.includes(`@${name}`)))
      const rows = prepare(sql).all(used)
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
