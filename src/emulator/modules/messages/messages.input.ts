// The parts of a Messages request with several shapes, read into the text engine's terms: the system
// prompt (a string or text blocks), messages whose content is a string or blocks (text, image,
// document, tool_use, tool_result, thinking passed back...), tools, tool_choice, thinking and
// output_config. Each problem is a 400 naming its place (`messages[1].content[0].tool_use_id`),
// checked before anything is billed. Rules the real document does not state (turns alternating, a
// tool_result answering the tool_use just before it, a least thinking budget) are not enforced.
import { fieldError } from '../../core/errors.ts'
import { MESSAGES_SERVER_TOOLS } from '../text/text-tools.input.ts'
import { checkSchema, checkToolName, type Message, type ResponseFormat, type Tool, type ToolCall, type ToolChoice } from '../text/text.input.ts'
import type { ReasoningEffort, TextAsk } from '../text/text-engine.service.ts'
import { MAX_BLOCKS } from './messages.schemas.ts'

type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value)

const ROLES = ['user', 'assistant', 'system'] as const
type Role = (typeof ROLES)[number]

const IMAGE_MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp']

/** Blocks the real document lists that the emulator takes as they are: they change nothing in the answer. */
const PASSED_BLOCKS = [
  'server_tool_use',
  'web_search_tool_result',
  'advisor_tool_result',
  'tool_addition',
  'tool_removal',
  'openrouter_shell_tool_result',
  'openrouter_bash_tool_result',
]
const BLOCK_TYPES = ['text', 'image', 'document', 'tool_use', 'tool_result', 'thinking', 'redacted_thinking', 'search_result', 'compaction', ...PASSED_BLOCKS]
const TOOL_RESULT_TYPES = ['text', 'image', 'document', 'search_result', 'tool_reference']

/** What a run of content blocks amounts to: its text and its media (a fixed number of tokens each). */
interface Read {
  text: string
  media: number
}

const join = (read: Read, text: string): void => {
  if (text !== '') read.text += (read.text ? '\n' : '') + text
}

function blocksOf(value: unknown, field: string): unknown[] {
  if (!Array.isArray(value)) throw fieldError(field, 'must be a string or an array of content blocks')
  if (value.length > MAX_BLOCKS) throw fieldError(field, `must have at most ${MAX_BLOCKS} blocks`)
  return value
}

function blockType(block: unknown, field: string, types: readonly string[]): string {
  if (!isObject(block)) throw fieldError(field, 'must be a content block object with a `type`')
  if (typeof block.type !== 'string' || !types.includes(block.type)) throw fieldError(`${field}.type`, `must be one of ${types.join(', ')}`)
  return block.type
}

function string(block: Json, name: string, field: string, nonEmpty = false): string {
  const value = block[name]
  if (typeof value !== 'string' || (nonEmpty && value === ''))
    throw fieldError(`${field}.${name}`, nonEmpty ? 'must be a non-empty string' : 'must be a string')
  return value
}

function textBlock(block: Json, field: string): string {
  return string(block, 'text', field)
}

function checkUrl(value: unknown, field: string): void {
  if (typeof value !== 'string' || !URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) throw fieldError(field, 'must be an http(s) URL')
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/

function checkBase64(source: Json, field: string): void {
  const data = string(source, 'data', field, true)
  if (!BASE64.test(data)) throw fieldError(`${field}.data`, 'must be base64 (no data: prefix, no line breaks)')
}

function imageSource(block: Json, field: string): void {
  const source = block.source
  const at = `${field}.source`
  if (!isObject(source)) throw fieldError(at, 'must be {"type":"base64","media_type","data"} or {"type":"url","url"}')
  if (source.type === 'base64') {
    if (typeof source.media_type !== 'string' || !IMAGE_MEDIA_TYPES.includes(source.media_type))
      throw fieldError(`${at}.media_type`, `must be one of ${IMAGE_MEDIA_TYPES.join(', ')}`)
    checkBase64(source, at)
  } else if (source.type === 'url') {
    checkUrl(source.url, `${at}.url`)
  } else {
    throw fieldError(`${at}.type`, 'must be one of base64, url')
  }
}

/** A document: a PDF (base64, URL or file) counts as media; plain text and content count as text. */
function documentSource(block: Json, field: string, read: Read): void {
  const source = block.source
  const at = `${field}.source`
  if (!isObject(source)) throw fieldError(at, 'must be an object with a `type` (base64, text, content, url or file)')
  switch (source.type) {
    case 'base64':
      if (source.media_type !== 'application/pdf') throw fieldError(`${at}.media_type`, 'must be application/pdf')
      checkBase64(source, at)
      read.media++
      return
    case 'text':
      if (source.media_type !== 'text/plain') throw fieldError(`${at}.media_type`, 'must be text/plain')
      join(read, string(source, 'data', at))
      return
    case 'content':
      if (typeof source.content === 'string') join(read, source.content)
      else readBlocks(source.content, `${at}.content`, ['text', 'image'], read)
      return
    case 'url':
      checkUrl(source.url, `${at}.url`)
      read.media++
      return
    case 'file':
      string(source, 'file_id', at, true)
      read.media++
      return
    default:
      throw fieldError(`${at}.type`, 'must be one of base64, text, content, url, file')
  }
}

/** Blocks of the simple kinds (text, image, document, search results), added to `read`. */
function readBlocks(value: unknown, field: string, types: readonly string[], read: Read): void {
  blocksOf(value, field).forEach((block, i) => readBlock(block as Json, blockType(block, `${field}[${i}]`, types), `${field}[${i}]`, read))
}

function readBlock(block: Json, type: string, field: string, read: Read): void {
  switch (type) {
    case 'text':
      join(read, textBlock(block, field))
      return
    case 'image':
      imageSource(block, field)
      read.media++
      return
    case 'document':
      documentSource(block, field, read)
      return
    case 'search_result':
      string(block, 'source', field)
      string(block, 'title', field)
      readBlocks(block.content, `${field}.content`, ['text'], read)
      return
    case 'tool_reference':
      join(read, string(block, 'tool_name', field, true))
      return
    case 'compaction':
      if (block.content !== null && typeof block.content !== 'string') throw fieldError(`${field}.content`, 'must be a string or null')
      join(read, block.content ?? '')
      return
  }
}

/** The system prompt: a string or text blocks. */
export function parseSystem(system: unknown): Message[] {
  if (system === undefined || system === null) return []
  const read: Read = { text: '', media: 0 }
  if (typeof system === 'string') join(read, system)
  else if (Array.isArray(system)) readBlocks(system, 'system', ['text'], read)
  else throw fieldError('system', 'must be a string or an array of text blocks')
  return read.text === '' ? [] : [{ role: 'system', text: read.text, media: 0, toolCalls: [] }]
}

/**
 * One message, as the engine's messages: its text, media and tool calls; each tool_result becomes a
 * tool message of its own (before the rest of its turn), so a turn that answers tools is read as the
 * tools' answer and the model writes text after it.
 */
function parseMessage(message: unknown, i: number): Message[] {
  const at = `messages[${i}]`
  if (!isObject(message)) throw fieldError(at, 'must be an object with `role` and `content`')
  const role = message.role
  if (typeof role !== 'string' || !(ROLES as readonly string[]).includes(role)) throw fieldError(`${at}.role`, `must be one of ${ROLES.join(', ')}`)
  const content = message.content
  if (content === undefined || content === null) throw fieldError(`${at}.content`, 'is required')
  const own: Read = { text: '', media: 0 }
  const toolCalls: ToolCall[] = []
  const results: Message[] = []
  if (typeof content === 'string') join(own, content)
  else
    blocksOf(content, `${at}.content`).forEach((raw, j) => {
      const field = `${at}.content[${j}]`
      const type = blockType(raw, field, BLOCK_TYPES)
      const block = raw as Json
      switch (type) {
        case 'tool_use':
          toolCalls.push({
            id: string(block, 'id', field, true),
            type: 'function',
            function: { name: string(block, 'name', field, true), arguments: JSON.stringify(block.input ?? {}) },
          })
          return
        case 'tool_result':
          results.push(toolResult(block, field))
          return
        case 'thinking':
          // Thinking passed back is checked, not read: a model does not see its earlier thinking.
          string(block, 'thinking', field)
          string(block, 'signature', field)
          return
        case 'redacted_thinking':
          string(block, 'data', field)
          return
        default:
          if (PASSED_BLOCKS.includes(type)) return
          readBlock(block, type, field, own)
      }
    })
  const turn: Message = { role: role as Role, text: own.text, media: own.media, toolCalls }
  if (results.length === 0) return [turn]
  return own.text !== '' || own.media > 0 || toolCalls.length > 0 ? [...results, turn] : results
}

function toolResult(block: Json, field: string): Message {
  string(block, 'tool_use_id', field, true)
  if (block.is_error !== undefined && typeof block.is_error !== 'boolean') throw fieldError(`${field}.is_error`, 'must be a boolean')
  const read: Read = { text: '', media: 0 }
  const content = block.content
  if (typeof content === 'string') join(read, content)
  else if (content !== undefined && content !== null) readBlocks(content, `${field}.content`, TOOL_RESULT_TYPES, read)
  return { role: 'tool', text: read.text, media: read.media, toolCalls: [] }
}

export function parseMessages(messages: readonly unknown[]): Message[] {
  if (messages.length === 0) throw fieldError('messages', 'must not be empty')
  return messages.flatMap((message, i) => parseMessage(message, i))
}

/** How many of the engine's messages the first i + 1 messages make, for each i (a prompt cache breakpoint's place). */
export function messageEnds(messages: readonly unknown[]): number[] {
  let count = 0
  return messages.map((message, i) => (count += parseMessage(message, i).length))
}

/** The custom tools (what the model may call), with where each is in `tools`; server tools are taken and never called. */
export function parseTools(tools: readonly unknown[] | undefined): { tools: Tool[]; places: number[] } {
  const out: Tool[] = []
  const places: number[] = []
  const seen = new Set<string>()
  ;(tools ?? []).forEach((tool, i) => {
    const at = `tools[${i}]`
    if (!isObject(tool)) throw fieldError(at, 'must be an object')
    if (tool.type === 'function')
      throw fieldError(`${at}.type`, 'is "function", the chat completions tool shape: a Messages tool is {"name", "description", "input_schema"}')
    if (tool.type !== undefined && tool.type !== null && tool.type !== 'custom') {
      // A server tool (bash_20250124, web_search_20250305, openrouter:web_search...): the emulator runs none.
      // Those the document spells out have their required fields checked; it takes any other type too.
      if (typeof tool.type !== 'string' || tool.type === '' || tool.type.length > 128) throw fieldError(`${at}.type`, 'must be a non-empty string')
      MESSAGES_SERVER_TOOLS.get(tool.type)?.(tool, at)
      return
    }
    const name = checkToolName(tool.name, `${at}.name`)
    if (seen.has(name)) throw fieldError(`${at}.name`, `repeats the name ${name}`)
    seen.add(name)
    if (tool.description !== undefined && typeof tool.description !== 'string') throw fieldError(`${at}.description`, 'must be a string')
    if (tool.input_schema === undefined) throw fieldError(`${at}.input_schema`, 'is required (a JSON Schema of the tool’s input)')
    out.push({ name, description: tool.description ?? '', parameters: checkSchema(tool.input_schema, `${at}.input_schema`) })
    places.push(i)
  })
  return { tools: out, places }
}

export function parseToolChoice(choice: unknown, tools: readonly Tool[]): ToolChoice {
  if (choice === undefined || choice === null) return tools.length > 0 ? { kind: 'auto' } : { kind: 'none' }
  if (!isObject(choice)) throw fieldError('tool_choice', 'must be an object: {"type":"auto"}, {"type":"any"}, {"type":"none"} or {"type":"tool","name":"..."}')
  if (choice.disable_parallel_tool_use !== undefined && typeof choice.disable_parallel_tool_use !== 'boolean')
    throw fieldError('tool_choice.disable_parallel_tool_use', 'must be a boolean')
  switch (choice.type) {
    case 'auto':
    case 'none':
      return { kind: choice.type }
    case 'any':
      if (tools.length === 0) throw fieldError('tool_choice.type', 'is "any" but the request has no custom `tools`')
      return { kind: 'required' }
    case 'tool': {
      const name = choice.name
      if (typeof name !== 'string' || name === '') throw fieldError('tool_choice.name', 'must be a non-empty string')
      if (!tools.some((t) => t.name === name)) throw fieldError('tool_choice.name', `names ${name}, which is not among the request's custom \`tools\``)
      return { kind: 'named', name }
    }
    default:
      throw fieldError('tool_choice.type', 'must be one of auto, any, none, tool')
  }
}

const EFFORTS = ['low', 'medium', 'high', 'xhigh', 'max'] as const
/**
 * thinking.display: the document's `summarized` and `omitted`, and `updates` (Claude Code 2.1 with its
 * thinking-display-updates beta), shown as `summarized` is. `omitted` keeps the blocks and their
 * signatures with an empty `thinking`.
 */
const DISPLAYS = ['summarized', 'omitted', 'updates']

/** What output_config asks: an effort (for adaptive thinking) and an output format. */
export function parseOutputConfig(config: unknown): { effort: ReasoningEffort | null; format: ResponseFormat } {
  if (config === undefined || config === null) return { effort: null, format: { kind: 'text' } }
  if (!isObject(config)) throw fieldError('output_config', 'must be an object')
  const effort = config.effort
  if (effort !== undefined && effort !== null && !(EFFORTS as readonly unknown[]).includes(effort))
    throw fieldError('output_config.effort', `must be one of ${EFFORTS.join(', ')}`)
  const format = config.format
  if (format === undefined || format === null) return { effort: (effort as ReasoningEffort | null | undefined) ?? null, format: { kind: 'text' } }
  if (!isObject(format)) throw fieldError('output_config.format', 'must be {"type":"json_schema","schema":{...}}')
  if (format.type !== 'json_schema') throw fieldError('output_config.format.type', 'must be json_schema')
  if (format.schema === undefined) throw fieldError('output_config.format.schema', 'is required')
  return {
    effort: (effort as ReasoningEffort | null | undefined) ?? null,
    format: { kind: 'json_schema', name: 'output', schema: checkSchema(format.schema, 'output_config.format.schema') },
  }
}

/** Thinking asked for: a budget (enabled), the effort's amount (adaptive), or none; and whether its text is shown. */
export function parseThinking(thinking: unknown, effort: ReasoningEffort | null): { reasoning: TextAsk['reasoning']; omitted: boolean } {
  if (thinking === undefined || thinking === null) return { reasoning: null, omitted: false }
  if (!isObject(thinking)) throw fieldError('thinking', 'must be {"type":"enabled","budget_tokens":n}, {"type":"adaptive"} or {"type":"disabled"}')
  const display = thinking.display
  if (display !== undefined && display !== null && !DISPLAYS.includes(display as string))
    throw fieldError('thinking.display', `must be one of ${DISPLAYS.join(', ')}`)
  const omitted = display === 'omitted'
  switch (thinking.type) {
    case 'disabled':
      return { reasoning: null, omitted: false }
    case 'adaptive':
      return { reasoning: { effort: effort ?? 'medium' }, omitted }
    case 'enabled': {
      const budget = thinking.budget_tokens
      if (typeof budget !== 'number' || !Number.isInteger(budget) || budget < 1 || budget > 10_000_000)
        throw fieldError('thinking.budget_tokens', 'must be an integer from 1 to 10000000')
      return { reasoning: { maxTokens: budget }, omitted }
    }
    default:
      throw fieldError('thinking.type', 'must be one of enabled, disabled, adaptive')
  }
}
