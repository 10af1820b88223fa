// Chat and text completions: each body is read into the text engine's ask (text-engine.service.ts), with every
// problem named by its chat field; the engine writes, bills and records the answers, and this file
// renders them as the chat and text completion objects.
import { fieldError } from '../../core/errors.ts'
import type { AuthContext } from '../caller.ts'
import type { EmulatorContext } from '../module.ts'
import { parseWebSearch, webSearchFields } from '../text/text-web.input.ts'
import { breakpointsOf } from '../text/text-cache.input.ts'
import { checkStopServerTools, parseImageTool } from '../text/text-tools.input.ts'
import { parseAutoRouter, parseMessages, parseResponseFormat, parseToolChoice, parseToolsAt } from '../text/text.input.ts'
import type { ChatBody, CompletionBody } from './chat.schemas.ts'
import { costSplit, generateText, serverToolUseDetails, type Completion, type Relayed, type TextAsk, type TextCall } from '../text/text-engine.service.ts'
import { chatUpstream, completionsUpstream } from './chat-upstream.service.ts'
import type { TextSurface } from '../text/text-ports.service.ts'
import type { UrlCitation } from '../text/text-answer.service.ts'
import { reasoningDetails } from '../text/text-reasoning.service.ts'
import type { ChatPresetBody } from '../presets/presets.schemas.ts'
import { fromChat, toChat } from './chat-preset.service.ts'
import type { PresetContent, PresetReference } from '../presets/presets-config.service.ts'
import { parsePlugins } from '../text/text-plugins.input.ts'

/** Reasoning as chat asks for it: `reasoning` (effort, max_tokens, enabled) or the older `include_reasoning`. */
function chatReasoning(body: ChatBody): TextAsk['reasoning'] {
  const reasoning = body.reasoning
  const effort = reasoning?.effort ?? body.reasoning_effort
  if (reasoning || effort) {
    if (reasoning?.enabled === false || effort === 'none') return null
    return { effort: effort ?? undefined, maxTokens: reasoning?.max_tokens ?? undefined }
  }
  return body.include_reasoning === true ? {} : null
}

/**
 * Images asked for: `modalities` with `image` (text too only if it lists `text`), or no `modalities` at all,
 * where a model that makes images answers with them and its text, as the live service does (a text-only
 * model is not affected). `modalities: ["text"]` keeps the answer to text.
 */
function chatImages(body: ChatBody): TextAsk['images'] {
  const modalities = body.modalities
  if (modalities === undefined || modalities === null) return { withText: true, config: body.image_config }
  return modalities.includes('image') ? { withText: modalities.includes('text'), config: body.image_config } : null
}

/** A chat body as the engine's ask. */
export function chatAsk(body: ChatBody): TextAsk {
  const { tools, places, datetime, serverTypes } = parseToolsAt(body.tools)
  checkStopServerTools((body as { stop_server_tools_when?: unknown }).stop_server_tools_when)
  const webSearch = parseWebSearch((body as { plugins?: unknown }).plugins, body.tools)
  const candidates = [...(body.model ? [body.model] : []), ...(body.models ?? [])]
  if (candidates.length === 0) throw fieldError('model', 'is required (or `models`, a list to try in order)')
  const messages = parseMessages(body.messages)
  const cache = breakpointsOf(body, { items: body.messages, field: 'messages', before: 0 }, messages.length)
  return {
    candidates,
    messages,
    tools,
    toolChoice: parseToolChoice(body.tool_choice, tools, serverTypes),
    parallel: body.parallel_tool_calls !== false,
    format: parseResponseFormat(body.response_format),
    maxTokens: body.max_completion_tokens ?? body.max_tokens ?? null,
    stop: typeof body.stop === 'string' ? [body.stop] : (body.stop ?? []),
    choices: body.n ?? 1,
    seed: body.seed ?? null,
    reasoning: chatReasoning(body),
    provider: body.provider,
    user: body.user ?? null,
    fields: { tool: (i) => `tools[${places[i] ?? i}].function.parameters`, format: 'response_format.json_schema.schema' },
    images: chatImages(body),
    autoRouter: parseAutoRouter((body as { plugins?: unknown }).plugins),
    plugins: parsePlugins((body as { plugins?: unknown }).plugins),
    ...webSearchFields(webSearch, body.tool_choice),
    // The openrouter:image_generation tool: one picture of the question, unless tool_choice is "none".
    imageTool: body.tool_choice === 'none' ? null : parseImageTool(body.tools),
    webCitations: true,
    datetime,
    ...(cache.length > 0 && { cache }),
  }
}

/** The event a relayed stream that broke part way ends with: an error chunk whose choice finishes with `error`. */
const errorChunk = (choice: Record<string, unknown>) => (status: number, message: string) =>
  `data: ${JSON.stringify({ error: { code: status, message }, choices: [{ index: 0, ...choice, finish_reason: 'error', native_finish_reason: 'error', logprobs: null }] })}\n\n`

/** Chat completions, registered with the text engine. */
export const chatSurface: TextSurface = {
  name: 'chat',
  operation: 'chat.create',
  ask: (ctx, body) => ctx.services.text.ports.parseOnce(body, () => chatAsk(body as ChatBody)),
  envelope: 'main',
  streamErrorFrame: errorChunk({ delta: { content: '' } }),
  upstream: chatUpstream,
  preset: {
    read: (body) => fromChat(body as ChatPresetBody),
    apply: (body, content, named) => toChat(body, content as PresetContent, named as PresetReference),
  },
}

/** Text completions (a prompt in, text out), registered with the text engine. */
export const completionsSurface: TextSurface = {
  name: 'completions',
  operation: 'completions.create',
  ask: (ctx, body) => ctx.services.text.ports.parseOnce(body, () => completionAsk(body as CompletionBody)),
  envelope: 'main',
  streamErrorFrame: errorChunk({ text: '' }),
  upstream: completionsUpstream,
}

export function createChatCompletion(ctx: EmulatorContext, caller: AuthContext, body: ChatBody, call: TextCall): Promise<Completion | Relayed> {
  return generateText(ctx, caller, chatSurface.ask(ctx, body), call)
}

export function createTextCompletion(ctx: EmulatorContext, caller: AuthContext, body: CompletionBody, call: TextCall): Promise<Completion | Relayed> {
  return generateText(ctx, caller, completionsSurface.ask(ctx, body), call)
}

/** A text completion's body as the engine's ask: its prompt is the one user message. */
export function completionAsk(body: CompletionBody): TextAsk {
  // Only the fields a text completion has: chat's (tools, response_format, reasoning) are not read
  // from its body, where nothing has checked their shape.
  const { prompt, ...common } = body
  const ask = chatAsk({
    model: common.model,
    models: common.models,
    max_tokens: common.max_tokens,
    seed: common.seed,
    stop: common.stop,
    n: common.n,
    user: common.user,
    provider: common.provider,
    messages: [{ role: 'user', content: typeof prompt === 'string' ? prompt : prompt[0]! }],
    // A text completion answers with text only, whatever the model also makes.
    modalities: ['text'],
  })
  // A text completion's `:online` search is billed; its text has no annotations to give, so it cites nothing.
  return { ...ask, webCitations: false }
}

/**
 * The prompt's details: its cached tokens, and the tokens written to the cache where a breakpoint wrote
 * some at a write price (the document: "only returned for models with explicit caching and cache write pricing").
 */
function promptDetails(completion: Completion): Record<string, number> {
  const cache = completion.cache
  const written = cache ? cache.write5m + cache.write1h : 0
  return { cached_tokens: cache?.read ?? 0, ...(written > 0 && { cache_write_tokens: written }), audio_tokens: 0 }
}

/** Usage as the real gateway reports it (the AI SDK needs the details objects' counts). */
export function usageOf(completion: Completion): Record<string, unknown> {
  const cost = costSplit(completion)
  const details = serverToolUseDetails(completion)
  return {
    prompt_tokens: completion.promptTokens,
    completion_tokens: completion.completionTokens,
    total_tokens: completion.promptTokens + completion.completionTokens,
    cost: cost.totalUsd,
    is_byok: completion.byok,
    prompt_tokens_details: promptDetails(completion),
    cost_details: {
      upstream_inference_cost: null,
      upstream_inference_prompt_cost: cost.promptUsd,
      upstream_inference_completions_cost: cost.completionUsd,
    },
    completion_tokens_details: { reasoning_tokens: completion.reasoningTokens },
    ...(details === null ? {} : { server_tool_use_details: details }),
  }
}

/** Citations as chat gives them: `{type: "url_citation", url_citation: {url, title, content, start_index, end_index}}`. */
export const chatAnnotations = (citations: readonly UrlCitation[]): Array<Record<string, unknown>> =>
  citations.map((url_citation) => ({ type: 'url_citation', url_citation }))

export function chatResult(completion: Completion): Record<string, unknown> {
  return {
    id: completion.id,
    provider: completion.endpoint.provider_name,
    model: completion.model.id,
    object: 'chat.completion',
    created: completion.created,
    choices: completion.answers.map((a, index) => ({
      logprobs: null,
      finish_reason: a.finishReason,
      native_finish_reason: a.finishReason,
      index,
      message: {
        role: 'assistant',
        content: a.content,
        refusal: null,
        reasoning: a.reasoning,
        ...(a.reasoning !== null && { reasoning_details: reasoningDetails(completion.model.id, a.reasoning) }),
        ...(a.toolCalls.length > 0 && { tool_calls: a.toolCalls }),
        ...(a.annotations && { annotations: chatAnnotations(a.annotations) }),
        ...(chatImagesOf(completion, index) && {
          images: chatImagesOf(completion, index)!.map((url, i) => ({ type: 'image_url', image_url: { url }, index: i })),
        }),
      },
    })),
    system_fingerprint: null,
    usage: usageOf(completion),
  }
}

/**
 * An answer's images (data URLs): an image-output model's, or the `openrouter:image_generation` tool's one
 * picture, given with the first answer as the message's images (where chat shows pictures).
 */
export function chatImagesOf(completion: Completion, index: number): string[] | undefined {
  if (completion.images) return completion.images[index]
  return completion.generatedImage !== undefined && index === 0 ? [`data:image/png;base64,${completion.generatedImage}`] : undefined
}

export function textResult(completion: Completion): Record<string, unknown> {
  return {
    id: completion.id,
    provider: completion.endpoint.provider_name,
    model: completion.model.id,
    object: 'text_completion',
    created: completion.created,
    choices: completion.answers.map((a, index) => ({
      text: a.content ?? '',
      index,
      finish_reason: a.finishReason,
      native_finish_reason: a.finishReason,
      logprobs: null,
    })),
    usage: usageOf(completion),
  }
}
