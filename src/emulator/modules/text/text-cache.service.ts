// Prompt caching. A prompt is read as a sequence of prefixes (the tools, then each message in turn),
// each with its tokens (counted as the whole prompt is: text-engine.service.ts) and a hash of what it
// holds. A request's breakpoints (text-cache.input.ts) write their prefixes to the account's cache for
// the model; where the serving endpoint caches by itself (the catalog's `supports_implicit_caching`),
// every prefix of at least IMPLICIT_MIN_TOKENS is cached too, at no write charge, counted in
// IMPLICIT_STEP-token steps, as OpenAI does. A later request of the same account and model whose prompt
// starts with a live prefix reads its tokens (the longest one found); a hit gives the prefix its life
// again. Reads cost the endpoint's `input_cache_read`, writes its `input_cache_write` (the meter's
// pricers); both are worked out when the call is priced and written only once it is billed.
import { createHash } from 'node:crypto'
import { CACHE_TTL_MS, type CacheBreakpoint, type CacheTtl } from './text-cache.input.ts'
import type { PromptCacheRepo, PromptCacheRow } from './text-cache.repo.ts'
import { messageTokens, toolsTokens, type Message, type Tool } from './text.input.ts'

/** The fewest prompt tokens a prefix cached by the provider itself holds (OpenAI's 1024). */
export const IMPLICIT_MIN_TOKENS = 1024
/** A prefix the provider caches by itself counts its tokens in steps of this many (OpenAI's 128). */
export const IMPLICIT_STEP = 128
/** How long a prefix the provider caches by itself lives (OpenAI: 5 to 10 minutes of inactivity). */
const IMPLICIT_TTL: CacheTtl = '5m'

/** What a call reads from and writes to the cache, and the rows it leaves once billed. */
export interface CachePlan {
  /** Prompt tokens read from the cache. */
  read: number
  /** Prompt tokens written to it and billed as written (explicit breakpoints on an endpoint with a write price), by life. */
  write5m: number
  write1h: number
  /** The rows to write (new prefixes, and the one read, its life moved on). */
  rows: PromptCacheRow[]
}

export const NO_CACHE: CachePlan = Object.freeze({ read: 0, write5m: 0, write1h: 0, rows: [] })

interface Prefix {
  tokens: number
  hash: string
}

/** Each prefix of the prompt: index k holds the tools and the first k messages. */
function prefixesOf(messages: readonly Message[], tools: readonly Tool[]): Prefix[] {
  const hash = createHash('sha256')
  hash.update(JSON.stringify(tools))
  let tokens = toolsTokens(tools)
  const out: Prefix[] = [{ tokens, hash: hash.copy().digest('hex') }]
  for (const message of messages) {
    tokens += messageTokens(message)
    hash.update(JSON.stringify([message.role, message.text, message.media, message.toolCalls]))
    out.push({ tokens, hash: hash.copy().digest('hex') })
  }
  return out
}

interface Point {
  prefix: Prefix
  tokens: number
  ttl: CacheTtl
  billed: boolean
}

/**
 * What a call of `account` on `model` reads and writes at `now`: its breakpoints' prefixes, and (where
 * the endpoint caches implicitly) each long enough prefix. Reads the cache, writes nothing.
 */
export function planCache(
  repo: PromptCacheRepo,
  at: { account: string; model: string; now: number },
  prompt: { messages: readonly Message[]; tools: readonly Tool[]; tokens: number; breakpoints: readonly CacheBreakpoint[] },
  endpoint: { implicit: boolean; writePrice: boolean },
): CachePlan {
  // Most prompts have no breakpoint and are too short for the provider's own caching: nothing to hash.
  if (prompt.breakpoints.length === 0 && (!endpoint.implicit || prompt.tokens < IMPLICIT_MIN_TOKENS)) return NO_CACHE
  const prefixes = prefixesOf(prompt.messages, prompt.tools)
  const points: Point[] = prompt.breakpoints.map((b) => ({ prefix: prefixes[b.messages]!, tokens: prefixes[b.messages]!.tokens, ttl: b.ttl, billed: true }))
  if (endpoint.implicit)
    for (const prefix of prefixes.slice(1))
      if (prefix.tokens >= IMPLICIT_MIN_TOKENS)
        points.push({ prefix, tokens: Math.floor(prefix.tokens / IMPLICIT_STEP) * IMPLICIT_STEP, ttl: IMPLICIT_TTL, billed: false })
  points.sort((a, b) => b.tokens - a.tokens)
  const row = (p: Point, tokens: number, ttlMs: number): PromptCacheRow => ({
    account_id: at.account,
    model: at.model,
    prefix_hash: p.prefix.hash,
    tokens,
    ttl_ms: ttlMs,
    expires_at: at.now + ttlMs,
  })
  // The longest live prefix is read, and lives again from now.
  let read = 0
  const rows: PromptCacheRow[] = []
  for (const point of points) {
    const hit = repo.live(at.account, at.model, point.prefix.hash, at.now)
    if (!hit) continue
    read = Math.min(hit.tokens, point.prefix.tokens)
    rows.push(row(point, hit.tokens, hit.ttl_ms))
    break
  }
  // Longer prefixes are written; a breakpoint's new tokens are billed at its life's write, shortest first.
  let write5m = 0
  let write1h = 0
  let covered = read
  for (const point of [...points].reverse()) {
    if (point.tokens <= read) continue
    rows.push(row(point, point.tokens, CACHE_TTL_MS[point.ttl]))
    if (!point.billed || !endpoint.writePrice || point.tokens <= covered) continue
    if (point.ttl === '1h') write1h += point.tokens - covered
    else write5m += point.tokens - covered
    covered = point.tokens
  }
  return { read, write5m, write1h, rows }
}
