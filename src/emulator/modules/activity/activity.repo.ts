// Activity: usage rows grouped by UTC date and endpoint.
import type { DB } from '../../store/db.ts'

export interface ActivityRow {
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

export interface ActivityQuery {
  account_id: string
  from: number
  to: number
  key_hash: string | null
  member_id: string | null
}

export function createActivityRepo(db: DB) {
  const stmt = db.prepare<ActivityQuery, ActivityRow>(
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
  return { grouped: (query: ActivityQuery) => stmt.all(query) }
}

export type ActivityRepo = ReturnType<typeof createActivityRepo>
