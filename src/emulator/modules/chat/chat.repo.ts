// Generations: what a chat or text completion was, beyond its usage row (which holds its tokens and
// cost): whether it streamed, how it finished, how long it took, and where it came from.
import type { StateOwner } from '../../core/lifecycle.ts'
import type { DB } from '../../store/db.ts'

/** The real document's `api_type`: what kind of call a generation was (Responses and Messages are `completions`). */
export type ApiType = 'completions' | 'embeddings' | 'rerank' | 'tts' | 'stt' | 'video' | 'image'

export interface GenerationRow {
  id: string
  usage_id: number
  account_id: string
  api_type: ApiType
  streamed: 0 | 1
  finish_reason: string | null
  latency_ms: number
  generation_time_ms: number
  http_referer: string | null
  app_title: string | null
  user_agent: string | null
  external_user: string | null
  created_at: number
}

/** A generation with its usage row's figures. */
export interface GenerationView extends GenerationRow {
  model: string
  provider: string
  key_hash: string | null
  prompt_tokens: number
  completion_tokens: number
  reasoning_tokens: number
  cost_nanos: number
  byok: 0 | 1
}

export function createGenerationsRepo(db: DB) {
  const insertStmt = db.prepare<GenerationRow>(
    `INSERT INTO generations (id, usage_id, account_id, api_type, streamed, finish_reason, latency_ms, generation_time_ms,
       http_referer, app_title, user_agent, external_user, created_at)
     VALUES (@id, @usage_id, @account_id, @api_type, @streamed, @finish_reason, @latency_ms, @generation_time_ms,
       @http_referer, @app_title, @user_agent, @external_user, @created_at)`,
  )
  const getStmt = db.prepare<[string, string], GenerationView>(
    `SELECT g.*, u.model, u.provider, u.key_hash, u.prompt_tokens, u.completion_tokens, u.reasoning_tokens, u.cost_nanos, u.byok
     FROM generations g JOIN usage u ON u.id = g.usage_id WHERE g.id = ? AND g.account_id = ?`,
  )
  const finishStmt = db.prepare<[string | null, string]>('UPDATE generations SET finish_reason = ? WHERE id = ?')
  return {
    insert: (row: GenerationRow) => void insertStmt.run(row),
    /** How a generation ended after all (a stream broken by a fault: `error`, or null when cut). */
    finish: (id: string, finishReason: string | null) => void finishStmt.run(finishReason, id),
    /** One of the account's generations, or undefined (another account's is as unknown as none). */
    get: (id: string, accountId: string) => getStmt.get(id, accountId),
  }
}

export type GenerationsRepo = ReturnType<typeof createGenerationsRepo>

export function generationsState(db: DB): StateOwner {
  const forget = db.prepare<[string]>('DELETE FROM generations WHERE account_id = ?')
  return { name: 'generations', tables: ['generations'], resetAccount: (id) => void forget.run(id) }
}
