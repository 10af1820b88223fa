// The Responses API on the text engine: a body is read into the engine's ask (responses.input.ts, every
// problem named by its Responses field), the engine writes, bills and records the answer (chat fixtures
// answer it too), and this file renders the Completion as a `response` object: its output items
// (reasoning, a message, function calls), status, usage and cost, and the request's settings echoed.
import { fieldError } from '../../core/errors.ts'
import { sha256Hex } from '../../core/rng.ts'
import type { AuthContext } from '../caller.ts'
import type { EmulatorContext } from '../module.ts'
import { breakpointsOf } from '../text/text-cache.input.ts'
import { parseAutoRouter, type ToolCall } from '../text/text.input.ts'
import { parseWebSearch, webSearchFields } from '../text/text-web.input.ts'
import type { UrlCitation } from '../text/text-answer.service.ts'
import {
  costSplit,
  generateText,
  isRelayed,
  serverToolUseDetails,
  type Completion,
  type Relayed,
  type TextAsk,
  type TextCall,
  type WebSearch,
} from '../text/text-engine.service.ts'
import { checkStopServerTools, parseDatetime, parseImageTool } from '../text/text-tools.input.ts'
import { responsesUpstream } from './responses-upstream.service.ts'
import type { TextSurface } from '../text/text-ports.service.ts'
import type { ResponsesPresetBody } from '../presets/presets.schemas.ts'
import { fromResponses, toResponses } from './responses-preset.service.ts'
import type { PresetContent, PresetReference } from '../presets/presets-config.service.ts'
import { statelessOnly } from './responses.errors.ts'
import { checkMetadata, FORCED_TOOLS, parseFormat, parseInput, parseToolChoice, parseTools } from './responses.input.ts'
import type { ResponsesBody, SummaryVerbosity } from './responses.schemas.ts'
import { parsePlugins } from '../text/text-plugins.input.ts'
import { encryptedReasoning } from '../text/text-reasoning.service.ts'

/** What a response object says of its request besides the answer (the real API echoes its settings). */
export type ResponseEcho = Record<string, unknown>

/** A billed answer, with what its rendering needs of the request. */
export interface CreatedResponse {
  completion: Completion
  echo: ResponseEcho
  /** The reasoning summary asked for, or null (reasoning then comes as content only). */
  summary: SummaryVerbosity | null
  /** `include` has `reasoning.encrypted_content`: reasoning items carry the thought encrypted (to send back with `store: false`). */
  encrypted: boolean
  /** A namespaced function's name → its namespace (its function_call items say it). */
  namespaces: ReadonlyMap<string, string>
  /** A tool forced by `tool_choice` whose made-up call the answer holds, or null. */
  forced: ForcedCall | null
}

/** A forced tool's call, as the answer makes it up (nothing in it is run). */
export interface ForcedCall {
  type: string
  /** The last user turn's text: its key words make the call's content. */
  question: string
  /** `include` has `file_search_call.results`. */
  results: boolean
  /** The code interpreter tool's container id, where the request gives one. */
  container: string | null
}

/**
 * A client-run forced tool is called as a custom tool of this name (the engine writes and bills a call),
 * rendered as the tool's own call item; the colon keeps it apart from any tool the request names.
 */
const forcedToolName = (type: string): string => `forced:${type}`

/** Reasoning as the Responses API asks for it: effort `none` or `enabled: false` turn it off. */
function reasoningOf(body: ResponsesBody): TextAsk['reasoning'] {
  const reasoning = body.reasoning
  if (!reasoning || reasoning.enabled === false || reasoning.effort === 'none') return null
  return { effort: reasoning.effort ?? undefined, maxTokens: reasoning.max_tokens ?? undefined }
}

/** Fields of the real API that need state the emulator does not keep (it is stateless, as the gateway's). */
function refuseStateful(body: ResponsesBody): void {
  if (body.previous_response_id !== undefined && body.previous_response_id !== null) throw statelessOnly('previous_response_id')
  if (body.store === true) throw statelessOnly('store')
  if (body.prompt !== undefined && body.prompt !== null) throw statelessOnly('prompt')
}

/** A Responses body as the engine's ask. */
export function askOf(body: ResponsesBody): TextAsk {
  refuseStateful(body)
  checkMetadata(body.metadata)
  const candidates = [...(body.model ? [body.model] : []), ...(body.models ?? [])]
  if (candidates.length === 0) throw fieldError('model', 'is required (or `models`, a list to try in order)')
  const parsed = parseTools(body.tools)
  const { choice, allowed, forced } = parseToolChoice(body.tool_choice, parsed)
  // `allowed_tools` keeps only the functions it lists callable (with their places, for a 400 on one).
  const kept = parsed.tools.flatMap((tool, i) => (allowed === null || allowed.has(tool.name) ? [i] : []))
  const tools = kept.map((i) => parsed.tools[i]!)
  const clientRun = forced ? FORCED_TOOLS.get(forced) === 'client' : false
  // A forced client-run tool: the answer is its call (written and billed as a custom tool's), not text.
  if (clientRun) tools.push({ name: forcedToolName(forced!), description: `The ${forced!} tool`, parameters: {}, custom: true })
  const places = kept.map((i) => parsed.places[i]!)
  checkStopServerTools((body as { stop_server_tools_when?: unknown }).stop_server_tools_when)
  const webSearch = parseWebSearch((body as { plugins?: unknown }).plugins, body.tools)
  const messages = parseInput(body.input, body.instructions)
  // Automatic caching only (`cache_control` on the request: the whole prompt), as the real document places it.
  const cache = breakpointsOf({ cache_control: (body as { cache_control?: unknown }).cache_control }, { items: [], field: 'input', before: 0 }, messages.length)
  return {
    candidates,
    messages,
    tools,
    toolChoice: clientRun ? { kind: 'named', name: forcedToolName(forced!) } : choice,
    parallel: body.parallel_tool_calls !== false,
    format: parseFormat(body.text?.format),
    maxTokens: body.max_output_tokens ?? null,
    stop: [],
    choices: 1,
    seed: body.seed ?? null,
    reasoning: reasoningOf(body),
    provider: body.provider,
    user: body.user ?? body.safety_identifier ?? null,
    fields: { tool: (i) => places[i] ?? `tools[${i}].parameters`, format: 'text.format.schema' },
    autoRouter: parseAutoRouter((body as { plugins?: unknown }).plugins),
    plugins: parsePlugins((body as { plugins?: unknown }).plugins),
    ...webSearchFields(webSearch, body.tool_choice),
    webCitations: true,
    ...(cache.length > 0 && { cache }),
    datetime: parseDatetime(body.tools),
    // A tool the model calls: tool_choice "none" leaves it uncalled.
    imageTool: body.tool_choice === 'none' ? null : parseImageTool(body.tools),
    ...(forced && !clientRun && { forcedServerTool: true }),
  }
}

/** The forced tool's call the answer holds (see FORCED_TOOLS), or null. */
function forcedOf(body: ResponsesBody, ask: TextAsk): ForcedCall | null {
  const choice = body.tool_choice as { type?: unknown } | undefined | null
  const type = choice !== null && typeof choice === 'object' ? choice.type : undefined
  if (typeof type !== 'string' || !FORCED_TOOLS.has(type)) return null
  const question = ask.messages.findLast((m) => m.role === 'user')?.text ?? ''
  const tool = (body.tools ?? []).find((t) => (t as { type?: unknown }).type === 'code_interpreter') as { container?: unknown } | undefined
  return {
    type,
    question,
    results: body.include?.includes('file_search_call.results') === true,
    container: typeof tool?.container === 'string' ? tool.container : null,
  }
}

/** The request's settings as the response object repeats them. */
function echoOf(body: ResponsesBody): ResponseEcho {
  const tools = (body.tools ?? []) as Array<Record<string, unknown>>
  return {
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    max_tool_calls: null,
    metadata: body.metadata ?? null,
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: null,
    reasoning: body.reasoning ? { effort: body.reasoning.effort ?? null, summary: body.reasoning.summary ?? null } : null,
    store: false,
    temperature: body.temperature ?? null,
    top_p: body.top_p ?? null,
    presence_penalty: body.presence_penalty ?? null,
    frequency_penalty: body.frequency_penalty ?? null,
    text: { format: body.text?.format ?? { type: 'text' }, ...(body.text?.verbosity ? { verbosity: body.text.verbosity } : {}) },
    tool_choice: body.tool_choice ?? 'auto',
    // Function tools as the real API echoes them; every other tool as it was sent.
    tools: tools.map((t) =>
      t.type !== 'function'
        ? t
        : {
            type: 'function',
            name: t.name,
            description: t.description ?? null,
            parameters: t.parameters ?? null,
            strict: t.strict ?? null,
          },
    ),
    user: body.user ?? null,
    safety_identifier: body.safety_identifier ?? null,
  }
}

/** The Responses API, registered with the text engine. */
export const responsesSurface: TextSurface = {
  name: 'responses',
  operation: 'responses.create',
  ask: (ctx, body) => ctx.services.text.ports.parseOnce(body, () => askOf(body as ResponsesBody)),
  envelope: 'main',
  upstream: responsesUpstream,
  preset: {
    read: (body) => fromResponses(body as ResponsesPresetBody),
    apply: (body, content, named) => toResponses(body, content as PresetContent, named as PresetReference),
  },
  streamErrorFrame: (_status, message) => `event: error\ndata: ${JSON.stringify({ type: 'error', code: 'server_error', message, param: null })}\n\n`,
}

export async function createResponse(ctx: EmulatorContext, caller: AuthContext, body: ResponsesBody, call: TextCall): Promise<CreatedResponse | Relayed> {
  const ask = responsesSurface.ask(ctx, body)
  const completion = await generateText(ctx, caller, ask, call)
  if (isRelayed(completion)) return completion
  return {
    completion,
    echo: echoOf(body),
    summary: ask.reasoning ? (body.reasoning?.summary ?? null) : null,
    encrypted: body.include?.includes('reasoning.encrypted_content') === true,
    namespaces: parseTools(body.tools).namespaces,
    forced: forcedOf(body, ask),
  }
}

// ---- Rendering --------------------------------------------------------------------------------------

/** One output item, as the stream builds it up and the response object holds it. */
export type OutputItem =
  | { type: 'reasoning'; id: string; text: string; summary: string | null; encrypted: string | null; cut: boolean }
  | { type: 'message'; id: string; text: string; annotations: readonly UrlCitation[]; cut: boolean }
  | { type: 'function_call'; id: string; call: ToolCall; namespace?: string; cut: boolean }
  | { type: 'custom_tool_call'; id: string; call: ToolCall; namespace?: string; cut: boolean }
  | { type: 'web_search_call'; id: string; search: WebSearch; cut: boolean }
  | { type: 'image_generation_call'; id: string; result: string; cut: boolean }
  | { type: 'forced_call'; id: string; forced: ForcedCall; callId: string | null; cut: boolean }

/** The id prefixes of the forced tools' items, as OpenAI spells them. */
const FORCED_PREFIXES: Readonly<Record<string, string>> = {
  local_shell: 'lsh',
  shell: 'sh',
  apply_patch: 'apc',
  computer_use_preview: 'cu',
  code_interpreter: 'ci',
  file_search: 'fs',
}

/** The item type of each forced tool's call. */
const FORCED_ITEM_TYPES: Readonly<Record<string, string>> = {
  local_shell: 'local_shell_call',
  shell: 'shell_call',
  apply_patch: 'apply_patch_call',
  computer_use_preview: 'computer_call',
  code_interpreter: 'code_interpreter_call',
  file_search: 'file_search_call',
}

/** A question's key words (letters and digits only, so safe in a shell command and in code): up to five of four letters or more. */
export function keyWords(question: string): string {
  const words = (question.match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length >= 4).slice(0, 5)
  return words.length > 0 ? words.join(' ') : 'hello'
}

/** The code a forced code interpreter call ran (it never runs: its logs are made up). */
export const interpreterCode = (forced: ForcedCall): string => `print("${keyWords(forced.question)}")`

/** The diff a forced apply_patch call creates notes.md with. */
export const patchDiff = (forced: ForcedCall): string => `@@\n+# Notes\n+${keyWords(forced.question)}\n`

/** A forced tool's call item as the real document gives it (its stream sends it in progress first, then completed). */
function forcedJson(item: Extract<OutputItem, { type: 'forced_call' }>, done: boolean): Record<string, unknown> {
  const { forced } = item
  const type = FORCED_ITEM_TYPES[forced.type]!
  const words = keyWords(forced.question)
  const status = done ? (item.cut ? 'incomplete' : 'completed') : 'in_progress'
  const call = { type, id: item.id, call_id: item.callId }
  switch (forced.type) {
    case 'local_shell':
      return { ...call, action: { type: 'exec', command: ['echo', words], env: {}, timeout_ms: null, user: null, working_directory: null }, status }
    case 'shell':
      return { ...call, action: { commands: [`echo ${words}`], max_output_length: null, timeout_ms: null }, status }
    case 'apply_patch':
      return { ...call, operation: { type: 'create_file', path: 'notes.md', diff: done ? patchDiff(forced) : '' }, status }
    case 'computer_use_preview':
      return { ...call, action: { type: 'screenshot' }, pending_safety_checks: [], status }
    case 'code_interpreter':
      return {
        type,
        id: item.id,
        status,
        code: done ? interpreterCode(forced) : '',
        container_id: forced.container ?? `cntr_${sha256Hex(`container:${item.id}`).slice(0, 32)}`,
        outputs: done ? [{ type: 'logs', logs: `${words}\n` }] : null,
      }
    default: {
      // file_search: the question as the query; a made-up result only where `include` asks for results.
      const digest = sha256Hex(`file:${forced.question}`)
      const result = {
        file_id: `file-${digest.slice(0, 24)}`,
        filename: `${words.split(' ')[0]!.toLowerCase()}.md`,
        score: Number((0.5 + Number.parseInt(digest.slice(24, 28), 16) / 2 ** 17).toFixed(4)),
        text: `Notes on ${words}.`,
        attributes: {},
      }
      return { type, id: item.id, status, queries: [forced.question], results: done && forced.results ? [result] : null }
    }
  }
}

/** An item id derived from the response's, so the same request gives the same ids. */
const itemId = (completion: Completion, prefix: string, index: number): string => `${prefix}_${sha256Hex(`${completion.id}:${index}`).slice(0, 32)}`

/** The summary asked for: the first sentence of the reasoning (auto, concise) or all of it (detailed). */
function summaryOf(reasoning: string, verbosity: SummaryVerbosity): string {
  if (verbosity === 'detailed') return reasoning
  const end = reasoning.indexOf('. ')
  return end === -1 ? reasoning : reasoning.slice(0, end + 1)
}

/**
 * The answer's output items in order: reasoning, the web search made (where one was asked), the
 * image_generation tool's picture (where offered), the message,
 * then each function call; the last is cut at max_output_tokens.
 */
export function outputItems(created: CreatedResponse): OutputItem[] {
  const { completion, summary } = created
  const answer = completion.answers[0]!
  const items: OutputItem[] = []
  if (answer.reasoning !== null) {
    items.push({
      type: 'reasoning',
      id: itemId(completion, 'rs', items.length),
      text: answer.reasoning,
      summary: summary ? summaryOf(answer.reasoning, summary) : null,
      encrypted: created.encrypted ? encryptedReasoning(completion.model.id, answer.reasoning) : null,
      cut: false,
    })
  }
  if (completion.webSearch) items.push({ type: 'web_search_call', id: itemId(completion, 'ws', items.length), search: completion.webSearch, cut: false })
  if (completion.generatedImage !== undefined)
    items.push({ type: 'image_generation_call', id: itemId(completion, 'ig', items.length), result: completion.generatedImage, cut: false })
  const forced = created.forced
  // A provider-run forced tool's call (made up, completed) comes before the message.
  if (forced && FORCED_TOOLS.get(forced.type) === 'provider')
    items.push({ type: 'forced_call', id: itemId(completion, FORCED_PREFIXES[forced.type]!, items.length), forced, callId: null, cut: false })
  if (answer.content !== null)
    items.push({ type: 'message', id: itemId(completion, 'msg', items.length), text: answer.content, annotations: answer.annotations ?? [], cut: false })
  for (const call of answer.toolCalls) {
    if (forced && call.function.name === forcedToolName(forced.type)) {
      items.push({ type: 'forced_call', id: itemId(completion, FORCED_PREFIXES[forced.type]!, items.length), forced, callId: call.id, cut: false })
      continue
    }
    const namespace = created.namespaces.get(call.function.name)
    const custom = call.type === 'custom'
    items.push({
      type: custom ? 'custom_tool_call' : 'function_call',
      id: itemId(completion, custom ? 'ctc' : 'fc', items.length),
      call,
      ...(namespace === undefined ? {} : { namespace }),
      cut: false,
    })
  }
  const last = items.at(-1)
  if (last && answer.finishReason === 'length') last.cut = true
  return items
}

/** An item as JSON: `done` as the response holds it, else as `response.output_item.added` first shows it (empty, in progress). */
export function itemJson(item: OutputItem, done: boolean): Record<string, unknown> {
  const status = done ? (item.cut ? 'incomplete' : 'completed') : 'in_progress'
  switch (item.type) {
    case 'reasoning':
      return {
        type: 'reasoning',
        id: item.id,
        status,
        summary: done && item.summary !== null ? [{ type: 'summary_text', text: item.summary }] : [],
        // Its one reasoning_text part is there from the start: the real document's content_part events
        // carry only output_text and refusal parts, so reasoning deltas go into this part.
        content: [{ type: 'reasoning_text', text: done ? item.text : '' }],
        // Asked for by `include`: the thought as the provider hides it, complete once the item is.
        ...(done && item.encrypted !== null && { encrypted_content: item.encrypted }),
      }
    case 'message':
      return { type: 'message', id: item.id, role: 'assistant', status, content: done ? [outputText(item.text, item.annotations)] : [] }
    case 'function_call': {
      return {
        type: 'function_call',
        id: item.id,
        call_id: item.call.id,
        name: item.call.function.name,
        ...(item.namespace === undefined ? {} : { namespace: item.namespace }),
        arguments: done ? item.call.function.arguments : '',
        status,
      }
    }
    case 'custom_tool_call':
      // A custom tool's freeform input: plain text (a grammar `format` is not followed).
      return {
        type: 'custom_tool_call',
        id: item.id,
        call_id: item.call.id,
        name: item.call.function.name,
        ...(item.namespace === undefined ? {} : { namespace: item.namespace }),
        input: done ? item.call.function.arguments : '',
        status,
      }
    case 'web_search_call':
      // The real document's OutputItemWebSearchCall: the query searched and the pages found (its sources).
      return {
        type: 'web_search_call',
        id: item.id,
        status: done ? 'completed' : 'in_progress',
        action: { type: 'search', query: item.search.query, sources: item.search.pages.map((page) => ({ type: 'url', url: page.url })) },
      }
    case 'image_generation_call':
      // The real document's OutputItemImageGenerationCall: the picture as base64 PNG, once made.
      return { type: 'image_generation_call', id: item.id, status: done ? 'completed' : 'in_progress', result: done ? item.result : null }
    case 'forced_call':
      return forcedJson(item, done)
  }
}

/** A web search's citation as Responses gives it (the real document's URLCitation). */
export const urlCitation = (citation: UrlCitation): Record<string, unknown> => ({ type: 'url_citation', ...citation })

export const outputText = (text: string, annotations: readonly UrlCitation[] = []): Record<string, unknown> => ({
  type: 'output_text',
  text,
  annotations: annotations.map(urlCitation),
  logprobs: [],
})

/** Usage as the gateway reports it: tokens, reasoning within the output, and the cost split. */
export function usageOf(completion: Completion): Record<string, unknown> {
  const cost = costSplit(completion)
  const details = serverToolUseDetails(completion)
  return {
    input_tokens: completion.promptTokens,
    input_tokens_details: {
      cached_tokens: completion.cache?.read ?? 0,
      ...(completion.cache &&
        completion.cache.write5m + completion.cache.write1h > 0 && { cache_write_tokens: completion.cache.write5m + completion.cache.write1h }),
    },
    output_tokens: completion.completionTokens,
    output_tokens_details: { reasoning_tokens: completion.reasoningTokens },
    total_tokens: completion.promptTokens + completion.completionTokens,
    cost: cost.totalUsd,
    is_byok: completion.byok,
    cost_details: { upstream_inference_cost: null, upstream_inference_input_cost: cost.promptUsd, upstream_inference_output_cost: cost.completionUsd },
    ...(details === null ? {} : { server_tool_use_details: details }),
  }
}

/** Where a response stands: in progress, finished, or failed part way. */
export interface ResponseState {
  status: 'in_progress' | 'completed' | 'incomplete' | 'failed'
  completed_at: number | null
  error: { code: string; message: string } | null
  incomplete_details: { reason: 'max_output_tokens' } | null
  output: Array<Record<string, unknown>>
  /** Absent until the response is finished (the document's usage is an object, never null). */
  usage?: Record<string, unknown>
  /** The gateway's precise error type, on a failed response. */
  error_type?: string
}

/** The response object in a given state: its id, times, model, state, then the request's settings. */
export function responseObject(created: CreatedResponse, state: ResponseState): Record<string, unknown> {
  const { completion } = created
  const { status, completed_at, ...rest } = state
  return {
    id: completion.id,
    object: 'response',
    created_at: completion.created,
    status,
    completed_at,
    model: completion.model.id,
    ...rest,
    ...created.echo,
    background: false,
    service_tier: null,
  }
}

/** The finished response: `completed`, or `incomplete` when the answer was cut at max_output_tokens. */
export function responseResult(created: CreatedResponse, items: readonly OutputItem[] = outputItems(created)): Record<string, unknown> {
  const { completion } = created
  const cut = completion.answers[0]!.finishReason === 'length'
  // The simulated generation ends after the endpoint's latency and its tokens at its throughput.
  const seconds = (completion.latencyMs + (completion.completionTokens / completion.tokensPerSecond) * 1000) / 1000
  return responseObject(created, {
    status: cut ? 'incomplete' : 'completed',
    completed_at: completion.created + Math.round(seconds),
    error: null,
    incomplete_details: cut ? { reason: 'max_output_tokens' } : null,
    output: items.map((item) => itemJson(item, true)),
    usage: usageOf(completion),
  })
}
