// Requests in normal form, the key a recording is found by. A text request, whatever API it came
// through, is read by that API's own parser (the surface registered with the text engine) into the
// engine's ask, then written in chat's shape with only what changes an answer (recordings-format.service.ts:
// NormalTextRequest); defaults are left out and every key is in a fixed order, so equal requests give
// byte-equal forms. Another request is its body
// without the fields that change no answer, keys sorted.
import type { Message, Tool, ToolChoice } from '../text/text.input.ts'
import type { TextAsk } from '../text/text-engine.service.ts'
import type { EmulatorContext } from '../module.ts'
import { RAW_OPERATIONS, TEXT_OPERATIONS, type NormalTextRequest, type RecordedOperation } from './recordings-format.service.ts'

export type TextOperation = (typeof TEXT_OPERATIONS)[number]
export type RawOperation = (typeof RAW_OPERATIONS)[number]

export const isTextOperation = (operation: string): operation is TextOperation => (TEXT_OPERATIONS as readonly string[]).includes(operation)
export const isRawOperation = (operation: string): operation is RawOperation => (RAW_OPERATIONS as readonly string[]).includes(operation)
export const isRecordedOperation = (operation: string): operation is RecordedOperation => isTextOperation(operation) || isRawOperation(operation)

/**
 * A text operation's body as the engine's ask, read by the surface registered for it (a body it
 * refuses throws the surface's 400, naming the field in its words).
 */
export function textAskOf(ctx: EmulatorContext, operation: string, body: unknown): TextAsk {
  const surface = ctx.services.text.ports.byOperation(operation)
  if (!surface) throw new Error(`${operation} is not a text operation`)
  return surface.ask(ctx, body)
}

type NormalMessage = NormalTextRequest['messages'][number]
type NormalToolCall = NonNullable<NormalMessage['tool_calls']>[number]

/** What the request asks for, in chat's shape: the key of its recording. */
export function normalTextRequest(ask: TextAsk): NormalTextRequest {
  return canonicalText({
    model: ask.candidates[0] ?? '',
    messages: ask.messages.map(normalMessage),
    tools: ask.tools.map((tool: Tool) => ({ name: tool.name, parameters: tool.parameters })),
    tool_choice: toolChoiceWord(ask.toolChoice),
    ...(ask.format.kind === 'json_object' && { response_format: { type: 'json_object' } }),
    ...(ask.format.kind === 'json_schema' && { response_format: { type: 'json_schema', json_schema: { name: ask.format.name, schema: ask.format.schema } } }),
    ...(ask.maxTokens !== null && { max_tokens: ask.maxTokens }),
    stop: ask.stop,
    ...(ask.seed !== null && { seed: ask.seed }),
    n: ask.choices,
    reasoning: ask.reasoning !== null,
  })
}

const normalMessage = (message: Message): NormalMessage => ({
  role: message.role,
  content: message.text,
  ...(message.toolCalls.length > 0 && { tool_calls: message.toolCalls.map((call) => ({ name: call.function.name, arguments: call.function.arguments })) }),
})

const toolChoiceWord = (choice: ToolChoice): string => (choice.kind === 'named' ? choice.name : choice.kind)

/**
 * A normal request with what changes no answer taken out, for requests and recorded files alike: a
 * developer message is a system one, tool-call arguments are compact JSON with sorted keys, schemas
 * lose their `$schema`, and defaults (one choice, no stop, no reasoning, the usual tool choice) are
 * left out. Keys come in the order of NormalTextRequest, nested objects' keys sorted.
 */
export function canonicalText(request: NormalTextRequest): NormalTextRequest {
  const tools = request.tools ?? []
  const usualChoice = tools.length > 0 ? 'auto' : 'none'
  return {
    model: request.model,
    messages: request.messages.map((m) => ({
      role: m.role === 'developer' ? 'system' : m.role,
      content: m.content,
      ...(m.tool_calls && m.tool_calls.length > 0 && { tool_calls: m.tool_calls.map(canonicalCall) }),
    })),
    ...(tools.length > 0 && { tools: tools.map((t) => ({ name: t.name, parameters: sortedKeys(withoutDialect(t.parameters)) as Record<string, unknown> })) }),
    ...(request.tool_choice !== undefined && request.tool_choice !== usualChoice && { tool_choice: request.tool_choice }),
    ...(request.response_format !== undefined && { response_format: sortedKeys(formatWithoutDialect(request.response_format)) as Record<string, unknown> }),
    ...(request.max_tokens !== undefined && { max_tokens: request.max_tokens }),
    ...(request.stop !== undefined && request.stop.length > 0 && { stop: [...request.stop] }),
    ...(request.seed !== undefined && { seed: request.seed }),
    ...(request.n !== undefined && request.n !== 1 && { n: request.n }),
    ...(request.reasoning === true && { reasoning: true }),
  }
}

function canonicalCall(call: NormalToolCall): NormalToolCall {
  if (typeof call.arguments !== 'string') return { name: call.name, arguments: JSON.stringify(sortedKeys(call.arguments)) }
  try {
    return { name: call.name, arguments: JSON.stringify(sortedKeys(JSON.parse(call.arguments))) }
  } catch {
    // Arguments cut short (a model that ran out of tokens) are no JSON: kept as they were.
    return { name: call.name, arguments: call.arguments }
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value)

function withoutDialect(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = schema
  return rest
}

function formatWithoutDialect(format: Record<string, unknown>): Record<string, unknown> {
  const spec = format.json_schema
  if (!isObject(spec) || !isObject(spec.schema)) return format
  return { ...format, json_schema: { ...spec, schema: withoutDialect(spec.schema) } }
}

/** A copy of a JSON value with every object's keys sorted, so equal values serialize the same. */
export function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys)
  if (!isObject(value)) return value
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(value).sort()) out[key] = sortedKeys(value[key])
  return out
}

/** Fields of a body that change no answer: who asks, how it is routed, what it is tagged with. */
const NO_ANSWER_FIELDS = new Set(['user', 'provider', 'metadata', 'session_id', 'trace', 'usage', 'stream', 'stream_options', 'safety_identifier'])

/** A raw operation's body without the fields that change no answer, keys sorted (not an object: `{}`). */
export function normalRawRequest(_operation: string, body: unknown): Record<string, unknown> {
  if (!isObject(body)) return {}
  const kept: Record<string, unknown> = {}
  for (const key of Object.keys(body).sort()) if (!NO_ANSWER_FIELDS.has(key) && body[key] !== undefined) kept[key] = sortedKeys(body[key])
  return kept
}
