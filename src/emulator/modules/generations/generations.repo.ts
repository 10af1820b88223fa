// Prepared SQL for the generations: what each billed call was beyond its usage row (its `api_type`,
// whether it streamed, how it finished, how long it took, where it came from), and what the emulator
// keeps of a text generation: its content (the prompt and answer, as JSON and text) and the one piece
// of feedback given on it (an upsert replaces it). Only this folder writes these tables: the others
// record a generation through the service (the meter, as it bills).
import type { StateOwner } from '../../core/lifecycle.ts'
import type { DB } from '../../store/db.ts'
import type { Ids } from '../../core/ids.ts'
import type { RequestOrigin } from '../../http/request-origin.ts'
import type { UsageRow } from '../usage/usage.repo.ts'

export interface ContentRow {
  generation_id: string
  account_id: string
  /** JSON: `{"prompt": ...}` or `{"messages": [...]}`. */
  input: string
  completion: string | null
  reasoning: string | null
}

/** Contents counted together: rows, and bytes as stored (UTF-8). */
export interface ContentTotals {
  rows: number
  bytes: number
}

export interface FeedbackRow {
  generation_id: string
  account_id: string
  category: string
  comment: string | null
  created_at: number
  updated_at: number | null
}

export function createGenerationsContentRepo(db: DB) {
  const insertContentStmt = db.prepare<ContentRow>(
    `INSERT INTO generation_contents (generation_id, account_id, input, completion, reasoning)
     VALUES (@generation_id, @account_id, @input, @completion, @reasoning)`,
  )
  const contentStmt = db.prepare<[string, string], ContentRow>('SELECT * FROM generation_contents WHERE generation_id = ? AND account_id = ?')
  // octet_length reads a value's size from its record header: thousands of rows are summed in a millisecond or so.
  const bytes = 'octet_length(input) + IFNULL(octet_length(completion), 0) + IFNULL(octet_length(reasoning), 0)'
  const heldStmt = db.prepare<[string], ContentTotals>(
    `SELECT COUNT(*) AS rows, IFNULL(SUM(${bytes}), 0) AS bytes FROM generation_contents WHERE account_id = ?`,
  )
  const heldAllStmt = db.prepare<[], ContentTotals>(`SELECT COUNT(*) AS rows, IFNULL(SUM(${bytes}), 0) AS bytes FROM generation_contents`)
  // The newest rows within the bound stay; the first past it (newest first) and every older one go.
  const pastBound = (where: string) => `SELECT MAX(id) FROM (
      SELECT rowid AS id, ROW_NUMBER() OVER newest AS n, SUM(${bytes}) OVER newest AS total
      FROM generation_contents ${where} WINDOW newest AS (ORDER BY rowid DESC)
    ) WHERE n > @rows OR total > @bytes`
  const pruneStmt = db.prepare<ContentTotals & { account_id: string }>(
    `DELETE FROM generation_contents WHERE account_id = @account_id AND rowid <= (${pastBound('WHERE account_id = @account_id')})`,
  )
  const pruneAllStmt = db.prepare<ContentTotals>(`DELETE FROM generation_contents WHERE rowid <= (${pastBound('')})`)
  // A repeat keeps when the feedback was first given, and says when it last changed.
  const upsertFeedbackStmt = db.prepare<FeedbackRow>(
    `INSERT INTO generation_feedback (generation_id, account_id, category, comment, created_at, updated_at)
     VALUES (@generation_id, @account_id, @category, @comment, @created_at, NULL)
     ON CONFLICT (generation_id) DO UPDATE SET category = excluded.category, comment = excluded.comment, updated_at = excluded.created_at`,
  )
  const feedbackStmt = db.prepare<[string], FeedbackRow>('SELECT * FROM generation_feedback WHERE account_id = ? ORDER BY created_at, rowid')

  return {
    insertContent: (row: ContentRow) => void insertContentStmt.run(row),
    /** The contents an account keeps (every account's, for null): how many, and their bytes. */
    held: (accountId: string | null): ContentTotals => (accountId === null ? heldAllStmt.get()! : heldStmt.get(accountId)!),
    /** Drops an account's oldest contents (every account's, for null) until the rest fit `within`. */
    prune: (accountId: string | null, within: ContentTotals) =>
      void (accountId === null ? pruneAllStmt.run(within) : pruneStmt.run({ ...within, account_id: accountId })),
    content: (generationId: string, accountId: string) => contentStmt.get(generationId, accountId),
    upsertFeedback: (row: FeedbackRow) => void upsertFeedbackStmt.run(row),
    feedback: (accountId: string) => feedbackStmt.all(accountId),
  }
}

export type GenerationsContentRepo = ReturnType<typeof createGenerationsContentRepo>

/** Contents and feedback; an account reset deletes the account's (its generations go too). */
export function generationsContentState(db: DB): StateOwner {
  const forget = ['DELETE FROM generation_contents WHERE account_id = ?', 'DELETE FROM generation_feedback WHERE account_id = ?'].map((sql) =>
    db.prepare<[string]>(sql),
  )
  return { name: 'generation-content', tables: ['generation_contents', 'generation_feedback'], resetAccount: (id) => forget.forEach((stmt) => stmt.run(id)) }
}

// ---- Generations ----------------------------------------------------------------------------------

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
  /** Prompt tokens read from the prompt cache, and written to it at a write price. */
  cached_tokens: number
  cache_write_tokens: number
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
  /** An id to record it under where it is free (an upstream's own), instead of the one minted here. */
  preferredId?: string | null
  /** Prompt tokens read from the prompt cache, and written to it at a write price (absent: none). */
  cachedTokens?: number
  cacheWriteTokens?: number
}

/** The usage rows a generation's figures come from (the usage module's, reached lazily: it may come later). */
export type UsageOf = () => { get(id: number): UsageRow | undefined }

export function createGenerationsRepo(db: DB, ids: Pick<Ids, 'generation'>, usage: UsageOf) {
  const insertStmt = db.prepare<GenerationRow>(
    `INSERT INTO generations (id, usage_id, account_id, api_type, streamed, finish_reason, latency_ms, generation_time_ms,
       http_referer, app_title, user_agent, external_user, created_at, cached_tokens, cache_write_tokens)
     VALUES (@id, @usage_id, @account_id, @api_type, @streamed, @finish_reason, @latency_ms, @generation_time_ms,
       @http_referer, @app_title, @user_agent, @external_user, @created_at, @cached_tokens, @cache_write_tokens)`,
  )
  const getStmt = db.prepare<[string, string], GenerationRow>('SELECT * FROM generations WHERE id = ? AND account_id = ?')
  const finishStmt = db.prepare<[string | null, string]>('UPDATE generations SET finish_reason = ? WHERE id = ?')
  const insert = (row: GenerationRow) => void insertStmt.run(row)
  return {
    /**
     * Records a billed call under a new generation id (minted from the usage row), or under `g.preferredId`
     * (an upstream's) where no generation has it yet, and returns the id.
     */
    record(g: NewGeneration): string {
      const local = `gen-${g.idKind === null ? '' : `${g.idKind}-`}${Math.floor(g.now / 1000)}-${ids.generation(`${g.idLabel}:${g.usageId}`)}`
      const row = (id: string): GenerationRow => ({
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
        cached_tokens: g.cachedTokens ?? 0,
        cache_write_tokens: g.cacheWriteTokens ?? 0,
      })
      const preferred = g.preferredId ?? null
      if (preferred === null) {
        insert(row(local))
        return local
      }
      try {
        insert(row(preferred))
        return preferred
      } catch (error) {
        // The preferred id is taken already (an earlier run against the same upstream): the local one.
        if ((error as { code?: unknown }).code !== 'SQLITE_CONSTRAINT_PRIMARYKEY' || preferred === local) throw error
        insert(row(local))
        return local
      }
    },
    /** How a generation ended after all (a stream broken by a fault: `error`, or null when cut). */
    finish: (id: string, finishReason: string | null) => void finishStmt.run(finishReason, id),
    /** One of the account's generations with its usage row's figures, or undefined (another account's is as unknown as none). */
    get(id: string, accountId: string): GenerationView | undefined {
      const row = getStmt.get(id, accountId)
      const used = row && usage().get(row.usage_id)
      if (!row || !used) return undefined
      const { model, provider, key_hash, prompt_tokens, completion_tokens, reasoning_tokens, cost_nanos, byok } = used
      return { ...row, model, provider, key_hash, prompt_tokens, completion_tokens, reasoning_tokens, cost_nanos, byok }
    },
  }
}

export type GenerationsRepo = ReturnType<typeof createGenerationsRepo>

export function generationsState(db: DB): StateOwner {
  const forget = db.prepare<[string]>('DELETE FROM generations WHERE account_id = ?')
  return { name: 'generations', tables: ['generations'], resetAccount: (id) => void forget.run(id) }
}
