// The server tools of the real document, as each surface's `tools` lists them: their `type` spellings
// and the fields each one requires, checked and named on a 400 (`tools[3].server_label`). On chat and
// Responses, a web search tool runs the emulated search (text-web.input.ts); chat's `openrouter:datetime`
// has its time zone checked here and its statement written by the text engine. The other server tools are
// accepted and not run: they add no output items (see docs/responses.md, docs/messages.md and
// docs/gateway-api.md for chat). Function, custom and namespace tools are read by each surface's own input file.
import { fieldError } from '../../core/errors.ts'

type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value)

/** A check of one server tool's required fields (beyond `type`); `at` is its place, `tools[i]`. */
type Check = (tool: Json, at: string) => void

const none: Check = () => {}

/** A field that must be one fixed string (Anthropic's versioned tools fix their `name`). */
const fixedName =
  (name: string): Check =>
  (tool, at) => {
    if (tool.name !== name) throw fieldError(`${at}.name`, `must be "${name}" for a ${String(tool.type)} tool`)
  }

const COMPUTER_ENVIRONMENTS = ['windows', 'mac', 'linux', 'ubuntu', 'browser']

const positiveInteger = (tool: Json, field: string, at: string): void => {
  const value = tool[field]
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) throw fieldError(`${at}.${field}`, 'is required: a positive integer')
}

/** The gateway's own server tools, the same on every surface that lists them. */
const OPENROUTER_TYPES = [
  'openrouter:advisor',
  'openrouter:apply_patch',
  'openrouter:bash',
  'openrouter:datetime',
  'openrouter:experimental__search_models',
  'openrouter:files',
  'openrouter:fusion',
  'openrouter:image_generation',
  'openrouter:shell',
  'openrouter:subagent',
  'openrouter:tool_search',
  'openrouter:web_fetch',
  'openrouter:web_search',
] as const

const WEB_SEARCH_SPELLINGS = ['web_search', 'web_search_preview', 'web_search_preview_2025_03_11', 'web_search_2025_08_26'] as const

const byType = (types: readonly string[], check: Check = none): Array<[string, Check]> => types.map((type) => [type, check])

/** Responses: OpenAI's hosted tools and Codex's, then the gateway's (`function`, `custom`, `namespace` are the surface's own). */
export const RESPONSES_SERVER_TOOLS: ReadonlyMap<string, Check> = new Map([
  ...byType(WEB_SEARCH_SPELLINGS),
  [
    'file_search',
    (tool, at) => {
      const ids = tool.vector_store_ids
      if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string'))
        throw fieldError(`${at}.vector_store_ids`, 'is required: an array of vector store ids')
    },
  ],
  [
    'computer_use_preview',
    (tool, at) => {
      positiveInteger(tool, 'display_width', at)
      positiveInteger(tool, 'display_height', at)
      if (!COMPUTER_ENVIRONMENTS.includes(tool.environment as string))
        throw fieldError(`${at}.environment`, `is required: one of ${COMPUTER_ENVIRONMENTS.join(', ')}`)
    },
  ],
  [
    'code_interpreter',
    (tool, at) => {
      const container = tool.container
      if (typeof container === 'string' && container !== '') return
      if (isObject(container) && container.type === 'auto') return
      throw fieldError(`${at}.container`, 'is required: a container id, or {"type": "auto"}')
    },
  ],
  [
    'mcp',
    (tool, at) => {
      if (typeof tool.server_label !== 'string' || tool.server_label === '') throw fieldError(`${at}.server_label`, 'is required: a non-empty string')
    },
  ],
  ...byType(['image_generation', 'local_shell', 'shell', 'apply_patch']),
  ...byType(OPENROUTER_TYPES),
  ['openrouter:datetime', (tool, at) => datetimeCheck(tool, at)],
])

/** An IANA time zone name this runtime knows (`America/New_York`, `UTC`). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone })
    return true
  } catch {
    return false
  }
}

/** The datetime tool's `parameters`: an object whose `timezone`, where given, is an IANA zone (UTC when absent). */
const datetimeCheck: Check = (tool, at) => {
  const parameters = tool.parameters
  if (parameters === undefined || parameters === null) return
  if (!isObject(parameters)) throw fieldError(`${at}.parameters`, 'must be an object')
  const zone = parameters.timezone
  if (zone === undefined || zone === null) return
  if (typeof zone !== 'string' || !isTimeZone(zone)) throw fieldError(`${at}.parameters.timezone`, 'must be an IANA time zone name (e.g. "America/New_York")')
}

/**
 * The `openrouter:datetime` tool a request offers (the first one): its time zone, UTC when not given; null
 * when there is none. Its shape is checked by the surface's table (datetimeCheck) before.
 */
export function parseDatetime(tools: unknown): { timezone: string } | null {
  if (!Array.isArray(tools)) return null
  const tool: unknown = tools.find((t) => isObject(t) && t.type === 'openrouter:datetime')
  if (!isObject(tool)) return null
  const zone = isObject(tool.parameters) ? tool.parameters.timezone : undefined
  return { timezone: typeof zone === 'string' ? zone : 'UTC' }
}

/** The image model each image tool uses when it names none (the real document's default for the gateway's). */
const IMAGE_TOOL_MODELS: Record<string, string> = { image_generation: 'openai/gpt-image-1', 'openrouter:image_generation': 'openai/gpt-5-image' }

/**
 * The `image_generation` tool a Responses request offers (or `openrouter:image_generation`): the catalog id
 * of its image model (`gpt-image-1` is read as `openai/gpt-image-1`) and where a 400 about it points; null
 * when there is none.
 */
export function parseImageTool(tools: unknown): { model: string; field: string } | null {
  if (!Array.isArray(tools)) return null
  const at = tools.findIndex((t) => isObject(t) && (t.type === 'image_generation' || t.type === 'openrouter:image_generation'))
  if (at === -1) return null
  const tool = tools[at] as Json
  const parameters = isObject(tool.parameters) ? tool.parameters : tool
  const field = `tools[${at}]${parameters === tool ? '' : '.parameters'}.model`
  const model = parameters.model
  if (model === undefined || model === null) return { model: IMAGE_TOOL_MODELS[tool.type as string]!, field }
  if (typeof model !== 'string' || model === '') throw fieldError(field, 'must be an image model id (e.g. "gpt-image-1")')
  return { model: model.includes('/') ? model : `openai/${model}`, field }
}

/** Each stop condition of `stop_server_tools_when` (the real document's StopServerToolsWhenCondition) and its field's check. */
const STOP_CONDITIONS: Record<string, { field: string; ok: (value: unknown) => boolean; says: string }> = {
  step_count_is: { field: 'step_count', ok: (v) => Number.isInteger(v) && (v as number) >= 0, says: 'an integer, 0 or more' },
  has_tool_call: { field: 'tool_name', ok: (v) => typeof v === 'string' && v !== '', says: 'a non-empty string' },
  max_tokens_used: { field: 'max_tokens', ok: (v) => Number.isInteger(v) && (v as number) >= 0, says: 'an integer, 0 or more' },
  max_cost: { field: 'max_cost_in_dollars', ok: (v) => typeof v === 'number' && Number.isFinite(v) && v >= 0, says: 'a number of dollars, 0 or more' },
  finish_reason_is: { field: 'reason', ok: (v) => typeof v === 'string' && v !== '', says: 'a non-empty string' },
}

/**
 * `stop_server_tools_when` checked (a 400 names the condition's field). The emulator's server tools run in
 * one step, whose pending calls the real loop runs even when a condition fires: no condition changes an
 * answer here, so they are checked and kept to no effect.
 */
export function checkStopServerTools(value: unknown): void {
  if (value === undefined || value === null) return
  const field = 'stop_server_tools_when'
  if (!Array.isArray(value) || value.length === 0) throw fieldError(field, 'must be a non-empty array of stop conditions')
  value.forEach((condition: unknown, i) => {
    const at = `${field}[${i}]`
    const rule = isObject(condition) && typeof condition.type === 'string' ? STOP_CONDITIONS[condition.type] : undefined
    if (!isObject(condition) || !rule) throw fieldError(`${at}.type`, `must be one of ${Object.keys(STOP_CONDITIONS).join(', ')}`)
    if (!rule.ok(condition[rule.field])) throw fieldError(`${at}.${rule.field}`, `is required: ${rule.says}`)
  })
}

/** Chat completions: the gateway's server tools and the web search shorthand (`function` is chat's own). */
export const CHAT_SERVER_TOOLS: ReadonlyMap<string, Check> = new Map([
  ...byType(OPENROUTER_TYPES.filter((type) => !['openrouter:apply_patch', 'openrouter:shell', 'openrouter:tool_search'].includes(type))),
  ['openrouter:datetime', datetimeCheck],
  ...byType(WEB_SEARCH_SPELLINGS),
])

const advisorCheck = (tool: Json, at: string): void => {
  fixedName('advisor')(tool, at)
  if (typeof tool.model !== 'string' || tool.model === '') throw fieldError(`${at}.model`, 'is required: the advisor model’s id')
}

/**
 * Messages: Anthropic's versioned server tools with the fields the document requires, and the gateway's.
 * The document also takes any other `{type: "..."}` object here (newer Anthropic tools: code_execution,
 * web_fetch, memory, computer...), so an unlisted type is accepted as a server tool too.
 */
export const MESSAGES_SERVER_TOOLS: ReadonlyMap<string, Check> = new Map([
  ['bash_20250124', fixedName('bash')],
  ['text_editor_20250124', fixedName('str_replace_editor')],
  ['web_search_20250305', fixedName('web_search')],
  ['web_search_20260209', fixedName('web_search')],
  ['advisor_20260301', advisorCheck],
  ...byType(['tool_search_tool_bm25_20251119', 'tool_search_tool_bm25'], fixedName('tool_search_tool_bm25')),
  ...byType(['tool_search_tool_regex_20251119', 'tool_search_tool_regex'], fixedName('tool_search_tool_regex')),
  ...byType(['openrouter:bash', 'openrouter:datetime', 'openrouter:image_generation', 'openrouter:experimental__search_models']),
  ...byType(['openrouter:web_fetch', 'openrouter:web_search', 'openrouter:shell', 'openrouter:tool_search']),
  ['openrouter:datetime', (tool, at) => datetimeCheck(tool, at)],
])

/**
 * A server tool checked against its surface's list: its required fields, or a 400 naming `tools[i].type`
 * with every type the surface takes (`own` first: the tools the model itself calls).
 */
export function checkServerTool(tool: Json, at: string, known: ReadonlyMap<string, Check>, own: readonly string[]): void {
  const check = typeof tool.type === 'string' ? known.get(tool.type) : undefined
  if (!check) throw fieldError(`${at}.type`, `must be one of ${[...own, ...known.keys()].join(', ')}`)
  check(tool, at)
}
