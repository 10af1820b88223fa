// Deterministic answers. Everything is drawn from a stream seeded by (the emulator's seed, the model,
// the request's `seed`, the messages), so the same request gives the same answer and a different
// conversation a different one. Text is English-like sentences from faker that pick up key words of
// the last user turn's own text (never the `<system-reminder>` blocks an agent adds to it, the system
// prompt or tool results: questionOf); tool arguments and structured outputs are values generated from the given
// JSON Schema (json-schema-faker in a worker, seeded from the same stream), so they validate against
// it. Every answer is bounded by its max tokens: text is written only that far, and a schema's bounds
// are lowered to what that can hold (text-schema-fit.service.ts), the value then cut with finish_reason "length".
import type { MakeFaker } from '../../core/faker.ts'
import { createRng, sha256Hex, type Rng } from '../../core/rng.ts'
import { countTokens, firstTokens } from '../../core/tokens.ts'
import type { Message, ResponseFormat, Tool, ToolCall, ToolChoice } from './text.input.ts'
import type { FillJob, SchemaFiller } from './text-schema-filler.service.ts'
import type { FittedSchema } from './text-schema-fit.service.ts'

export type FinishReason = 'stop' | 'length' | 'tool_calls'

export interface Answer {
  content: string | null
  toolCalls: ToolCall[]
  finishReason: FinishReason
  /** Output tokens, reasoning included. */
  completionTokens: number
  /** The model's reasoning before its answer, where it was asked for and the model reasons. */
  reasoning: string | null
  reasoningTokens: number
  /** The stop sequence the text ended at (finish_reason "stop"), where one did (the Messages API names it). */
  stopSequence?: string
  /** The pages a web search found that the text cites (text-web.service.ts), where web search was asked. */
  annotations?: UrlCitation[]
}

/** A page an answer cites (the real document's URLCitation, without its `type`). */
export interface UrlCitation {
  url: string
  title: string
  content: string
  /** Where the citation's link starts and ends in the answer's text (UTF-16 code units, end exclusive). */
  start_index: number
  end_index: number
}

export interface AnswerRequest {
  seed: number
  model: string
  requestSeed: number | null
  messages: readonly Message[]
  tools: readonly Tool[]
  toolChoice: ToolChoice
  /**
   * Several calls may be made in one answer (chat's and Responses' `parallel_tool_calls`, the negation of
   * Messages' `disable_parallel_tool_use`): a prompt naming several of the tools calls each, in the order named.
   */
  parallel: boolean
  format: ResponseFormat
  /** The most tokens the answer may have: it is cut there (`finish_reason: "length"`). */
  maxTokens: number
  stop: readonly string[]
  /** Tokens a text answer aims at (about; whole sentences). */
  answerTokens: number
  /** Tokens of reasoning to write before the answer (0: none); within `maxTokens`. */
  reasoningTokens: number
  /** How the asking surface names its schemas' fields, for the errors of their values. */
  fields: { tool(index: number): string; format: string }
  /** The schemas values are generated from, fitted to the answer's budget: by tool name, and the format's. */
  fitted: { tools: ReadonlyMap<string, FittedSchema>; format: FittedSchema | null }
}

const STOPWORDS = new Set(
  (
    'a an and are as at be but by can could do does for from had has have how i if in into is it its me my of on or our please ' +
    'should so tell than that the their them then there these they this to was we were what when where which who why will with would you your ' +
    // Words of asking rather than of the topic: an answer about "want" or "explain" reads as a bug.
    'about also been before being could describe does doing explain give hello help here just know like make many more much need ' +
    'show some thank thanks very want write'
  ).split(' '),
)

/** The words of a text worth echoing: longest first, no stopwords, at most `count`. */
export function keyWords(text: string, count: number): string[] {
  const words = (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length >= 4 && !STOPWORDS.has(w))
  return [...new Set(words)].sort((a, b) => b.length - a.length || (a < b ? -1 : 1)).slice(0, count)
}

/** A `<system-reminder>` block, as Claude Code adds them to the user's turn: context for the model, not the question. */
const REMINDER = /<system-reminder>[\s\S]*?<\/system-reminder>/gi

/** A user message's own words: its text without the reminder blocks an agent adds to it. */
export const ownWords = (text: string): string => text.replace(REMINDER, ' ')

/** Whether a message is only reminder blocks (an agent's note after tool results), not a turn of the user. */
function onlyReminders(message: Message): boolean {
  const own = ownWords(message.text)
  return own !== message.text && own.trim() === ''
}

/**
 * What the user asked: the last user turn's own words, where an answer's topic (and the length of its
 * reasoning) comes from. A user message made only of reminder blocks is not a turn of the user; system
 * prompts and tool results are never read here.
 */
export function questionOf(messages: readonly Message[]): string {
  const last = messages.findLast((m) => m.role === 'user' && !onlyReminders(m))
  return last === undefined ? '' : ownWords(last.text).trim()
}

/** The words of a tool's name (`get_weather`, `getWeather` -> get, weather). */
const nameWords = (name: string): string[] =>
  name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length >= 4)

/**
 * The tools to call (none: a text answer). `auto` calls a tool when the last message is the user's and
 * names one (a word of the tool's name, e.g. "weather" for get_weather): an agent loop then runs, and
 * after the tool results (the last message is the tool's) the answer is text. A prompt naming several
 * tools calls each of them, in the order they are named, where parallel calls are allowed; otherwise
 * (and whenever one tool is named) the one call is the first named tool in the order of `tools`.
 */
function toolsToCall(request: AnswerRequest, rng: Rng): Tool[] {
  const { tools, toolChoice, messages } = request
  const last = messages.at(-1)
  switch (toolChoice.kind) {
    case 'none':
      return []
    case 'named': {
      const named = tools.find((t) => t.name === toolChoice.name)
      return named ? [named] : []
    }
    case 'required': {
      const mentioned = last ? mentionedTools(tools, ownWords(last.text), request.parallel) : []
      return mentioned.length > 0 ? mentioned : [rng.pick(tools)]
    }
    case 'auto':
      return last?.role === 'user' ? mentionedTools(tools, ownWords(last.text), request.parallel) : []
  }
}

/** A word of a tool's name that names it in a prompt (not a stopword, nor the `get`/`list` every other tool has). */
const namingWords = (tool: Tool): string[] => nameWords(tool.name).filter((w) => !STOPWORDS.has(w) && w !== 'get' && w !== 'list')

/**
 * The tools a prompt names. One call: the first named tool in the order of `tools` (the choice since the
 * first release). Several, where `parallel`: each tool named, in the order of its first word in the
 * prompt; where one word names several tools (get_weather, get_weather_forecast on "weather"), the
 * tool with the largest share of its name's words in the prompt is the one named.
 */
function mentionedTools(tools: readonly Tool[], text: string, parallel: boolean): Tool[] {
  const words: string[] = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
  const present = new Set(words)
  const first = tools.find((tool) => namingWords(tool).some((w) => present.has(w)))
  if (!first) return []
  if (!parallel) return [first]
  const byPosition = new Map<number, { tool: Tool; share: number }>()
  for (const tool of tools) {
    const own = namingWords(tool)
    const positions = own.map((w) => words.indexOf(w)).filter((at) => at !== -1)
    if (positions.length === 0) continue
    const at = Math.min(...positions)
    const share = positions.length / own.length
    const held = byPosition.get(at)
    if (!held || share > held.share) byPosition.set(at, { tool, share })
  }
  const named = [...byPosition.entries()].sort((a, b) => a[0] - b[0]).map(([, { tool }]) => tool)
  const distinct = [...new Set(named)]
  return distinct.length > 1 ? distinct : [first]
}

function sentences(makeFaker: MakeFaker, rng: Rng, topic: readonly string[], targetTokens: number): string {
  const faker = makeFaker(rng)
  const out: string[] = []
  if (topic.length > 0) {
    const subject = topic.length === 1 ? topic[0]! : `${topic.slice(0, -1).join(', ')} and ${topic.at(-1)!}`
    out.push(`${rng.pick(['About', 'On', 'Regarding'])} ${subject}: ${lowerFirst(faker.hacker.phrase())}`)
  }
  let tokens = out.length > 0 ? countTokens(out[0]!) : 0
  while (tokens < targetTokens) {
    const sentence = rng.chance(0.5) ? faker.hacker.phrase() : `${faker.company.catchPhrase()}.`
    out.push(sentence)
    tokens += countTokens(sentence) + 1
  }
  return out.join(' ')
}

const lowerFirst = (text: string): string => text.charAt(0).toLowerCase() + text.slice(1)

/** `text` cut at the first stop sequence or at `maxTokens`, with why it ended. */
function bounded(text: string, request: AnswerRequest): { text: string; finishReason: FinishReason; tokens: number; stopSequence: string | null } {
  let matched: string | null = null
  for (const stop of request.stop) {
    const at = stop === '' ? -1 : text.indexOf(stop)
    if (at === -1) continue
    text = text.slice(0, at)
    matched = stop
  }
  const kept = firstTokens(text, request.maxTokens)
  return { text: kept.text, finishReason: kept.cut ? 'length' : 'stop', tokens: kept.tokens, stopSequence: kept.cut ? null : matched }
}

type Fill = FillJob & { lowered: boolean }

/** What one choice will be, before any schema is filled: its stream, the tools it calls, the values they need. */
interface AnswerPlan {
  rng: Rng
  tools: Tool[]
  /** One for each tool called (null: a custom tool, whose input is text), or one for the format's value. */
  fills: Array<Fill | null>
}

function planAnswer(request: AnswerRequest, choice: number): AnswerPlan {
  const rng = createRng(request.seed, `chat:${request.model}:${request.requestSeed ?? ''}:${digestOf(request)}:${choice}`)
  const tools = toolsToCall(request, rng)
  const fillOf = (fitted: FittedSchema | null | undefined, field: string): Fill | null =>
    fitted ? { schema: fitted.schema, seed: rng.int(1, 2 ** 31 - 1), field, lowered: fitted.lowered } : null
  if (tools.length > 0)
    return {
      rng,
      tools,
      fills: tools.map((tool) => (tool.custom ? null : fillOf(request.fitted.tools.get(tool.name), request.fields.tool(request.tools.indexOf(tool))))),
    }
  return { rng, tools, fills: [request.format.kind === 'json_schema' ? fillOf(request.fitted.format, request.fields.format) : null] }
}

/**
 * The answers to one request, `choices` of them, each its own. Values of schemas are made in the
 * filler's worker, within its budget; the rest runs here (the tokenizer and faker are loaded by then).
 */
export async function writeAnswers(request: AnswerRequest, choices: number, makeFaker: MakeFaker, filler: SchemaFiller): Promise<Answer[]> {
  const plans = Array.from({ length: choices }, (_, choice) => planAnswer(request, choice))
  const values = await filler.fill(plans.flatMap((plan) => plan.fills.filter((fill) => fill !== null)))
  let next = 0
  return plans.map((plan, choice) => {
    const thought = reasoningOf(request, choice, makeFaker)
    // The answer has what the reasoning left of the bound.
    const rest = thought ? { ...request, maxTokens: Math.max(1, request.maxTokens - thought.tokens) } : request
    const answer = writeAnswer(
      rest,
      plan,
      plan.fills.map((fill) => (fill ? values[next++]! : null)),
      makeFaker,
    )
    return thought
      ? { ...answer, reasoning: thought.text, reasoningTokens: thought.tokens, completionTokens: answer.completionTokens + thought.tokens }
      : answer
  })
}

/**
 * Reasoning, from a stream of its own (so an answer reads the same with or without it): a few
 * sentences on the question's key words, cut at the reasoning budget (sized by the engine: reasoningBudget).
 */
function reasoningOf(request: AnswerRequest, choice: number, makeFaker: MakeFaker): { text: string; tokens: number } | null {
  if (request.reasoningTokens <= 0) return null
  const rng = createRng(request.seed, `reasoning:${request.model}:${request.requestSeed ?? ''}:${digestOf(request)}:${choice}`)
  const topic = keyWords(questionOf(request.messages), 2)
  const opening = topic.length > 0 ? `The question is about ${topic.join(' and ')}. ` : 'Let me work through the request. '
  const kept = firstTokens(opening + sentences(makeFaker, rng, [], request.reasoningTokens), request.reasoningTokens)
  return { text: kept.text, tokens: kept.tokens }
}

/** Words of a custom tool's input (freeform text: a grammar format is not followed, a plain string is written). */
const CUSTOM_INPUT_TOKENS = 16

function writeAnswer(request: AnswerRequest, plan: AnswerPlan, values: ReadonlyArray<string | null>, makeFaker: MakeFaker): Answer {
  // A value of a lowered schema stands for a longer one: the answer ran out of tokens.
  const lowered = plan.fills.some((fill) => fill?.lowered === true)
  const question = questionOf(request.messages)
  if (plan.tools.length > 0) {
    const calls = plan.tools.map((tool, i) => ({
      name: tool.name,
      arguments: tool.custom ? sentences(makeFaker, plan.rng, keyWords(question, 2), CUSTOM_INPUT_TOKENS) : (values[i] ?? '{}'),
      ...(tool.custom && { custom: true }),
    }))
    return toolCallsAnswer(calls, plan.rng, null, request.maxTokens, lowered)
  }
  const value = values[0] ?? null
  // Never more than the answer can hold: a few tokens past the cut keep it where a longer text would cut.
  const target = Math.min(request.answerTokens, request.maxTokens + 8)
  let text: string
  if (value !== null) text = value
  else if (request.format.kind === 'json_object') text = JSON.stringify({ answer: sentences(makeFaker, plan.rng, keyWords(question, 2), Math.min(target, 24)) })
  else text = sentences(makeFaker, plan.rng, keyWords(question, 2), target)
  const cut = bounded(text, request)
  return {
    content: cut.text,
    toolCalls: [],
    finishReason: lowered ? 'length' : cut.finishReason,
    completionTokens: cut.tokens,
    reasoning: null,
    reasoningTokens: 0,
    ...(cut.stopSequence !== null && !lowered && { stopSequence: cut.stopSequence }),
  }
}

const digestOf = (request: AnswerRequest): string => sha256Hex(JSON.stringify([request.messages, request.tools.map((t) => t.name), request.format]))

/** Tool calls, their arguments cut at `maxTokens` (finish_reason "length") as a model's that ran out. */
function toolCallsAnswer(
  calls: ReadonlyArray<{ name: string; arguments: string; custom?: boolean }>,
  rng: Rng,
  content: string | null,
  maxTokens: number,
  lowered = false,
): Answer {
  const contentTokens = content === null ? 0 : countTokens(content)
  let tokens = contentTokens
  let cut = lowered
  const toolCalls: ToolCall[] = calls.map((call) => {
    // A call costs its name, its arguments and a few tokens of framing.
    const framing = countTokens(call.name) + 3
    const args = firstTokens(call.arguments, Math.max(0, maxTokens - tokens - framing))
    tokens += framing + args.tokens
    cut ||= args.cut
    return { id: `call_${rng.hex(24)}`, type: call.custom ? 'custom' : 'function', function: { name: call.name, arguments: args.text } }
  })
  return { content, toolCalls, finishReason: cut ? 'length' : 'tool_calls', completionTokens: tokens, reasoning: null, reasoningTokens: 0 }
}

/**
 * An answer a fixture gives: its text (cut by `stop` and `max_tokens` as a generated one) or its tool
 * calls, with call ids drawn from the request's stream and `label` (the fixture and its use).
 */
export function givenAnswer(
  request: AnswerRequest,
  given: { content?: string | undefined; tool_calls?: ReadonlyArray<{ name: string; arguments: string }> | undefined },
  label: string,
): Answer {
  if (given.tool_calls)
    return toolCallsAnswer(given.tool_calls, createRng(request.seed, `fixture:${label}:${digestOf(request)}`), given.content ?? null, request.maxTokens)
  const cut = bounded(given.content ?? '', request)
  return {
    content: cut.text,
    toolCalls: [],
    finishReason: cut.finishReason,
    completionTokens: cut.tokens,
    reasoning: null,
    reasoningTokens: 0,
    ...(cut.stopSequence !== null && { stopSequence: cut.stopSequence }),
  }
}
