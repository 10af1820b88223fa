// The Messages API on the text engine: a body is read into the engine's ask (messages.input.ts, every
// problem named by its Messages field), the engine writes, bills and records the answer (a chat
// fixture may give it), and this file renders the completion as an Anthropic message. The message id
// is the generation's with `msg_` for `gen-`, so GET /api/v1/generation finds it.
import { createHash } from 'node:crypto'
import { reasoningSignature } from '../text/text-reasoning.service.ts'
import { fieldError } from '../../core/errors.ts'
import type { AuthContext } from '../caller.ts'
import type { EmulatorContext } from '../module.ts'
import { questionOf, type Answer } from '../text/text-answer.service.ts'
import { costSplit, generateText, type Completion, type Relayed, type TextAsk, type TextCall, type WebSearch } from '../text/text-engine.service.ts'
import { checkStopServerTools, parseDatetime } from '../text/text-tools.input.ts'
import { parseWebSearch, webSearchFields } from '../text/text-web.input.ts'
import { modelNotFound } from '../catalog/catalog.errors.ts'
import { AUTO_ROUTER } from '../catalog/catalog-resolve.service.ts'
import { parseAutoRouter } from '../text/text.input.ts'
import { anthropicError } from '../../http/error-handler.ts'
import { messagesUpstream } from './messages-upstream.service.ts'
import type { TextSurface } from '../text/text-ports.service.ts'
import type { MessagesPresetBody } from '../presets/presets.schemas.ts'
import { fromMessages, toMessages } from './messages-preset.service.ts'
import type { PresetContent, PresetReference } from '../presets/presets-config.service.ts'
import { breakpointsOf, systemBreakpoints } from '../text/text-cache.input.ts'
import { messageEnds, parseMessages, parseOutputConfig, parseSystem, parseThinking, parseToolChoice, parseTools } from './messages.input.ts'
import type { MessagesBody } from './messages.schemas.ts'
import { parsePlugins } from '../text/text-plugins.input.ts'

export const OPERATION = 'messages.create'

/** What rendering needs beyond the completion: whether thinking text is shown, the page a web fetch tool reads. */
export interface MessageOptions {
  thinkingOmitted: boolean
  /** The url the web fetch tool (`web_fetch_20250910`, `openrouter:web_fetch`) reads: the last user turn's first. */
  fetch?: { url: string } | null
  /** A tool forced by `tool_choice` whose made-up call the answer holds (nothing in it is run). */
  forced?: ForcedTool | null
}

/**
 * A forced Anthropic-defined tool: client-run (bash, a text editor, computer: a tool_use block for the client
 * to run) or code execution (a server_tool_use and its made-up result before the text).
 */
export interface ForcedTool {
  kind: 'bash' | 'text_editor' | 'computer' | 'code_execution'
  name: string
  /** The question's key words (letters and digits only). */
  words: string
}

/** A question's key words (letters and digits only, so safe in a command): up to five of four letters or more. */
function keyWords(question: string): string {
  const words = (question.match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length >= 4).slice(0, 5)
  return words.length > 0 ? words.join(' ') : 'hello'
}

/** The kind of an offered Anthropic-defined tool `tool_choice` may force by name, from its versioned type. */
function forcedKind(type: string): ForcedTool['kind'] | null {
  if (type.startsWith('bash_20')) return 'bash'
  if (type.startsWith('text_editor_20')) return 'text_editor'
  if (type.startsWith('computer_20')) return 'computer'
  if (type.startsWith('code_execution_20')) return 'code_execution'
  return null
}

/** The name each kind is called by (a text editor's is the name the request gives it). */
const DEFAULT_NAMES: Record<ForcedTool['kind'], string> = {
  bash: 'bash',
  text_editor: 'str_replace_based_edit_tool',
  computer: 'computer',
  code_execution: 'code_execution',
}

/** `tool_choice: {type: "tool", name}` naming an offered Anthropic-defined tool (not a custom one): the tool forced, else null. */
function forcedOf(body: MessagesBody, question: string): { forced: ForcedTool; place: number } | null {
  const choice = body.tool_choice as { type?: unknown; name?: unknown } | null | undefined
  if (choice?.type !== 'tool' || typeof choice.name !== 'string') return null
  const tools = (body.tools ?? []) as Array<{ type?: unknown; name?: unknown }>
  for (const [place, tool] of tools.entries()) {
    const kind = typeof tool.type === 'string' ? forcedKind(tool.type) : null
    if (kind === null) continue
    const name = typeof tool.name === 'string' ? tool.name : DEFAULT_NAMES[kind]
    if (name === choice.name) return { forced: { kind, name, words: keyWords(question) }, place }
  }
  return null
}

/** A forced client-run tool's input, as Anthropic's tool documents it (a harmless echo, a notes file, a screenshot). */
function forcedInput(forced: ForcedTool): Record<string, unknown> {
  if (forced.kind === 'bash') return { command: `echo ${forced.words}` }
  if (forced.kind === 'text_editor') return { command: 'create', path: 'notes.md', file_text: `# Notes\n${forced.words}\n` }
  return { action: 'screenshot' }
}

const FETCH_TOOLS = new Set(['web_fetch_20250910', 'web_fetch_20260209', 'openrouter:web_fetch'])
const URL_IN_TEXT = /https?:\/\/[^\s<>"')\]]+/

/** The url a web fetch tool reads, where the request offers one and its last user turn names a url. */
function fetchOf(tools: unknown, question: string): { url: string } | null {
  if (!Array.isArray(tools) || !tools.some((t: unknown) => typeof t === 'object' && t !== null && FETCH_TOOLS.has((t as { type?: string }).type ?? '')))
    return null
  const url = URL_IN_TEXT.exec(question)?.[0]
  return url === undefined ? null : { url }
}

/** A Messages body as the engine's ask, with how the answer is to be rendered. */
export function messagesAsk(ctx: EmulatorContext, body: MessagesBody): { ask: TextAsk; options: MessageOptions } {
  if (body.models && body.fallbacks) throw fieldError('fallbacks', 'cannot be combined with `models`')
  const candidates = [body.model, ...(body.models ?? []), ...(body.fallbacks ?? []).map((f) => f.model)]
  // The Messages API answers a model it does not know with a 404 (the engine's words are chat's 400);
  // ids are read as everywhere (Claude Code's `claude-opus-5-5` is a name of the catalog's model).
  // A model a recording answers (--replay) is answered even where the catalog lacks it.
  const known = (id: string) => id === AUTO_ROUTER || ctx.services.catalog.tryResolve(id, 'text') || ctx.services.text.ports.answersModel(id)
  if (!candidates.some(known)) throw modelNotFound(body.model)
  const { tools, places } = parseTools(body.tools)
  const forcing = forcedOf(body, questionOf(parseMessages(body.messages)))
  const clientRun = forcing !== null && forcing.forced.kind !== 'code_execution'
  // A forced client-run tool is called as a tool of its name (the engine writes and bills the call); its input is made up in blocksOf.
  if (clientRun) {
    tools.push({ name: forcing.forced.name, description: `The ${forcing.forced.kind} tool`, parameters: { type: 'object' } })
    places.push(forcing.place)
  }
  const output = parseOutputConfig(body.output_config)
  const thinking = parseThinking(body.thinking, output.effort)
  const system = parseSystem(body.system)
  const messages = [...system, ...parseMessages(body.messages)]
  // Breakpoints: the tools', the system blocks' (the tools and the system prompt), each message's (its turn
  // read as the engine's messages: a tool_result is one of its own) and the request's.
  const cache = [
    ...systemBreakpoints(body.system, system.length),
    ...breakpointsOf(body, { items: body.messages, field: 'messages', before: system.length, ends: () => messageEnds(body.messages) }, messages.length),
  ]
  const plugins = (body as { plugins?: unknown }).plugins
  checkStopServerTools((body as { stop_server_tools_when?: unknown }).stop_server_tools_when)
  const webSearch = parseWebSearch(plugins, body.tools)
  const ask: TextAsk = {
    candidates,
    messages,
    tools,
    // A forced code execution's call is made up: the answer is text after it.
    toolChoice: forcing && !clientRun ? { kind: 'none' } : parseToolChoice(body.tool_choice, tools),
    // `tool_choice.disable_parallel_tool_use: true`: at most one tool_use block.
    parallel: (body.tool_choice as { disable_parallel_tool_use?: unknown } | null | undefined)?.disable_parallel_tool_use !== true,
    format: output.format,
    maxTokens: body.max_tokens ?? null,
    stop: body.stop_sequences ?? [],
    choices: 1,
    seed: null,
    reasoning: thinking.reasoning,
    provider: body.provider,
    user: body.metadata?.user_id ?? body.user ?? null,
    fields: { tool: (i) => `tools[${places[i]}].input_schema`, format: 'output_config.format.schema' },
    autoRouter: parseAutoRouter(plugins),
    plugins: parsePlugins(plugins),
    ...(cache.length > 0 && { cache }),
    // A web search (Anthropic's web_search tools, openrouter:web_search, the web plugin): its pages are
    // given as web_search_tool_result blocks and the text's citations (blocksOf), not as a sources list.
    ...webSearchFields(webSearch, body.tool_choice),
    datetime: parseDatetime(body.tools),
  }
  return {
    ask,
    options: {
      thinkingOmitted: thinking.omitted,
      fetch: (body.tool_choice as { type?: string } | undefined)?.type === 'none' ? null : fetchOf(body.tools, questionOf(ask.messages)),
      forced: forcing?.forced ?? null,
    },
  }
}

/** A body read once (the recordings' hook may have read it before the handler). */
const parsed = (ctx: EmulatorContext, body: MessagesBody) => ctx.services.text.ports.parseOnce(body, () => messagesAsk(ctx, body))

/** The Messages API, registered with the text engine: Anthropic's envelope and events. */
export const messagesSurface: TextSurface = {
  name: 'messages',
  operation: OPERATION,
  ask: (ctx, body) => parsed(ctx, body as MessagesBody).ask,
  envelope: 'anthropic',
  upstream: messagesUpstream,
  preset: {
    read: (body) => fromMessages(body as MessagesPresetBody),
    apply: (body, content, named) => toMessages(body, content as PresetContent, named as PresetReference),
  },
  streamErrorFrame: (status, message) => `event: error\ndata: ${JSON.stringify({ type: 'error', error: anthropicError(status, message) })}\n\n`,
}

export async function createMessage(
  ctx: EmulatorContext,
  caller: AuthContext,
  body: MessagesBody,
  call: TextCall,
): Promise<{ completion: Completion | Relayed; options: MessageOptions }> {
  const { ask, options } = parsed(ctx, body)
  return { completion: await generateText(ctx, caller, ask, call), options }
}

export const messageId = (completion: Completion): string => `msg_${completion.id.slice('gen-'.length)}`

/** A tool call's id as Anthropic spells one: `toolu_` and the engine's (seeded) hex. */
export const toolUseId = (callId: string): string => `toolu_${callId.replace(/^call_/, '')}`

type StopReason = 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use'

export function stopOf(answer: Answer): { reason: StopReason; sequence: string | null } {
  if (answer.finishReason === 'length') return { reason: 'max_tokens', sequence: null }
  if (answer.finishReason === 'tool_calls') return { reason: 'tool_use', sequence: null }
  return answer.stopSequence === undefined ? { reason: 'end_turn', sequence: null } : { reason: 'stop_sequence', sequence: answer.stopSequence }
}

/** A thinking block's signature: fixed by the model and the thinking, as a real one verifies them. */
export const signatureOf = (completion: Completion, thinking: string): string => reasoningSignature(completion.model.id, thinking)

/** A tool call's input as an object: arguments cut by max_tokens are no JSON, and give `{}`. */
export function inputOf(args: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(args)
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

/** A text block's citation of a page the web search found (the document's AnthropicCitationWebSearchResultLocation). */
export interface WebCitation {
  type: 'web_search_result_location'
  url: string
  title: string
  cited_text: string
  encrypted_index: string
}

/** A page the web search found, as a web_search_tool_result block lists it (AnthropicWebSearchResult). */
export interface WebResult {
  type: 'web_search_result'
  url: string
  title: string
  encrypted_content: string
  page_age: null
}

export type ContentBlock =
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'text'; text: string; citations: WebCitation[] | null }
  | {
      type: 'server_tool_use'
      id: string
      name: 'web_search' | 'web_fetch' | 'bash_code_execution'
      input: Record<string, unknown>
      caller: { type: 'direct' }
    }
  | { type: 'bash_code_execution_tool_result'; tool_use_id: string; content: Record<string, unknown> }
  | { type: 'web_search_tool_result'; tool_use_id: string; content: WebResult[]; caller: { type: 'direct' } }
  | { type: 'web_fetch_tool_result'; tool_use_id: string; content: Record<string, unknown>; caller: { type: 'direct' } }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown>; caller: { type: 'direct' } }

/** A block of the answer, with a tool call's arguments as written (a stream sends them as they are). */
export interface AnswerBlock {
  block: ContentBlock
  json?: string
}

/** The search's server tool id: `srvtoolu_` and hex fixed by the generation. */
const serverToolUseId = (completion: Completion): string => `srvtoolu_${createHash('sha256').update(`${completion.id}:web_search`).digest('hex').slice(0, 24)}`

/** An opaque token standing for a page's content (the real one is encrypted; this one is its text in base64). */
const opaque = (text: string): string => Buffer.from(text, 'utf8').toString('base64')

/** The web search as Anthropic's server tool blocks: the search made and the pages it found. */
function searchBlocks(completion: Completion, search: WebSearch): AnswerBlock[] {
  const id = serverToolUseId(completion)
  const input = { query: search.query }
  return [
    { block: { type: 'server_tool_use', id, name: 'web_search', input, caller: { type: 'direct' } }, json: JSON.stringify(input) },
    {
      block: {
        type: 'web_search_tool_result',
        tool_use_id: id,
        content: search.pages.map((page) => ({
          type: 'web_search_result',
          url: page.url,
          title: page.title,
          encrypted_content: opaque(page.content),
          page_age: null,
        })),
        caller: { type: 'direct' },
      },
    },
  ]
}

/** Hosts a fetch may read: reserved example domains only (nothing is fetched; the page is made up). */
const EXAMPLE_HOST = /(^|\.)(example|example\.(com|org|net))$/

/**
 * The web fetch as Anthropic's blocks: the fetch asked and its result, a made-up page of plain text for a
 * url on an example domain (the same url, the same page), else a `url_not_allowed` error. Nothing is fetched.
 */
function fetchBlocks(completion: Completion, url: string): AnswerBlock[] {
  const id = `srvtoolu_${createHash('sha256').update(`${completion.id}:web_fetch`).digest('hex').slice(0, 24)}`
  const input = { url }
  let host = ''
  try {
    host = new URL(url).hostname
  } catch {
    host = ''
  }
  const words = url
    .replace(/^https?:\/\/[^/]+/, '')
    .split(/[^a-zA-Z0-9]+/)
    .filter((w) => w !== '')
  const content = EXAMPLE_HOST.test(host)
    ? {
        type: 'web_fetch_result',
        url,
        retrieved_at: new Date(completion.created * 1000).toISOString(),
        content: {
          type: 'document',
          source: {
            type: 'text',
            media_type: 'text/plain',
            data: `${host} page ${words.join(' ') || 'home'}: an emulated fetch, made up for the request (nothing was fetched).`,
          },
          title: `${host}${words.length > 0 ? ` | ${words.join(' ')}` : ''}`,
          citations: null,
        },
      }
    : { type: 'web_fetch_tool_result_error', error_code: 'url_not_allowed' }
  return [
    { block: { type: 'server_tool_use', id, name: 'web_fetch', input, caller: { type: 'direct' } }, json: JSON.stringify(input) },
    { block: { type: 'web_fetch_tool_result', tool_use_id: id, content, caller: { type: 'direct' } } },
  ]
}

/**
 * A forced code execution (code_execution_20250825) as Anthropic's blocks: the bash command it ran and its
 * made-up result (the document's AnthropicBashCodeExecutionToolResult). Nothing is run.
 */
function codeExecutionBlocks(completion: Completion, forced: ForcedTool): AnswerBlock[] {
  const id = `srvtoolu_${createHash('sha256').update(`${completion.id}:code_execution`).digest('hex').slice(0, 24)}`
  const input = { command: `echo ${forced.words}` }
  const content = { type: 'bash_code_execution_result', stdout: `${forced.words}\n`, stderr: '', return_code: 0, content: [] }
  return [
    { block: { type: 'server_tool_use', id, name: 'bash_code_execution', input, caller: { type: 'direct' } }, json: JSON.stringify(input) },
    { block: { type: 'bash_code_execution_tool_result', tool_use_id: id, content } },
  ]
}

/** The text's citations: each page the search found, its content the cited text. */
const citationsOf = (search: WebSearch): WebCitation[] =>
  search.pages.map((page, i) => ({
    type: 'web_search_result_location',
    url: page.url,
    title: page.title,
    cited_text: page.content,
    encrypted_index: opaque(`${i}:${page.url}`),
  }))

/**
 * The answer's blocks, in order: thinking (where asked and the model reasons), the web search made (a
 * server_tool_use and its web_search_tool_result, where one was asked), text (citing the pages found),
 * tool uses.
 */
export function blocksOf(completion: Completion, options: MessageOptions): AnswerBlock[] {
  const answer = completion.answers[0]!
  const blocks: AnswerBlock[] = []
  if (answer.reasoning !== null)
    blocks.push({
      block: { type: 'thinking', thinking: options.thinkingOmitted ? '' : answer.reasoning, signature: signatureOf(completion, answer.reasoning) },
    })
  const search = completion.webSearch
  if (search) blocks.push(...searchBlocks(completion, search))
  if (options.fetch) blocks.push(...fetchBlocks(completion, options.fetch.url))
  const forced = options.forced ?? null
  if (forced?.kind === 'code_execution') blocks.push(...codeExecutionBlocks(completion, forced))
  if (answer.content) blocks.push({ block: { type: 'text', text: answer.content, citations: search ? citationsOf(search) : null } })
  for (const call of answer.toolCalls) {
    // A forced client-run tool's input is made up (see forcedInput), the engine's arguments aside.
    const made = forced && forced.kind !== 'code_execution' && call.function.name === forced.name ? JSON.stringify(forcedInput(forced)) : null
    const json = made ?? call.function.arguments
    const block: ContentBlock = {
      type: 'tool_use',
      id: toolUseId(call.id),
      name: call.function.name,
      input: inputOf(json),
      caller: { type: 'direct' },
    }
    blocks.push({ block, json })
  }
  return blocks
}

/**
 * The prompt's tokens as Anthropic counts them: `input_tokens` those neither read from the cache nor
 * written to it, then the two cache counts, and the written ones by life where there are any.
 */
export function cacheUsage(completion: Completion, outputTokens: number): Record<string, unknown> {
  const cache = completion.cache ?? { read: 0, write5m: 0, write1h: 0 }
  const written = cache.write5m + cache.write1h
  return {
    input_tokens: completion.promptTokens - cache.read - written,
    output_tokens: outputTokens,
    cache_creation_input_tokens: written,
    cache_read_input_tokens: cache.read,
    cache_creation: written === 0 ? null : { ephemeral_5m_input_tokens: cache.write5m, ephemeral_1h_input_tokens: cache.write1h },
  }
}

/**
 * Anthropic's server tool counts (AnthropicServerToolUsage): the web searches made (one where asked) and
 * pages fetched (none); null where the request used no server tool, as before.
 */
export function serverToolUsage(completion: Completion, options?: MessageOptions): { web_search_requests: number; web_fetch_requests: number } | null {
  const fetches = options?.fetch ? 1 : 0
  return completion.webSearch || fetches > 0 ? { web_search_requests: completion.webSearch ? 1 : 0, web_fetch_requests: fetches } : null
}

/** Usage as the document's AnthropicUsage, with the gateway's cost. */
export function usageOf(completion: Completion, options?: MessageOptions): Record<string, unknown> {
  const cost = costSplit(completion)
  return {
    ...cacheUsage(completion, completion.completionTokens),
    inference_geo: null,
    output_tokens_details: { thinking_tokens: completion.reasoningTokens },
    server_tool_use: serverToolUsage(completion, options),
    service_tier: 'standard',
    cost: cost.totalUsd,
    is_byok: completion.byok,
    cost_details: {
      upstream_inference_cost: null,
      upstream_inference_prompt_cost: cost.promptUsd,
      upstream_inference_completions_cost: cost.completionUsd,
    },
  }
}

/** What every rendering of the message starts with (the JSON answer, the stream's message_start). */
export function messageHead(completion: Completion): Record<string, unknown> {
  return { id: messageId(completion), type: 'message', role: 'assistant', model: completion.model.id, provider: completion.endpoint.provider_name }
}

export function messageResult(completion: Completion, options: MessageOptions): Record<string, unknown> {
  const stop = stopOf(completion.answers[0]!)
  return {
    ...messageHead(completion),
    content: blocksOf(completion, options).map(({ block }) => block),
    stop_reason: stop.reason,
    stop_sequence: stop.sequence,
    stop_details: null,
    container: null,
    usage: usageOf(completion, options),
  }
}
