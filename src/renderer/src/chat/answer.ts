// A completion's answer as one shape, however it came: a JSON body (`chat.completion`,
// `text_completion`, or an error envelope) or a stream of chunks assembled (content deltas joined,
// tool-call argument deltas joined per call index, the finish reason, the usage chunk, an error chunk).
// Pure (no DOM): the Requests view reads recorded answers with it, the Playground live ones. The
// Responses and Messages APIs' answers are read into the same shape (responses.ts, messages.ts).
import { describeUrl } from './describe.ts'
import { type Json, isObject, num, readEvent, str } from './json.ts'

export interface ToolCallView {
  /** The call's place in its message (streams address argument pieces by it). */
  index: number
  id: string | null
  name: string
  /** The arguments as sent: JSON text, possibly cut short when the stream was. */
  arguments: string
}

export interface AnswerChoice {
  index: number
  /** The text (a chat message's content, or a text completion's text); null when none came. */
  content: string | null
  toolCalls: ToolCallView[]
  finishReason: string | null
  /** The model's reasoning (chat's `reasoning`, a Responses reasoning item, Anthropic's thinking), when it came. */
  reasoning?: string
  /** A Responses reasoning item's summary, when it came. */
  reasoningSummary?: string
  /** A refusal the model gave instead of text (a Responses `refusal` part). */
  refusal?: string
  /** Placeholders for what else the answer carried: chat's `message.images`, a Responses image generation or web search. */
  attachments?: string[]
}

export interface GatewayError {
  code: number | string | null
  message: string
}

export interface Usage {
  promptTokens: number | null
  completionTokens: number | null
  /** USD charged (`usage.cost`). */
  cost: number | null
  /** Prompt tokens read from the prompt cache and written to it; absent where neither happened. */
  cache?: { read: number; written: number }
}

/** The prompt cache's counts as a usage carries them: nothing where both are none (or absent). */
export function cacheOf(read: unknown, written: unknown): Pick<Usage, 'cache'> {
  const r = typeof read === 'number' ? read : 0
  const w = typeof written === 'number' ? written : 0
  return r + w > 0 ? { cache: { read: r, written: w } } : {}
}

export interface Answer {
  id: string | null
  model: string | null
  provider: string | null
  /** By index: `n` choices give several. */
  choices: AnswerChoice[]
  usage: Usage | null
  /** The gateway's error: a JSON error body, or a stream's error chunk. */
  error: GatewayError | null
}

export interface StreamedAnswer extends Answer {
  /** The stream's last event arrived (`data: [DONE]`, or the API's own end); a stream that ended without it was cut. */
  done: boolean
  /** Events received (the chunks, [DONE] included). */
  events: number
  /** Events whose data was not JSON. */
  unreadable: number
}

/** The error an answer carries (`{"error": {"code", "message"}}`), or null. */
export function errorOf(body: unknown): GatewayError | null {
  if (!isObject(body) || !isObject(body.error)) return null
  const { code, message } = body.error
  return {
    code: typeof code === 'number' || typeof code === 'string' ? code : null,
    message: str(message) ?? JSON.stringify(body.error),
  }
}

function usageOf(value: unknown): Usage | null {
  if (!isObject(value)) return null
  const details = isObject(value.prompt_tokens_details) ? value.prompt_tokens_details : {}
  return {
    promptTokens: num(value.prompt_tokens),
    completionTokens: num(value.completion_tokens),
    cost: num(value.cost),
    ...cacheOf(details.cached_tokens, details.cache_write_tokens),
  }
}

function toolCallsOf(value: unknown): ToolCallView[] {
  if (!Array.isArray(value)) return []
  return value.filter(isObject).map((call, i) => {
    const fn = isObject(call.function) ? call.function : {}
    return { index: num(call.index) ?? i, id: str(call.id), name: str(fn.name) ?? '', arguments: str(fn.arguments) ?? '' }
  })
}

/** Placeholders for the images a chat message carries (`images: [{type: "image_url", image_url: {url}}]`). */
function imageLabels(value: unknown): string[] {
  if (!Array.isArray(value)) return []
  return value.filter(isObject).map((image) => {
    const url = isObject(image.image_url) ? str(image.image_url.url) : null
    return url ? `image: ${describeUrl(url)}` : 'image'
  })
}

/** A chat message's (or delta's) reasoning and images, added to its choice where they came. */
function addExtras(choice: AnswerChoice, message: Json): void {
  const reasoning = str(message.reasoning)
  if (reasoning !== null && reasoning !== '') choice.reasoning = (choice.reasoning ?? '') + reasoning
  const images = imageLabels(message.images)
  if (images.length > 0) choice.attachments = [...(choice.attachments ?? []), ...images]
}

/** An answer sent whole, as JSON: a chat completion, a text completion, or an error. */
export function answerFromJson(body: unknown): Answer {
  const answer: Answer = { id: null, model: null, provider: null, choices: [], usage: null, error: errorOf(body) }
  if (!isObject(body)) return answer
  answer.id = str(body.id)
  answer.model = str(body.model)
  answer.provider = str(body.provider)
  answer.usage = usageOf(body.usage)
  if (Array.isArray(body.choices)) {
    answer.choices = body.choices.filter(isObject).map((choice, i) => {
      const message = isObject(choice.message) ? choice.message : null
      const view: AnswerChoice = {
        index: num(choice.index) ?? i,
        content: message ? str(message.content) : str(choice.text),
        toolCalls: message ? toolCallsOf(message.tool_calls) : [],
        finishReason: str(choice.finish_reason),
      }
      if (message) addExtras(view, message)
      return view
    })
  }
  return answer
}

/** Builds an answer from a stream's events, one `data:` payload at a time. */
export class StreamAssembler {
  private readonly answer: StreamedAnswer = {
    id: null,
    model: null,
    provider: null,
    choices: [],
    usage: null,
    error: null,
    done: false,
    events: 0,
    unreadable: 0,
  }
  private readonly byIndex = new Map<number, AnswerChoice>()

  /** One event's data: a chunk's JSON, or `[DONE]`. */
  push(data: string): void {
    const chunk = readEvent(this.answer, data)
    if (!chunk) return
    this.answer.id ??= str(chunk.id)
    this.answer.model ??= str(chunk.model)
    this.answer.provider ??= str(chunk.provider)
    const usage = usageOf(chunk.usage)
    if (usage) this.answer.usage = usage
    const error = errorOf(chunk)
    if (error) this.answer.error = error
    if (Array.isArray(chunk.choices)) for (const choice of chunk.choices) if (isObject(choice)) this.choice(choice)
  }

  private choice(chunk: Json): void {
    const index = num(chunk.index) ?? 0
    let choice = this.byIndex.get(index)
    if (!choice) {
      choice = { index, content: null, toolCalls: [], finishReason: null }
      this.byIndex.set(index, choice)
    }
    const delta = isObject(chunk.delta) ? chunk.delta : null
    // A chat chunk carries a delta; a text completion's chunk its text.
    const piece = delta ? str(delta.content) : str(chunk.text)
    if (piece !== null) choice.content = (choice.content ?? '') + piece
    if (delta) addExtras(choice, delta)
    if (delta && Array.isArray(delta.tool_calls)) {
      for (const part of delta.tool_calls) {
        if (!isObject(part)) continue
        const callIndex = num(part.index) ?? choice.toolCalls.length
        let call = choice.toolCalls.find((c) => c.index === callIndex)
        if (!call) {
          call = { index: callIndex, id: null, name: '', arguments: '' }
          choice.toolCalls.push(call)
        }
        const fn = isObject(part.function) ? part.function : {}
        call.id ??= str(part.id)
        // The name comes whole in the call's first piece; some providers split it, so pieces are joined.
        call.name += str(fn.name) ?? ''
        call.arguments += str(fn.arguments) ?? ''
      }
    }
    const finish = str(chunk.finish_reason)
    if (finish !== null) choice.finishReason = finish
  }

  /** What has arrived so far, as a value of its own (the assembler goes on changing). */
  snapshot(): StreamedAnswer {
    const choices = [...this.byIndex.values()]
      .sort((a, b) => a.index - b.index)
      .map((c) => ({
        ...c,
        toolCalls: [...c.toolCalls].sort((a, b) => a.index - b.index).map((t) => ({ ...t })),
        ...(c.attachments && { attachments: [...c.attachments] }),
      }))
    return { ...this.answer, choices, usage: this.answer.usage && { ...this.answer.usage }, error: this.answer.error && { ...this.answer.error } }
  }
}

/** The distinct finish reasons of the choices, in order ("stop", or "tool_calls, stop" for several). */
export const finishReasons = (answer: Answer): string | null => {
  const reasons = [...new Set(answer.choices.map((c) => c.finishReason).filter((r): r is string => r !== null))]
  return reasons.length > 0 ? reasons.join(', ') : null
}
