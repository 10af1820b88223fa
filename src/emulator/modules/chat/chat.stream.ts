// A completion as server-sent events, as the real gateway streams it: a `: OPENROUTER PROCESSING`
// comment while "thinking", then `chat.completion.chunk`s with the same id (the role first, content
// or tool-call argument deltas, the finish reason), a chunk with the usage, and `data: [DONE]`.
// With --chat-speed above 0 the first token waits for the endpoint's latency and the rest follow at
// its throughput, scaled by the setting (in virtual time while the clock is frozen: chat.pace.ts); at 0
// (the default) everything is sent at once: in one write when it is small, else in writes of about
// WRITE_CHARS that wait for the client to take them (the answer is never built as one string).
import { RecordedStream } from '../../core/buffers.ts'
import type { StreamFault } from '../../faults/faults.hook.ts'
import type { StreamTimeline } from './chat.pace.ts'
import type { Rng } from '../../core/rng.ts'
import { usageOf, type Completion } from './chat.service.ts'

/** Pieces of text as a model streams them: a word and its leading space at a time. */
function* pieces(text: string): Generator<string> {
  let found = false
  for (const match of text.matchAll(/\s*\S+/g)) {
    found = true
    yield match[0]
  }
  if (!found && text) yield text
}

/** Tool-call arguments in pieces of this many characters. */
const ARGUMENT_PIECE = 24

/** Events are sent in writes of about this many characters when nothing paces them. */
const WRITE_CHARS = 64 * 1024

/** What the real gateway sends first, while the model "thinks". */
const PROCESSING = ': OPENROUTER PROCESSING\n\n'

type Kind = 'chat' | 'text'

type StreamEvent = { data: Record<string, unknown>; tokens: number }

/** The events of one completion, each with the tokens it carries (for timing), made as they are sent. */
function* events(completion: Completion, kind: Kind): Generator<StreamEvent> {
  const base = chunkBase(completion, kind)
  const chunk = (choice: Record<string, unknown>, tokens = 0): StreamEvent => ({ data: { ...base, choices: [choice] }, tokens })
  for (const [index, a] of completion.answers.entries()) {
    if (kind === 'text') {
      for (const piece of pieces(a.content ?? '')) yield chunk({ index, text: piece, finish_reason: null, native_finish_reason: null, logprobs: null }, 1)
      yield chunk({ index, text: '', finish_reason: a.finishReason, native_finish_reason: a.finishReason, logprobs: null })
      continue
    }
    yield chunk({ index, delta: { role: 'assistant', content: '' }, finish_reason: null, native_finish_reason: null, logprobs: null })
    for (const piece of pieces(a.content ?? ''))
      yield chunk({ index, delta: { content: piece }, finish_reason: null, native_finish_reason: null, logprobs: null }, 1)
    for (const [callIndex, call] of a.toolCalls.entries()) {
      yield chunk({
        index,
        delta: { tool_calls: [{ index: callIndex, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] },
        finish_reason: null,
        native_finish_reason: null,
        logprobs: null,
      })
      const args = call.function.arguments
      for (let at = 0; at < args.length; at += ARGUMENT_PIECE) {
        yield chunk(
          {
            index,
            delta: { tool_calls: [{ index: callIndex, function: { arguments: args.slice(at, at + ARGUMENT_PIECE) } }] },
            finish_reason: null,
            native_finish_reason: null,
            logprobs: null,
          },
          Math.ceil(ARGUMENT_PIECE / 4),
        )
      }
    }
    yield chunk({ index, delta: {}, finish_reason: a.finishReason, native_finish_reason: a.finishReason, logprobs: null })
  }
  yield { data: { ...base, choices: [], usage: usageOf(completion) }, tokens: 0 }
}

/** What the real gateway names an error of each status in a stream's error chunk. */
const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request',
  401: 'authentication',
  402: 'payment_required',
  403: 'permission_denied',
  404: 'not_found',
  408: 'timeout',
  413: 'payload_too_large',
  422: 'unprocessable',
  429: 'rate_limit_exceeded',
  502: 'provider_unavailable',
  503: 'provider_overloaded',
  504: 'timeout',
}

const ERROR_MESSAGES: Record<number, string> = {
  429: 'Rate limit exceeded',
  502: 'Provider returned error',
  503: 'Service temporarily unavailable',
  504: 'Operation timed out. Please try again later.',
}

export interface StreamControls {
  speed: number
  /** The stream's time: real while the clock runs, virtual (moved by clock advances) while it is frozen. */
  timeline: StreamTimeline
  /** Seeded draws for the jitter between tokens. */
  jitter: Rng
  /** A fault that breaks the answer part way, if one fired. */
  fault: StreamFault | null
  /** Closes the connection (a cut), once what was written has gone out. */
  cut(): Promise<void>
  /** Bills what was sent of an answer that did not finish. */
  broken(sentTokens: number, finishReason: 'error' | null): void
}

/** Writes the completion's events into `body` at the configured pace, then ends it. */
export async function streamCompletion(body: RecordedStream, completion: Completion, kind: Kind, controls: StreamControls): Promise<void> {
  const { speed, fault, timeline } = controls
  const due = (sent: number): boolean =>
    fault !== null && ((fault.afterChunks !== null && sent >= fault.afterChunks) || (fault.afterMs !== null && timeline.elapsed() >= fault.afterMs))
  if (speed === 0 && fault === null) {
    // Nothing to pace or break: the events go out in as few writes as fit WRITE_CHARS (one chunk on the
    // wire for a usual answer, not one per word), each waiting for the client to take the one before.
    let batch = PROCESSING
    for (const event of events(completion, kind)) {
      batch += `data: ${JSON.stringify(event.data)}\n\n`
      if (batch.length < WRITE_CHARS) continue
      if (!body.write(batch)) return
      batch = ''
      await body.drained()
    }
    body.write(`${batch}data: [DONE]\n\n`)
    body.end()
    return
  }
  body.write(PROCESSING)
  if (speed > 0) await timeline.sleep(completion.latencyMs * speed)
  const msPerToken = speed > 0 ? (1000 / completion.tokensPerSecond) * speed : 0
  let sent = 0
  let sentTokens = 0
  for (const event of events(completion, kind)) {
    // Each wait is 70% to 130% of the even pace (seeded), as tokens arrive unevenly from a real model.
    if (msPerToken > 0 && event.tokens > 0) await timeline.sleep(event.tokens * msPerToken * (0.7 + 0.6 * controls.jitter.next()))
    if (due(sent)) return breakStream(body, completion, kind, controls, sentTokens)
    if (!body.write(`data: ${JSON.stringify(event.data)}\n\n`)) return
    if (body.full) await body.drained()
    sent++
    sentTokens += event.tokens
  }
  // An answer shorter than the fault's point still breaks, at its end, if the fault is by time.
  if (fault?.afterMs != null) {
    const left = fault.afterMs - timeline.elapsed()
    if (left > 0) await timeline.sleep(left)
    return breakStream(body, completion, kind, controls, sentTokens)
  }
  body.write('data: [DONE]\n\n')
  body.end()
}

/**
 * The answer goes wrong: with a status, one chunk carrying the error and `finish_reason: "error"`
 * (the HTTP status is already 200, as on the real gateway once generation has started) and the end
 * of the stream; otherwise the connection closes. Either way what was sent is what is billed.
 */
async function breakStream(body: RecordedStream, completion: Completion, kind: Kind, controls: StreamControls, sentTokens: number): Promise<void> {
  const fault = controls.fault!
  if (fault.cut || fault.status === null) {
    controls.broken(sentTokens, null)
    await controls.cut()
    body.destroy()
    return
  }
  const status = fault.status
  const error = {
    code: status,
    message: fault.message ?? ERROR_MESSAGES[status] ?? `Error ${status}`,
    metadata: { error_type: ERROR_TYPES[status] ?? 'server' },
  }
  body.write(errorChunk(completion, kind, error))
  controls.broken(sentTokens, 'error')
  body.end()
}

/**
 * The stream broke inside the emulator (a bug, a database error): one error chunk (500, as the real
 * gateway reports its own failure once generation has started) and the end, if the client is still
 * there. What was billed stays billed.
 */
export function failStream(body: RecordedStream, completion: Completion, kind: Kind): void {
  body.write(errorChunk(completion, kind, { code: 500, message: 'Internal Server Error', metadata: { error_type: 'server' } }))
  body.end()
}

/** The event that carries an error, with `finish_reason: "error"`. */
function errorChunk(completion: Completion, kind: Kind, error: { code: number; message: string; metadata: Record<string, unknown> }): string {
  const choice =
    kind === 'chat'
      ? { index: 0, delta: { content: '' }, finish_reason: 'error', native_finish_reason: 'error', logprobs: null }
      : { index: 0, text: '', finish_reason: 'error', native_finish_reason: 'error', logprobs: null }
  return `data: ${JSON.stringify({ ...chunkBase(completion, kind), error, choices: [choice] })}\n\n`
}

/** What every event of a completion carries. */
function chunkBase(completion: Completion, kind: Kind): Record<string, unknown> {
  return {
    id: completion.id,
    provider: completion.endpoint.provider_name,
    model: completion.model.id,
    object: kind === 'chat' ? 'chat.completion.chunk' : 'text_completion',
    created: completion.created,
  }
}
