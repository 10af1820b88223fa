// Chat and text completions: checks the request, picks the model (or the first usable of `models`)
// and an endpoint by the caller's preferences, writes the answers, bills them through the ledger (402
// before anything is sent), records the generation, then answers as JSON or as a stream of events.
import { ApiError, fieldError } from '../../core/errors.ts'
import { nanosToUsd, priceUsd, tokenCostNanos, usdToNanos } from '../../core/money.ts'
import type { AuthContext } from '../caller.ts'
import type { EmulatorContext } from '../module.ts'
import { immediateTransaction } from '../../store/db.ts'
import type { CatalogEndpoint, CatalogModel, Region } from '../catalog/catalog.schemas.ts'
import { invalidModelId } from '../catalog/catalog.errors.ts'
import { routeByPreferences } from '../catalog/routing.ts'
import { contextLengthExceeded, noToolEndpoints, notATextModel } from './chat.errors.ts'
import { countTokens, loadTokenizer } from '../../core/tokens.ts'
import { bill, settle } from '../ledger/ledger.service.ts'
import { loadFaker, type MakeFaker } from '../../core/faker.ts'
import { faultError } from '../../faults/faults.ts'
import { givenAnswer, writeAnswers, type Answer, type AnswerRequest } from './chat.answer.ts'
import type { ChatFixtureAnswer } from './chat-fixtures.schemas.ts'
import { answeringFixture, type FixtureSubject } from './chat-fixtures.service.ts'
import { answerTokensFor } from './chat.settings.ts'
import { mediaTokens, parseMessages, parseResponseFormat, parseToolChoice, parseTools, type Message, type Tool } from './chat.input.ts'
import type { ChatBody, CompletionBody } from './chat.schemas.ts'
import type { SchemaFiller } from './schema-filler.ts'
import { fitSchema, type FittedSchema } from './schema-fit.ts'

/** The most tokens an answer has when the catalog gives its model no output bound (max_completion_tokens). */
export const DEFAULT_MAX_COMPLETION_TOKENS = 16_384
/** The most characters of JSON a schema's value is generated to, whatever the max tokens: 1 MiB. */
export const SCHEMA_VALUE_CHARS = 1024 * 1024
/** Characters of a schema's value per token of the answer: enough that a lowered value still fills it. */
const CHARS_PER_TOKEN = 16

/** Where a request came from, as GET /generation reports it. */
export interface RequestOrigin {
  referer: string | null
  title: string | null
  userAgent: string | null
  /** The X-Emulator-Fixture header, which a chat fixture may match. */
  fixture: string | null
}

/** A billed completion, ready to be sent as JSON or as events. */
export interface Completion {
  id: string
  usageId: number
  created: number
  model: CatalogModel
  endpoint: CatalogEndpoint
  answers: Answer[]
  promptTokens: number
  completionTokens: number
  costNanos: number
  /** Simulated figures of the serving endpoint: time to the first token and tokens a second. */
  latencyMs: number
  tokensPerSecond: number
}

const isText = (model: CatalogModel): boolean => model.architecture.output_modalities.includes('text')

/** The model asked for, or the first of `models` that is a text model here. */
function chatModel(ctx: EmulatorContext, body: { model?: string | undefined; models?: string[] | undefined }): CatalogModel {
  const catalog = ctx.services.catalog.get()
  const candidates = [...(body.model ? [body.model] : []), ...(body.models ?? [])]
  if (candidates.length === 0) throw fieldError('model', 'is required (or `models`, a list to try in order)')
  for (const id of candidates) {
    const model = catalog.find(id)
    if (model && isText(model)) return model
  }
  const id = candidates[0]!
  const model = catalog.find(id)
  if (!model) throw invalidModelId(id)
  throw notATextModel(id, model.architecture.output_modalities)
}

const supports = (model: CatalogModel, endpoint: CatalogEndpoint, parameter: string): boolean =>
  (endpoint.supported_parameters ?? model.supported_parameters ?? []).includes(parameter)

/** Prompt tokens as chat models count them: each message's text and a few tokens of framing. */
function promptTokensOf(messages: readonly Message[], tools: readonly Tool[]): number {
  let tokens = 3
  for (const message of messages) {
    tokens += 4 + countTokens(message.text)
    for (const call of message.toolCalls) tokens += countTokens(call.function.name) + countTokens(call.function.arguments)
  }
  if (tools.length > 0) tokens += countTokens(JSON.stringify(tools))
  return tokens + mediaTokens(messages)
}

interface Prepared {
  model: CatalogModel
  messages: Message[]
  tools: Tool[]
  choices: number
  stop: string[]
  maxTokens: number | null
  promptTokens: number
  /** What the answers are written from (with the maximum tokens already capped). */
  answerRequest: AnswerRequest
  makeFaker: MakeFaker
}

/** What a chat body asks for, checked; its answers are written only once it may be billed. */
async function prepareChat(ctx: EmulatorContext, body: ChatBody): Promise<Prepared> {
  const model = chatModel(ctx, body)
  const messages = parseMessages(body.messages)
  const tools = parseTools(body.tools)
  const toolChoice = parseToolChoice(body.tool_choice, tools)
  const format = parseResponseFormat(body.response_format)
  const [makeFaker] = await Promise.all([loadFaker(), loadTokenizer()])
  const promptTokens = promptTokensOf(messages, tools)
  const maxTokens = body.max_completion_tokens ?? body.max_tokens ?? null
  const stop = typeof body.stop === 'string' ? [body.stop] : (body.stop ?? [])
  const answerMax = cap(model, promptTokens, maxTokens)
  // Schemas are fitted to what the answer can hold before anything is billed: what no value can
  // satisfy is a 400 here, and no value is generated larger than the budget.
  const budget = Math.min(SCHEMA_VALUE_CHARS, answerMax * CHARS_PER_TOKEN)
  const fitted = {
    tools: new Map<string, FittedSchema>(
      tools.map((tool, i) => [tool.name, fitSchema(withoutDialect(tool.parameters), budget, `tools[${i}].function.parameters`)]),
    ),
    format: format.kind === 'json_schema' ? fitSchema(withoutDialect(format.schema), budget, 'response_format.json_schema.schema') : null,
  }
  return {
    model,
    messages,
    tools,
    choices: body.n ?? 1,
    stop,
    maxTokens,
    promptTokens,
    makeFaker,
    answerRequest: {
      seed: ctx.config.seed,
      model: model.id,
      requestSeed: body.seed ?? null,
      messages,
      tools,
      toolChoice: tools.length === 0 ? { kind: 'none' } : toolChoice,
      format,
      maxTokens: answerMax,
      stop,
      answerTokens: answerTokensFor(ctx.services.chat.settings.current, model.id),
      fitted,
    },
  }
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
    lastUser: messages.findLast((m) => m.role === 'user')?.text ?? '',
    system: messages
      .filter((m) => m.role === 'system' || m.role === 'developer')
      .map((m) => m.text)
      .join('\n'),
    tools: tools.map((t) => t.name),
    header,
  }
}

async function prepareCompletion(ctx: EmulatorContext, body: CompletionBody): Promise<Prepared> {
  const {
    prompt,
    tools: _tools,
    tool_choice: _choice,
    response_format: _format,
    max_completion_tokens: _max,
    ...common
  } = body as CompletionBody & Partial<Record<'tools' | 'tool_choice' | 'response_format' | 'max_completion_tokens', unknown>>
  // Only the fields a text completion has: chat's (tools, response_format) are not read from its body,
  // where nothing has checked their shape.
  return prepareChat(ctx, { ...common, messages: [{ role: 'user', content: typeof prompt === 'string' ? prompt : prompt[0]! }] })
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

const p50 = (figures: { p50?: number | null } | null | undefined): number | null => (typeof figures?.p50 === 'number' ? figures.p50 : null)

interface CompleteOptions {
  operation: string
  region: Region | null
  provider: ChatBody['provider']
  streamed: boolean
  origin: RequestOrigin
  user: string | null
  filler: SchemaFiller
}

async function complete(ctx: EmulatorContext, caller: AuthContext, prepared: Prepared, options: CompleteOptions): Promise<Completion> {
  const { model, tools, promptTokens } = prepared
  checkContext(model, promptTokens, prepared.maxTokens)
  // Tools narrow the endpoints to those that take them, as the real router does.
  const endpoints = tools.length > 0 ? model.endpoints.filter((e) => supports(model, e, 'tools')) : model.endpoints
  if (endpoints.length === 0) throw noToolEndpoints()

  ctx.services.ratelimit.admit(caller.key.hash, caller.account.id, ctx.clock.now())
  const now = ctx.clock.now()
  const subject = fixtureSubject(model.id, prepared.messages, tools, options.origin.fixture)
  // Generated answers are written before the transaction (values of schemas in the filler's worker,
  // which takes time), unless a fixture will answer. Should a fixture be used up meanwhile, the
  // transaction finds none and the answers are written then (the second round writes them anyway).
  for (let round = 0; ; round++) {
    const generated =
      round === 0 && answeringFixture(ctx.services.chat.fixtures, caller.account.id, subject)
        ? null
        : await writeAnswers(prepared.answerRequest, prepared.choices, prepared.makeFaker, options.filler)
    const outcome = billCompletion(ctx, caller, prepared, options, { endpoints, now, subject, generated })
    if (outcome === 'no answers') continue
    if ('error' in outcome) throw outcome.error
    return outcome
  }
}

/**
 * One transaction: the fixture that answers is counted as used only when the answer is billed (a 402
 * leaves it as it was), and a fixture's error is counted and answered without billing.
 */
function billCompletion(
  ctx: EmulatorContext,
  caller: AuthContext,
  prepared: Prepared,
  options: CompleteOptions,
  at: { endpoints: CatalogEndpoint[]; now: number; subject: FixtureSubject; generated: Answer[] | null },
): Completion | { error: ApiError } | 'no answers' {
  const { model, promptTokens } = prepared
  const { endpoints, now } = at
  return immediateTransaction(ctx.db, (): Completion | { error: ApiError } | 'no answers' => {
    const fixture = answeringFixture(ctx.services.chat.fixtures, caller.account.id, at.subject)
    if (!fixture && !at.generated) return 'no answers'
    const given = fixture ? (JSON.parse(fixture.answer) as ChatFixtureAnswer & { tool_calls?: Array<{ name: string; arguments: string }> }) : null
    if (fixture) ctx.services.chat.fixtures.use(fixture.id)
    if (given?.error) return { error: faultError(given.error.status, now, fixture!.id, { message: given.error.message }, 'fixture') }
    const answers: Answer[] = given
      ? Array.from({ length: prepared.choices }, (_, choice) => givenAnswer(prepared.answerRequest, given, `${fixture!.id}:${fixture!.hits}:${choice}`))
      : at.generated!
    const completionTokens = answers.reduce((n, a) => n + a.completionTokens, 0)
    const billed = bill(ctx, {
      caller,
      operation: options.operation,
      model: { id: model.id, canonical_slug: model.canonical_slug },
      endpoints,
      region: options.region,
      route: routeByPreferences(model, options.provider ?? undefined),
      price: (endpoint) => ({
        prompt_tokens: promptTokens,
        completion_tokens: completionTokens,
        cost_nanos: tokenCostNanos(endpoint.pricing, promptTokens, completionTokens) + usdToNanos(priceUsd(endpoint.pricing.request)),
      }),
    })
    const endpoint = billed.endpoint
    const latencyMs = Math.round((p50(endpoint.latency_last_30m) ?? 0.5) * 1000)
    const tokensPerSecond = p50(endpoint.throughput_last_30m) ?? 50
    const created = Math.floor(now / 1000)
    const id = `gen-${created}-${ctx.ids.generation(`chat:${billed.usage_id}`)}`
    ctx.services.chat.generations.insert({
      id,
      usage_id: billed.usage_id,
      account_id: caller.account.id,
      api_type: 'completions',
      streamed: options.streamed ? 1 : 0,
      finish_reason: answers[0]!.finishReason,
      latency_ms: latencyMs,
      generation_time_ms: latencyMs + Math.round((completionTokens / tokensPerSecond) * 1000),
      http_referer: options.origin.referer,
      app_title: options.origin.title,
      user_agent: options.origin.userAgent,
      external_user: options.user,
      created_at: now,
    })
    return {
      id,
      usageId: billed.usage_id,
      created,
      model,
      endpoint,
      answers,
      promptTokens,
      completionTokens,
      costNanos: billed.charge.cost_nanos,
      latencyMs,
      tokensPerSecond,
    }
  })
}

export async function createChatCompletion(
  ctx: EmulatorContext,
  caller: AuthContext,
  body: ChatBody,
  region: Region | null,
  origin: RequestOrigin,
  filler: SchemaFiller,
): Promise<Completion> {
  const prepared = await prepareChat(ctx, body)
  return complete(ctx, caller, prepared, {
    operation: 'chat.create',
    region,
    provider: body.provider,
    streamed: body.stream === true,
    origin,
    user: body.user ?? null,
    filler,
  })
}

export async function createTextCompletion(
  ctx: EmulatorContext,
  caller: AuthContext,
  body: CompletionBody,
  region: Region | null,
  origin: RequestOrigin,
  filler: SchemaFiller,
): Promise<Completion> {
  const prepared = await prepareCompletion(ctx, body)
  return complete(ctx, caller, prepared, {
    operation: 'completions.create',
    region,
    provider: body.provider,
    streamed: body.stream === true,
    origin,
    user: body.user ?? null,
    filler,
  })
}

/** Usage as the real gateway reports it (the AI SDK needs the details objects' counts). */
export function usageOf(completion: Completion): Record<string, unknown> {
  const promptCost = tokenCostNanos(completion.endpoint.pricing, completion.promptTokens, 0)
  return {
    prompt_tokens: completion.promptTokens,
    completion_tokens: completion.completionTokens,
    total_tokens: completion.promptTokens + completion.completionTokens,
    cost: nanosToUsd(completion.costNanos),
    is_byok: false,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    cost_details: {
      upstream_inference_cost: null,
      upstream_inference_prompt_cost: nanosToUsd(promptCost),
      upstream_inference_completions_cost: nanosToUsd(completion.costNanos - promptCost),
    },
    completion_tokens_details: { reasoning_tokens: 0 },
  }
}

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
        reasoning: null,
        ...(a.toolCalls.length > 0 && { tool_calls: a.toolCalls }),
      },
    })),
    system_fingerprint: null,
    usage: usageOf(completion),
  }
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

/**
 * An answer broken part way (a fault): bills the prompt and the completion tokens that were sent,
 * and records how it ended.
 */
export function settleBroken(ctx: EmulatorContext, completion: Completion, sentTokens: number, finishReason: 'error' | null): void {
  const pricing = completion.endpoint.pricing
  settle(ctx, completion.usageId, {
    completion_tokens: sentTokens,
    cost_nanos: tokenCostNanos(pricing, completion.promptTokens, sentTokens) + usdToNanos(priceUsd(pricing.request)),
  })
  ctx.services.chat.generations.finish(completion.id, finishReason)
}
