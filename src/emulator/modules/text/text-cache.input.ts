// Prompt caching's breakpoints as a request marks them (Anthropic style, as the real document places
// them): `cache_control: {type: "ephemeral", ttl?: "5m" | "1h"}` on a content part or block, a message,
// a system block or a tool, and on the request itself (automatic caching: the whole prompt). A
// breakpoint caches the prompt's prefix through the end of the message that carries it (the tools
// first, then the messages in order: text-cache.service.ts). A bad marker is a 400 naming its field.
import { fieldError } from '../../core/errors.ts'
import { isObject } from './text.input.ts'

export type CacheTtl = '5m' | '1h'

/** How long a cached prefix lives on the virtual clock after it is written or last read. */
export const CACHE_TTL_MS: Readonly<Record<CacheTtl, number>> = { '5m': 5 * 60_000, '1h': 60 * 60_000 }

/** The prefix of the tools and the first `messages` of the engine's messages is to be cached for `ttl`. */
export interface CacheBreakpoint {
  messages: number
  ttl: CacheTtl
}

/** A `cache_control` directive's life, or null where there is none. */
export function cacheControlOf(value: unknown, field: string): CacheTtl | null {
  if (value === undefined || value === null) return null
  if (!isObject(value)) throw fieldError(field, 'must be an object: {"type": "ephemeral", "ttl"?: "5m" | "1h"}')
  if (value.type !== 'ephemeral') throw fieldError(`${field}.type`, 'must be "ephemeral"')
  if (value.ttl !== undefined && value.ttl !== null && value.ttl !== '5m' && value.ttl !== '1h') throw fieldError(`${field}.ttl`, 'must be "5m" or "1h"')
  return value.ttl === '1h' ? '1h' : '5m'
}

const longer = (a: CacheTtl | null, b: CacheTtl | null): CacheTtl | null => (a === '1h' || b === '1h' ? '1h' : (a ?? b))

/** The breakpoint an item marks: its own `cache_control`, or that of any part of its `content` (the longer life). */
export function markedIn(item: unknown, field: string): CacheTtl | null {
  if (!isObject(item)) return null
  let ttl = cacheControlOf(item.cache_control, `${field}.cache_control`)
  const content = item.content
  if (Array.isArray(content))
    content.forEach((part, j) => {
      if (isObject(part)) ttl = longer(ttl, cacheControlOf(part.cache_control, `${field}.content[${j}].cache_control`))
    })
  return ttl
}

/** A tool's breakpoint (chat's `{type: "function", function, cache_control}`, or on its `function`). */
function toolMark(tool: unknown, field: string): CacheTtl | null {
  if (!isObject(tool)) return null
  const own = cacheControlOf(tool.cache_control, `${field}.cache_control`)
  return isObject(tool.function) ? longer(own, cacheControlOf(tool.function.cache_control, `${field}.function.cache_control`)) : own
}

/**
 * The breakpoints of a request: its tools' (the prefix of the tools alone), its messages' (`ends[i]`:
 * how many of the engine's messages the request's first i + 1 messages make, 1:1 where absent), and
 * the request's own (`cache_control` at the top level: the whole prompt, `total` messages).
 */
export function breakpointsOf(
  body: { tools?: unknown; cache_control?: unknown },
  messages: { items: readonly unknown[]; field: string; before: number; ends?: () => readonly number[] },
  total: number,
): CacheBreakpoint[] {
  const out: CacheBreakpoint[] = []
  if (Array.isArray(body.tools))
    body.tools.forEach((tool, i) => {
      const ttl = toolMark(tool, `tools[${i}]`)
      if (ttl) out.push({ messages: 0, ttl })
    })
  let ends: readonly number[] | null = null
  messages.items.forEach((item, i) => {
    const ttl = markedIn(item, `${messages.field}[${i}]`)
    if (!ttl) return
    ends ??= messages.ends ? messages.ends() : messages.items.map((_, j) => j + 1)
    out.push({ messages: messages.before + ends[i]!, ttl })
  })
  const top = cacheControlOf(body.cache_control, 'cache_control')
  if (top) out.push({ messages: total, ttl: top })
  return out
}

/** Anthropic's system blocks: a marked block caches the tools and the system prompt (`count` messages). */
export function systemBreakpoints(system: unknown, count: number): CacheBreakpoint[] {
  if (!Array.isArray(system)) return []
  return system.flatMap((block, i) => {
    const ttl = isObject(block) ? cacheControlOf(block.cache_control, `system[${i}].cache_control`) : null
    return ttl ? [{ messages: count, ttl }] : []
  })
}
