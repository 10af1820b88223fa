// What a text generation's content is kept as: its input (a legacy completion's prompt, or the
// messages as the engine read them: role, text and tool calls) and its first answer's text and
// reasoning. Bounded (each part cut at a fixed size, saying how much was cut; the newest contents kept
// per account and in all, older ones dropped) and redacted (the emulator's own keys never kept), in
// the transaction that records the generation.
import { toIso } from '../../core/clock.ts'
import { textBytes } from '../../core/lifecycle.ts'
import { nanosToUsd } from '../../core/money.ts'
import { redact } from '../../core/redact.ts'
import { unknownGeneration } from './generations.errors.ts'
import type { ContentRow, ContentTotals, GenerationsContentRepo, GenerationsRepo, GenerationView, NewGeneration } from './generations.repo.ts'
import {
  MAX_ACCOUNT_CONTENT_BYTES,
  MAX_ACCOUNT_CONTENTS,
  MAX_TOTAL_CONTENT_BYTES,
  MAX_TOTAL_CONTENTS,
  type ContentInput,
  type GenerationContent,
  type GenerationDocument,
} from './generations.schemas.ts'

/** The most characters of input kept for one generation (the messages' texts together). */
export const MAX_INPUT_CHARS = 1024 * 1024
/** The most characters of the answer kept, and of its reasoning. */
export const MAX_OUTPUT_CHARS = 1024 * 1024

/** `text` redacted, and cut to what is left of `budget.left` (which it uses up). */
function bounded(text: string, budget: { left: number }): string {
  const clean = redact(text)
  if (clean.length <= budget.left) {
    budget.left -= clean.length
    return clean
  }
  const kept = clean.slice(0, budget.left)
  budget.left = 0
  return `${kept}…[${clean.length - kept.length} more characters not kept]`
}

function inputOf(operation: string, messages: readonly KeptMessage[]): ContentInput {
  const budget = { left: MAX_INPUT_CHARS }
  // The legacy completion's prompt is its one user message.
  if (operation === 'completions.create') return { prompt: bounded(messages[0]?.text ?? '', budget) }
  return {
    messages: messages.map((m) => ({
      role: m.role,
      content: bounded(m.text, budget),
      ...(m.toolCalls.length > 0 && {
        tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: c.type, function: { name: c.function.name, arguments: bounded(c.function.arguments, budget) } })),
      }),
    })),
  }
}

/** A message as the text engine read it (its Message is one): what of it is kept. */
export interface KeptMessage {
  role: string
  text: string
  toolCalls: ReadonlyArray<{ id: string; type: string; function: { name: string; arguments: string } }>
}

/** An answer the text engine wrote (its Answer is one): what of it is kept. */
export interface KeptAnswer {
  content: string | null
  reasoning: string | null
}

export interface KeptGeneration {
  generationId: string
  accountId: string
  /** The surface's operation id (`completions.create` keeps a prompt, the rest messages). */
  operation: string
  messages: readonly KeptMessage[]
  answers: readonly KeptAnswer[]
}

export function contentRow(kept: KeptGeneration): ContentRow {
  const answer = kept.answers[0]
  return {
    generation_id: kept.generationId,
    account_id: kept.accountId,
    input: JSON.stringify(inputOf(kept.operation, kept.messages)),
    completion: answer?.content == null ? null : bounded(answer.content, { left: MAX_OUTPUT_CHARS }),
    reasoning: answer?.reasoning == null ? null : bounded(answer.reasoning, { left: MAX_OUTPUT_CHARS }),
  }
}

/** The content as the API shows it; a generation that ended in an error (a stream broken by a fault) says so. */
export function contentView(row: ContentRow, generation: GenerationView): GenerationContent {
  return {
    input: JSON.parse(row.input) as ContentInput,
    output: { completion: row.completion, reasoning: row.reasoning },
    error:
      generation.finish_reason === 'error'
        ? { status: null, message: 'The answer was broken part way (a fault rule)', provider_name: generation.provider, raw: null, previous_errors: [] }
        : null,
  }
}

/** A generation as GET /api/v1/generation answers it (the real document's fields; what the emulator does not track is null). */
export function generationDocument(found: GenerationView): GenerationDocument {
  const cost = nanosToUsd(found.cost_nanos)
  return {
    id: found.id,
    upstream_id: null,
    total_cost: cost,
    cache_discount: null,
    upstream_inference_cost: null,
    created_at: toIso(found.created_at),
    model: found.model,
    app_id: null,
    streamed: found.streamed === 1,
    cancelled: false,
    provider_name: found.provider,
    latency: found.latency_ms,
    moderation_latency: null,
    generation_time: found.generation_time_ms,
    finish_reason: found.finish_reason,
    native_finish_reason: found.finish_reason,
    tokens_prompt: found.prompt_tokens,
    tokens_completion: found.completion_tokens,
    native_tokens_prompt: found.prompt_tokens,
    native_tokens_completion: found.completion_tokens,
    native_tokens_completion_images: null,
    native_tokens_reasoning: found.reasoning_tokens,
    native_tokens_cached: found.cached_tokens,
    num_media_prompt: null,
    num_input_audio_prompt: null,
    num_media_completion: null,
    num_search_results: null,
    num_fetches: null,
    web_search_engine: null,
    origin: found.http_referer ?? '',
    usage: cost,
    is_byok: found.byok === 1,
    api_type: found.api_type,
    http_referer: found.http_referer,
    user_agent: found.user_agent,
    external_user: found.external_user,
    preset_id: null,
    router: null,
    workspace_id: null,
    service_tier: null,
    provider_responses: null,
    data_region: 'global',
  }
}

export interface GenerationsService {
  repo: GenerationsContentRepo
  /** Records a billed call's generation and returns its id (the meter calls it in the billing transaction). */
  record(generation: NewGeneration): string
  /** How a generation ended after all (a stream broken by a fault: `error`, or null when cut; a video job's end). */
  finish(id: string, finishReason: string | null): void
  /** One of the account's generations with its usage figures, or undefined (another account's is as unknown as none). */
  get(id: string, accountId: string): GenerationView | undefined
  /** GET /api/v1/generation: one of the account's generations as the document has it, or a 404. */
  lookup(id: string, accountId: string): GenerationDocument
  /**
   * Keeps a text generation's content, and drops the oldest of its account's (and of every account's)
   * past the bounds; call inside the transaction that records the generation.
   */
  keep(kept: KeptGeneration): void
  /** Forgets what it counted of an account (every account, for none): its rows were changed from outside. */
  recount(accountId?: string): void
}

const ACCOUNT_BOUND: ContentTotals = { rows: MAX_ACCOUNT_CONTENTS, bytes: MAX_ACCOUNT_CONTENT_BYTES }
const TOTAL_BOUND: ContentTotals = { rows: MAX_TOTAL_CONTENTS, bytes: MAX_TOTAL_CONTENT_BYTES }
/** A bound passed drops content down to this share of it: a full account is pruned every thousand calls, not on each. */
const PRUNE_TO = 0.9

const over = (held: ContentTotals, bound: ContentTotals): boolean => held.rows > bound.rows || held.bytes > bound.bytes
const lowered = (bound: ContentTotals): ContentTotals => ({ rows: Math.floor(bound.rows * PRUNE_TO), bytes: Math.floor(bound.bytes * PRUNE_TO) })

/**
 * What each account holds is counted once from the table, then followed in memory as content is kept,
 * so the hot path adds two additions and no query. A count is only ever too high (a transaction that
 * rolls back after keeping leaves it so, and an account's prune leaves the total so), never too low:
 * one past a bound is read again from the table before anything is dropped, and after a prune or any
 * outside change it is read again when next needed.
 */
export function createGenerationsService(repo: GenerationsContentRepo, rows: GenerationsRepo): GenerationsService {
  const accounts = new Map<string, ContentTotals>()
  let all: ContentTotals | null = null
  const heldBy = (accountId: string): ContentTotals => {
    let held = accounts.get(accountId)
    if (!held) accounts.set(accountId, (held = { ...repo.held(accountId) }))
    return held
  }
  return {
    repo,
    record: rows.record,
    finish: rows.finish,
    get: rows.get,
    lookup(id, accountId) {
      const found = rows.get(id, accountId)
      if (!found) throw unknownGeneration(id)
      return generationDocument(found)
    },
    keep(kept) {
      const row = contentRow(kept)
      const bytes = textBytes(row.input) + textBytes(row.completion) + textBytes(row.reasoning)
      const account = heldBy(row.account_id)
      all ??= { ...repo.held(null) }
      repo.insertContent(row)
      for (const held of [account, all]) {
        held.rows++
        held.bytes += bytes
      }
      // Past a bound by the count: counted again, and pruned if it is past it indeed. What every account
      // holds is left too high by an account's prune, and counted again only once it passes its own bound.
      if (over(account, ACCOUNT_BOUND)) {
        const exact = repo.held(row.account_id)
        if (over(exact, ACCOUNT_BOUND)) {
          repo.prune(row.account_id, lowered(ACCOUNT_BOUND))
          accounts.delete(row.account_id)
        } else accounts.set(row.account_id, { ...exact })
      }
      if (over(all, TOTAL_BOUND)) {
        const exact = repo.held(null)
        if (over(exact, TOTAL_BOUND)) {
          repo.prune(null, lowered(TOTAL_BOUND))
          accounts.clear()
          all = null
        } else all = { ...exact }
      }
    },
    recount(accountId) {
      if (accountId === undefined) accounts.clear()
      else accounts.delete(accountId)
      all = null
    },
  }
}
