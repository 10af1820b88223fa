// What a chat or text completion request asked, as the inspector shows it: the messages with their
// roles (text parts, a placeholder for each image, audio, file or video part, an assistant's tool
// calls, the call a tool result answers), the tools offered and the options that shape the answer.
// Pure (no DOM), and lenient: the gateway has already said what was wrong with a bad request.
import { type ToolCallView } from './answer.ts'
import { describeUrl } from './describe.ts'
import { type Json, isObject, str } from './json.ts'

export type ContentPart = { kind: 'text'; text: string } | { kind: 'media'; label: string }

export interface MessageView {
  /** system, developer, user, assistant, tool; `prompt` for a text completion's prompt. */
  role: string
  parts: ContentPart[]
  toolCalls: ToolCallView[]
  /** For a tool result: the call it answers. */
  toolCallId: string | null
  name: string | null
}

export interface RequestView {
  model: string | null
  /** The fallback list, when one was sent. */
  models: string[]
  messages: MessageView[]
  /** Names of the tools offered. */
  tools: string[]
  /** As sent: "auto", "required", "none", or the named function. */
  toolChoice: string | null
  stream: boolean
  /** Options worth seeing beside the conversation (temperature, max_tokens, seed, n, stop...). */
  options: Array<[name: string, value: string]>
}

function mediaLabel(part: Json): string {
  const type = str(part.type) ?? 'part'
  switch (type) {
    case 'image_url': {
      const url = isObject(part.image_url) ? str(part.image_url.url) : null
      return url ? `image: ${describeUrl(url)}` : 'image'
    }
    case 'input_audio': {
      const format = isObject(part.input_audio) ? str(part.input_audio.format) : null
      return format ? `audio (${format})` : 'audio'
    }
    case 'file': {
      const name = isObject(part.file) ? str(part.file.filename) : null
      return name ? `file: ${name}` : 'file'
    }
    case 'video_url':
    case 'input_video':
      return 'video'
    default:
      return type
  }
}

function partsOf(content: unknown): ContentPart[] {
  if (typeof content === 'string') return content === '' ? [] : [{ kind: 'text', text: content }]
  if (!Array.isArray(content)) return []
  return content
    .filter(isObject)
    .map((part) => (part.type === 'text' ? { kind: 'text', text: str(part.text) ?? '' } : { kind: 'media', label: mediaLabel(part) }))
}

function toolCallsOf(value: unknown): ToolCallView[] {
  if (!Array.isArray(value)) return []
  return value.filter(isObject).map((call, i) => {
    const fn = isObject(call.function) ? call.function : {}
    return { index: i, id: str(call.id), name: str(fn.name) ?? '', arguments: str(fn.arguments) ?? '' }
  })
}

function toolChoiceOf(value: unknown): string | null {
  if (typeof value === 'string') return value
  if (isObject(value) && isObject(value.function) && typeof value.function.name === 'string') return `function ${value.function.name}`
  return null
}

const SHOWN_OPTIONS = ['temperature', 'top_p', 'max_tokens', 'max_completion_tokens', 'seed', 'n', 'stop', 'response_format', 'user'] as const

/** A chat completion's body (`messages`) or a text completion's (`prompt`), as shown. */
export function requestView(body: unknown): RequestView {
  const view: RequestView = { model: null, models: [], messages: [], tools: [], toolChoice: null, stream: false, options: [] }
  if (!isObject(body)) return view
  view.model = str(body.model)
  if (Array.isArray(body.models)) view.models = body.models.filter((m): m is string => typeof m === 'string')
  view.stream = body.stream === true
  if (Array.isArray(body.messages)) {
    view.messages = body.messages.filter(isObject).map((message) => ({
      role: str(message.role) ?? '(no role)',
      parts: partsOf(message.content),
      toolCalls: toolCallsOf(message.tool_calls),
      toolCallId: str(message.tool_call_id),
      name: str(message.name),
    }))
  } else if (body.prompt !== undefined) {
    const prompt = Array.isArray(body.prompt) ? body.prompt[0] : body.prompt
    view.messages = [{ role: 'prompt', parts: partsOf(str(prompt) ?? ''), toolCalls: [], toolCallId: null, name: null }]
  }
  if (Array.isArray(body.tools)) {
    view.tools = body.tools.filter(isObject).map((tool) => (isObject(tool.function) ? (str(tool.function.name) ?? '?') : '?'))
  }
  view.toolChoice = toolChoiceOf(body.tool_choice)
  for (const name of SHOWN_OPTIONS) {
    const value = body[name]
    if (value === undefined || value === null) continue
    view.options.push([name, typeof value === 'string' ? value : JSON.stringify(value)])
  }
  return view
}
