// Reading an upstream gateway's answers into what a recording keeps (recordings-format.service.ts): a text
// answer (JSON or a stream of events) by what it says, per choice, with its model, provider, usage, cost
// and the timing of its stream, each surface's words read by the reader it registered with the text
// engine (`TextSurface.upstream`); any other answer (embeddings, images, speech, transcriptions) as the
// body the upstream sent. Readers are
// lenient: a field an answer lacks is left out or zero, never a throw, since the answer is relayed to
// the caller whatever it holds; whether it may be saved is the schema's check (recordings-recorder.service.ts).
import { countTokens } from '../../core/tokens.ts'
import { MAX_FILE_BYTES } from './recordings-files.service.ts'
import { RAW_ANSWER_BYTES, type RecordedRaw, type RecordedText } from './recordings-format.service.ts'
import {
  choice,
  object,
  text,
  usageOf,
  usd,
  type BuildingChoice,
  type Json,
  type ReadAnswer,
  type ReadUsage,
  type StreamReading,
  type UpstreamReader,
} from '../text/text-upstream.service.ts'

export type { ReadUsage } from '../text/text-upstream.service.ts'

export type ReadText = Omit<RecordedText, 'usage'> & { usage: ReadUsage }
export type ReadRaw = Omit<RecordedRaw, 'cost'> & { cost: number | null }

// ---- JSON answers -----------------------------------------------------------------------------------

/** A text surface's JSON answer, read by its own reader into what a recording keeps (without timing: nothing streamed). */
export const textFromJson = (reader: UpstreamReader, answer: unknown): ReadText => reader.json(answer)

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

type Building = BuildingChoice

const building = (): Building => ({ content: null, reasoning: null, calls: new Map(), finish: null })

/** Text so far with a piece added; an empty piece (a stream's opening `content: ""`) adds none. */
const append = (to: string | null, piece: unknown): string | null => (typeof piece === 'string' && piece !== '' ? (to ?? '') + piece : to)

/**
 * A text answer's stream, read event by event as it arrives: what it says so far, its usage once told,
 * an error event where the upstream broke it part way, and when its tokens arrived (ms since the
 * request was sent), from which a recording's timing is taken.
 */
export class TextStreamReader implements StreamReading {
  private readonly reader: UpstreamReader
  private readonly choices = new Map<number, Building>()
  model = ''
  provider: string | null = null
  usage: ReadUsage | null = null
  /** The message's input tokens, as a Messages stream tells them first. */
  promptTokens: number | null = null
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

  /** `reader`: the surface's own (its events' words). */
  constructor(reader: UpstreamReader) {
    this.reader = reader
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
    if (this.reader.event(data, this)) {
      this.firstTokenAt ??= at
      this.lastTokenAt = at
    }
  }

  /**
   * `to` with `piece` added, while the text kept stays within what a recording may hold; past it the
   * piece is only counted. A long answer is relayed whole either way: this bounds what is kept of it.
   */
  kept(to: string | null, piece: unknown): string | null {
    if (typeof piece !== 'string' || piece === '') return to
    if (this.overflowed || this.keptChars + piece.length > MAX_FILE_BYTES) {
      this.overflowed = true
      this.droppedTokens += countTokens(piece)
      return to
    }
    this.keptChars += piece.length
    return append(to, piece)
  }

  choice(index: number): Building {
    let found = this.choices.get(index)
    if (!found) this.choices.set(index, (found = building()))
    return found
  }

  whole(answer: ReadAnswer): void {
    this.final = answer
    // The whole answer again, in one event: held to the same bound as its deltas.
    if (textLength(this.final) > MAX_FILE_BYTES) this.overflowed = true
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
