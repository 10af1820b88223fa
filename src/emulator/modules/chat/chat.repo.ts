// Generations: what a chat or text completion was, beyond its usage row (which holds its tokens and
// cost): whether it streamed, how it finished, how long it took, and where it came from.
import type { StateOwner } from '../../core/lifecycle.ts'
import type { DB } from '../../store/db.ts'
import type { Ids } from '../../core/ids.ts'
import type { RequestOrigin } from '../../http/request-origin.ts'

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

/** A billed call as every surface records it: GET /api/v1/generation answers from it. */
export interface NewGeneration {
  usageId: number
  accountId: string
  apiType: ApiType
  /** The id's kind (`gen-<kind>-<seconds>-...`), null for the plain `gen-<seconds>-...` of text and video. */
  idKind: string | null
  /** What the id's characters are drawn from, with the usage row (`chat`, `img`, `video`...). */
  idLabel: string
  origin: Pick<RequestOrigin, 'referer' | 'title' | 'userAgent'>
  user: string | null
  streamed: boolean
  finishReason: string | null
  latencyMs: number
  generationTimeMs: number
  now: number
}

export function createGenerationsRepo(db: DB, ids: Pick<Ids, 'generation'>) {
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
  const insert = (row: GenerationRow) => void insertStmt.run(row)
  return {
    insert,
    /** Records a billed call under a new generation id (minted from the usage row), and returns the id. */
    record(g: NewGeneration): string {
      const id = `gen-${g.idKind === null ? '' : `${g.idKind}-`}${Math.floor(g.now / 1000)}-${ids.generation(`${g.idLabel}:${g.usageId}`)}`
      insert({
        id,
        usage_id: g.usageId,
        account_id: g.accountId,
        api_type: g.apiType,
        streamed: g.streamed ? 1 : 0,
        finish_reason: g.finishReason,
        latency_ms: g.latencyMs,
        generation_time_ms: g.generationTimeMs,
        http_referer: g.origin.referer,
        app_title: g.origin.title,
        user_agent: g.origin.userAgent,
        external_user: g.user,
        created_at: g.now,
      })
      return id
    },
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
