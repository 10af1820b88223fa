// Reading an upstream gateway's answers into what a recording keeps (recordings-format.service.ts): a text
// answer (chat and text completions, the Responses API, the Messages API; JSON or a stream of events)
// by what it says, per choice, with its model, provider, usage, cost and the timing of its stream; any
// other answer (embeddings, images, speech, transcriptions) as the body the upstream sent. Readers are
// lenient: a field an answer lacks is left out or zero, never a throw, since the answer is relayed to
// the caller whatever it holds; whether it may be saved is the schema's check (recordings-recorder.service.ts).
import { countTokens } from '../../core/tokens.ts'
import { MAX_FILE_BYTES } from './recordings-files.service.ts'
import { RAW_ANSWER_BYTES, type RecordedRaw, type RecordedText } from './recordings-format.service.ts'
import type { TextOperation } from './recordings-normal.service.ts'

/** Usage as read: the cost is null where the upstream reported none (the caller prices the tokens). */
export interface ReadUsage {
  prompt_tokens: number
  completion_tokens: number
  reasoning_tokens?: number
  cost: number | null
}

export type ReadText = Omit<RecordedText, 'usage'> & { usage: ReadUsage }
export type ReadRaw = Omit<RecordedRaw, 'cost'> & { cost: number | null }
type Choice = RecordedText['choices'][number]
type ToolCall = NonNullable<Choice['tool_calls']>[number]

// ---- Small readers of unknown JSON ------------------------------------------------------------------

type Json = Record<string, unknown>
const object = (value: unknown): Json => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {})
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : [])
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null)
const count = (value: unknown): number => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : 0)
const usd = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null)

/** Text joined from pieces, or null where no piece was any. */
const joined = (pieces: readonly (string | null)[]): string | null => (pieces.some((p) => p !== null) ? pieces.filter((p) => p !== null).join('') : null)

/** A choice as the format keeps it: tool calls and reasoning only where there are some. */
function choice(content: string | null, reasoning: string | null, calls: readonly ToolCall[], finish: string): Choice {
  return { content, ...(calls.length > 0 && { tool_calls: [...calls] }), ...(reasoning !== null && { reasoning }), finish_reason: finish }
}

/** The upstream's cost and tokens, whatever API named them (chat's prompt/completion, or input/output). */
function usageOf(value: unknown): ReadUsage {
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

// ---- Finish reasons in chat's words -----------------------------------------------------------------

/** Anthropic's stop reasons as chat's finish reasons. */
const MESSAGES_FINISH: Record<string, string> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  pause_turn: 'stop',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  tool_use: 'tool_calls',
  refusal: 'content_filter',
}

const messagesFinish = (reason: unknown): string => MESSAGES_FINISH[text(reason) ?? ''] ?? 'stop'

/** A response's status as chat's finish reason: cut at max_output_tokens is `length`; calls are `tool_calls`. */
function responsesFinish(response: Json, calls: number): string {
  if (response.status === 'incomplete') return object(response.incomplete_details).reason === 'content_filter' ? 'content_filter' : 'length'
  return calls > 0 ? 'tool_calls' : 'stop'
}

// ---- JSON answers -----------------------------------------------------------------------------------

/** A text operation's JSON answer, read into what a recording keeps (without timing: nothing streamed). */
export function textFromJson(operation: TextOperation, answer: unknown): ReadText {
  const json = object(answer)
  const head = { model: text(json.model) ?? '', provider: text(json.provider) }
  switch (operation) {
    case 'chat.create':
      return {
        ...head,
        choices: list(json.choices).map((c) => {
          const message = object(object(c).message)
          const calls = list(message.tool_calls).map((call) => toolCall(object(call).function))
          return choice(text(message.content), text(message.reasoning), calls, text(object(c).finish_reason) ?? 'stop')
        }),
        usage: usageOf(json.usage),
      }
    case 'completions.create':
      return {
        ...head,
        choices: list(json.choices).map((c) => choice(text(object(c).text), null, [], text(object(c).finish_reason) ?? 'stop')),
        usage: usageOf(json.usage),
      }
    case 'responses.create':
      return { ...head, choices: [responseChoice(json)], usage: usageOf(json.usage) }
    case 'messages.create': {
      const blocks = list(json.content).map(object)
      const calls = blocks.filter((b) => b.type === 'tool_use').map((b) => ({ name: text(b.name) ?? '', arguments: JSON.stringify(b.input ?? {}) }))
      const content = joined(blocks.filter((b) => b.type === 'text').map((b) => text(b.text)))
      const reasoning = joined(blocks.filter((b) => b.type === 'thinking').map((b) => text(b.thinking)))
      return { ...head, choices: [choice(content, reasoning, calls, messagesFinish(json.stop_reason))], usage: usageOf(json.usage) }
    }
  }
}

const toolCall = (fn: unknown): ToolCall => ({ name: text(object(fn).name) ?? '', arguments: text(object(fn).arguments) ?? '' })

/** A response's output items as one choice: its messages' text, its reasoning, its function calls. */
function responseChoice(response: Json): Choice {
  const items = list(response.output).map(object)
  const content = joined(
    items
      .filter((i) => i.type === 'message')
      .flatMap((i) => list(i.content).map((part) => (object(part).type === 'output_text' ? text(object(part).text) : null))),
  )
  const reasoning = joined(
    items
      .filter((i) => i.type === 'reasoning')
      .map((i) => {
        // The reasoning's own text where the answer shows it, else its summary.
        const own = joined(list(i.content).map((part) => text(object(part).text)))
        return own ?? joined(list(i.summary).map((part) => text(object(part).text)))
      }),
  )
  const calls = items.filter((i) => i.type === 'function_call').map((i) => ({ name: text(i.name) ?? '', arguments: text(i.arguments) ?? '' }))
  return choice(content, reasoning, calls, responsesFinish(response, calls.length))
}

// ---- Streams ----------------------------------------------------------------------------------------

export interface SseEvent {
  event: string | null
  data: string
}

/**
 * Server-sent events from text that arrives in pieces: each event is given once its blank line has
 * arrived. Comments (`: OPENROUTER PROCESSING`) are skipped; lines may end in CR LF.
 */
export class SseParser {
  private pending = ''
  /** Where the search for the next blank line goes on from (what was searched holds none). */
  private searched = 0

  push(piece: string): SseEvent[] {
    this.pending += piece
    const events: SseEvent[] = []
    for (;;) {
      const end = this.boundary()
      if (end === null) break
      const block = this.pending.slice(0, end.at)
      this.pending = this.pending.slice(end.at + end.length)
      this.searched = 0
      const event = parseBlock(block)
      if (event) events.push(event)
    }
    return events
  }

  /** The last event, where the stream ended without its blank line. */
  end(): SseEvent[] {
    const block = this.pending
    this.pending = ''
    const event = block.trim() === '' ? null : parseBlock(block)
    return event ? [event] : []
  }

  private boundary(): { at: number; length: number } | null {
    const found = /\r?\n\r?\n|\r\r/.exec(this.pending.slice(this.searched))
    if (!found) {
      // A line end cut in two may complete with the next piece: search again from just before it.
      this.searched = Math.max(0, this.pending.length - 3)
      return null
    }
    return { at: this.searched + found.index, length: found[0].length }
  }
}

function parseBlock(block: string): SseEvent | null {
  let event: string | null = null
  const data: string[] = []
  for (const line of block.split(/\r?\n|\r/)) {
    if (line === '' || line.startsWith(':')) continue
    const colon = line.indexOf(':')
    const field = colon === -1 ? line : line.slice(0, colon)
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '')
    if (field === 'event') event = value
    else if (field === 'data') data.push(value)
  }
  return data.length === 0 ? null : { event, data: data.join('\n') }
}

/** One choice as its deltas build it up. */
interface Building {
  content: string | null
  reasoning: string | null
  calls: Map<number, { name: string; arguments: string }>
  finish: string | null
}

const building = (): Building => ({ content: null, reasoning: null, calls: new Map(), finish: null })

/** Text so far with a piece added; an empty piece (a stream's opening `content: ""`) adds none. */
const append = (to: string | null, piece: unknown): string | null => (typeof piece === 'string' && piece !== '' ? (to ?? '') + piece : to)

/**
 * A text answer's stream, read event by event as it arrives: what it says so far, its usage once told,
 * an error event where the upstream broke it part way, and when its tokens arrived (ms since the
 * request was sent), from which a recording's timing is taken.
 */
export class TextStreamReader {
  private readonly operation: TextOperation
  private readonly choices = new Map<number, Building>()
  private model = ''
  private provider: string | null = null
  private usage: ReadUsage | null = null
  /** The message's input tokens, as a Messages stream tells them first. */
  private promptTokens: number | null = null
  /** The whole answer, where the stream ends with it (the Responses API's response.completed). */
  private final: ReadText | null = null
  /** The message of an error event, where the upstream broke the answer part way. */
  error: string | null = null
  /** Whether the stream told its end (`[DONE]`, response.completed, message_stop). */
  finished = false
  private firstTokenAt: number | null = null
  private lastTokenAt: number | null = null
  /** Characters of text kept so far (contents, reasoning, arguments), at most MAX_FILE_BYTES. */
  private keptChars = 0
  /** More text arrived than a recording may hold: the rest is counted, not kept, and nothing is saved. */
  overflowed = false
  /** Tokens of the text not kept, for an answer that reports none. */
  droppedTokens = 0

  constructor(operation: TextOperation) {
    this.operation = operation
  }

  push(event: SseEvent, at: number): void {
    if (event.data === '[DONE]') {
      this.finished = true
      return
    }
    let data: Json
    try {
      data = object(JSON.parse(event.data))
    } catch {
      return // not JSON: relayed as it is, nothing to read
    }
    const tokens =
      this.operation === 'responses.create' ? this.responsesEvent(data) : this.operation === 'messages.create' ? this.messagesEvent(data) : this.chatEvent(data)
    if (tokens) {
      this.firstTokenAt ??= at
      this.lastTokenAt = at
    }
  }

  /**
   * `to` with `piece` added, while the text kept stays within what a recording may hold; past it the
   * piece is only counted. A long answer is relayed whole either way: this bounds what is kept of it.
   */
  private kept(to: string | null, piece: unknown): string | null {
    if (typeof piece !== 'string' || piece === '') return to
    if (this.overflowed || this.keptChars + piece.length > MAX_FILE_BYTES) {
      this.overflowed = true
      this.droppedTokens += countTokens(piece)
      return to
    }
    this.keptChars += piece.length
    return append(to, piece)
  }

  private choice(index: number): Building {
    let found = this.choices.get(index)
    if (!found) this.choices.set(index, (found = building()))
    return found
  }

  /** A chat or text completion chunk; true when it carried tokens. */
  private chatEvent(data: Json): boolean {
    if (data.error !== undefined) this.error = text(object(data.error).message) ?? 'error'
    this.model = text(data.model) ?? this.model
    this.provider = text(data.provider) ?? this.provider
    if (data.usage !== undefined && data.usage !== null) this.usage = usageOf(data.usage)
    let tokens = false
    for (const raw of list(data.choices)) {
      const c = object(raw)
      const into = this.choice(count(c.index))
      const delta = object(c.delta)
      const piece = this.operation === 'completions.create' ? c.text : delta.content
      if (typeof piece === 'string' && piece !== '') tokens = true
      into.content = this.kept(into.content, piece)
      if (typeof delta.reasoning === 'string' && delta.reasoning !== '') {
        tokens = true
        into.reasoning = this.kept(into.reasoning, delta.reasoning)
      }
      for (const rawCall of list(delta.tool_calls)) {
        const call = object(rawCall)
        const fn = object(call.function)
        const at = count(call.index)
        const known = into.calls.get(at) ?? { name: '', arguments: '' }
        if (typeof fn.name === 'string' && fn.name !== '') known.name = fn.name
        if (typeof fn.arguments === 'string' && fn.arguments !== '') {
          tokens = true
          known.arguments = this.kept(known.arguments, fn.arguments) ?? ''
        }
        into.calls.set(at, known)
      }
      const finish = text(c.finish_reason)
      if (finish !== null) into.finish = finish
    }
    return tokens
  }

  /** A Responses API event; true when it carried tokens. */
  private responsesEvent(data: Json): boolean {
    const into = this.choice(0)
    switch (data.type) {
      case 'response.created':
      case 'response.in_progress':
        this.model = text(object(data.response).model) ?? this.model
        this.provider = text(object(data.response).provider) ?? this.provider
        return false
      case 'response.output_text.delta':
        into.content = this.kept(into.content, data.delta)
        return true
      case 'response.reasoning_text.delta':
        into.reasoning = this.kept(into.reasoning, data.delta)
        return true
      case 'response.output_item.added': {
        const item = object(data.item)
        if (item.type === 'function_call') into.calls.set(count(data.output_index), { name: text(item.name) ?? '', arguments: '' })
        return false
      }
      case 'response.function_call_arguments.delta': {
        const call = into.calls.get(count(data.output_index))
        if (call && typeof data.delta === 'string') call.arguments = this.kept(call.arguments, data.delta) ?? ''
        return true
      }
      case 'response.completed':
      case 'response.incomplete':
        this.final = textFromJson('responses.create', data.response)
        // The whole answer again, in one event: held to the same bound as its deltas.
        if (textLength(this.final) > MAX_FILE_BYTES) this.overflowed = true
        this.finished = true
        return false
      case 'error':
      case 'response.failed':
        this.error ??= text(data.message) ?? text(object(object(data.response).error).message) ?? 'error'
        return false
      default:
        return false
    }
  }

  /** A Messages API event; true when it carried tokens. */
  private messagesEvent(data: Json): boolean {
    const into = this.choice(0)
    switch (data.type) {
      case 'message_start': {
        const message = object(data.message)
        this.model = text(message.model) ?? this.model
        this.provider = text(message.provider) ?? this.provider
        this.promptTokens = count(object(message.usage).input_tokens)
        return false
      }
      case 'content_block_start': {
        const block = object(data.content_block)
        if (block.type === 'tool_use') into.calls.set(count(data.index), { name: text(block.name) ?? '', arguments: '' })
        return false
      }
      case 'content_block_delta': {
        const delta = object(data.delta)
        if (delta.type === 'text_delta') into.content = this.kept(into.content, delta.text)
        else if (delta.type === 'thinking_delta') into.reasoning = this.kept(into.reasoning, delta.thinking)
        else if (delta.type === 'input_json_delta') {
          const call = into.calls.get(count(data.index))
          if (call && typeof delta.partial_json === 'string') call.arguments = this.kept(call.arguments, delta.partial_json) ?? ''
        } else return false
        return true
      }
      case 'message_delta': {
        into.finish = messagesFinish(object(data.delta).stop_reason)
        const usage = usageOf(data.usage)
        // message_delta's usage may leave the input tokens to message_start.
        this.usage = { ...usage, prompt_tokens: usage.prompt_tokens || (this.promptTokens ?? 0) }
        return false
      }
      case 'message_stop':
        this.finished = true
        return false
      case 'error':
        this.error = text(object(data.error).message) ?? 'error'
        return false
      default:
        return false
    }
  }

  /** What arrived, read as a text answer; with timing where its tokens came over a measurable span. */
  read(): ReadText {
    const choices = [...this.choices.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, c]) => {
        const calls = [...c.calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => ({ name: call.name, arguments: call.arguments || '{}' }))
        return choice(c.content, c.reasoning, calls, c.finish ?? (calls.length > 0 ? 'tool_calls' : 'stop'))
      })
    const built: ReadText = {
      model: this.model,
      provider: this.provider,
      choices,
      usage: this.usage ?? { prompt_tokens: this.promptTokens ?? 0, completion_tokens: 0, cost: null },
    }
    // A stream that ends with the whole answer (Responses) is read from it; its deltas gave the timing.
    const answer = this.final ? { ...this.final, model: this.final.model || this.model, provider: this.final.provider ?? this.provider } : built
    const timing = this.timing(answer.usage.completion_tokens)
    return timing ? { ...answer, timing } : answer
  }

  /** Tokens reported, or none: the caller counts what arrived. */
  get reportedUsage(): boolean {
    return this.usage !== null || this.final !== null
  }

  private timing(completionTokens: number): RecordedText['timing'] | null {
    if (this.firstTokenAt === null || this.lastTokenAt === null) return null
    const spanMs = this.lastTokenAt - this.firstTokenAt
    // Tokens that all came at once say nothing of the model's pace.
    if (completionTokens < 2 || spanMs < 1) return null
    return { first_token_ms: Math.round(this.firstTokenAt), tokens_per_second: Math.round(((completionTokens - 1) / (spanMs / 1000)) * 100) / 100 }
  }
}

/** Characters of what a text answer says: its contents, reasoning and tool-call arguments. */
const textLength = (answer: ReadText): number =>
  answer.choices.reduce(
    (n, c) =>
      n +
      (c.content?.length ?? 0) +
      (c.reasoning?.length ?? 0) +
      (c.tool_calls ?? []).reduce((m, t) => m + (typeof t.arguments === 'string' ? t.arguments.length : 0), 0),
    0,
  )

// ---- Other answers ----------------------------------------------------------------------------------

/** Whether a content type is JSON's (`application/json`, `application/problem+json`). */
export const isJson = (contentType: string): boolean => /^application\/(?:[\w.+-]+\+)?json\b/i.test(contentType.trim())

/**
 * A raw answer (embeddings, images, speech, a transcription) as the format keeps it: its JSON, or its
 * bytes as base64; `model` is the one the request named (the answer may name it as its provider does).
 * `keep` is false when it is larger than RAW_ANSWER_BYTES: relayed and billed, but not saved.
 */
export function rawFromAnswer(status: number, contentType: string, bytes: Buffer, model: string): { raw: ReadRaw; keep: boolean } {
  const keep = bytes.length <= RAW_ANSWER_BYTES
  const asBytes = (): ReadRaw => ({ status, content_type: contentType, base64: keep ? bytes.toString('base64') : '', model, provider: null, cost: null })
  if (!isJson(contentType)) return { raw: asBytes(), keep }
  let json: unknown
  try {
    json = JSON.parse(bytes.toString('utf8'))
  } catch {
    return { raw: asBytes(), keep }
  }
  const answer = object(json)
  return { raw: { status, content_type: contentType, json, model, provider: text(answer.provider), cost: usd(object(answer.usage).cost) }, keep }
}

/** The tokens a raw answer reports (embeddings' prompt tokens, a transcription's input and output). */
export const rawUsage = (raw: ReadRaw): ReadUsage => usageOf(object(raw.json).usage)
