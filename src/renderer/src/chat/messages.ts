// Anthropic's Messages API (POST /messages) read into the inspector's chat shapes: the request's
// system prompt and messages (text, images and documents as placeholders, tool_use blocks as tool
// calls, each tool_result as a tool message), and the answer (a `message`, Anthropic's error envelope
// `{type: "error", error: {type, message}}`, or the stream's events assembled: message_start,
// content_block_start/delta/stop, message_delta, message_stop, error) as one choice: its thinking,
// text and tool_use calls, with the stop reason. Pure (no DOM) and lenient.
import { cacheOf, errorOf, type Answer, type AnswerChoice, type GatewayError, type StreamedAnswer, type ToolCallView, type Usage } from './answer.ts'
import { describeUrl } from './describe.ts'
import type { ContentPart, MessageView, RequestView } from './request.ts'
import { type Json, isObject, num, readEvent, str } from './json.ts'

/** A tool_use block's input as the JSON text a tool call shows. */
const inputText = (input: unknown): string => (input === undefined || (isObject(input) && Object.keys(input).length === 0) ? '' : JSON.stringify(input))

// ---- The request ----

/** An image or document block's source, briefly: a URL, a file, or `image/png base64, 3 KB`. */
function sourceLabel(kind: string, block: Json): string {
  const source = isObject(block.source) ? block.source : null
  if (!source) return kind
  const url = str(source.url)
  if (url) return `${kind}: ${describeUrl(url)}`
  const file = str(source.file_id)
  if (file) return `${kind}: file ${file}`
  const data = str(source.data)
  const type = str(source.media_type)
  if (source.type === 'text' && data !== null) return `${kind}: text, ${data.length} characters`
  return data !== null ? `${kind}: ${describeUrl(`data:${type ?? ''};base64,${data}`)}` : kind
}

function partOf(block: Json): ContentPart {
  switch (block.type) {
    case 'text':
      return { kind: 'text', text: str(block.text) ?? '' }
    case 'image':
      return { kind: 'media', label: sourceLabel('image', block) }
    case 'document':
      return { kind: 'media', label: str(block.title) ? `document: ${str(block.title)}` : sourceLabel('document', block) }
    case 'thinking':
      return { kind: 'media', label: 'thinking' }
    case 'redacted_thinking':
      return { kind: 'media', label: 'redacted thinking' }
    default:
      return { kind: 'media', label: str(block.type) ?? 'block' }
  }
}

const message = (role: string, parts: ContentPart[], more: Partial<MessageView> = {}): MessageView => ({
  role,
  parts,
  toolCalls: [],
  toolCallId: null,
  name: null,
  ...more,
})

/**
 * One message as shown: its text and placeholders, its tool_use blocks as tool calls; each
 * tool_result block (they travel in user messages) becomes a tool message of its own, after it.
 */
function messagesOf(raw: Json): MessageView[] {
  const role = str(raw.role) ?? '(no role)'
  if (typeof raw.content === 'string') return [message(role, raw.content === '' ? [] : [{ kind: 'text', text: raw.content }])]
  if (!Array.isArray(raw.content)) return [message(role, [])]
  const own = message(role, [])
  const results: MessageView[] = []
  for (const block of raw.content.filter(isObject)) {
    if (block.type === 'tool_use' || block.type === 'server_tool_use') {
      own.toolCalls.push({ index: own.toolCalls.length, id: str(block.id), name: str(block.name) ?? '', arguments: inputText(block.input) })
    } else if (block.type === 'tool_result') {
      const content = block.content
      const parts: ContentPart[] =
        typeof content === 'string'
          ? content === ''
            ? []
            : [{ kind: 'text', text: content }]
          : Array.isArray(content)
            ? content.filter(isObject).map(partOf)
            : []
      if (block.is_error === true) parts.unshift({ kind: 'media', label: 'error' })
      results.push(message('tool', parts, { toolCallId: str(block.tool_use_id) }))
    } else own.parts.push(partOf(block))
  }
  return own.parts.length > 0 || own.toolCalls.length > 0 || results.length === 0 ? [own, ...results] : results
}

function toolChoiceOf(value: unknown): string | null {
  if (!isObject(value)) return null
  const type = str(value.type)
  const name = str(value.name)
  return type && name ? `${type} ${name}` : type
}

const SHOWN_OPTIONS = ['max_tokens', 'temperature', 'top_p', 'top_k', 'stop_sequences', 'thinking', 'metadata'] as const

/** A Messages request as shown: the system prompt (a string or text blocks) first, then the messages. */
export function messagesRequestView(body: unknown): RequestView {
  const view: RequestView = { model: null, models: [], messages: [], tools: [], toolChoice: null, stream: false, options: [] }
  if (!isObject(body)) return view
  view.model = str(body.model)
  if (Array.isArray(body.models)) view.models = body.models.filter((m): m is string => typeof m === 'string')
  view.stream = body.stream === true
  if (typeof body.system === 'string' && body.system !== '') view.messages.push(message('system', [{ kind: 'text', text: body.system }]))
  else if (Array.isArray(body.system)) view.messages.push(message('system', body.system.filter(isObject).map(partOf)))
  if (Array.isArray(body.messages)) view.messages.push(...body.messages.filter(isObject).flatMap(messagesOf))
  if (Array.isArray(body.tools)) view.tools = body.tools.filter(isObject).map((tool) => str(tool.name) ?? str(tool.type) ?? '?')
  view.toolChoice = toolChoiceOf(body.tool_choice)
  for (const name of SHOWN_OPTIONS) {
    const value = body[name]
    if (value === undefined || value === null) continue
    view.options.push([name, typeof value === 'string' ? value : JSON.stringify(value)])
  }
  return view
}

// ---- The answer ----

/** Anthropic's error envelope (`{type: "error", error: {type, message}}`), or the gateway's own. */
export function anthropicErrorOf(body: unknown): GatewayError | null {
  if (isObject(body) && body.type === 'error' && isObject(body.error)) {
    return { code: str(body.error.type), message: str(body.error.message) ?? JSON.stringify(body.error) }
  }
  return errorOf(body)
}

function usageOf(value: unknown, before: Usage | null = null): Usage | null {
  if (!isObject(value)) return before
  return {
    // message_delta's usage may leave the input out (it came with message_start).
    promptTokens: num(value.input_tokens) ?? before?.promptTokens ?? null,
    completionTokens: num(value.output_tokens) ?? before?.completionTokens ?? null,
    cost: num(value.cost) ?? before?.cost ?? null,
    ...(value.cache_read_input_tokens !== undefined || value.cache_creation_input_tokens !== undefined
      ? cacheOf(value.cache_read_input_tokens, value.cache_creation_input_tokens)
      : before?.cache && { cache: before.cache }),
  }
}

const append = (before: string | undefined | null, text: string): string => (before ? `${before}\n\n${text}` : text)

/** Content blocks as one choice: text joined, thinking as the reasoning, tool_use blocks as tool calls. */
function choiceOf(content: unknown[], stopReason: string | null): AnswerChoice {
  const choice: AnswerChoice = { index: 0, content: null, toolCalls: [], finishReason: stopReason }
  for (const block of content.filter(isObject)) {
    switch (block.type) {
      case 'text':
        choice.content = append(choice.content, str(block.text) ?? '')
        break
      case 'thinking':
        choice.reasoning = append(choice.reasoning, str(block.thinking) ?? '')
        break
      case 'redacted_thinking':
        choice.reasoning = append(choice.reasoning, '(redacted thinking)')
        break
      case 'tool_use':
      case 'server_tool_use':
        choice.toolCalls.push({ index: choice.toolCalls.length, id: str(block.id), name: str(block.name) ?? '', arguments: inputText(block.input) })
        break
      default:
        if (typeof block.type === 'string') choice.attachments = [...(choice.attachments ?? []), block.type.replaceAll('_', ' ')]
    }
  }
  return choice
}

/** A message sent whole, or an error envelope. */
export function messagesAnswerFromJson(body: unknown): Answer {
  const answer: Answer = { id: null, model: null, provider: null, choices: [], usage: null, error: anthropicErrorOf(body) }
  if (!isObject(body) || body.type === 'error') return answer
  answer.id = str(body.id)
  answer.model = str(body.model)
  answer.provider = str(body.provider)
  answer.usage = usageOf(body.usage)
  if (Array.isArray(body.content)) answer.choices = [choiceOf(body.content, str(body.stop_reason))]
  return answer
}

/** One content block as the stream builds it. */
type Block = { type: 'text'; text: string } | { type: 'thinking'; text: string } | { type: 'tool_use'; call: ToolCallView; input: string } | { type: string }

/** Builds a message from its stream's events (each event's data carries its `type`). */
export class MessagesStreamAssembler {
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
  private readonly blocks = new Map<number, Block>()
  private stopReason: string | null = null
  private started = false

  push(data: string): void {
    // Anthropic's streams end with message_stop; the gateway may add a [DONE] after it.
    const event = readEvent(this.answer, data)
    if (!event) return
    if (typeof event.type !== 'string') {
      this.answer.unreadable++
      return
    }
    switch (event.type) {
      case 'message_start': {
        const head = isObject(event.message) ? event.message : {}
        this.answer.id ??= str(head.id)
        this.answer.model ??= str(head.model)
        this.answer.provider ??= str(head.provider)
        // Its output_tokens is a placeholder (0 or 1) until message_delta: only the input is taken.
        const input = isObject(head.usage) ? num(head.usage.input_tokens) : null
        if (input !== null) this.answer.usage = { promptTokens: input, completionTokens: null, cost: null }
        this.started = true
        break
      }
      case 'content_block_start': {
        const block = isObject(event.content_block) ? event.content_block : {}
        const index = num(event.index) ?? this.blocks.size
        const type = str(block.type) ?? 'block'
        if (type === 'text') this.blocks.set(index, { type, text: str(block.text) ?? '' })
        else if (type === 'thinking') this.blocks.set(index, { type, text: str(block.thinking) ?? '' })
        else if (type === 'redacted_thinking') this.blocks.set(index, { type: 'thinking', text: '(redacted thinking)' })
        else if (type === 'tool_use' || type === 'server_tool_use') {
          const call = { index: 0, id: str(block.id), name: str(block.name) ?? '', arguments: '' }
          this.blocks.set(index, { type: 'tool_use', call, input: inputText(block.input) })
        } else this.blocks.set(index, { type })
        this.started = true
        break
      }
      case 'content_block_delta':
        this.delta(num(event.index) ?? 0, isObject(event.delta) ? event.delta : {})
        break
      case 'message_delta':
        if (isObject(event.delta)) this.stopReason = str(event.delta.stop_reason) ?? this.stopReason
        this.answer.usage = usageOf(event.usage, this.answer.usage)
        break
      case 'message_stop':
        this.answer.done = true
        break
      case 'error':
        this.answer.error = anthropicErrorOf(event)
        break
    }
  }

  private delta(index: number, delta: Json): void {
    const block = this.blocks.get(index)
    if (!block) return
    if ('text' in block && (delta.type === 'text_delta' || delta.type === 'thinking_delta')) {
      block.text += str(delta.text) ?? str(delta.thinking) ?? ''
    } else if ('call' in block && delta.type === 'input_json_delta') {
      block.call.arguments += str(delta.partial_json) ?? ''
    }
  }

  snapshot(): StreamedAnswer {
    const choices: AnswerChoice[] = []
    if (this.started) {
      const choice: AnswerChoice = { index: 0, content: null, toolCalls: [], finishReason: this.stopReason }
      for (const [, block] of [...this.blocks.entries()].sort(([a], [b]) => a - b)) {
        if ('call' in block) {
          // A tool_use block whose input came whole at its start, with no deltas, shows that input.
          choice.toolCalls.push({ ...block.call, index: choice.toolCalls.length, arguments: block.call.arguments || block.input })
        } else if ('text' in block) {
          if (block.type === 'thinking') choice.reasoning = append(choice.reasoning, block.text)
          else choice.content = append(choice.content, block.text)
        } else choice.attachments = [...(choice.attachments ?? []), block.type.replaceAll('_', ' ')]
      }
      choices.push(choice)
    }
    return { ...this.answer, choices, usage: this.answer.usage && { ...this.answer.usage }, error: this.answer.error && { ...this.answer.error } }
  }
}
