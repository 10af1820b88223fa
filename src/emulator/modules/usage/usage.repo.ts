// The usage table is the ledger's memory: one row per billable action. Key usage, limit windows,
// credits spent and activity are all derived from these rows, through the reads below: no other area
// writes SQL on this table.
import type { Statement } from 'better-sqlite3'
import type { DB } from '../../store/db.ts'
import type { StateOwner } from '../../core/lifecycle.ts'
import type { WindowStarts } from '../../core/windows.ts'

export interface UsageRow {
  account_id: string
  key_hash: string | null
  member_id: string | null
  operation: string
  model: string
  provider: string
  endpoint_id: string
  prompt_tokens: number
  completion_tokens: number
  reasoning_tokens: number
  cost_nanos: number
  byok: 0 | 1
  created_at: number
  /** The key's workspace as of now (the account's default for a key without one). */
  workspace_id: string
}

/** Usage sums of one key over its windows, derived from the usage rows (nano-USD). */
export interface KeyUsageSums {
  usage: number
  usage_daily: number
  usage_weekly: number
  usage_monthly: number
  byok_usage: number
  byok_usage_daily: number
  byok_usage_weekly: number
  byok_usage_monthly: number
}

/** An account's usage in a time range, by UTC date, endpoint and model (GET /activity). */
export interface DailyEndpointRow {
  date: string
  model: string
  endpoint_id: string
  provider_name: string
  usage_nanos: number
  byok_nanos: number
  requests: number
  prompt_tokens: number
  completion_tokens: number
  reasoning_tokens: number
}

export interface DailyEndpointQuery {
  account_id: string
  from: number
  to: number
  key_hash: string | null
  member_id: string | null
}

/** Every account's usage by operation and model, since the start (/metrics). */
export interface OperationModelTotals {
  operation: string
  model: string
  rows: number
  cost_nanos: number
  prompt_tokens: number
  completion_tokens: number
  reasoning_tokens: number
}

/**
 * An account's usage rows `u` in [from, to) (none after `now`), filtered and grouped by SQL expressions
 * over `u` that the caller assembles from its own definitions (never from a client's text; a client's
 * values are bound parameters, named in `params`).
 */
export interface GroupedSumsQuery {
  params: Record<string, unknown>
  /** The time bucket of a row, or null for none. */
  bucket: string | null
  /** Up to two grouping expressions, answered as d0 and d1. */
  groups: readonly string[]
  /** Conditions every row meets. */
  conditions: readonly string[]
  /** A row's latency, averaged per group; null when not asked. */
  latency: string | null
}

export interface GroupedSumsRow {
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

// One pass over a key's usage rows gives every window; rows after `now` (a clock set backwards) do not count.
const KEY_WINDOW_SUMS = /* sql */ `
  COALESCE(SUM(CASE WHEN byok = 0 THEN cost_nanos END), 0)                        AS usage,
  COALESCE(SUM(CASE WHEN byok = 0 AND created_at >= @day   THEN cost_nanos END), 0) AS usage_daily,
  COALESCE(SUM(CASE WHEN byok = 0 AND created_at >= @week  THEN cost_nanos END), 0) AS usage_weekly,
  COALESCE(SUM(CASE WHEN byok = 0 AND created_at >= @month THEN cost_nanos END), 0) AS usage_monthly,
  COALESCE(SUM(CASE WHEN byok = 1 THEN cost_nanos END), 0)                        AS byok_usage,
  COALESCE(SUM(CASE WHEN byok = 1 AND created_at >= @day   THEN cost_nanos END), 0) AS byok_usage_daily,
  COALESCE(SUM(CASE WHEN byok = 1 AND created_at >= @week  THEN cost_nanos END), 0) AS byok_usage_weekly,
  COALESCE(SUM(CASE WHEN byok = 1 AND created_at >= @month THEN cost_nanos END), 0) AS byok_usage_monthly`

const NO_KEY_USAGE: KeyUsageSums = {
  usage: 0,
  usage_daily: 0,
  usage_weekly: 0,
  usage_monthly: 0,
  byok_usage: 0,
  byok_usage_daily: 0,
  byok_usage_weekly: 0,
  byok_usage_monthly: 0,
}

/** Distinct grouped-sums texts are few (the analytics meta's combinations): each is compiled once. */
const MAX_GROUPED_STATEMENTS = 200

export function createUsageRepo(db: DB) {
  // The row records its key's workspace as of now, so workspace budgets and reports keep their spend
  // when a key is moved or deleted. The caller names it (it holds the key and account rows): a subquery
  // here tripled the cost of the one write every billed request makes.
  const insertStmt = db.prepare<UsageRow>(
    `INSERT INTO usage (account_id, key_hash, member_id, operation, model, provider, endpoint_id, prompt_tokens,
       completion_tokens, reasoning_tokens, cost_nanos, byok, created_at, workspace_id)
     VALUES (@account_id, @key_hash, @member_id, @operation, @model, @provider, @endpoint_id, @prompt_tokens,
       @completion_tokens, @reasoning_tokens, @cost_nanos, @byok, @created_at, @workspace_id)`,
  )
  const getStmt = db.prepare<[number], UsageRow & { id: number }>('SELECT * FROM usage WHERE id = ?')
  const zeroStmt = db.prepare<[number]>('UPDATE usage SET cost_nanos = 0 WHERE id = ?')
  const settleStmt = db.prepare<{ id: number; completion_tokens: number; cost_nanos: number }>(
    'UPDATE usage SET completion_tokens = @completion_tokens, cost_nanos = @cost_nanos WHERE id = @id',
  )
  const keySumsStmt = db.prepare<WindowStarts & { hash: string }, KeyUsageSums>(
    `SELECT ${KEY_WINDOW_SUMS} FROM usage WHERE key_hash = @hash AND created_at <= @now`,
  )
  const keysSumsStmt = db.prepare<WindowStarts & { hashes: string }, KeyUsageSums & { key_hash: string }>(
    `SELECT key_hash, ${KEY_WINDOW_SUMS} FROM usage
     WHERE key_hash IN (SELECT value FROM json_each(@hashes)) AND created_at <= @now GROUP BY key_hash`,
  )
  // The real daily cap on free-variant requests is the account's, across its keys.
  const freeRequestsStmt = db.prepare<{ account_id: string; since: number; now: number }, { n: number }>(
    `SELECT COUNT(*) AS n FROM usage
     WHERE account_id = @account_id AND created_at >= @since AND created_at <= @now AND model LIKE '%:free'`,
  )
  const keysOrMembersStmt = db.prepare<{ keys: string; members: string; since: number; now: number; include_byok: 0 | 1 }, { spent: number }>(
    `SELECT COALESCE(SUM(u.cost_nanos), 0) AS spent FROM usage u
     WHERE u.created_at >= @since AND u.created_at <= @now AND (@include_byok = 1 OR u.byok = 0)
       AND (u.key_hash IN (SELECT value FROM json_each(@keys)) OR u.member_id IN (SELECT value FROM json_each(@members)))`,
  )
  // Rows from before usage recorded a workspace belong to the account's default one.
  const workspaceStmt = db.prepare<
    { account_id: string; workspace_id: string; default_workspace: string; since: number; now: number; include_byok: 0 | 1 },
    { spent: number }
  >(
    `SELECT COALESCE(SUM(u.cost_nanos), 0) AS spent FROM usage u
     WHERE u.account_id = @account_id AND u.created_at >= @since AND u.created_at <= @now AND (@include_byok = 1 OR u.byok = 0)
       AND COALESCE(u.workspace_id, @default_workspace) = @workspace_id`,
  )
  const dailyStmt = db.prepare<DailyEndpointQuery, DailyEndpointRow>(
    `SELECT strftime('%Y-%m-%d', created_at / 1000, 'unixepoch') AS date,
            model, endpoint_id, provider AS provider_name,
            SUM(CASE WHEN byok = 0 THEN cost_nanos ELSE 0 END) AS usage_nanos,
            SUM(CASE WHEN byok = 1 THEN cost_nanos ELSE 0 END) AS byok_nanos,
            COUNT(*) AS requests,
            SUM(prompt_tokens) AS prompt_tokens, SUM(completion_tokens) AS completion_tokens, SUM(reasoning_tokens) AS reasoning_tokens
     FROM usage
     WHERE account_id = @account_id AND created_at >= @from AND created_at < @to
       AND (@key_hash IS NULL OR key_hash = @key_hash) AND (@member_id IS NULL OR member_id = @member_id)
     GROUP BY date, endpoint_id, model, provider
     ORDER BY date DESC, usage_nanos DESC, model, endpoint_id`,
  )
  const lastIdStmt = db.prepare<[], { id: number }>('SELECT COALESCE(MAX(id), 0) AS id FROM usage')
  // Prepared at the first scrape, so an emulator nobody scrapes pays nothing for it.
  let totalsStmt: Statement<[], OperationModelTotals> | undefined
  const groupedStmts = new Map<string, Statement<Record<string, unknown>, GroupedSumsRow>>()

  return {
    get: (id: number) => getStmt.get(id),
    /** A refund: the row stays (the request happened) but costs nothing. */
    zeroCost: (id: number) => void zeroStmt.run(id),
    /** A smaller charge for what was delivered (an answer cut short): its completion tokens and cost. */
    settle: (id: number, completion_tokens: number, cost_nanos: number) => void settleStmt.run({ id, completion_tokens, cost_nanos }),
    /** Call inside the transaction that debits the account. Returns the new row's id. */
    insert: (row: UsageRow): number => Number(insertStmt.run(row).lastInsertRowid),
    /** One key's spend over its windows as of `starts.now`. */
    keySpend: (hash: string, starts: WindowStarts): KeyUsageSums => keySumsStmt.get({ ...starts, hash })!,
    /** The spend of each of these keys over its windows as of `starts.now` (a key with no usage: zeros). */
    keysSpend(hashes: readonly string[], starts: WindowStarts): Map<string, KeyUsageSums> {
      const found = new Map<string, KeyUsageSums>()
      if (hashes.length === 0) return found
      for (const { key_hash, ...sums } of keysSumsStmt.all({ ...starts, hashes: JSON.stringify(hashes) })) found.set(key_hash, sums)
      return new Map(hashes.map((hash) => [hash, found.get(hash) ?? NO_KEY_USAGE]))
    },
    /** Usage rows of `:free` models the account wrote in [since, now]. */
    freeModelRequests: (accountId: string, since: number, now: number) => freeRequestsStmt.get({ account_id: accountId, since, now })!.n,
    /** What these keys and members spent in [since, now] (a guardrail's budget). */
    spentByKeysOrMembers: (q: { keyHashes: readonly string[]; memberIds: readonly string[]; since: number; now: number; includeByok: boolean }) =>
      keysOrMembersStmt.get({
        keys: JSON.stringify(q.keyHashes),
        members: JSON.stringify(q.memberIds),
        since: q.since,
        now: q.now,
        include_byok: q.includeByok ? 1 : 0,
      })!.spent,
    /** What an account spent in one of its workspaces in [since, now]; `defaultWorkspace` takes the rows that record none. */
    spentInWorkspace: (q: { accountId: string; workspaceId: string; defaultWorkspace: string; since: number; now: number; includeByok: boolean }) =>
      workspaceStmt.get({
        account_id: q.accountId,
        workspace_id: q.workspaceId,
        default_workspace: q.defaultWorkspace,
        since: q.since,
        now: q.now,
        include_byok: q.includeByok ? 1 : 0,
      })!.spent,
    /** An account's usage in [from, to), by UTC date, endpoint and model, latest day and largest spend first. */
    byDayAndEndpoint: (query: DailyEndpointQuery) => dailyStmt.all(query),
    /** Every account's usage by operation and model. */
    totalsByOperationAndModel(): OperationModelTotals[] {
      totalsStmt ??= db.prepare<[], OperationModelTotals>(
        `SELECT operation, model, COUNT(*) AS rows, SUM(cost_nanos) AS cost_nanos,
                SUM(prompt_tokens) AS prompt_tokens, SUM(completion_tokens) AS completion_tokens, SUM(reasoning_tokens) AS reasoning_tokens
         FROM usage GROUP BY operation, model`,
      )
      return totalsStmt.all()
    },
    /** The id of the last usage row written (0 for none). */
    lastId: () => lastIdStmt.get()!.id,
    /** Sums of an account's usage rows grouped by the caller's expressions (analytics). */
    groupedSums(q: GroupedSumsQuery): GroupedSumsRow[] {
      const groupColumns = [...(q.bucket === null ? [] : ['bucket']), ...q.groups.map((_, i) => `d${i}`)]
      const sql = /* sql */ `
        SELECT ${q.bucket ?? 'NULL'} AS bucket,
               ${q.groups.map((g, i) => `${g} AS d${i},`).join(' ')}
               COUNT(*) AS request_count,
               COALESCE(SUM(CASE WHEN u.byok = 0 THEN u.cost_nanos END), 0) AS usage_nanos,
               COALESCE(SUM(CASE WHEN u.byok = 1 THEN u.cost_nanos END), 0) AS byok_nanos,
               COALESCE(SUM(u.prompt_tokens), 0) AS prompt_tokens,
               COALESCE(SUM(u.completion_tokens), 0) AS completion_tokens,
               COALESCE(SUM(u.reasoning_tokens), 0) AS reasoning_tokens,
               ${q.latency === null ? 'NULL' : `AVG(${q.latency})`} AS avg_latency
        FROM usage u
        WHERE u.account_id = @account_id AND u.created_at >= @from AND u.created_at < @to AND u.created_at <= @now
          ${q.conditions.map((c) => `AND ${c}`).join(' ')}
        ${groupColumns.length > 0 ? `GROUP BY ${groupColumns.join(', ')}` : ''}`
      let statement = groupedStmts.get(sql)
      if (!statement) {
        if (groupedStmts.size >= MAX_GROUPED_STATEMENTS) groupedStmts.clear()
        statement = db.prepare<Record<string, unknown>, GroupedSumsRow>(sql)
        groupedStmts.set(sql, statement)
      }
      // Named parameters the SQL does not use are refused by better-sqlite3: bind only those it names.
      return statement.all(Object.fromEntries(Object.entries(q.params).filter(([name]) => sql.includes(`@${name}`))))
    },
  }
}

export type UsageRepo = ReturnType<typeof createUsageRepo>

/** The usage ledger; an account reset deletes the account's rows. */
export function usageState(db: DB): StateOwner {
  const forget = db.prepare<[string]>('DELETE FROM usage WHERE account_id = ?')
  return { name: 'usage', tables: ['usage'], resetAccount: (id) => void forget.run(id) }
}
