// The broadcaster: every billed call of a workspace becomes a trace for each of its enabled
// destinations that take it, delivered by the callbacks engine (signed, retried, from its persisted
// outbox). It reads the usage table, the one place every billed call lands (chat, Responses,
// Messages, embeddings, images, audio, rerank, videos, the video router, upstream answers; embeddings
// and the router keep no generation row), after the call's transaction has committed, so the trace
// also has what the surface recorded beside the usage row (the generation: its id, timing, finish
// reason). Each destination keeps the last usage row it has considered; moving that mark and writing
// the outbox rows happen in one transaction, so a crash neither loses a trace nor sends one twice.
//
// A trace is OTLP/HTTP JSON (an ExportTraceServiceRequest with one span), as the real gateway sends
// its webhook and OpenTelemetry collector destinations, with the GenAI semantic conventions' names.
import type { DueSource } from '../../core/clock.ts'
import { nanosToUsd } from '../../core/money.ts'
import { sha256Hex } from '../../core/rng.ts'
import { immediateTransaction } from '../../store/db.ts'
import { enqueueDelivery } from '../callbacks/callbacks.service.ts'
import type { EmulatorContext } from '../module.ts'
import { deliveryUrl } from './observability-destinations.service.ts'
import { passesFilters, type TraceFields } from './observability-filters.service.ts'
import type { DestinationRow, DestinationsRepo, TracedCall } from './observability.repo.ts'
import type { FilterRules } from './observability.schemas.ts'

/** Usage rows one destination considers per run; the clock runs it again while more are left. */
const BATCH = 500
/** What the traces name as their source. */
const SERVICE_NAME = 'model-gateway-emulator'

// ---- The trace -----------------------------------------------------------------------------------

type AnyValue = { stringValue: string } | { intValue: string } | { doubleValue: number } | { boolValue: boolean } | { arrayValue: { values: AnyValue[] } }
type Attribute = { key: string; value: AnyValue }

const text = (key: string, value: string): Attribute => ({ key, value: { stringValue: value } })
// OTLP's JSON encoding writes 64-bit integers as strings.
const int = (key: string, value: number): Attribute => ({ key, value: { intValue: String(Math.round(value)) } })
const double = (key: string, value: number): Attribute => ({ key, value: { doubleValue: value } })
const bool = (key: string, value: boolean): Attribute => ({ key, value: { boolValue: value } })
const optional = (key: string, value: string | null): Attribute[] => (value === null ? [] : [text(key, value)])
const nanos = (ms: number): string => `${Math.round(ms)}000000`

/** The GenAI conventions' operation names, by the generation's api_type (or, without one, the operation). */
const OPERATION_NAMES: Record<string, string> = {
  completions: 'chat',
  embeddings: 'embeddings',
  rerank: 'rerank',
  tts: 'speech',
  stt: 'transcription',
  image: 'image_generation',
  video: 'video_generation',
}

function operationName(call: TracedCall): string {
  if (call.api_type !== null) return OPERATION_NAMES[call.api_type] ?? call.api_type
  if (call.operation.startsWith('embeddings.')) return 'embeddings'
  if (call.operation.startsWith('video.')) return 'video_generation'
  return call.operation
}

/** One trace of one call for one destination: its span carries what the destination asked for, and never a key. */
export function traceBody(destination: DestinationRow, call: TracedCall): string {
  const ids = sha256Hex(`trace:${call.generation_id ?? `usage:${call.usage_id}`}`)
  const duration = call.generation_time_ms ?? call.latency_ms ?? 0
  const operation = operationName(call)
  const attributes: Attribute[] = [
    text('gen_ai.operation.name', operation),
    text('gen_ai.provider.name', call.provider),
    text('gen_ai.request.model', call.model),
    text('gen_ai.response.model', call.model),
    ...optional('gen_ai.response.id', call.generation_id),
    ...(call.finish_reason === null
      ? []
      : [{ key: 'gen_ai.response.finish_reasons', value: { arrayValue: { values: [{ stringValue: call.finish_reason }] } } }]),
    int('gen_ai.usage.input_tokens', call.prompt_tokens),
    int('gen_ai.usage.output_tokens', call.completion_tokens),
    int('gen_ai.usage.reasoning_tokens', call.reasoning_tokens),
    int('gen_ai.usage.total_tokens', call.prompt_tokens + call.completion_tokens),
    text('gateway.operation', call.operation),
    ...(call.streamed === null ? [] : [bool('gateway.streamed', call.streamed === 1)]),
    ...(call.latency_ms === null ? [] : [int('gateway.latency_ms', call.latency_ms)]),
    ...(call.generation_time_ms === null ? [] : [int('gateway.generation_time_ms', call.generation_time_ms)]),
    text('gateway.destination.id', destination.id),
  ]
  if (destination.broadcast_generation_cost === 1)
    attributes.push(double('gen_ai.usage.cost', nanosToUsd(call.cost_nanos)), bool('gateway.is_byok', call.byok === 1))
  if (destination.broadcast_generation_identity === 1)
    attributes.push(...optional('user.id', call.external_user), ...optional('gateway.api_key.name', call.key_name))
  if (destination.broadcast_generation_request_context === 1) {
    attributes.push(
      ...optional('http.request.header.referer', call.http_referer),
      ...optional('gateway.app.title', call.app_title),
      ...optional('user_agent.original', call.user_agent),
    )
  }
  return JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [text('service.name', SERVICE_NAME), text('gateway.workspace.id', call.workspace_id)] },
        scopeSpans: [
          {
            scope: { name: `${SERVICE_NAME}.broadcast` },
            spans: [
              {
                traceId: ids.slice(0, 32),
                spanId: ids.slice(32, 48),
                name: `${operation} ${call.model}`,
                kind: 3, // CLIENT: the gateway calling the provider
                startTimeUnixNano: nanos(call.created_at),
                endTimeUnixNano: nanos(call.created_at + duration),
                attributes,
                status: call.finish_reason === 'error' ? { code: 2, message: 'the answer ended with an error' } : { code: 1 },
              },
            ],
          },
        ],
      },
    ],
  })
}

// ---- Who is sent what ----------------------------------------------------------------------------

function fieldsOf(call: TracedCall): TraceFields {
  return {
    model: call.model,
    provider: call.provider,
    session_id: null,
    user_id: call.external_user,
    api_key_name: call.key_name,
    finish_reason: call.finish_reason,
    input: null,
    output: null,
    total_cost: nanosToUsd(call.cost_nanos),
    total_tokens: call.prompt_tokens + call.completion_tokens,
    prompt_tokens: call.prompt_tokens,
    completion_tokens: call.completion_tokens,
  }
}

/** The same destination and call are always sampled alike: the draw is a hash of the seed and both. */
function sampled(ctx: EmulatorContext, destination: DestinationRow, call: TracedCall): boolean {
  if (destination.sampling_rate >= 1) return true
  const draw = Number.parseInt(sha256Hex(`${ctx.config.seed}:sample:${destination.id}:${call.usage_id}`).slice(0, 12), 16) / 2 ** 48
  return draw < destination.sampling_rate
}

/** Whether a destination is sent this call: its workspace's, by a key it takes (the engine signs with the key), sampled in and passing its rules. */
function takes(ctx: EmulatorContext, destination: DestinationRow, call: TracedCall, filters: FilterRules | null, keys: string[] | null): boolean {
  if (call.workspace_id !== destination.workspace_id || call.key_hash === null) return false
  if (keys !== null && !keys.includes(call.key_hash)) return false
  return sampled(ctx, destination, call) && passesFilters(filters, fieldsOf(call))
}

/** The address a destination's traces go to, unless it has none, or is (now) one of the emulator's own. */
function receiver(ctx: EmulatorContext, destination: DestinationRow): string | null {
  const url = deliveryUrl(destination.type, JSON.parse(destination.config) as Record<string, unknown>)
  if (url === null) return null
  try {
    return ctx.ownAddresses.includes(new URL(url)) ? null : url
  } catch {
    return null
  }
}

/**
 * Turns the calls each enabled destination has not considered yet into deliveries, and moves its mark
 * past them: to the last usage row once none of its account's is left (so a destination whose account
 * is quiet is not held back by the others' rows).
 */
function broadcast(ctx: EmulatorContext, repo: DestinationsRepo): void {
  immediateTransaction(ctx.db, () => {
    const last = repo.lastUsageId()
    for (const destination of repo.withWork(last)) {
      const calls = repo.callsAfter(destination.account_id, destination.traced_usage_id, BATCH)
      const url = calls.length === 0 ? null : receiver(ctx, destination)
      const filters = destination.filter_rules === null ? null : (JSON.parse(destination.filter_rules) as FilterRules)
      const keys = destination.api_key_hashes === null ? null : (JSON.parse(destination.api_key_hashes) as string[])
      for (const call of url === null ? [] : calls) {
        if (!takes(ctx, destination, call, filters, keys)) continue
        enqueueDelivery(ctx, {
          account_id: destination.account_id,
          // The callbacks API lists deliveries by task: a trace's is its generation (or usage row, where none is kept).
          task_id: call.generation_id ?? `usage-${call.usage_id}`,
          key_hash: call.key_hash!,
          url: url!,
          state: 'trace',
          body: traceBody(destination, call),
          terminal: true,
        })
      }
      repo.mark(destination.id, calls.length === BATCH ? calls.at(-1)!.usage_id : last)
    }
  })
}

/** Due whenever an enabled destination has calls to consider: at once, whatever the clock's time. */
export function createBroadcaster(ctx: EmulatorContext, repo: DestinationsRepo): DueSource {
  return {
    name: 'observability',
    nextDue: () => (ctx.db.open && repo.hasWork() ? ctx.clock.now() : null),
    runDue: () => broadcast(ctx, repo),
  }
}
