// How every text surface streams a completion: the surface gives its events as server-sent-event
// frames (chat's `data:` chunks, the Responses API's and the Messages API's named events), and this
// file sends them. With --chat-speed above 0 the first token waits for the endpoint's latency and the
// rest follow at its throughput, scaled by the setting (in virtual time while the clock is frozen:
// text-pace.service.ts); at 0 (the default) everything is sent at once: a usual answer written whole before
// the reply takes it, so headers, frames and the end leave in one write; a larger one in writes of about
// WRITE_CHARS that wait for the client to take them (no answer is built as one string).
// A stream fault breaks the answer part way: with a status, the surface's error frame and the end;
// without, the connection closes. Either way what was sent is what is billed.
import type { FastifyReply, FastifyRequest } from 'fastify'
import { RecordedStream } from '../../core/buffers.ts'
import { createRng, type Rng } from '../../core/rng.ts'
import type { StreamFault } from '../../faults/faults.hook.ts'
import { noteSource } from '../../journal/journal.ts'
import type { EmulatorContext } from '../module.ts'
import type { Pacer, StreamTimeline } from './text-pace.service.ts'
import { settleBroken, type Completion } from './text-engine.service.ts'

/** One server-sent event, written, with the tokens it carries (for pacing and for billing a broken stream). */
export interface Frame {
  text: string
  tokens: number
}

/** A fault's error, as the stream reports it. */
export interface StreamError {
  status: number
  message: string
}

/** What a surface streams: its frames, what comes before and after them, and how it reports an error. */
export interface FrameSource {
  /** Sent first, before any wait (chat's `: OPENROUTER PROCESSING` comment), or ''. */
  prelude: string
  frames: Iterable<Frame>
  /** Sent after the last frame (chat's `data: [DONE]`), or ''. */
  epilogue: string
  /** The frame (or frames) a fault with a status ends the stream with. */
  errorFrame(error: StreamError): string
}

/** Events are sent in writes of about this many characters when nothing paces them. */
const WRITE_CHARS = 64 * 1024

/** The words of the real gateway's stream errors, by status, where a fault gives none. */
export const STREAM_ERROR_MESSAGES: Record<number, string> = {
  429: 'Rate limit exceeded',
  502: 'Provider returned error',
  503: 'Service temporarily unavailable',
  504: 'Operation timed out. Please try again later.',
}

/** What the real gateway names an error of each status in a stream's error chunk. */
export const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request',
  401: 'authentication',
  402: 'payment_required',
  403: 'permission_denied',
  404: 'not_found',
  408: 'timeout',
  413: 'payload_too_large',
  422: 'unprocessable',
  429: 'rate_limit_exceeded',
  500: 'server',
  502: 'provider_unavailable',
  503: 'provider_overloaded',
  504: 'timeout',
}

/** A word and the space before it. */
const WORDS = /\s*\S+/g

/** Pieces of text as a model streams them: a word and its leading space at a time. */
export function pieces(text: string): readonly string[] {
  // One native match for the whole text (strings only), not an iterator of match objects.
  return text.match(WORDS) ?? (text ? [text] : [])
}

/** Tool-call arguments stream in pieces of this many characters (about 6 tokens each). */
export const ARGUMENT_PIECE = 24

/** A server-sent event frame: `event:` when named, then the JSON data. */
export const sse = (data: unknown, event?: string): string => `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`

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

/**
 * Writes the frames at once while they fit WRITE_CHARS (nothing to pace or break): the whole of a usual
 * answer, written before the reply takes the body, so it leaves in one write with the headers and the
 * end of the stream (RecordedStream.pipe). True when the answer ended; otherwise the first WRITE_CHARS
 * are written and the rest is streamFrames' (from the same iterator).
 */
function writeAtOnce(body: RecordedStream, source: FrameSource, frames: Iterator<Frame>): boolean {
  let batch = source.prelude
  for (let next = frames.next(); next.done !== true; next = frames.next()) {
    batch += next.value.text
    if (batch.length >= WRITE_CHARS) {
      body.write(batch)
      return false
    }
  }
  body.write(batch + source.epilogue)
  body.end()
  return true
}

/**
 * Writes the source's frames from `frames` into `body` at the configured pace, then ends it. With nothing
 * to pace or break, writeAtOnce has written the prelude and the first WRITE_CHARS from the same iterator.
 */
async function streamFrames(
  body: RecordedStream,
  completion: Completion,
  source: FrameSource,
  controls: StreamControls,
  frames: Iterator<Frame>,
): Promise<void> {
  const { speed, fault, timeline } = controls
  const due = (sent: number): boolean =>
    fault !== null && ((fault.afterChunks !== null && sent >= fault.afterChunks) || (fault.afterMs !== null && timeline.elapsed() >= fault.afterMs))
  if (speed === 0 && fault === null) {
    // The rest of an answer larger than writeAtOnce's first write: writes of about WRITE_CHARS (one
    // chunk on the wire each, not one per word), each waiting for the client to take the one before.
    let batch = ''
    await body.drained()
    for (let next = frames.next(); next.done !== true; next = frames.next()) {
      batch += next.value.text
      if (batch.length < WRITE_CHARS) continue
      if (!body.write(batch)) return
      batch = ''
      await body.drained()
    }
    body.write(batch + source.epilogue)
    body.end()
    return
  }
  if (source.prelude) body.write(source.prelude)
  if (speed > 0) await timeline.sleep(completion.latencyMs * speed)
  const msPerToken = speed > 0 ? (1000 / completion.tokensPerSecond) * speed : 0
  let sent = 0
  let sentTokens = 0
  for (let next = frames.next(); next.done !== true; next = frames.next()) {
    const frame = next.value
    // Each wait is 70% to 130% of the even pace (seeded), as tokens arrive unevenly from a real model.
    if (msPerToken > 0 && frame.tokens > 0) await timeline.sleep(frame.tokens * msPerToken * (0.7 + 0.6 * controls.jitter.next()))
    if (due(sent)) return breakStream(body, source, controls, sentTokens)
    if (!body.write(frame.text)) return
    if (body.full) await body.drained()
    sent++
    sentTokens += frame.tokens
  }
  // An answer shorter than the fault's point still breaks, at its end, if the fault is by time.
  if (fault?.afterMs != null) {
    const left = fault.afterMs - timeline.elapsed()
    if (left > 0) await timeline.sleep(left)
    return breakStream(body, source, controls, sentTokens)
  }
  body.write(source.epilogue)
  body.end()
}

/**
 * The answer goes wrong: with a status, the surface's error frame (the HTTP status is already 200, as
 * on the real gateway once generation has started) and the end of the stream; otherwise the
 * connection closes. Either way what was sent is what is billed.
 */
async function breakStream(body: RecordedStream, source: FrameSource, controls: StreamControls, sentTokens: number): Promise<void> {
  const fault = controls.fault!
  if (fault.cut || fault.status === null) {
    controls.broken(sentTokens, null)
    await controls.cut()
    body.destroy()
    return
  }
  const status = fault.status
  body.write(source.errorFrame({ status, message: fault.message ?? STREAM_ERROR_MESSAGES[status] ?? `Error ${status}` }))
  controls.broken(sentTokens, 'error')
  body.end()
}

/**
 * Answers a text surface's request: its JSON, or its stream of frames; either way with the
 * generation's id in `X-Generation-Id` (GET /api/v1/generation finds it by that id).
 */
export function answerText(
  ctx: EmulatorContext,
  request: FastifyRequest,
  reply: FastifyReply,
  completion: Completion,
  answer: { stream: boolean; json: () => unknown; frames: () => FrameSource },
): FastifyReply {
  reply.header('x-generation-id', completion.id)
  noteSource(request, completion.source)
  if (!answer.stream) return reply.type('application/json').send(JSON.stringify(answer.json()))
  return sendStream(ctx, ctx.services.text.pacer, request, reply, completion, answer.frames())
}

/**
 * Answers a request with the completion's stream: headers first (the reply takes the stream), then the
 * frames. A failure part way (a bug, a database error) ends this one stream with the surface's 500
 * error frame and a log line, never the process; what was billed stays billed.
 */
export function sendStream(
  ctx: EmulatorContext,
  pacer: Pacer,
  request: FastifyRequest,
  reply: FastifyReply,
  completion: Completion,
  source: FrameSource,
): FastifyReply {
  const body = new RecordedStream(ctx.config.journalBodyLimit)
  const speed = ctx.services.text.settings.current.speed
  const fault = request.streamFault
  // Ends this one stream with the surface's 500 frame; it never throws, since it also runs as the catch of
  // the frames written from a timer, where a throw would end the process.
  const failed = (error: unknown): void => {
    try {
      request.log.error({ err: error, generation: completion.id }, 'text stream failed')
      body.write(source.errorFrame({ status: 500, message: 'Internal Server Error' }))
      body.end()
    } catch {
      body.destroy()
    }
  }
  const frames = source.frames[Symbol.iterator]()
  let done = false
  if (speed === 0 && fault === null) {
    try {
      done = writeAtOnce(body, source, frames)
    } catch (error) {
      failed(error)
      done = true
    }
  }
  if (done) return replyStream(reply, body)
  // Paced, broken or large: the stream's own timeline and jitter (a usual answer needs neither).
  const controls: StreamControls = {
    speed,
    timeline: pacer.timeline(),
    jitter: createRng(ctx.config.seed, `pace:${completion.id}`),
    fault,
    // What was written reaches the client first, then the connection closes.
    cut: async () => {
      for (let tick = 0; tick < 1000 && (body.readableLength > 0 || reply.raw.writableLength > 0); tick++) await new Promise(setImmediate)
      request.raw.socket?.destroy()
    },
    broken: (sentTokens, finishReason) => settleBroken(ctx, completion, sentTokens, finishReason),
  }
  setImmediate(() => {
    streamFrames(body, completion, source, controls, frames).catch(failed)
  })
  return replyStream(reply, body)
}

/** The reply takes the stream, with an event stream's headers. */
const replyStream = (reply: FastifyReply, body: RecordedStream): FastifyReply =>
  reply.type('text/event-stream').header('cache-control', 'no-cache').header('x-accel-buffering', 'no').send(body)
