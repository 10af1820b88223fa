// Reading an upstream gateway's text answer, the part every surface shares: what an answer says per
// choice (in chat's words), its usage, and small lenient readers of unknown JSON. Each surface registers
// how its own answers read (`TextSurface.upstream`: its JSON, and its stream's events), so record and
// replay read every surface's answers without knowing one (recordings-answers.service.ts). Readers are
// lenient: a field an answer lacks is left out or zero, never a throw, as the answer is relayed whatever it holds.

/** Usage as read: the cost is null where the upstream reported none (the caller prices the tokens). */
export interface ReadUsage {
  prompt_tokens: number
  completion_tokens: number
  reasoning_tokens?: number
  cost: number | null
}

export interface ReadToolCall {
  name: string
  arguments: string
}

/** One choice as read, in chat's words: tool calls and reasoning only where there are some. */
export interface ReadChoice {
  content: string | null
  tool_calls?: ReadToolCall[]
  reasoning?: string | null
  finish_reason: string
}

/** A text answer as read (without its stream's timing). */
export interface ReadAnswer {
  model: string
  provider: string | null
  choices: ReadChoice[]
  usage: ReadUsage
}

/** One choice as its stream's deltas build it up. */
export interface BuildingChoice {
  content: string | null
  reasoning: string | null
  calls: Map<number, ReadToolCall>
  finish: string | null
}

/** What a surface's stream reader writes each event into (recordings' TextStreamReader). */
export interface StreamReading {
  model: string
  provider: string | null
  usage: ReadUsage | null
  /** The message's input tokens, as a stream that tells them first (the Messages API's) gives them. */
  promptTokens: number | null
  /** The message of an error event, where the upstream broke the answer part way. */
  error: string | null
  /** Whether the stream told its end. */
  finished: boolean
  /** The choice at `index`, made on first use. */
  choice(index: number): BuildingChoice
  /** `to` with `piece` added, while what is kept stays within bounds (past them, only counted). */
  kept(to: string | null, piece: unknown): string | null
  /** The whole answer, where the stream ends with it (the Responses API's response.completed). */
  whole(answer: ReadAnswer): void
}

/** How a surface's upstream answers are read: its JSON answer, and its stream event by event. */
export interface UpstreamReader {
  json(answer: unknown): ReadAnswer
  /** One event's parsed data (not `[DONE]`); true when it carried tokens. */
  event(data: Json, into: StreamReading): boolean
}

// ---- Small readers of unknown JSON ------------------------------------------------------------------

export type Json = Record<string, unknown>
export const object = (value: unknown): Json => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {})
export const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : [])
export const text = (value: unknown): string | null => (typeof value === 'string' ? value : null)
export const count = (value: unknown): number => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : 0)
export const usd = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null)

/** Text joined from pieces, or null where no piece was any. */
export const joined = (pieces: readonly (string | null)[]): string | null => (pieces.some((p) => p !== null) ? pieces.filter((p) => p !== null).join('') : null)

/** A choice as read: tool calls and reasoning only where there are some. */
export function choice(content: string | null, reasoning: string | null, calls: readonly ReadToolCall[], finish: string): ReadChoice {
  return { content, ...(calls.length > 0 && { tool_calls: [...calls] }), ...(reasoning !== null && { reasoning }), finish_reason: finish }
}

/** The upstream's cost and tokens, whatever API named them (chat's prompt/completion, or input/output). */
export function usageOf(value: unknown): ReadUsage {
  const usage = object(value)
  const reasoning =
    count(object(usage.completion_tokens_details).reasoning_tokens) ||
    count(object(usage.output_tokens_details).reasoning_tokens) ||
    count(object(usage.output_tokens_details).thinking_tokens)
  return {
    prompt_tokens: count(usage.prompt_tokens ?? usage.input_tokens),
    completion_tokens: count(usage.completion_tokens ?? usage.output_tokens),
    ...(reasoning > 0 && { reasoning_tokens: reasoning }),
    cost: usd(usage.cost),
  }
}
