// The text engine behind every API that answers in text: chat and text completions, the Responses API
// and the Messages API. Each surface reads its own body into a TextAsk (messages, tools, tool choice,
// output format, bounds, each checked and named in the surface's own words), and the engine does the
// rest the same way for all of them: picks the model (or the first usable of a list) and an endpoint by
// the caller's preferences, fits schemas to the answer's budget, writes the answers (or takes a chat
// fixture's), bills them through the meter (402 before anything is sent), which records the generation.
// The surface then renders the Completion as its JSON or its stream of events (text.stream.ts).
// The answer comes from the first registered answer source (text-ports.service.ts) that gives one: a
// recording (--replay, registered by the recordings module) before any of that, then the upstream
// gateway (--on-miss upstream, also the recordings module's), which relays its answer on the wire
// itself, and last the engine's own (writtenAnswers: a chat fixture's answer, or one written here).
import { ApiError, fieldError } from '../../core/errors.ts'
import { nanosToUsd } from '../../core/money.ts'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { isEuRequest } from '../../http/listeners.ts'
import { requestOrigin, type RequestOrigin } from '../../http/request-origin.ts'
import type { AuthContext } from '../caller.ts'
import type { EmulatorContext } from '../module.ts'
import { groupedTransaction } from '../../store/db.ts'
import type { CatalogEndpoint, CatalogModel, Region } from '../catalog/catalog.schemas.ts'
import type { ResolvedModel, RouterInput } from '../catalog/catalog-resolve.service.ts'
import { routeByPreferences, type ProviderPreferences } from '../catalog/catalog-routing.service.ts'
import { contextLengthExceeded, noToolEndpoints, notATextModel } from './text.errors.ts'
import { countTokens, loadTokenizer } from '../../core/tokens.ts'
import { brokenStreamNanos, imagesNanos, promptPartNanos, textNanos, webSearchNanos, type PricedText } from '../meter/meter-pricers.service.ts'
import { admit, chargeAdmitted, servedBy, settleBroken as settleMetered, type Admitted, type GenerationOf, type Metered } from '../meter/meter.service.ts'
import { loadFaker, type MakeFaker } from '../../core/faker.ts'
import { faultError } from '../../faults/faults.ts'
import { givenAnswer, questionOf, type Answer, type AnswerRequest } from './text-answer.service.ts'
import { citeAnswer, searchQuery, searchWeb, type WebPage } from './text-web.service.ts'
import { WEB_DEFAULT_RESULTS } from './text-web.input.ts'
import type { TextPlugins } from './text-plugins.input.ts'
import { compressMiddle, healJson } from './text-plugins.service.ts'
import type { ChatFixtureAnswer } from './text-fixtures.schemas.ts'
import { answeringFixture, type FixtureSubject } from './text-fixtures.service.ts'
import { answerTokensFor } from './text.settings.ts'
import { messageTokens, toolsTokens, type AutoRouterPlugin, type Message, type ResponseFormat, type Tool, type ToolChoice } from './text.input.ts'
import { fitSchema, type FittedSchema } from './text-schema-fit.service.ts'
import type { CacheBreakpoint } from './text-cache.input.ts'
import { NO_CACHE, planCache, type CachePlan } from './text-cache.service.ts'

/** The most tokens an answer has when the catalog gives its model no output bound (max_completion_tokens). */
export const DEFAULT_MAX_COMPLETION_TOKENS = 16_384
/** The most characters of JSON a schema's value is generated to, whatever the max tokens: 1 MiB. */
export const SCHEMA_VALUE_CHARS = 1024 * 1024
/** Characters of a schema's value per token of the answer: enough that a lowered value still fills it. */
const CHARS_PER_TOKEN = 16
/** The most reasoning tokens written when a request asks for reasoning without a budget, by effort. */
const REASONING_BY_EFFORT = { minimal: 16, low: 32, medium: 64, high: 128, xhigh: 192, max: 256 } as const
/** Reasoning is proportional to the question: this many tokens, plus THOUGHT_PER_QUESTION_TOKEN for each of the question's. */
const THOUGHT_BASE = 16
const THOUGHT_PER_QUESTION_TOKEN = 2
/** At most this many times the answer-length setting (`--chat-answer-tokens`, `chat.answer_tokens`). */
const THOUGHT_PER_ANSWER_TOKEN = 4
export type ReasoningEffort = keyof typeof REASONING_BY_EFFORT

/** What a surface asks the engine for, already checked and named in the surface's own fields. */
export interface TextAsk {
  /** The model, then the fallbacks to try in order (the first text model here answers). */
  candidates: readonly string[]
  messages: Message[]
  tools: Tool[]
  toolChoice: ToolChoice
  /** Several tool calls may be made in one answer (the default); false: one at most. */
  parallel?: boolean
  format: ResponseFormat
  /** The most output tokens asked for, or null. */
  maxTokens: number | null
  stop: string[]
  /** Answers to write (chat's `n`). */
  choices: number
  /** The request's own seed: the same seed and request give the same answer. */
  seed: number | null
  /** Reasoning asked for: an effort, or a budget of tokens; null for none. Written only by models that reason. */
  reasoning: { effort?: ReasoningEffort | undefined; maxTokens?: number | undefined } | null
  provider: ProviderPreferences | null | undefined
  user: string | null
  /** How the surface names its fields, for the errors of its schemas and bounds. */
  fields: { tool(index: number): string; format: string }
  /** Images asked for (chat's `modalities` with `image`): made by a model that makes them, with its text only if asked too. */
  images?: { withText: boolean; config: unknown } | null
  /** The auto-router plugin's patterns, for `openrouter/auto`. */
  autoRouter?: AutoRouterPlugin | null
  /** The `openrouter:datetime` server tool (chat, Responses, Messages): text answers state the virtual clock's time in this zone. */
  datetime?: { timezone: string } | null
  /**
   * Web search is on (the model's `:online` variant, the `web` plugin, a web search tool): one search,
   * billed at the endpoint's `web_search` price where it has one.
   */
  web?: boolean
  /** Results the search returns (WEB_DEFAULT_RESULTS when absent). */
  webResults?: number
  /**
   * The Responses `image_generation` tool: one picture of the last user turn by this image model (a catalog
   * id), drawn by the emulator's images and billed at that model's per-image price.
   */
  imageTool?: { model: string; field: string } | null
  /** The search was asked by a web search server tool (not the plugin or `:online`): it counts as a server tool call too. */
  webTool?: boolean
  /** A provider-run tool forced by `tool_choice` (code interpreter, file search): one server tool call, made up by the surface. */
  forcedServerTool?: boolean
  /** The surface renders the search's `url_citation` annotations: its answers cite the pages found (text-web.service.ts). */
  webCitations?: boolean
  /** The response-healing and context-compression plugins (text-plugins.input.ts). */
  plugins?: TextPlugins
  /** Prompt caching's breakpoints (`cache_control`): the prefixes to cache (text-cache.service.ts). */
  cache?: readonly CacheBreakpoint[]
}

/** How the call is recorded: its operation id (usage rows, journal), its `api_type`, where it came from. */
export interface TextCall {
  operation: string
  /** The generation's `api_type`: a text answer is a completion, whatever surface asked. */
  apiType: 'completions'
  region: Region | null
  streamed: boolean
  origin: RequestOrigin
  /** The HTTP exchange: a source that answers on the wire itself (the upstream proxy) writes its reply. */
  exchange: { request: FastifyRequest; reply: FastifyReply }
}

/** The call of a request to a text surface's route (`operation`, the surface's). */
export function textCall(operation: string, request: FastifyRequest, reply: FastifyReply, streamed: boolean): TextCall {
  return {
    operation,
    apiType: 'completions',
    region: isEuRequest(request.raw) ? 'eu' : null,
    streamed,
    origin: requestOrigin(request),
    exchange: { request, reply },
  }
}

/** What a source that answered on the wire itself returns (the upstream's answer, relayed as it came): nothing is left to render. */
export interface Relayed {
  readonly relayed: true
}

export const RELAYED: Relayed = Object.freeze({ relayed: true })

export const isRelayed = (outcome: object): outcome is Relayed => 'relayed' in outcome

/** A billed completion, ready to be rendered as JSON or as events by the surface that asked. */
export interface Completion {
  id: string
  usageId: number
  created: number
  model: CatalogModel
  endpoint: CatalogEndpoint
  answers: Answer[]
  promptTokens: number
  /** Output tokens of all answers, reasoning included. */
  completionTokens: number
  reasoningTokens: number
  costNanos: number
  /** Paid with the caller's own provider key (a BYOK credential of its workspace): the answer's `is_byok`. */
  byok: boolean
  /** Images drawn for the answers (chat with image modalities), billed per image. */
  imageCount: number
  /** Simulated figures of the serving endpoint: time to the first token and tokens a second. */
  latencyMs: number
  tokensPerSecond: number
  /** Each answer's images (PNG data URLs), where asked for and the model makes them. */
  images?: string[][]
  /** Where the answers came from: written here (or a chat fixture's), or a recording's (the journal shows it). */
  source: CompletionSource
  /** Server tools the gateway ran for the request (`openrouter:datetime`, a web search tool: once each), for `server_tool_use_details`. */
  serverToolCalls?: number
  /** Prompt tokens read from the prompt cache, and written to it at a write price (by life); absent: none. */
  cache?: PromptCaching
  /** The image_generation tool's picture (base64 PNG), where the request offered the tool. */
  generatedImage?: string
  /** The request's one web search (where it asked for one): its query and the pages found, for the surfaces' call items. */
  webSearch?: WebSearch
}

/** A completion's prompt caching, as its usage reports it. */
export interface PromptCaching {
  read: number
  write5m: number
  write1h: number
}

/** One emulated web search: the words searched for and the seeded pages it found (text-web.service.ts). */
export interface WebSearch {
  query: string
  pages: WebPage[]
}

export type CompletionSource = { kind: 'generated' } | { kind: 'replayed'; file: string }

/** Answers an ask, or passes (null) to the next source; registered with the engine (text-ports.service.ts). */
export interface AnswerSource {
  readonly name: string
  /** Sources are asked in this order, lowest first. */
  readonly order: number
  answer(ctx: EmulatorContext, caller: AuthContext, ask: TextAsk, call: TextCall): Promise<Completion | Relayed | null>
  /** Whether it answers a model the catalog lacks (a recording names its own). */
  answersModel?(id: string): boolean
}

const isText = (model: CatalogModel): boolean => model.architecture.output_modalities.includes('text')

const makesImages = (model: CatalogModel): boolean => model.architecture.output_modalities.includes('image')

/** What `openrouter/auto` reads of an ask to choose a model: its content, seed, tools and plugin. */
export function routerInput(ask: TextAsk): RouterInput {
  return {
    content: JSON.stringify([ask.messages.map((m) => [m.role, m.text]), ask.tools.map((t) => t.name)]),
    seed: ask.seed,
    needsTools: ask.tools.length > 0,
    allowed: ask.autoRouter?.allowed ?? [],
    excluded: ask.autoRouter?.excluded ?? [],
  }
}

/**
 * The model asked for, or the first of the candidates that is a text model here (or makes images,
 * when they are asked for), each read as the real gateway reads ids (catalog-resolve.service.ts).
 */
function textModel(ctx: EmulatorContext, ask: TextAsk): ResolvedModel {
  const { candidates } = ask
  if (candidates.length === 0) throw fieldError('model', 'is required (or `models`, a list to try in order)')
  const router = routerInput(ask)
  for (const id of candidates) {
    const resolved = ctx.services.catalog.tryResolve(id, 'text', router)
    if (resolved && (isText(resolved.model) || (ask.images && makesImages(resolved.model)))) return resolved
  }
  const id = candidates[0]!
  const { model } = ctx.services.catalog.resolve(id, 'text', router)
  throw notATextModel(id, model.architecture.output_modalities)
}

/** The ask as its model id's variant changes it: `:thinking` turns reasoning on, `:online` web search. */
const withVariant = (ask: TextAsk, resolved: ResolvedModel): TextAsk =>
  resolved.thinking || resolved.web ? { ...ask, reasoning: ask.reasoning ?? (resolved.thinking ? {} : null), web: ask.web === true || resolved.web } : ask

const supports = (model: CatalogModel, endpoint: CatalogEndpoint | null, parameter: string): boolean =>
  ((endpoint ? endpoint.supported_parameters : null) ?? model.supported_parameters ?? []).includes(parameter)

/** Prompt tokens as chat models count them (text.input.ts): the tools' and each message's. */
const promptTokensOf = (messages: readonly Message[], tools: readonly Tool[]): number =>
  messages.reduce((tokens, message) => tokens + messageTokens(message), toolsTokens(tools))

interface Prepared {
  model: CatalogModel
  /** How the model was named: the variant's provider order, the router that chose it. */
  resolved: ResolvedModel
  ask: TextAsk
  promptTokens: number
  /** What the answers are written from (with the maximum tokens already capped). */
  answerRequest: AnswerRequest
  makeFaker: MakeFaker
}

/** What was asked, fitted to the model; its answers are written only once it may be billed. */
async function prepare(ctx: EmulatorContext, asked: TextAsk): Promise<Prepared> {
  const resolved = textModel(ctx, asked)
  const { model } = resolved
  const [makeFaker] = await Promise.all([loadFaker(), loadTokenizer()])
  const { ask, promptTokens } = compressed(model, withVariant(asked, resolved))
  const answerMax = cap(model, promptTokens, ask.maxTokens)
  const answerTokens = answerTokensFor(ctx.services.text.settings.current, model.id)
  // Schemas are fitted to what the answer can hold before anything is billed: what no value can
  // satisfy is a 400 here, and no value is generated larger than the budget.
  const budget = Math.min(SCHEMA_VALUE_CHARS, answerMax * CHARS_PER_TOKEN)
  const fitted = {
    tools: new Map<string, FittedSchema>(ask.tools.map((tool, i) => [tool.name, fitSchema(withoutDialect(tool.parameters), budget, ask.fields.tool(i))])),
    format: ask.format.kind === 'json_schema' ? fitSchema(withoutDialect(ask.format.schema), budget, ask.fields.format) : null,
  }
  return {
    model,
    resolved,
    ask,
    promptTokens,
    makeFaker,
    answerRequest: {
      seed: ctx.config.seed,
      model: model.id,
      requestSeed: ask.seed,
      messages: ask.messages,
      tools: ask.tools,
      toolChoice: ask.tools.length === 0 ? { kind: 'none' } : ask.toolChoice,
      parallel: ask.parallel ?? true,
      format: ask.format,
      maxTokens: answerMax,
      stop: ask.stop,
      answerTokens,
      reasoningTokens: reasoningBudget(model, ask, answerMax, answerTokens),
      fields: ask.fields,
      fitted,
    },
  }
}

/**
 * Tokens of reasoning to write: none unless asked and the model reasons. A thought grows with the
 * question (the last user turn's own words: a one-word question gets a short one), and is capped by
 * what was asked (the budget, or the effort's amount), by a multiple of the answer-length setting and
 * by half the answer's bound. Deterministic: the same request thinks the same length.
 */
function reasoningBudget(model: CatalogModel, ask: TextAsk, answerMax: number, answerTokens: number): number {
  if (!ask.reasoning || !supports(model, null, 'reasoning')) return 0
  const wanted = ask.reasoning.maxTokens ?? REASONING_BY_EFFORT[ask.reasoning.effort ?? 'medium']
  const proportional = THOUGHT_BASE + THOUGHT_PER_QUESTION_TOKEN * countTokens(questionOf(ask.messages))
  return Math.max(0, Math.min(wanted, proportional, THOUGHT_PER_ANSWER_TOKEN * answerTokens, Math.floor(answerMax / 2)))
}

/**
 * The ask and its prompt's tokens, with messages dropped from the middle where the context-compression
 * plugin is on and the prompt and the asked output do not fit the context (else the context error stands);
 * a compressed prompt caches nothing by breakpoint.
 */
function compressed(model: CatalogModel, ask: TextAsk): { ask: TextAsk; promptTokens: number } {
  const promptTokens = promptTokensOf(ask.messages, ask.tools)
  const limit = (model.context_length ?? 128_000) - (ask.maxTokens ?? 0)
  if (!ask.plugins?.compression || promptTokens <= limit) return { ask, promptTokens }
  const kept = compressMiddle(ask.messages, promptTokens, (i) => messageTokens(ask.messages[i]!), limit)
  if (!kept) return { ask, promptTokens }
  // Cache breakpoints count messages of the prompt as sent: once its middle is gone they name other prefixes.
  const { cache: _breakpoints, ...rest } = ask
  return { ask: { ...rest, messages: kept }, promptTokens: promptTokensOf(kept, ask.tools) }
}

/** A schema without its `$schema` (the generator would try to fetch the dialect). */
function withoutDialect(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = schema
  return rest
}

/** What a chat fixture sees of a request. */
export function fixtureSubject(model: string, messages: readonly Message[], tools: readonly Tool[], header: string | null): FixtureSubject {
  return {
    model,
    lastUser: questionOf(messages),
    system: messages
      .filter((m) => m.role === 'system' || m.role === 'developer')
      .map((m) => m.text)
      .join('\n'),
    tools: tools.map((t) => t.name),
    header,
  }
}

/**
 * The most tokens an answer may have: what was asked, the endpoint's output bound (or
 * DEFAULT_MAX_COMPLETION_TOKENS where the catalog has none), and the context left.
 */
function cap(model: CatalogModel, promptTokens: number, asked: number | null): number {
  const context = model.context_length ?? 128_000
  const output = model.top_provider?.max_completion_tokens ?? DEFAULT_MAX_COMPLETION_TOKENS
  return Math.max(1, Math.min(asked ?? Number.POSITIVE_INFINITY, output, context - promptTokens))
}

function checkContext(model: CatalogModel, promptTokens: number, asked: number | null): void {
  const context = model.context_length ?? 128_000
  if (promptTokens + (asked ?? 0) > context) throw contextLengthExceeded(context, promptTokens, asked ?? 0)
}

/** Writes, bills and records the answers to `ask`: the one way every text surface generates. */
export async function generateText(ctx: EmulatorContext, caller: AuthContext, ask: TextAsk, call: TextCall): Promise<Completion | Relayed> {
  // With fallback models, a model whose answer is an error (a chat fixture's) hands the request to the
  // next one, as the real router does when a provider fails; the answer names the model that served it.
  for (let candidates = ask.candidates; ;) {
    try {
      // The ask itself first: a source may know it (the recordings, searched once before the handler).
      return await generateWith(ctx, caller, candidates === ask.candidates ? ask : { ...ask, candidates }, call)
    } catch (error) {
      if (!(error instanceof ModelFailed)) throw error
      // The candidate that named the failed model (by its id or another name the catalog knows it by).
      const router = routerInput(ask)
      const at = candidates.findIndex((c) => c === error.model || ctx.services.catalog.tryResolve(c, 'text', router)?.model.id === error.model)
      const next = at === -1 ? [] : candidates.slice(at + 1)
      if (next.length === 0) throw error.error
      candidates = next
    }
  }
}

/** A model's answer was an error: the request may go on to the next model of its list. */
class ModelFailed extends Error {
  readonly model: string
  readonly error: ApiError
  constructor(model: string, error: ApiError) {
    super(error.message)
    this.model = model
    this.error = error
  }
}

/** The answer of the first usable model of `ask.candidates`: the first registered source's that gives one. */
async function generateWith(ctx: EmulatorContext, caller: AuthContext, ask: TextAsk, call: TextCall): Promise<Completion | Relayed> {
  for (const source of ctx.services.text.ports.sources()) {
    const answered = await source.answer(ctx, caller, ask, call)
    if (answered) return answered
  }
  throw new Error('no answer source answered: the engine registers writtenAnswers last, which always does')
}

/** The engine's own answers, the last source: a chat fixture's, or answers written here. */
export const writtenAnswers: AnswerSource = {
  name: 'written',
  order: 1000,
  answer: writeAnswered,
}

async function writeAnswered(ctx: EmulatorContext, caller: AuthContext, ask: TextAsk, call: TextCall): Promise<Completion> {
  const prepared = await prepare(ctx, ask)
  const { model, promptTokens } = prepared
  checkContext(model, promptTokens, ask.maxTokens)
  // Tools narrow the endpoints to those that take them, as the real router does.
  const endpoints = ask.tools.length > 0 ? model.endpoints.filter((e) => supports(model, e, 'tools')) : model.endpoints
  if (endpoints.length === 0) throw noToolEndpoints()
  // Checked now (a bad image_config is a 400 before anything is billed), drawn once billed.
  const images =
    ask.images && makesImages(model)
      ? ctx.services.images.forChat(model, {
          prompt: questionOf(ask.messages),
          seed: ask.seed,
          choices: ask.choices,
          config: ask.images.config,
          account: caller.account.id,
        })
      : undefined

  // The image_generation tool's picture: its model checked now (a 400 before anything is billed).
  const toolImage = ask.imageTool ? imageToolOf(ctx, caller, ask, ask.imageTool) : undefined

  // The images' place in the account's media queue is given back if the answer is not made.
  try {
    const admitted = admit(ctx, caller)
    const now = ctx.clock.now()
    const subject = fixtureSubject(model.id, ask.messages, ask.tools, call.origin.fixture)
    // Generated answers are written before the transaction (values of schemas in the filler's worker,
    // which takes time), unless a fixture will answer. Should a fixture be used up meanwhile, the
    // transaction finds none and the answers are written then (the second round writes them anyway).
    for (let round = 0; ; round++) {
      const generated =
        round === 0 && answeringFixture(ctx.services.text.fixtures, caller.account.id, subject)
          ? null
          : await ctx.services.text.answers.write(prepared.answerRequest, ask.choices, prepared.makeFaker, ctx.services.text.filler)
      const outcome = billCompletion(ctx, admitted, prepared, call, {
        endpoints,
        now,
        subject,
        generated,
        imageCount: images?.count,
        toolImageNanos: toolImage ? imagesNanos(toolImage.prices, 1, 0) : 0,
      })
      if (outcome === 'no answers') continue
      if ('error' in outcome) throw new ModelFailed(model.id, outcome.error)
      const drawn = images ? { ...outcome, images: (await images.draw()).map((url) => [url]) } : outcome
      if (!toolImage) return drawn
      const [url] = await toolImage.images.draw()
      return { ...drawn, generatedImage: url!.slice(url!.indexOf(',') + 1) }
    }
  } finally {
    images?.release()
    toolImage?.images.release()
  }
}

/**
 * The image_generation tool's model (an image model of the catalog, else a 400 at its field), its prices
 * (its first endpoint's, the one the images API bills first) and its one picture of the last user turn.
 */
function imageToolOf(ctx: EmulatorContext, caller: AuthContext, ask: TextAsk, tool: { model: string; field: string }) {
  const resolved = ctx.services.catalog.tryResolve(tool.model, 'image')
  if (!resolved || !makesImages(resolved.model) || resolved.model.endpoints.length === 0)
    throw fieldError(tool.field, `names no image model of the catalog (${tool.model}); e.g. "gpt-image-1"`)
  const images = ctx.services.images.forChat(resolved.model, {
    prompt: questionOf(ask.messages),
    seed: ask.seed,
    choices: 1,
    config: null,
    account: caller.account.id,
  })
  return { prices: resolved.model.endpoints[0]!.pricing, images }
}

/** The datetime tool's statement: the virtual clock's date and time in the tool's zone, in words. */
export function datetimeSentence(now: number, timezone: string): string {
  const said = new Intl.DateTimeFormat('en-US', { timeZone: timezone, dateStyle: 'full', timeStyle: 'long' }).format(now)
  return `The current date and time is ${said} (${timezone}).`
}

/**
 * A text answer with the datetime tool's statement first, its tokens counted. JSON answers (a response
 * format), tool calls and answers the statement would take past `max_tokens` are left as written.
 */
function withDatetime(answer: Answer, ask: TextAsk, now: number): Answer {
  if (answer.content === null || answer.toolCalls.length > 0 || ask.format.kind !== 'text' || !ask.datetime) return answer
  const sentence = `${datetimeSentence(now, ask.datetime.timezone)} `
  const completionTokens = answer.completionTokens + countTokens(sentence)
  if (ask.maxTokens !== null && completionTokens > ask.maxTokens) return answer
  return { ...answer, content: sentence + answer.content, completionTokens }
}

/** What billCompletion is told besides the request: where and when it is served, and what was written for it. */
interface BillingAt {
  endpoints: CatalogEndpoint[]
  now: number
  subject: FixtureSubject
  generated: Answer[] | null
  imageCount: number | undefined
  /** The image_generation tool's picture, at its image model's price. */
  toolImageNanos?: number
}

/**
 * Bills the answers. Without a fixture (most calls) the meter's transaction is the only one; with one, one
 * transaction holds both: the fixture is counted as used only when its answer is billed (a 402 leaves it as
 * it was), and a fixture's error is counted and answered without billing.
 */
function billCompletion(
  ctx: EmulatorContext,
  admitted: Admitted,
  prepared: Prepared,
  call: TextCall,
  at: BillingAt,
): Completion | { error: ApiError } | 'no answers' {
  const fixture = answeringFixture(ctx.services.text.fixtures, admitted.caller.account.id, at.subject)
  if (!fixture) return at.generated ? billAnswers(ctx, admitted, prepared, call, at, at.generated) : 'no answers'
  // A billed call: part of this turn's group commit on a file (store/db.ts).
  return groupedTransaction(ctx.db, (): Completion | { error: ApiError } => {
    const given = JSON.parse(fixture.answer) as ChatFixtureAnswer & { tool_calls?: Array<{ name: string; arguments: string }> }
    ctx.services.text.fixtures.use(fixture.id)
    if (given.error) return { error: faultError(given.error.status, at.now, fixture.id, { message: given.error.message }, 'fixture') }
    const written = Array.from({ length: prepared.ask.choices }, (_, choice) =>
      givenAnswer(prepared.answerRequest, given, `${fixture.id}:${fixture.hits}:${choice}`),
    )
    return billAnswers(ctx, admitted, prepared, call, at, written)
  })
}

/** The written answers, finished (healed, dated, cited) and billed by the meter. */
function billAnswers(ctx: EmulatorContext, admitted: Admitted, prepared: Prepared, call: TextCall, at: BillingAt, written: Answer[]): Completion {
  const { model, promptTokens, ask } = prepared
  const { endpoints, now } = at
  const { caller } = admitted
  // The response-healing plugin repairs a JSON answer that does not parse (a fixture's), when not streamed.
  const healed =
    ask.plugins?.healing && !call.streamed && ask.format.kind !== 'text'
      ? written.map((a): Answer => (a.content === null ? a : { ...a, content: healJson(a.content) }))
      : written
  // One image per answer; images alone where the model writes no text or the request asked for none.
  const imagesOnly = at.imageCount !== undefined && !(isText(model) && ask.images?.withText)
  const drawn = imagesOnly ? healed.map((a): Answer => ({ ...a, content: null, completionTokens: a.reasoningTokens, finishReason: 'stop' })) : healed
  // The time is stated first, then the pages cited: a citation's indexes are those of the final text.
  const dated = ask.datetime ? drawn.map((a) => withDatetime(a, ask, now)) : drawn
  const search = ask.web ? webSearchOf(prepared) : undefined
  const answers = search && ask.webCitations ? dated.map((a) => citeAnswer(a, search.pages)) : dated
  const completionTokens = answers.reduce((n, a) => n + a.completionTokens, 0)
  const reasoningTokens = answers.reduce((n, a) => n + a.reasoningTokens, 0)
  const imageCount = at.imageCount ?? 0
  const timing = (endpoint: CatalogEndpoint) => servedBy(endpoint, { latencyS: 0.5, tokensPerSecond: 50 })
  // What the prompt reads from and writes to the cache, once the serving endpoint is known.
  let cache: CachePlan = NO_CACHE
  const planFor = (endpoint: CatalogEndpoint): CachePlan =>
    planCache(
      ctx.services.text.promptCache,
      { account: caller.account.id, model: model.id, now },
      { messages: ask.messages, tools: ask.tools, tokens: promptTokens, breakpoints: ask.cache ?? [] },
      { implicit: endpoint.supports_implicit_caching, writePrice: endpoint.pricing.input_cache_write !== undefined },
    )
  return chargeAdmitted(ctx, admitted, {
    operation: call.operation,
    model: { id: model.id, canonical_slug: model.canonical_slug },
    endpoints,
    region: call.region,
    route: routeByPreferences(model, ask.provider ?? undefined, prepared.resolved.sort),
    tokens: { prompt: promptTokens, completion: completionTokens, reasoning: reasoningTokens },
    price: (endpoint) => {
      cache = planFor(endpoint)
      const cached = cache === NO_CACHE ? {} : { cacheRead: cache.read, cacheWrite: cache.write5m + cache.write1h }
      return (
        textNanos(endpoint.pricing, { prompt: promptTokens, completion: completionTokens, reasoning: reasoningTokens, images: imageCount, ...cached }) +
        (ask.web ? webSearchNanos(endpoint.pricing, 1) : 0) +
        (at.toolImageNanos ?? 0)
      )
    },
    generation: (endpoint) => ({
      ...textGeneration(ask, call, { answers, completionTokens, ...timing(endpoint) }),
      ...(cache !== NO_CACHE && { cachedTokens: cache.read, cacheWriteTokens: cache.write5m + cache.write1h }),
    }),
    after: (metered) => {
      const { latencyMs, tokensPerSecond } = timing(metered.endpoint)
      ctx.services.text.promptCache.write(cache.rows, now)
      const source = { kind: 'generated' } as const
      return recordCompletion(ctx, caller, ask, call, {
        metered,
        model,
        answers,
        promptTokens,
        completionTokens,
        reasoningTokens,
        imageCount,
        latencyMs,
        tokensPerSecond,
        source,
        ...(cache !== NO_CACHE && { cache: { read: cache.read, write5m: cache.write5m, write1h: cache.write1h } }),
        ...(search ? { webSearch: search } : {}),
      })
    },
  })!
}

/** The request's one web search: the pages it finds (the same question finds the same pages), cited by the answers. */
function webSearchOf(prepared: Prepared): WebSearch {
  const { answerRequest, ask } = prepared
  const question = questionOf(ask.messages)
  return { query: searchQuery(question), pages: searchWeb(answerRequest.seed, ask.seed, question, ask.webResults ?? WEB_DEFAULT_RESULTS) }
}

/** A text answer's generation row: GET /api/v1/generation finds it by the completion's id. */
export function textGeneration(
  ask: TextAsk,
  call: TextCall,
  done: { answers: readonly Answer[]; completionTokens: number; latencyMs: number; tokensPerSecond: number },
): GenerationOf {
  return {
    apiType: call.apiType,
    idKind: null,
    idLabel: 'chat',
    origin: call.origin,
    user: ask.user,
    streamed: call.streamed,
    finishReason: done.answers[0]!.finishReason,
    latencyMs: done.latencyMs,
    generationTimeMs: done.latencyMs + Math.round((done.completionTokens / done.tokensPerSecond) * 1000),
  }
}

/**
 * A billed completion, generated or replayed (the meter has recorded its generation): its content is
 * kept, in the billing transaction.
 */
export function recordCompletion(
  ctx: EmulatorContext,
  caller: AuthContext,
  ask: TextAsk,
  call: TextCall,
  done: Pick<
    Completion,
    | 'model'
    | 'answers'
    | 'promptTokens'
    | 'completionTokens'
    | 'reasoningTokens'
    | 'imageCount'
    | 'latencyMs'
    | 'tokensPerSecond'
    | 'source'
    | 'cache'
    | 'webSearch'
  > & {
    metered: Metered<CatalogEndpoint>
  },
): Completion {
  const { metered, ...rest } = done
  const id = metered.generationId!
  const serverToolCalls = (ask.datetime ? 1 : 0) + (done.webSearch && ask.webTool ? 1 : 0) + (ask.imageTool ? 1 : 0) + (ask.forcedServerTool ? 1 : 0)
  // Its prompt and answer, for GET /api/v1/generation/content (the generations module, reached lazily).
  ctx.services.generations.keep({ generationId: id, accountId: caller.account.id, operation: call.operation, messages: ask.messages, answers: done.answers })
  return {
    ...rest,
    id,
    usageId: metered.usage_id,
    created: Math.floor(metered.now / 1000),
    endpoint: metered.endpoint,
    costNanos: metered.charge.cost_nanos,
    byok: metered.byok,
    ...(serverToolCalls > 0 ? { serverToolCalls } : {}),
  }
}

/**
 * The gateway's server tool counts (the real document's ServerToolUseDetails), or null where the request
 * used none: each server tool run once (a web search asked by a tool among them), and the searches made
 * (the `web` plugin's and `:online`'s searches count only there, as the document says of native search).
 */
export function serverToolUseDetails(completion: Completion): Record<string, number> | null {
  const calls = completion.serverToolCalls ?? 0
  const searches = completion.webSearch ? 1 : 0
  if (calls === 0 && searches === 0) return null
  return {
    ...(calls > 0 ? { tool_calls_requested: calls, tool_calls_executed: calls } : {}),
    ...(searches > 0 ? { web_search_requests: searches } : {}),
  }
}

/** How a completion was priced, for the pricers. */
const pricedText = (completion: Completion): PricedText => ({
  recorded: completion.source.kind === 'replayed',
  prices: completion.endpoint.pricing,
  costNanos: completion.costNanos,
  promptTokens: completion.promptTokens,
  completionTokens: completion.completionTokens,
  images: completion.imageCount,
  ...(completion.cache && { cacheRead: completion.cache.read, cacheWrite: completion.cache.write5m + completion.cache.write1h }),
})

/** The cost of a completion split as the gateway reports it: the prompt's part and the answer's. */
export function costSplit(completion: Completion): { totalUsd: number; promptUsd: number; completionUsd: number } {
  const promptNanos = promptPartNanos(pricedText(completion))
  return {
    totalUsd: nanosToUsd(completion.costNanos),
    promptUsd: nanosToUsd(promptNanos),
    completionUsd: nanosToUsd(completion.costNanos - promptNanos),
  }
}

/**
 * An answer broken part way (a fault): bills the prompt, the completion tokens that were sent and the
 * images drawn (a replayed answer: its recorded cost's share), and records how it ended.
 */
export function settleBroken(ctx: EmulatorContext, completion: Completion, sentTokens: number, finishReason: 'error' | null): void {
  const cost = brokenStreamNanos(pricedText(completion), sentTokens)
  settleMetered(ctx, { usageId: completion.usageId, generationId: completion.id }, { completion_tokens: sentTokens, cost_nanos: cost }, finishReason)
}
