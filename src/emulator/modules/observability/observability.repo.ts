// Prepared SQL for observability destinations, and the broadcaster's reads: the usage rows a
// destination has not considered yet, each with what its generation and key add to it.
import type { StateOwner } from '../../core/lifecycle.ts'
import type { DB } from '../../store/db.ts'

export interface DestinationRow {
  id: string
  account_id: string
  workspace_id: string
  type: string
  name: string
  /** JSON object, secrets masked. */
  config: string
  enabled: 0 | 1
  privacy_mode: 0 | 1
  broadcast_generation_cost: 0 | 1
  broadcast_generation_identity: 0 | 1
  broadcast_generation_request_context: 0 | 1
  sampling_rate: number
  /** JSON array of key hashes, or null for every key. */
  api_key_hashes: string | null
  /** JSON FilterRules, or null. */
  filter_rules: string | null
  /** JSON array of data regions. */
  regions: string
  /** The last usage row this destination has considered: later ones are still to be traced. */
  traced_usage_id: number
  created_at: number
  updated_at: number
}

/** A billed call as a trace shows it: its usage row, its generation (when the surface keeps one) and its key. */
export interface TracedCall {
  usage_id: number
  account_id: string
  key_hash: string | null
  operation: string
  model: string
  provider: string
  prompt_tokens: number
  completion_tokens: number
  reasoning_tokens: number
  cost_nanos: number
  byok: 0 | 1
  created_at: number
  /** The workspace its key is in (its own, or its account's default). */
  workspace_id: string
  key_name: string | null
  generation_id: string | null
  api_type: string | null
  streamed: 0 | 1 | null
  finish_reason: string | null
  latency_ms: number | null
  generation_time_ms: number | null
  http_referer: string | null
  app_title: string | null
  user_agent: string | null
  external_user: string | null
}

/** `lastUsageId`: the usage area's (the id of the last usage row written). */
export function createDestinationsRepo(db: DB, lastUsageId: () => number) {
  const insertStmt = db.prepare<DestinationRow>(
    `INSERT INTO observability_destinations (id, account_id, workspace_id, type, name, config, enabled, privacy_mode, broadcast_generation_cost,
       broadcast_generation_identity, broadcast_generation_request_context, sampling_rate, api_key_hashes, filter_rules, regions,
       traced_usage_id, created_at, updated_at)
     VALUES (@id, @account_id, @workspace_id, @type, @name, @config, @enabled, @privacy_mode, @broadcast_generation_cost,
       @broadcast_generation_identity, @broadcast_generation_request_context, @sampling_rate, @api_key_hashes, @filter_rules, @regions,
       @traced_usage_id, @created_at, @updated_at)`,
  )
  const updateStmt = db.prepare<DestinationRow>(
    `UPDATE observability_destinations SET name = @name, config = @config, enabled = @enabled, privacy_mode = @privacy_mode,
       broadcast_generation_cost = @broadcast_generation_cost, broadcast_generation_identity = @broadcast_generation_identity,
       broadcast_generation_request_context = @broadcast_generation_request_context, sampling_rate = @sampling_rate,
       api_key_hashes = @api_key_hashes, filter_rules = @filter_rules, regions = @regions, traced_usage_id = @traced_usage_id,
       updated_at = @updated_at
     WHERE id = @id`,
  )
  const getStmt = db.prepare<[string], DestinationRow>('SELECT * FROM observability_destinations WHERE id = ?')
  const deleteStmt = db.prepare<[string]>('DELETE FROM observability_destinations WHERE id = ?')
  const listStmt = db.prepare<{ account_id: string; workspace_id: string; limit: number; offset: number }, DestinationRow>(
    `SELECT * FROM observability_destinations WHERE account_id = @account_id AND workspace_id = @workspace_id
     ORDER BY created_at, rowid LIMIT @limit OFFSET @offset`,
  )
  const countStmt = db.prepare<[string, string], { n: number }>(
    'SELECT COUNT(*) AS n FROM observability_destinations WHERE account_id = ? AND workspace_id = ?',
  )
  const ofTypeStmt = db.prepare<[string, string, string], { n: number }>(
    'SELECT COUNT(*) AS n FROM observability_destinations WHERE account_id = ? AND workspace_id = ? AND type = ?',
  )
  const accountStmt = db.prepare<[string], DestinationRow>('SELECT * FROM observability_destinations WHERE account_id = ? ORDER BY created_at, rowid')
  const inWorkspaceStmt = db.prepare<[string, string], { n: number }>(
    'SELECT COUNT(*) AS n FROM observability_destinations WHERE account_id = ? AND workspace_id = ?',
  )
  const inAccountStmt = db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM observability_destinations WHERE account_id = ?')
  const allStmt = db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM observability_destinations')

  // The broadcaster's reads. Every mark moves to the last usage row once its account's rows up to it
  // are traced, so an enabled destination has work exactly when its mark is behind the last row, and
  // the rows after a mark are those written since the last run: read by rowid range (the unary plus
  // keeps SQLite from scanning the account's whole index instead).
  const hasWorkStmt = db.prepare<[number], { one: number }>('SELECT 1 AS one FROM observability_destinations WHERE enabled = 1 AND traced_usage_id < ? LIMIT 1')
  const withWorkStmt = db.prepare<[number], DestinationRow>(
    'SELECT * FROM observability_destinations WHERE enabled = 1 AND traced_usage_id < ? ORDER BY created_at, rowid',
  )
  const callsStmt = db.prepare<{ account_id: string; after: number; limit: number }, TracedCall>(
    `SELECT u.id AS usage_id, u.account_id, u.key_hash, u.operation, u.model, u.provider, u.prompt_tokens, u.completion_tokens,
       u.reasoning_tokens, u.cost_nanos, u.byok, u.created_at,
       COALESCE(k.workspace_id, a.workspace_id) AS workspace_id, k.name AS key_name,
       g.id AS generation_id, g.api_type, g.streamed, g.finish_reason, g.latency_ms, g.generation_time_ms,
       g.http_referer, g.app_title, g.user_agent, g.external_user
     FROM usage u
     JOIN accounts a ON a.id = u.account_id
     LEFT JOIN api_keys k ON k.hash = u.key_hash
     LEFT JOIN generations g ON g.usage_id = u.id
     WHERE u.id > @after AND +u.account_id = @account_id
     ORDER BY u.id LIMIT @limit`,
  )
  // No mark stays past the last usage row: a trigger of the migration pulls them back when rows go.
  const markStmt = db.prepare<[number, string]>('UPDATE observability_destinations SET traced_usage_id = ? WHERE id = ?')

  return {
    insert: (row: DestinationRow) => void insertStmt.run(row),
    update: (row: DestinationRow) => void updateStmt.run(row),
    get: (id: string) => getStmt.get(id),
    delete: (id: string) => void deleteStmt.run(id),
    /** Oldest first. */
    list: (accountId: string, workspaceId: string, limit: number, offset: number) =>
      listStmt.all({ account_id: accountId, workspace_id: workspaceId, limit, offset }),
    count: (accountId: string, workspaceId: string) => countStmt.get(accountId, workspaceId)!.n,
    countOfType: (accountId: string, workspaceId: string, type: string) => ofTypeStmt.get(accountId, workspaceId, type)!.n,
    /** How many destinations an account holds, in every workspace (every account's, for null). */
    countStored: (accountId: string | null) => (accountId === null ? allStmt.get()!.n : inAccountStmt.get(accountId)!.n),
    /** Every destination of an account, in every workspace (the admin API's view). */
    ofAccount: (accountId: string) => accountStmt.all(accountId),
    /** How many destinations a workspace holds (what a workspace's deletion would leave behind). */
    countInWorkspace: (accountId: string, workspaceId: string) => inWorkspaceStmt.get(accountId, workspaceId)!.n,
    /** The id of the last usage row written: a destination enabled now is traced what comes after it. */
    lastUsageId: () => lastUsageId(),
    /** Whether an enabled destination's mark is behind the last usage row. */
    hasWork: () => hasWorkStmt.get(lastUsageId()) !== undefined,
    /** The enabled destinations whose mark is behind `lastUsageId`. */
    withWork: (lastUsageId: number) => withWorkStmt.all(lastUsageId),
    /** The account's billed calls after usage row `after`, oldest first. */
    callsAfter: (accountId: string, after: number, limit: number) => callsStmt.all({ account_id: accountId, after, limit }),
    mark: (id: string, usageId: number) => void markStmt.run(usageId, id),
  }
}

export type DestinationsRepo = ReturnType<typeof createDestinationsRepo>

/** The destinations; an account reset deletes the account's. */
export function destinationsState(db: DB): StateOwner {
  const forget = db.prepare<[string]>('DELETE FROM observability_destinations WHERE account_id = ?')
  return { name: 'observability', tables: ['observability_destinations'], resetAccount: (id) => void forget.run(id) }
}
