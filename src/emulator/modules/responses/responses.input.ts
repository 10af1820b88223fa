// The parts of a Responses request with several shapes: `input` (a string, or items: messages with
// content as a string or parts, function and custom tool calls and their outputs for a tool round trip, reasoning
// passed back), `tools`, `tool_choice` and `text.format`, read into the text engine's messages, tools
// and formats. Each problem is a 400 naming its place (`input[2].content[0].text`, `tools[0].parameters`),
// found before anything is billed.
import { fieldError } from '../../core/errors.ts'
import { checkSchema, checkToolName, type Message, type ResponseFormat, type Tool, type ToolCall, type ToolChoice } from '../text/text.input.ts'
import { checkServerTool, RESPONSES_SERVER_TOOLS } from '../text/text-tools.input.ts'
import { MAX_INPUT_ITEMS, MAX_METADATA_KEY_CHARS, MAX_METADATA_KEYS, MAX_TEXT_CHARS } from './responses.schemas.ts'

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value)

const MESSAGE_ROLES = ['system', 'developer', 'user', 'assistant'] as const
type MessageRole = (typeof MESSAGE_ROLES)[number]

/** Item types the emulator reads into the conversation. */
const ITEM_TYPES = ['message', 'function_call', 'function_call_output', 'custom_tool_call', 'custom_tool_call_output', 'reasoning'] as const

/**
 * The other input item types of the real document's `input` union (server tools' calls and outputs,
 * MCP, compaction, references...), with the fields it requires: passed back by a client, each is checked
 * for them and kept out of the prompt (the emulator runs none of these tools).
 */
export const PASSED_BACK_ITEMS: ReadonlyMap<string, readonly string[]> = new Map([
  ['apply_patch_call', ['call_id', 'status', 'operation']],
  ['apply_patch_call_output', ['call_id', 'status']],
  ['web_search_call', ['id', 'status']],
  ['file_search_call', ['id', 'queries', 'status']],
  ['image_generation_call', ['id', 'status']],
  ['code_interpreter_call', ['id', 'status']],
  ['computer_call', ['call_id', 'status', 'pending_safety_checks']],
  // Not in the real document's input union, but OpenAI's answer to a computer_call (the emulator gives one when forced).
  ['computer_call_output', ['call_id', 'output']],
  ['openrouter:datetime', ['status', 'datetime', 'timezone']],
  ...[
    'web_search',
    'code_interpreter',
    'file_search',
    'image_generation',
    'browser_use',
    'bash',
    'text_editor',
    'apply_patch',
    'web_fetch',
    'tool_search',
    'memory',
    'mcp',
    'experimental__search_models',
    'fusion',
    'advisor',
    'subagent',
    'files',
    'shell',
  ].map((tool): [string, string[]] => [`openrouter:${tool}`, ['status']]),
  ['local_shell_call', ['id', 'call_id', 'action', 'status']],
  ['local_shell_call_output', ['id', 'output']],
  ['shell_call', ['call_id', 'action']],
  ['shell_call_output', ['call_id', 'output']],
  ['mcp_list_tools', ['id', 'server_label', 'tools']],
  ['mcp_approval_request', ['id', 'name', 'arguments', 'server_label']],
  ['mcp_approval_response', ['approval_request_id', 'approve']],
  ['mcp_call', ['id', 'name', 'arguments', 'server_label']],
  ['compaction', ['encrypted_content']],
  ['context_compaction', []],
  ['item_reference', ['id']],
  ['additional_tools', ['role', 'tools']],
  ['agent_message', ['author', 'recipient', 'content']],
])

/** Content parts each role may send: the model's own (passed back) for assistant, inputs for the rest. */
const INPUT_PARTS = ['input_text', 'input_image', 'input_file', 'input_audio', 'input_video'] as const
const ASSISTANT_PARTS = ['output_text', 'refusal', 'input_text'] as const
const OUTPUT_PARTS = ['input_text', 'input_image', 'input_file'] as const

const IMAGE_DETAILS = ['auto', 'high', 'low', 'original']
const AUDIO_FORMATS = ['mp3', 'wav']

const nonEmpty = (value: unknown): value is string => typeof value === 'string' && value !== ''

/** One content part: its text, or one media item (a fixed number of tokens). */
function partOf(part: unknown, at: string, allowed: readonly string[]): { text: string | null; media: number } {
  if (!isObject(part)) throw fieldError(at, 'must be a content part object with `type`')
  if (typeof part.type !== 'string' || !allowed.includes(part.type)) throw fieldError(`${at}.type`, `must be one of ${allowed.join(', ')}`)
  switch (part.type) {
    case 'input_text':
    case 'output_text':
      if (typeof part.text !== 'string') throw fieldError(`${at}.text`, 'must be a string')
      return { text: part.text, media: 0 }
    case 'refusal':
      if (typeof part.refusal !== 'string') throw fieldError(`${at}.refusal`, 'must be a string')
      return { text: part.refusal, media: 0 }
    case 'input_image':
      if (!nonEmpty(part.image_url)) throw fieldError(`${at}.image_url`, 'must be a non-empty string (an image URL or data URI)')
      if (part.detail !== undefined && !IMAGE_DETAILS.includes(part.detail as string))
        throw fieldError(`${at}.detail`, `must be one of ${IMAGE_DETAILS.join(', ')}`)
      return { text: null, media: 1 }
    case 'input_file':
      if (!nonEmpty(part.file_data) && !nonEmpty(part.file_url) && !nonEmpty(part.file_id))
        throw fieldError(at, 'needs `file_data` (a data URI), `file_url` or `file_id`')
      return { text: null, media: 1 }
    case 'input_audio': {
      const audio = part.input_audio
      if (!isObject(audio) || !nonEmpty(audio.data)) throw fieldError(`${at}.input_audio.data`, 'must be a non-empty string (base64 audio)')
      if (!AUDIO_FORMATS.includes(audio.format as string)) throw fieldError(`${at}.input_audio.format`, `must be one of ${AUDIO_FORMATS.join(', ')}`)
      return { text: null, media: 1 }
    }
    default:
      if (!nonEmpty(part.video_url)) throw fieldError(`${at}.video_url`, 'must be a non-empty string (a video URL or data URI)')
      return { text: null, media: 1 }
  }
}

/** A message's or a tool output's content: a string, or parts of the kinds `allowed`. */
function contentOf(content: unknown, at: string, allowed: readonly string[]): { text: string; media: number } {
  if (content === undefined || content === null) return { text: '', media: 0 }
  if (typeof content === 'string') return { text: content, media: 0 }
  if (!Array.isArray(content)) throw fieldError(at, 'must be a string or an array of content parts')
  const texts: string[] = []
  let media = 0
  content.forEach((part: unknown, i) => {
    const read = partOf(part, `${at}[${i}]`, allowed)
    if (read.text !== null) texts.push(read.text)
    media += read.media
  })
  return { text: texts.join('\n'), media }
}

/** A `message` item (with `type: "message"` or only a `role`). */
function messageOf(item: Record<string, unknown>, at: string): Message {
  const role = item.role
  if (typeof role !== 'string' || !(MESSAGE_ROLES as readonly string[]).includes(role))
    throw fieldError(`${at}.role`, `must be one of ${MESSAGE_ROLES.join(', ')}`)
  const { text, media } = contentOf(item.content, `${at}.content`, role === 'assistant' ? ASSISTANT_PARTS : INPUT_PARTS)
  return { role: role as MessageRole, text, media, toolCalls: [] }
}

function functionCallOf(item: Record<string, unknown>, at: string): ToolCall {
  if (!nonEmpty(item.call_id)) throw fieldError(`${at}.call_id`, 'must be a non-empty string')
  if (!nonEmpty(item.name)) throw fieldError(`${at}.name`, 'must be a non-empty string: the name of the function called')
  if (item.type === 'custom_tool_call') {
    if (typeof item.input !== 'string') throw fieldError(`${at}.input`, 'must be a string (the custom tool’s freeform input)')
    return { id: item.call_id, type: 'custom', function: { name: item.name, arguments: item.input } }
  }
  if (typeof item.arguments !== 'string') throw fieldError(`${at}.arguments`, 'must be a string (JSON)')
  return { id: item.call_id, type: 'function', function: { name: item.name, arguments: item.arguments } }
}

/** An item of a type the emulator does not read (PASSED_BACK_ITEMS): its required fields are there. */
function checkPassedBack(item: Record<string, unknown>, at: string, required: readonly string[]): void {
  for (const field of required)
    if (item[field] === undefined || item[field] === null) throw fieldError(`${at}.${field}`, `is required for a ${String(item.type)} item`)
}

/** A reasoning item passed back: checked for its shape, and not part of the prompt. */
function checkReasoning(item: Record<string, unknown>, at: string): void {
  if (!Array.isArray(item.summary)) throw fieldError(`${at}.summary`, 'must be an array of summary_text parts')
  item.summary.forEach((part: unknown, i) => {
    if (!isObject(part) || part.type !== 'summary_text' || typeof part.text !== 'string')
      throw fieldError(`${at}.summary[${i}]`, 'must be {"type": "summary_text", "text": "..."}')
  })
  // The thought as an earlier answer gave it (`include: ["reasoning.encrypted_content"]`), sent back as it was.
  if (item.encrypted_content !== undefined && item.encrypted_content !== null && typeof item.encrypted_content !== 'string')
    throw fieldError(`${at}.encrypted_content`, 'must be a string or null')
  if (item.content !== undefined && item.content !== null) {
    if (!Array.isArray(item.content)) throw fieldError(`${at}.content`, 'must be an array of reasoning_text parts')
    item.content.forEach((part: unknown, i) => {
      if (!isObject(part) || part.type !== 'reasoning_text' || typeof part.text !== 'string')
        throw fieldError(`${at}.content[${i}]`, 'must be {"type": "reasoning_text", "text": "..."}')
    })
  }
}

/**
 * `instructions` and `input` as the engine's messages: instructions first (as a system message), a
 * string as one user message, items in order. Function calls join the assistant turn they follow;
 * each output must answer a call made earlier in the input.
 */
export function parseInput(input: unknown, instructions: string | null | undefined): Message[] {
  const messages: Message[] = instructions ? [{ role: 'system', text: instructions, media: 0, toolCalls: [] }] : []
  if (input === undefined || input === null) throw fieldError('input', 'is required: a string, or an array of input items')
  if (typeof input === 'string') {
    if (input.length > MAX_TEXT_CHARS) throw fieldError('input', `must be at most ${MAX_TEXT_CHARS} characters`)
    return [...messages, { role: 'user', text: input, media: 0, toolCalls: [] }]
  }
  if (!Array.isArray(input)) throw fieldError('input', 'must be a string or an array of input items')
  if (input.length === 0) throw fieldError('input', 'must not be empty')
  if (input.length > MAX_INPUT_ITEMS) throw fieldError('input', `must have at most ${MAX_INPUT_ITEMS} items`)
  const calls = new Set<string>()
  input.forEach((item: unknown, i) => {
    const at = `input[${i}]`
    if (!isObject(item)) throw fieldError(at, 'must be an input item object (a message with `role`, or an item with `type`)')
    const type = item.type ?? (item.role !== undefined ? 'message' : undefined)
    const passedBack = typeof type === 'string' ? PASSED_BACK_ITEMS.get(type) : undefined
    if (passedBack) return checkPassedBack(item, at, passedBack)
    if (typeof type !== 'string' || !(ITEM_TYPES as readonly string[]).includes(type))
      throw fieldError(`${at}.type`, `must be one of ${[...ITEM_TYPES, ...PASSED_BACK_ITEMS.keys()].join(', ')}`)
    if (type === 'message') {
      messages.push(messageOf(item, at))
    } else if (type === 'function_call' || type === 'custom_tool_call') {
      const call = functionCallOf(item, at)
      if (calls.has(call.id)) throw fieldError(`${at}.call_id`, `repeats ${call.id}, the id of an earlier ${type}`)
      calls.add(call.id)
      const last = messages.at(-1)
      if (last?.role === 'assistant') last.toolCalls.push(call)
      else messages.push({ role: 'assistant', text: '', media: 0, toolCalls: [call] })
    } else if (type === 'function_call_output' || type === 'custom_tool_call_output') {
      const callType = type === 'function_call_output' ? 'function_call' : 'custom_tool_call'
      if (!nonEmpty(item.call_id)) throw fieldError(`${at}.call_id`, 'must be a non-empty string')
      if (!calls.has(item.call_id)) throw fieldError(`${at}.call_id`, `names ${item.call_id}, which no earlier ${callType} item in \`input\` has`)
      if (item.output === undefined) throw fieldError(`${at}.output`, 'is required: a string, or an array of content parts')
      const { text, media } = contentOf(item.output, `${at}.output`, OUTPUT_PARTS)
      messages.push({ role: 'tool', text, media, toolCalls: [] })
    } else if (type === 'reasoning') {
      checkReasoning(item, at)
    } else if (!nonEmpty(item.id)) {
      throw fieldError(`${at}.id`, `must be a non-empty string: the id of the ${type} item the response gave`)
    }
  })
  return messages
}

/** The tools the model may call (with where each is, for a 400 on its parameters), and each namespaced function's namespace. */
export interface ResponsesTools {
  tools: Tool[]
  /** `tools[i].parameters` or `tools[i].tools[j].parameters`, one a tool. */
  places: string[]
  /** A namespaced function's name → its namespace's name (its calls carry it as `namespace`). */
  namespaces: Map<string, string>
  /** The server tool types the request lists: `tool_choice` may name them. */
  serverTypes: Set<string>
  /** The custom tools' names (`tool_choice: {"type": "custom", "name"}` names one). */
  custom: Set<string>
}

/** The tool types the model itself calls, or that group them. */
const OWN_TOOL_TYPES = ['function', 'custom', 'namespace']

function functionTool(tool: Record<string, unknown>, at: string): Tool {
  const name = checkToolName(tool.name, `${at}.name`)
  if (tool.description !== undefined && tool.description !== null && typeof tool.description !== 'string')
    throw fieldError(`${at}.description`, 'must be a string')
  if (tool.strict !== undefined && tool.strict !== null && typeof tool.strict !== 'boolean') throw fieldError(`${at}.strict`, 'must be a boolean')
  const parameters =
    tool.parameters === undefined || tool.parameters === null ? { type: 'object', properties: {} } : checkSchema(tool.parameters, `${at}.parameters`)
  return { name, description: typeof tool.description === 'string' ? tool.description : '', parameters }
}

/**
 * Every tool type of the real document: functions (the model calls them), a namespace's functions
 * (callable, by their own names), custom tools (called with freeform text: a `custom_tool_call` item),
 * and server tools (their required fields checked; not run).
 */
export function parseTools(tools: readonly unknown[] | null | undefined): ResponsesTools {
  const out: ResponsesTools = { tools: [], places: [], namespaces: new Map(), serverTypes: new Set(), custom: new Set() }
  const seen = new Set<string>()
  const add = (tool: Tool, at: string): void => {
    if (seen.has(tool.name)) throw fieldError(`${at}.name`, `repeats the name ${tool.name}`)
    seen.add(tool.name)
    out.tools.push(tool)
    out.places.push(`${at}.parameters`)
  }
  // A custom tool is called with freeform text: its `format` (text, or a grammar) is checked, not followed.
  const custom = (tool: Record<string, unknown>, at: string): Tool => {
    const name = checkToolName(tool.name, `${at}.name`)
    if (tool.description !== undefined && tool.description !== null && typeof tool.description !== 'string')
      throw fieldError(`${at}.description`, 'must be a string')
    const format = tool.format
    if (format !== undefined && format !== null) {
      if (!isObject(format) || (format.type !== 'text' && format.type !== 'grammar')) throw fieldError(`${at}.format.type`, 'must be one of text, grammar')
      if (format.type === 'grammar' && typeof format.definition !== 'string') throw fieldError(`${at}.format.definition`, 'is required: the grammar’s text')
    }
    const made: Tool = {
      name,
      description: typeof tool.description === 'string' ? tool.description : '',
      parameters: { type: 'object', properties: {} },
      custom: true,
    }
    add(made, at)
    out.places[out.places.length - 1] = at
    out.custom.add(name)
    return made
  }
  ;(tools ?? []).forEach((tool, i) => {
    const at = `tools[${i}]`
    if (!isObject(tool)) throw fieldError(at, 'must be an object')
    if (tool.type === 'function') return add(functionTool(tool, at), at)
    if (tool.type === 'custom') return void custom(tool, at)
    if (tool.type !== 'namespace') {
      checkServerTool(tool, at, RESPONSES_SERVER_TOOLS, OWN_TOOL_TYPES)
      out.serverTypes.add(tool.type as string)
      return
    }
    const namespace = checkToolName(tool.name, `${at}.name`)
    if (typeof tool.description !== 'string') throw fieldError(`${at}.description`, 'is required: a string')
    if (!Array.isArray(tool.tools)) throw fieldError(`${at}.tools`, 'is required: an array of function and custom tools')
    tool.tools.forEach((inner: unknown, j) => {
      const place = `${at}.tools[${j}]`
      if (!isObject(inner)) throw fieldError(place, 'must be an object')
      if (inner.type === 'custom') return void out.namespaces.set(custom(inner, place).name, namespace)
      if (inner.type !== 'function') throw fieldError(`${place}.type`, 'must be one of function, custom')
      const fn = functionTool(inner, place)
      add(fn, place)
      out.namespaces.set(fn.name, namespace)
    })
  })
  return out
}

/**
 * Server tools `tool_choice` may name by type alone: the real document's forms (web_search_preview,
 * its dated spelling, apply_patch, shell) and OpenAI's other hosted tools (file_search, web_search,
 * computer_use_preview, code_interpreter, image_generation, mcp...): any server tool the request lists.
 */
const HOSTED_CHOICES = [...RESPONSES_SERVER_TOOLS.keys()]

/**
 * Tools `tool_choice` may force by type whose call the answer then is (made up, never run): the client-run
 * ones (the client runs the call and sends its `*_output` back) and the provider-run ones (a completed call
 * with made-up outputs before the message).
 */
export const FORCED_TOOLS: ReadonlyMap<string, 'client' | 'provider'> = new Map([
  ['local_shell', 'client'],
  ['shell', 'client'],
  ['apply_patch', 'client'],
  ['computer_use_preview', 'client'],
  ['code_interpreter', 'provider'],
  ['file_search', 'provider'],
])

/** What `tool_choice` asks, and the functions `allowed_tools` keeps callable (null: all of them). */
export interface ResponsesToolChoice {
  choice: ToolChoice
  allowed: ReadonlySet<string> | null
  /** A tool of FORCED_TOOLS forced by type, else null. */
  forced?: string | null
}

/**
 * `tool_choice`: auto, none, required, a function by name (a namespaced one by its own), a server tool by
 * type (never run: the answer is text, or for a tool of FORCED_TOOLS its made-up call), or `allowed_tools` (the functions it lists stay callable).
 */
export function parseToolChoice(choice: unknown, parsed: ResponsesTools): ResponsesToolChoice {
  const { tools, serverTypes } = parsed
  const plain = (kind: ToolChoice): ResponsesToolChoice => ({ choice: kind, allowed: null })
  if (choice === undefined || choice === null) return plain(tools.length > 0 ? { kind: 'auto' } : { kind: 'none' })
  if (choice === 'auto' || choice === 'none' || choice === 'required') {
    if (choice === 'required' && tools.length === 0) {
      if (serverTypes.size === 0) throw fieldError('tool_choice', 'is "required" but the request has no `tools`')
      return plain({ kind: 'none' })
    }
    return plain({ kind: choice })
  }
  if (isObject(choice) && (choice.type === 'function' || choice.type === 'custom')) {
    if (typeof choice.name !== 'string') throw fieldError('tool_choice.name', 'must be the name of one of the request’s `tools`')
    const name = choice.name
    const custom = choice.type === 'custom'
    if (!tools.some((t) => t.name === name && (t.custom === true) === custom))
      throw fieldError('tool_choice.name', `names ${name}, which is not among the request's ${custom ? 'custom ' : ''}\`tools\``)
    return plain({ kind: 'named', name })
  }
  if (isObject(choice) && HOSTED_CHOICES.includes(choice.type as string)) {
    if (!serverTypes.has(choice.type as string))
      throw fieldError('tool_choice.type', `names ${String(choice.type)}, which is not among the request's \`tools\``)
    const type = choice.type as string
    return { choice: { kind: 'none' }, allowed: null, forced: FORCED_TOOLS.has(type) ? type : null }
  }
  if (isObject(choice) && choice.type === 'allowed_tools') {
    if (choice.mode !== 'auto' && choice.mode !== 'required') throw fieldError('tool_choice.mode', 'must be one of auto, required')
    if (!Array.isArray(choice.tools)) throw fieldError('tool_choice.tools', 'is required: an array of tools, e.g. {"type": "function", "name": "..."}')
    const allowed = new Set<string>()
    let servers = 0
    choice.tools.forEach((tool: unknown, i) => {
      const at = `tool_choice.tools[${i}]`
      if (!isObject(tool) || typeof tool.type !== 'string') throw fieldError(at, 'must be an object with `type`')
      if (tool.type !== 'function' && tool.type !== 'custom') {
        if (!serverTypes.has(tool.type)) throw fieldError(`${at}.type`, `names ${tool.type}, which is not among the request's \`tools\``)
        servers++
        return
      }
      const name = tool.name
      if (typeof name !== 'string' || !tools.some((t) => t.name === name && (t.custom === true) === (tool.type === 'custom')))
        throw fieldError(`${at}.name`, `must name one of the request's ${tool.type} \`tools\``)
      allowed.add(name)
    })
    if (allowed.size === 0 && servers === 0) throw fieldError('tool_choice.tools', 'must not be empty')
    return { choice: allowed.size === 0 ? { kind: 'none' } : { kind: choice.mode }, allowed }
  }
  throw fieldError(
    'tool_choice',
    `must be "auto", "none", "required", {"type":"function","name":"..."}, {"type":"custom","name":"..."}, {"type":"allowed_tools","mode","tools"} or {"type": one of ${HOSTED_CHOICES.join(', ')}}`,
  )
}

export function parseFormat(format: unknown): ResponseFormat {
  if (format === undefined || format === null) return { kind: 'text' }
  if (!isObject(format)) throw fieldError('text.format', 'must be an object with `type`')
  if (format.type === 'text') return { kind: 'text' }
  if (format.type === 'json_object') return { kind: 'json_object' }
  if (format.type === 'json_schema') {
    const name = checkToolName(format.name, 'text.format.name')
    if (format.schema === undefined) throw fieldError('text.format.schema', 'is required: the JSON Schema the answer follows')
    return { kind: 'json_schema', name, schema: checkSchema(format.schema, 'text.format.schema') }
  }
  throw fieldError('text.format.type', 'must be one of text, json_object, json_schema')
}

/** `metadata`'s keys: at most MAX_METADATA_KEYS, each at most MAX_METADATA_KEY_CHARS (its values are the schema's). */
export function checkMetadata(metadata: Record<string, string> | null | undefined): void {
  if (!metadata) return
  const keys = Object.keys(metadata)
  if (keys.length > MAX_METADATA_KEYS) throw fieldError('metadata', `must have at most ${MAX_METADATA_KEYS} keys`)
  const long = keys.find((key) => key.length > MAX_METADATA_KEY_CHARS)
  if (long !== undefined) throw fieldError('metadata', `has a key longer than ${MAX_METADATA_KEY_CHARS} characters: ${long.slice(0, 16)}…`)
}
