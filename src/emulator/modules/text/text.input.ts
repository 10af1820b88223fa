// The engine's vocabulary for a conversation (Message, Tool, ToolChoice, ResponseFormat: what every
// surface reads its body into), and chat's reading of the parts of a request with several shapes:
// messages (five roles; content as a string or parts), tools, tool_choice and response_format. Each
// problem is a 400 naming its place (`messages[2].content[0].text`, `tools[0].function.parameters`),
// checked before anything is billed.
import { Ajv } from 'ajv'
import { fieldError } from '../../core/errors.ts'
import { IMAGE_TOKENS, countTokens } from '../../core/tokens.ts'
import { CHAT_SERVER_TOOLS, checkServerTool } from './text-tools.input.ts'

export type Role = 'system' | 'developer' | 'user' | 'assistant' | 'tool'
const ROLES: readonly Role[] = ['system', 'developer', 'user', 'assistant', 'tool']

export interface ToolCall {
  id: string
  /** `custom`: a Responses custom tool's call, its `arguments` the tool's freeform input text. */
  type: 'function' | 'custom'
  function: { name: string; arguments: string }
}

/** A message as the emulator reads it: its role, its text, and what else counts as tokens. */
export interface Message {
  role: Role
  text: string
  /** Images, audio, files and video in the content: a fixed number of tokens each. */
  media: number
  toolCalls: ToolCall[]
}

export interface Tool {
  name: string
  description: string
  parameters: Record<string, unknown>
  /** A Responses custom tool: called with freeform text (a `custom_tool_call` item), not JSON arguments. */
  custom?: true
}

export type ToolChoice = { kind: 'auto' } | { kind: 'none' } | { kind: 'required' } | { kind: 'named'; name: string }

export type ResponseFormat = { kind: 'text' } | { kind: 'json_object' } | { kind: 'json_schema'; name: string; schema: Record<string, unknown> }

/** A JSON object (not null, not an array): what every field of a body that takes an object is checked to be. */
export const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value)

const PART_TYPES = ['text', 'image_url', 'input_audio', 'file', 'video_url', 'input_video'] as const

function contentOf(content: unknown, field: string, required: boolean): { text: string; media: number } {
  if (content === undefined || content === null) {
    if (required) throw fieldError(field, 'is required')
    return { text: '', media: 0 }
  }
  if (typeof content === 'string') return { text: content, media: 0 }
  if (!Array.isArray(content)) throw fieldError(field, 'must be a string or an array of content parts')
  let text = ''
  let media = 0
  content.forEach((part: unknown, i) => {
    const at = `${field}[${i}]`
    if (!isObject(part)) throw fieldError(at, 'must be a content part object')
    if (part.type === 'text') {
      if (typeof part.text !== 'string') throw fieldError(`${at}.text`, 'must be a string')
      text += (text ? '\n' : '') + part.text
    } else if (part.type === 'image_url') {
      const url = isObject(part.image_url) ? part.image_url.url : undefined
      if (typeof url !== 'string' || url === '') throw fieldError(`${at}.image_url.url`, 'must be a non-empty string (an image URL or data URI)')
      media++
    } else if (typeof part.type === 'string' && (PART_TYPES as readonly string[]).includes(part.type)) {
      media++
    } else {
      throw fieldError(`${at}.type`, `must be one of ${PART_TYPES.join(', ')}`)
    }
  })
  return { text, media }
}

function toolCallsOf(value: unknown, field: string): ToolCall[] {
  if (value === undefined || value === null) return []
  if (!Array.isArray(value)) throw fieldError(field, 'must be an array of tool calls')
  return value.map((call: unknown, i) => {
    const at = `${field}[${i}]`
    if (!isObject(call)) throw fieldError(at, 'must be an object')
    if (typeof call.id !== 'string' || call.id === '') throw fieldError(`${at}.id`, 'must be a non-empty string')
    const fn = call.function
    if (!isObject(fn)) throw fieldError(`${at}.function`, 'must be an object with `name` and `arguments`')
    if (typeof fn.name !== 'string' || fn.name === '') throw fieldError(`${at}.function.name`, 'must be a non-empty string')
    if (typeof fn.arguments !== 'string') throw fieldError(`${at}.function.arguments`, 'must be a string (JSON)')
    return { id: call.id, type: 'function', function: { name: fn.name, arguments: fn.arguments } }
  })
}

const DETAIL_TYPES = ['reasoning.text', 'reasoning.summary', 'reasoning.encrypted', 'reasoning.server_tool_call'] as const
const DETAIL_FORMATS = [
  'unknown',
  'openai-responses-v1',
  'azure-openai-responses-v1',
  'bedrock-openai-responses-v1',
  'bedrock-xai-responses-v1',
  'xai-responses-v1',
  'meta-responses-v1',
  'anthropic-claude-v1',
  'google-gemini-v1',
]
/** Each kind's fields that must be strings, and those that may also be null (the real document's ReasoningDetailUnion). */
const DETAIL_FIELDS: Record<(typeof DETAIL_TYPES)[number], { required: string[]; nullable: string[] }> = {
  'reasoning.text': { required: [], nullable: ['text', 'signature'] },
  'reasoning.summary': { required: ['summary'], nullable: [] },
  'reasoning.encrypted': { required: ['data'], nullable: [] },
  'reasoning.server_tool_call': { required: ['tool_name', 'arguments', 'result'], nullable: ['tool_call_id'] },
}

/** An assistant message's `reasoning_details`, as an earlier answer gave them: every kind of the real document accepted as sent. */
export function checkReasoningDetails(details: unknown, field: string): void {
  if (details === undefined || details === null) return
  if (!Array.isArray(details)) throw fieldError(field, 'must be an array of reasoning details')
  details.forEach((detail: unknown, j) => {
    const at = `${field}[${j}]`
    if (!isObject(detail)) throw fieldError(at, 'must be a reasoning detail object with `type`')
    const type = detail.type
    if (typeof type !== 'string' || !(DETAIL_TYPES as readonly string[]).includes(type))
      throw fieldError(`${at}.type`, `must be one of ${DETAIL_TYPES.join(', ')}`)
    const fields = DETAIL_FIELDS[type as (typeof DETAIL_TYPES)[number]]
    for (const name of fields.required) if (typeof detail[name] !== 'string') throw fieldError(`${at}.${name}`, 'is required: a string')
    for (const name of ['id', ...fields.nullable])
      if (detail[name] !== undefined && detail[name] !== null && typeof detail[name] !== 'string') throw fieldError(`${at}.${name}`, 'must be a string or null')
    if (detail.format !== undefined && detail.format !== null && !DETAIL_FORMATS.includes(detail.format as string))
      throw fieldError(`${at}.format`, `must be one of ${DETAIL_FORMATS.join(', ')}`)
    if (detail.index !== undefined && !Number.isInteger(detail.index)) throw fieldError(`${at}.index`, 'must be an integer')
  })
}

export function parseMessages(messages: readonly unknown[]): Message[] {
  if (messages.length === 0) throw fieldError('messages', 'must not be empty')
  return messages.map((message, i) => {
    const at = `messages[${i}]`
    if (!isObject(message)) throw fieldError(at, 'must be an object with `role` and `content`')
    const role = message.role
    if (typeof role !== 'string' || !(ROLES as readonly string[]).includes(role)) throw fieldError(`${at}.role`, `must be one of ${ROLES.join(', ')}`)
    const { text, media } = contentOf(message.content, `${at}.content`, role !== 'assistant')
    if (role === 'tool' && (typeof message.tool_call_id !== 'string' || message.tool_call_id === ''))
      throw fieldError(`${at}.tool_call_id`, 'must be a non-empty string: the id of the tool call this answers')
    const toolCalls = role === 'assistant' ? toolCallsOf(message.tool_calls, `${at}.tool_calls`) : []
    if (role === 'assistant') {
      // Reasoning sent back (from an earlier answer) is checked, not read: a model does not see its earlier thought.
      if (message.reasoning !== undefined && message.reasoning !== null && typeof message.reasoning !== 'string')
        throw fieldError(`${at}.reasoning`, 'must be a string or null')
      checkReasoningDetails(message.reasoning_details, `${at}.reasoning_details`)
    }
    return { role: role as Role, text, media, toolCalls }
  })
}

// Schemas in tools and response formats are checked against the JSON Schema meta-schema: a client's
// mistake there is a 400, not a generator that fails later. Not compiled: Ajv would keep every
// client's schema it compiled. Clients write draft-07 or 2020-12 (zod's); both read the same here.
const schemaChecker = new Ajv({ strict: false, validateFormats: false })

/** A tool's parameters or an output format's schema, checked against the meta-schema (any surface, its own field name). */
export function checkSchema(schema: unknown, field: string): Record<string, unknown> {
  if (!isObject(schema)) throw fieldError(field, 'must be a JSON Schema object')
  const { $schema: _dialect, ...rest } = schema
  if (!schemaChecker.validateSchema(forMetaCheck(rest, field, 0) as Record<string, unknown>)) {
    throw fieldError(field, `is not a valid JSON Schema: ${schemaChecker.errorsText(schemaChecker.errors, { dataVar: 'schema' })}`)
  }
  return schema
}

/** Levels of JSON a schema may nest (about half as many levels of subschemas). */
export const SCHEMA_DEPTH = 128

/**
 * A copy of a schema for Ajv's meta-schema check, with each `enum` and `required` list cut to its first
 * value once its values are checked here to be unique: the meta-schema's uniqueItems compares every pair
 * (60,000 enum values took 12 s). Also refuses a schema nested deeper than SCHEMA_DEPTH.
 */
function forMetaCheck(node: unknown, field: string, depth: number): unknown {
  if (node === null || typeof node !== 'object') return node
  if (depth > SCHEMA_DEPTH) throw fieldError(field, `nests deeper than ${SCHEMA_DEPTH} levels`)
  if (Array.isArray(node)) return node.map((item) => forMetaCheck(item, field, depth + 1))
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(node)) {
    if ((key === 'enum' || key === 'required') && Array.isArray(value) && value.length > 1) {
      const seen = new Set<string>()
      for (const item of value as unknown[]) {
        const text = JSON.stringify(item)
        if (seen.has(text)) throw fieldError(field, `is not a valid JSON Schema: ${key} repeats ${text.slice(0, 80)}`)
        seen.add(text)
      }
      out[key] = [forMetaCheck(value[0], field, depth + 1)]
    } else {
      out[key] = forMetaCheck(value, field, depth + 1)
    }
  }
  return out
}

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/

/** A tool's (or a schema format's) name: 1 to 64 letters, digits, _ or -. */
export function checkToolName(name: unknown, field: string): string {
  if (typeof name !== 'string' || !TOOL_NAME.test(name)) throw fieldError(field, 'must be 1 to 64 letters, digits, _ or -')
  return name
}

/**
 * The function tools, with where each is in `tools`; the gateway's server tools are checked, and of them
 * only `openrouter:datetime` is run (its time zone, UTC when not given).
 */
export function parseToolsAt(tools: readonly unknown[] | null | undefined): {
  tools: Tool[]
  places: number[]
  datetime: { timezone: string } | null
  /** The server tool types listed: `tool_choice` may name one by its type. */
  serverTypes: Set<string>
} {
  const out: Tool[] = []
  const places: number[] = []
  const serverTypes = new Set<string>()
  const seen = new Set<string>()
  let datetime: { timezone: string } | null = null
  ;(tools ?? []).forEach((tool, i) => {
    const at = `tools[${i}]`
    if (!isObject(tool)) throw fieldError(at, 'must be an object')
    if (tool.type !== 'function') {
      checkServerTool(tool, at, CHAT_SERVER_TOOLS, ['function'])
      serverTypes.add(tool.type as string)
      if (tool.type === 'openrouter:datetime' && !datetime) {
        const zone = isObject(tool.parameters) ? tool.parameters.timezone : undefined
        datetime = { timezone: typeof zone === 'string' ? zone : 'UTC' }
      }
      return
    }
    const fn = tool.function
    if (!isObject(fn)) throw fieldError(`${at}.function`, 'must be an object with `name`')
    if (typeof fn.name !== 'string' || !TOOL_NAME.test(fn.name)) throw fieldError(`${at}.function.name`, 'must be 1 to 64 letters, digits, _ or -')
    if (seen.has(fn.name)) throw fieldError(`${at}.function.name`, `repeats the name ${fn.name}`)
    seen.add(fn.name)
    if (fn.description !== undefined && typeof fn.description !== 'string') throw fieldError(`${at}.function.description`, 'must be a string')
    const parameters = fn.parameters === undefined ? { type: 'object', properties: {} } : checkSchema(fn.parameters, `${at}.function.parameters`)
    out.push({ name: fn.name, description: fn.description ?? '', parameters })
    places.push(i)
  })
  return { tools: out, places, datetime, serverTypes }
}

/** The function tools a chat body (or a fixture) lists. */
export const parseTools = (tools: readonly unknown[] | null | undefined): Tool[] => parseToolsAt(tools).tools

/**
 * Chat's `tool_choice`, in the real document's forms: "none", "auto", "required", a function by name, or
 * a server tool the request lists forced by its type (`{"type": "openrouter:web_search"}`): server tools
 * are not called as functions, so that answer is text (the search it asks for runs as for any web tool).
 */
export function parseToolChoice(choice: unknown, tools: readonly Tool[], serverTypes: ReadonlySet<string> = new Set()): ToolChoice {
  if (choice === undefined || choice === null) return tools.length > 0 ? { kind: 'auto' } : { kind: 'none' }
  if (choice === 'auto' || choice === 'none' || choice === 'required') {
    if (choice === 'required' && tools.length === 0) throw fieldError('tool_choice', 'is "required" but the request has no `tools`')
    return { kind: choice }
  }
  if (isObject(choice) && choice.type === 'function' && isObject(choice.function) && typeof choice.function.name === 'string') {
    const name = choice.function.name
    if (!tools.some((t) => t.name === name)) throw fieldError('tool_choice.function.name', `names ${name}, which is not among the request's \`tools\``)
    return { kind: 'named', name }
  }
  if (isObject(choice) && typeof choice.type === 'string' && CHAT_SERVER_TOOLS.has(choice.type)) {
    if (!serverTypes.has(choice.type)) throw fieldError('tool_choice.type', `names ${choice.type}, which is not among the request's \`tools\``)
    return { kind: 'none' }
  }
  throw fieldError(
    'tool_choice',
    'must be "auto", "none", "required", {"type":"function","function":{"name":"..."}} or {"type": a server tool the request lists}',
  )
}

export function parseResponseFormat(format: unknown): ResponseFormat {
  if (format === undefined || format === null) return { kind: 'text' }
  if (!isObject(format)) throw fieldError('response_format', 'must be an object with `type`')
  if (format.type === 'text') return { kind: 'text' }
  if (format.type === 'json_object') return { kind: 'json_object' }
  if (format.type === 'json_schema') {
    const spec = format.json_schema
    if (!isObject(spec)) throw fieldError('response_format.json_schema', 'is required: {"name": "...", "schema": {...}}')
    if (typeof spec.name !== 'string' || !TOOL_NAME.test(spec.name))
      throw fieldError('response_format.json_schema.name', 'must be 1 to 64 letters, digits, _ or -')
    const schema = spec.schema === undefined ? {} : checkSchema(spec.schema, 'response_format.json_schema.schema')
    return { kind: 'json_schema', name: spec.name, schema }
  }
  throw fieldError('response_format.type', 'must be one of text, json_object, json_schema')
}

/** What the media parts of a prompt count, as fixed prices (an image is a low-detail tile). */
export const mediaTokens = (messages: readonly Message[]): number => messages.reduce((n, m) => n + m.media * IMAGE_TOKENS, 0)

/**
 * Prompt tokens as chat models count them, in two parts a prompt is the sum of (the engine counts a
 * prompt, prompt caching its prefixes, context compression the messages it may drop): the prompt's own
 * framing and its tools' JSON, then each message's text, tool calls, media (a fixed price each: an image
 * is a low-detail tile) and framing.
 */
export const toolsTokens = (tools: readonly Tool[]): number => 3 + (tools.length > 0 ? countTokens(JSON.stringify(tools)) : 0)

export function messageTokens(message: Message): number {
  let tokens = 4 + countTokens(message.text) + message.media * IMAGE_TOKENS
  for (const call of message.toolCalls) tokens += countTokens(call.function.name) + countTokens(call.function.arguments)
  return tokens
}

/** The auto-router plugin's model patterns (`plugins: [{id: "auto-router", allowed_models, excluded_models}]`). */
export interface AutoRouterPlugin {
  allowed: string[]
  excluded: string[]
}

/** The most patterns of each list, and the longest pattern (the real document's bounds). */
const MAX_ROUTER_PATTERNS = 1024
const MAX_ROUTER_PATTERN_CHARS = 1024

function patterns(value: unknown, field: string): string[] {
  if (value === undefined || value === null) return []
  if (
    !Array.isArray(value) ||
    value.length > MAX_ROUTER_PATTERNS ||
    value.some((p) => typeof p !== 'string' || p.length === 0 || p.length > MAX_ROUTER_PATTERN_CHARS)
  ) {
    throw fieldError(
      field,
      `must be a list of at most ${MAX_ROUTER_PATTERNS} model patterns (such as \`anthropic/*\`), each 1 to ${MAX_ROUTER_PATTERN_CHARS} characters`,
    )
  }
  return value as string[]
}

/**
 * The request's auto-router plugin, read only from the entries whose id is `auto-router` (other
 * plugins are another area's); null when there is none or it is turned off (`enabled: false`).
 */
export function parseAutoRouter(plugins: unknown): AutoRouterPlugin | null {
  if (!Array.isArray(plugins)) return null
  const at = plugins.findIndex((p) => typeof p === 'object' && p !== null && (p as { id?: unknown }).id === 'auto-router')
  if (at === -1) return null
  const plugin = plugins[at] as { enabled?: unknown; allowed_models?: unknown; excluded_models?: unknown }
  if (plugin.enabled === false) return null
  return {
    allowed: patterns(plugin.allowed_models, `plugins[${at}].allowed_models`),
    excluded: patterns(plugin.excluded_models, `plugins[${at}].excluded_models`),
  }
}
