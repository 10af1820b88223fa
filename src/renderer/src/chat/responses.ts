// The Responses API (POST /responses) read into the inspector's chat shapes: the request's
// instructions and input items (messages with their parts, function calls and their outputs,
// reasoning) as a conversation, and the answer (a `response` object, an error envelope, or the named
// events of a stream assembled) as one choice: its reasoning, text, refusal and function calls, with
// the response's status (and why it is incomplete) as the finish reason. Pure (no DOM) and lenient.
import { cacheOf, errorOf, type Answer, type AnswerChoice, type GatewayError, type StreamedAnswer, type ToolCallView, type Usage } from './answer.ts'
import { describeUrl } from './describe.ts'
import type { ContentPart, MessageView, RequestView } from './request.ts'
import { type Json, isObject, num, readEvent, str } from './json.ts'

// ---- The request ----

function partOf(part: Json): ContentPart {
  switch (part.type) {
    case 'input_text':
    case 'output_text':
    case 'text':
      return { kind: 'text', text: str(part.text) ?? '' }
    case 'refusal':
      return { kind: 'text', text: `(refusal) ${str(part.refusal) ?? ''}` }
    case 'input_image': {
      const url = str(part.image_url)
      return { kind: 'media', label: url ? `image: ${describeUrl(url)}` : str(part.file_id) ? `image: file ${str(part.file_id)}` : 'image' }
    }
    case 'input_file': {
      const name = str(part.filename) ?? str(part.file_id) ?? (str(part.file_url) && describeUrl(str(part.file_url)!))
      return { kind: 'media', label: name ? `file: ${name}` : 'file' }
    }
    case 'input_audio': {
      const format = isObject(part.input_audio) ? str(part.input_audio.format) : null
      return { kind: 'media', label: format ? `audio (${format})` : 'audio' }
    }
    default:
      return { kind: 'media', label: str(part.type) ?? 'part' }
  }
}

function partsOf(content: unknown): ContentPart[] {
  if (typeof content === 'string') return content === '' ? [] : [{ kind: 'text', text: content }]
  if (!Array.isArray(content)) return []
  return content.filter(isObject).map(partOf)
}

const message = (role: string, parts: ContentPart[], more: Partial<MessageView> = {}): MessageView => ({
  role,
  parts,
  toolCalls: [],
  toolCallId: null,
  name: null,
  ...more,
})

/** One input item as a message: a message, a function call (the assistant's), its output (a tool result), or a placeholder. */
function itemMessage(item: Json, index: number): MessageView {
  const type = str(item.type) ?? 'message'
  switch (type) {
    case 'message':
      return message(str(item.role) ?? '(no role)', partsOf(item.content))
    case 'function_call':
    case 'custom_tool_call':
      return message('assistant', [], {
        toolCalls: [
          {
            index,
            id: str(item.call_id),
            name: str(item.name) ?? '',
            arguments: str(item.arguments) ?? str(item.input) ?? '',
          },
        ],
      })
    case 'function_call_output':
    case 'custom_tool_call_output':
      return message('tool', partsOf(item.output), { toolCallId: str(item.call_id) })
    case 'reasoning': {
      const summary = Array.isArray(item.summary)
        ? item.summary
            .filter(isObject)
            .map((s) => str(s.text) ?? '')
            .join('\n')
        : ''
      return message('assistant', [{ kind: 'media', label: summary ? `reasoning: ${summary}` : 'reasoning' }])
    }
    default:
      return message(str(item.role) ?? 'item', [{ kind: 'media', label: type }])
  }
}

function toolName(tool: Json): string {
  // Function and custom tools carry their name; the server tools (web_search, image_generation...) their type.
  return str(tool.name) ?? str(tool.type) ?? '?'
}

function toolChoiceOf(value: unknown): string | null {
  if (typeof value === 'string') return value
  if (!isObject(value)) return null
  const name = str(value.name)
  return name ? `${str(value.type) ?? 'function'} ${name}` : str(value.type)
}

const SHOWN_OPTIONS = [
  'temperature',
  'top_p',
  'max_output_tokens',
  'max_tool_calls',
  'reasoning',
  'text',
  'previous_response_id',
  'parallel_tool_calls',
  'user',
] as const

/** A Responses request as shown: `instructions` first (as their own message), then the input items in order. */
export function responsesRequestView(body: unknown): RequestView {
  const view: RequestView = { model: null, models: [], messages: [], tools: [], toolChoice: null, stream: false, options: [] }
  if (!isObject(body)) return view
  view.model = str(body.model)
  if (Array.isArray(body.models)) view.models = body.models.filter((m): m is string => typeof m === 'string')
  view.stream = body.stream === true
  const instructions = str(body.instructions)
  if (instructions) view.messages.push(message('instructions', [{ kind: 'text', text: instructions }]))
  if (typeof body.input === 'string') view.messages.push(message('user', partsOf(body.input)))
  else if (Array.isArray(body.input)) view.messages.push(...body.input.filter(isObject).map(itemMessage))
  if (Array.isArray(body.tools)) view.tools = body.tools.filter(isObject).map(toolName)
  view.toolChoice = toolChoiceOf(body.tool_choice)
  for (const name of SHOWN_OPTIONS) {
    const value = body[name]
    if (value === undefined || value === null) continue
    view.options.push([name, typeof value === 'string' ? value : JSON.stringify(value)])
  }
  return view
}

// ---- The answer ----

function usageOf(value: unknown): Usage | null {
  if (!isObject(value)) return null
  const details = isObject(value.input_tokens_details) ? value.input_tokens_details : {}
  return {
    promptTokens: num(value.input_tokens),
    completionTokens: num(value.output_tokens),
    cost: num(value.cost),
    ...cacheOf(details.cached_tokens, details.cache_write_tokens),
  }
}

/** The status as a finish reason: `completed`, or `incomplete (max_output_tokens)`. */
function statusOf(response: Json): string | null {
  const status = str(response.status)
  if (status === null) return null
  const reason = isObject(response.incomplete_details) ? str(response.incomplete_details.reason) : null
  return reason ? `${status} (${reason})` : status
}

/** A failed response's error (`response.error: {code, message}`), or the gateway's envelope. */
function responseError(body: Json): GatewayError | null {
  if (isObject(body.error) && body.object === 'response') {
    const { code, message } = body.error
    return { code: typeof code === 'string' || typeof code === 'number' ? code : null, message: str(message) ?? JSON.stringify(body.error) }
  }
  return errorOf(body)
}

const textOf = (parts: unknown, type: string, field = 'text'): string =>
  Array.isArray(parts)
    ? parts
        .filter(isObject)
        .filter((p) => p.type === type)
        .map((p) => str(p[field]) ?? '')
        .join('')
    : ''

const append = (before: string | undefined | null, text: string, separator = '\n\n'): string => (before ? `${before}${separator}${text}` : text)

/** A placeholder for an output item with no text of its own: an image generated, a web search... */
function attachmentOf(item: Json): string {
  const type = str(item.type) ?? 'item'
  if (type === 'image_generation_call') return 'image generation'
  const query = isObject(item.action) ? str(item.action.query) : null
  return query ? `${type.replace(/_call$/, '').replaceAll('_', ' ')}: ${query}` : type.replace(/_call$/, '').replaceAll('_', ' ')
}

/** The output items of a response, as one choice (a response has one answer). */
function choiceOf(output: unknown[], status: string | null): AnswerChoice {
  const choice: AnswerChoice = { index: 0, content: null, toolCalls: [], finishReason: status }
  for (const item of output.filter(isObject)) {
    switch (item.type) {
      case 'message': {
        const text = textOf(item.content, 'output_text')
        const refusal = textOf(item.content, 'refusal', 'refusal')
        if (text) choice.content = append(choice.content, text)
        if (refusal) choice.refusal = append(choice.refusal, refusal)
        break
      }
      case 'reasoning': {
        const text = textOf(item.content, 'reasoning_text')
        const summary = textOf(item.summary, 'summary_text')
        if (text) choice.reasoning = append(choice.reasoning, text)
        if (summary) choice.reasoningSummary = append(choice.reasoningSummary, summary)
        break
      }
      case 'function_call':
      case 'custom_tool_call':
        choice.toolCalls.push({
          index: choice.toolCalls.length,
          id: str(item.call_id),
          name: str(item.name) ?? '',
          arguments: str(item.arguments) ?? str(item.input) ?? '',
        })
        break
      default:
        if (typeof item.type === 'string') choice.attachments = [...(choice.attachments ?? []), attachmentOf(item)]
    }
  }
  return choice
}

/** A response sent whole: the `response` object, or an error envelope. */
export function responsesAnswerFromJson(body: unknown): Answer {
  const answer: Answer = { id: null, model: null, provider: null, choices: [], usage: null, error: isObject(body) ? responseError(body) : null }
  if (!isObject(body)) return answer
  answer.id = str(body.id)
  answer.model = str(body.model)
  answer.provider = str(body.provider)
  answer.usage = usageOf(body.usage)
  if (Array.isArray(body.output)) {
    const choice = choiceOf(body.output, statusOf(body))
    // A response with no output at all (a failed one) has no choice to show.
    if (body.output.length > 0 || choice.finishReason !== 'failed') answer.choices = [choice]
  }
  return answer
}

/** The events that end a response's stream: after one, only `data: [DONE]` may follow. */
const FINAL_EVENTS = new Set(['response.completed', 'response.incomplete', 'response.failed'])

type TextField = 'content' | 'refusal' | 'reasoning' | 'reasoningSummary'

/** Builds a response from its stream's named events (each event's data carries its `type`). */
export class ResponsesStreamAssembler {
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
  private readonly choice: AnswerChoice = { index: 0, content: null, toolCalls: [], finishReason: null }
  /** Output items by index, as added: their type and the function call each builds. */
  private readonly items = new Map<number, { type: string; call: ToolCallView | null }>()
  /** The output item each text field was last written by. */
  private readonly lastItem = new Map<TextField, number>()
  private started = false
  /** The whole response a final event carried: its output replaces the pieces. */
  private final: Answer | null = null

  push(data: string): void {
    const event = readEvent(this.answer, data)
    if (!event) return
    if (typeof event.type !== 'string') {
      this.answer.unreadable++
      return
    }
    this.event(event.type, event)
  }

  private event(type: string, event: Json): void {
    if (isObject(event.response)) {
      const response = event.response
      this.answer.id ??= str(response.id)
      this.answer.model ??= str(response.model)
      this.answer.provider ??= str(response.provider)
      if (FINAL_EVENTS.has(type)) {
        this.final = responsesAnswerFromJson(response)
        this.answer.usage = this.final.usage
        this.answer.error ??= this.final.error
        this.choice.finishReason = statusOf(response)
        this.answer.done = true
      }
      return
    }
    const outputIndex = num(event.output_index) ?? 0
    switch (type) {
      case 'error': {
        // The error event carries its code and message at the top (OpenAI's ResponseErrorEvent).
        const code = event.code
        this.answer.error = {
          code: typeof code === 'string' || typeof code === 'number' ? code : null,
          message: str(event.message) ?? errorOf(event)?.message ?? JSON.stringify(event),
        }
        break
      }
      case 'response.output_item.added': {
        const item = isObject(event.item) ? event.item : {}
        const itemType = str(item.type) ?? 'item'
        let call: ToolCallView | null = null
        if (itemType === 'function_call' || itemType === 'custom_tool_call') {
          call = { index: this.choice.toolCalls.length, id: str(item.call_id), name: str(item.name) ?? '', arguments: str(item.arguments) ?? '' }
          this.choice.toolCalls.push(call)
        }
        this.items.set(outputIndex, { type: itemType, call })
        this.started = true
        break
      }
      case 'response.output_text.delta':
        this.write('content', event)
        break
      case 'response.refusal.delta':
        this.write('refusal', event)
        break
      case 'response.reasoning_text.delta':
        this.write('reasoning', event)
        break
      case 'response.reasoning_summary_text.delta':
        this.write('reasoningSummary', event)
        break
      case 'response.function_call_arguments.delta':
      case 'response.custom_tool_call_input.delta': {
        const call = this.items.get(outputIndex)?.call
        if (call) call.arguments += str(event.delta) ?? ''
        break
      }
      case 'response.function_call_arguments.done': {
        // The done event has the whole arguments: they replace the pieces (some may have been batched away).
        const call = this.items.get(outputIndex)?.call
        const args = str(event.arguments)
        if (call && args !== null) call.arguments = args
        break
      }
    }
  }

  /** A text delta of one output item; the text of a second item of the same kind starts a new paragraph. */
  private write(field: TextField, event: Json): void {
    const delta = str(event.delta)
    if (delta === null) return
    const item = num(event.output_index) ?? 0
    const before = this.choice[field] ?? ''
    const last = this.lastItem.get(field)
    this.choice[field] = before + (before !== '' && last !== undefined && last !== item ? '\n\n' : '') + delta
    this.lastItem.set(field, item)
    this.started = true
  }

  snapshot(): StreamedAnswer {
    // The final event's whole response is the answer; before it, what the pieces built.
    const finalChoice = this.final?.choices[0]
    const choice = finalChoice ?? this.choice
    const choices: AnswerChoice[] =
      this.started || finalChoice ? [{ ...choice, finishReason: this.choice.finishReason, toolCalls: choice.toolCalls.map((t) => ({ ...t })) }] : []
    return { ...this.answer, choices, usage: this.answer.usage && { ...this.answer.usage }, error: this.answer.error && { ...this.answer.error } }
  }
}
