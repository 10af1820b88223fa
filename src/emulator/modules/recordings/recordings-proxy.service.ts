// Proxying to the upstream gateway (--upstream): a request no recording answers is forwarded to
// `<upstream>/api/v1/<the same path>` with the caller's body and the upstream key (never the caller's),
// and the answer relayed: JSON as it came, a stream chunk by chunk as it arrives. It is billed on the
// emulator's ledger with the cost the upstream reported, so the caller's key usage, limits, credits and
// activity move as for a local answer, and with --record each successful answer is saved as a file
// (or, where it may not be, the journal and the log say why).
//
// Safety: http(s) only; no redirect is followed (a 3xx is a 502); the connection must open within
// UPSTREAM_CONNECT_TIMEOUT_MS and the whole exchange end within UPSTREAM_TIMEOUT_MS; the caller's body
// is bounded by the route's own limit and the upstream's answer by UPSTREAM_ANSWER_BYTES, of which at
// most MAX_FILE_BYTES (what a recording may be) is ever held: a larger answer is relayed as it arrives. Nothing is
// forwarded for a request the ledger would refuse (402, 403, 404) or the rate limiter (429). An upstream
// error is relayed with its status and is neither billed nor saved (a 401, the upstream refusing
// --upstream-key, is a 502 saying so); the upstream key is never in an answer, an error, the journal or
// a file.
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http'
import type { LookupFunction } from 'node:net'
import { RecordedStream } from '../../core/buffers.ts'
import { wallClock } from '../../core/clock.ts'
import { ApiError } from '../../core/errors.ts'
import { nanosToUsd } from '../../core/money.ts'
import { http, https } from '../../core/node-http.ts'
import { sha256Hex } from '../../core/rng.ts'
import { countTokens, loadTokenizer } from '../../core/tokens.ts'
import { bearerToken, caller } from '../../http/auth.ts'
import { isEuRequest } from '../../http/listeners.ts'
import { requestOrigin, type RequestOrigin } from '../../http/request-origin.ts'
import { keepMedia, MEDIA_TYPES, noteSource } from '../../journal/journal.ts'
import type { Region } from '../catalog/catalog.schemas.ts'
import type { ApiType } from '../generations/generations.repo.ts'
import { askFromForm } from '../audio/audio-transcription.input.ts'
import { recordedNanos, textNanos } from '../meter/meter-pricers.service.ts'
import { admit, chargeAdmitted, checkUnpriced, type Admitted } from '../meter/meter.service.ts'
import type { EmulatorContext } from '../module.ts'
import { RELAYED, type AnswerSource } from '../text/text-engine.service.ts'
import {
  isJson,
  rawFromAnswer,
  rawUsage,
  SseParser,
  textFromJson,
  TextStreamReader,
  type ReadRaw,
  type ReadText,
  type ReadUsage,
} from './recordings-answers.service.ts'
import { MAX_FILE_BYTES } from './recordings-files.service.ts'
import { RAW_ANSWER_BYTES, type RecordedOperation } from './recordings-format.service.ts'
import type { UpstreamReader } from '../text/text-upstream.service.ts'
import { isTextOperation, normalRawRequest, normalTextRequest, textAskOf } from './recordings-normal.service.ts'
import { notSavedWarning, saveRecording, type Recorded, type Saved } from './recordings-recorder.service.ts'
import { JsonSkimmer } from './recordings-skim.service.ts'
import {
  clientLeftBeforeUpstream,
  noUpstream,
  upstreamAnswerTooLarge,
  upstreamError,
  upstreamKeyRefused,
  upstreamNotConnected,
  upstreamRedirected,
  upstreamTimedOut,
  upstreamUnreachable,
} from './recordings.errors.ts'
import { servingModel } from './recordings-replay.service.ts'

/** The upstream's connection (TCP, and TLS for https) must be open within this. */
export const UPSTREAM_CONNECT_TIMEOUT_MS = 10_000
/** The whole exchange, a stream's last byte included, must end within this (a long reasoning stream takes minutes). */
export const UPSTREAM_TIMEOUT_MS = 10 * 60_000
/** The largest answer relayed from the upstream (16 images as base64 fit); a larger one is a 502. */
export const UPSTREAM_ANSWER_BYTES = 64 * 1024 * 1024
/** The largest upstream error body relayed as it is; a larger one is answered with its status alone. */
const UPSTREAM_ERROR_BYTES = 64 * 1024
/** Caller headers that go upstream besides the body's content type: what it accepts and who the app is. */
const FORWARDED_HEADERS = ['accept', 'http-referer', 'x-title'] as const
/** Upstream headers relayed with an error: when to retry. */
const RELAYED_ERROR_HEADERS = ['retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'] as const

type Json = Record<string, unknown>
const object = (value: unknown): Json => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {})

// ---- The exchange -----------------------------------------------------------------------------------

type StopReason = 'connect' | 'timeout' | 'client' | 'too large'

/** One request to the upstream, with its timeouts and its abort when the caller goes away. */
class UpstreamCall {
  readonly started = wallClock.perf()
  readonly origin: string
  private readonly controller = new AbortController()
  /** Why the call was stopped, where it was. */
  stopped: StopReason | null = null
  private readonly total: NodeJS.Timeout

  constructor(origin: string, reply: FastifyReply) {
    this.origin = origin
    this.total = setTimeout(() => this.stop('timeout'), UPSTREAM_TIMEOUT_MS)
    this.total.unref()
    // The caller gone (its connection closed before the answer ended): the upstream request ends too.
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) this.stop('client')
    })
  }

  elapsed(): number {
    return wallClock.perf() - this.started
  }

  stop(reason: StopReason): void {
    if (this.stopped !== null || this.controller.signal.aborted) return
    this.stopped = reason
    this.controller.abort()
  }

  done(): void {
    clearTimeout(this.total)
  }

  /**
   * Sends the request; resolves with the answer's head (its body is read by the caller). `lookup` resolves
   * the host as the connection is made, and refuses an address of the emulator's own (a name that has
   * come to resolve here since the start's check would proxy every miss back to itself).
   */
  open(url: URL, headers: OutgoingHttpHeaders, body: Buffer, lookup: LookupFunction | undefined): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      const send = url.protocol === 'https:' ? https.request : http.request
      // agent: false: one connection per call, closed after it, so no pooled socket outlives the emulator.
      const request = send(url, { method: 'POST', headers, agent: false, signal: this.controller.signal, lookup }, resolve)
      request.on('socket', (socket) => {
        if (!socket.connecting) return
        const timer = setTimeout(() => this.stop('connect'), UPSTREAM_CONNECT_TIMEOUT_MS)
        socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => clearTimeout(timer))
        socket.once('close', () => clearTimeout(timer))
      })
      request.on('error', reject)
      request.end(body)
    })
  }

  /** Why the call failed, as the caller is told it: never the key, the upstream's origin only. */
  failure(error: unknown): ApiError {
    switch (this.stopped) {
      case 'connect':
        return upstreamNotConnected(this.origin, UPSTREAM_CONNECT_TIMEOUT_MS)
      case 'timeout':
        return upstreamTimedOut(this.origin, UPSTREAM_TIMEOUT_MS)
      case 'client':
        return clientLeftBeforeUpstream()
      case 'too large':
        return upstreamAnswerTooLarge(this.origin, UPSTREAM_ANSWER_BYTES)
      case null:
        return upstreamUnreachable(this.origin, networkError(error))
    }
  }
}

const NETWORK_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  EPIPE: 'connection closed',
  EOWNADDRESS: 'it is the emulator itself',
}

/** A network error in a few words: its code's meaning, never a message that could echo a header. */
function networkError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  return (code !== undefined ? (NETWORK_ERRORS[code] ?? code) : undefined) ?? 'the connection failed'
}

/** The answer's body, whole, or null when it is larger than `limit` (the call is stopped then). */
function readAll(call: UpstreamCall, answer: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    answer.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        call.stop('too large')
        resolve(null)
        return
      }
      chunks.push(chunk)
    })
    answer.on('end', () => resolve(Buffer.concat(chunks)))
    answer.on('error', reject)
    answer.on('close', () => {
      if (!answer.complete) reject(new Error('the upstream answer was cut short'))
    })
  })
}

// ---- What is forwarded ------------------------------------------------------------------------------

interface Outgoing {
  bytes: Buffer
  contentType: string
  /** The body as the emulator reads it: the JSON, or a form's fields (its file as base64 input_audio). */
  body: unknown
}

/**
 * The caller's body: its JSON as it arrived; or a transcription's form, read and checked by the audio
 * area as its own route does (the same limits and errors), and sent on as the same form.
 */
async function outgoingBody(request: FastifyRequest): Promise<Outgoing> {
  const multipart = (request as { isMultipart?: () => boolean }).isMultipart
  if (typeof multipart !== 'function' || !multipart.call(request)) {
    const text = request.bodyText ?? JSON.stringify(request.body ?? {})
    return { bytes: Buffer.from(text), contentType: request.headers['content-type'] ?? 'application/json', body: request.body }
  }
  const ask = await askFromForm(request)
  const fields: Array<[string, string]> = [
    ['model', ask.model],
    ...(ask.language !== undefined ? [['language', ask.language] as [string, string]] : []),
    ['response_format', ask.responseFormat],
    ...(ask.temperature !== undefined ? [['temperature', String(ask.temperature)] as [string, string]] : []),
    ...ask.granularities.map((g): [string, string] => ['timestamp_granularities[]', g]),
    ...(ask.user !== undefined ? [['user', ask.user] as [string, string]] : []),
  ]
  // A boundary made from the content, so it is the same for the same form and found in none of it.
  const boundary = `gateway-emulator-${sha256Hex(ask.audio.toString('base64')).slice(0, 32)}`
  const part = (head: string): Buffer => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; ${head}\r\n\r\n`)
  const bytes = Buffer.concat([
    ...fields.flatMap(([name, value]) => [part(`name="${name}"`), Buffer.from(`${value}\r\n`)]),
    part(`name="file"; filename="audio.${ask.format}"\r\nContent-Type: application/octet-stream`),
    ask.audio,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ])
  const body = {
    model: ask.model,
    input_audio: { data: ask.audio.toString('base64'), format: ask.format },
    ...(ask.language !== undefined && { language: ask.language }),
    response_format: ask.responseFormat,
    ...(ask.temperature !== undefined && { temperature: ask.temperature }),
    ...(ask.granularities.length > 0 && { timestamp_granularities: ask.granularities }),
    ...(ask.user !== undefined && { user: ask.user }),
  }
  return { bytes, contentType: `multipart/form-data; boundary=${boundary}`, body }
}

/** The headers sent upstream: the upstream key, the body's type and length, and the few caller headers that say what the app is. */
function outgoingHeaders(ctx: EmulatorContext, request: FastifyRequest, outgoing: Outgoing): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {
    'content-type': outgoing.contentType,
    'content-length': String(outgoing.bytes.length),
    'user-agent': 'model-gateway-emulator',
  }
  if (ctx.config.upstreamKey) headers.authorization = `Bearer ${ctx.config.upstreamKey}`
  for (const name of FORWARDED_HEADERS) {
    const value = request.headers[name]
    // A value Node would refuse to send is dropped rather than failing the call.
    if (typeof value === 'string' && value.length <= 512 && /^[\x20-\x7e\t]*$/.test(value)) headers[name] = value
  }
  return headers
}

// ---- Which model is billed --------------------------------------------------------------------------

/** The models a body asks for: `model`, then `models` (a fallback list). */
function modelsAsked(body: unknown): string[] {
  const json = object(body)
  const listed: unknown[] = Array.isArray(json.models) ? json.models : []
  return [json.model, ...listed].filter((m): m is string => typeof m === 'string' && m !== '')
}

/**
 * The model a proxied answer is billed on, by the rule replay bills a recording by (servingModel): the
 * model the upstream said answered where the catalog has it (else the first asked for that it has), on
 * the endpoints of the provider the upstream named (all of the model's where none of them is it); a
 * model the catalog lacks on one endpoint named by that provider, priced at nothing.
 */
function billingTarget(ctx: EmulatorContext, operation: RecordedOperation, asked: readonly string[], answered: string | null, provider: string | null) {
  const find = (id: string) => ctx.services.catalog.get().find(id)
  const requested = asked.find((id) => find(id) !== undefined) ?? asked[0] ?? null
  const { model, endpoints } = servingModel(find, operation, { model: answered || requested || 'unknown', provider }, requested)
  return { model: { id: model.id, canonical_slug: model.canonical_slug }, endpoints }
}

interface Bill {
  /** Past the rate limit and the ledger's checks when the request came (proxyToUpstream). */
  admitted: Admitted
  operation: RecordedOperation
  /** The generation's `api_type`, as the route declares it (`config.recordable`). */
  apiType: ApiType
  region: Region | null
  asked: readonly string[]
  model: string | null
  provider: string | null
  usage: ReadUsage
  finishReason: string | null
  streamed: boolean
  origin: RequestOrigin
  user: string | null
  /** The upstream's id of the generation, kept as the local one where it is free. */
  generationId: string | null
  latencyMs: number
  totalMs: number
}

/**
 * Bills a proxied answer through the meter, with the upstream's cost (or, where it reported none, the
 * tokens at the catalog's price of the serving endpoint), and records its generation: one transaction.
 */
function billProxied(ctx: EmulatorContext, b: Bill): { generationId: string; costNanos: number } {
  const target = billingTarget(ctx, b.operation, b.asked, b.model, b.provider)
  const { prompt_tokens, completion_tokens, reasoning_tokens, cost } = b.usage
  return chargeAdmitted(ctx, b.admitted, {
    operation: b.operation,
    model: target.model,
    endpoints: target.endpoints,
    region: b.region,
    tokens: { prompt: prompt_tokens, completion: completion_tokens, reasoning: reasoning_tokens ?? 0 },
    price: (endpoint) => (cost !== null ? recordedNanos(cost) : textNanos(endpoint.pricing, { prompt: prompt_tokens, completion: completion_tokens })),
    generation: () => ({
      apiType: b.apiType,
      idKind: null,
      idLabel: 'proxy',
      // The upstream's id where it is free here, else one of the emulator's.
      preferredId: b.generationId,
      origin: b.origin,
      user: b.user,
      streamed: b.streamed,
      finishReason: b.finishReason,
      latencyMs: Math.round(b.latencyMs),
      generationTimeMs: Math.round(b.totalMs),
    }),
    after: (metered) => ({ generationId: metered.generationId!, costNanos: metered.charge.cost_nanos }),
  })!
}

/** A generation id the upstream gave (its header, or the answer's `gen-` id), where it looks like one. */
function upstreamGenerationId(answer: IncomingMessage, json: unknown): string | null {
  const header = answer.headers['x-generation-id']
  const id = typeof header === 'string' ? header : object(json).id
  return typeof id === 'string' && /^gen-[A-Za-z0-9_-]{1,120}$/.test(id) ? id : null
}

// ---- Counting what the upstream did not ------------------------------------------------------------

/** Prompt tokens as the text engine counts them, for an answer that reported none (a stream cut short). */
function promptTokensOf(ctx: EmulatorContext, operation: RecordedOperation, body: unknown): number {
  if (!isTextOperation(operation)) return 0
  try {
    const ask = textAskOf(ctx, operation, body)
    return ask.messages.reduce((n, m) => n + 4 + countTokens(m.text), 3)
  } catch {
    return 0
  }
}

/** The tokens of what a text answer says, for an answer that reported none. */
const completionTokensOf = (read: ReadText): number =>
  read.choices.reduce(
    (n, c) =>
      n + countTokens(c.content ?? '') + countTokens(c.reasoning ?? '') + (c.tool_calls ?? []).reduce((m, t) => m + countTokens(String(t.arguments)), 0),
    0,
  )

/** What a raw answer is billed by: its reported tokens and cost; speech reports neither, so its text is counted. */
function rawBilling(operation: RecordedOperation, raw: ReadRaw, body: unknown): ReadUsage {
  const usage = { ...rawUsage(raw), cost: raw.cost }
  const input = object(body).input
  if (operation === 'audio.speech' && usage.prompt_tokens === 0 && typeof input === 'string') usage.prompt_tokens = countTokens(input)
  return usage
}

// ---- Errors -----------------------------------------------------------------------------------------

/** The message of an error body in the gateway's envelope or Anthropic's; null for anything else. */
function errorMessage(json: unknown): { envelope: 'main' | 'anthropic'; message: string; metadata?: Json } | null {
  const body = object(json)
  const error = object(body.error)
  if (typeof error.message !== 'string') return null
  if (body.type === 'error' && typeof error.type === 'string') return { envelope: 'anthropic', message: error.message }
  if (typeof error.code === 'number' || typeof error.code === 'string')
    return { envelope: 'main', message: error.message, ...(error.metadata !== undefined && { metadata: object(error.metadata) }) }
  return null
}

/** `text` with every appearance of a secret replaced. */
const withoutSecrets = (text: string, secrets: readonly (string | null | undefined)[]): string =>
  secrets.reduce<string>((out, secret) => (secret && secret.length >= 8 ? out.split(secret).join('[redacted]') : out), text)

/**
 * An upstream error, relayed: in the route's envelope as it is, where the upstream answered in it
 * (the gateway's, or Anthropic's for /messages); in the route's envelope with the upstream's message
 * otherwise. A 401 is the upstream refusing --upstream-key, not the caller's key: a 502 saying so.
 */
async function relayError(
  ctx: EmulatorContext,
  call: UpstreamCall,
  answer: IncomingMessage,
  reply: FastifyReply,
  operation: RecordedOperation,
): Promise<FastifyReply> {
  const status = answer.statusCode ?? 502
  const bytes = await readAll(call, answer, UPSTREAM_ERROR_BYTES).catch(() => null)
  const secrets = [ctx.config.upstreamKey, ctx.config.adminToken]
  let json: unknown
  try {
    json = bytes ? JSON.parse(withoutSecrets(bytes.toString('utf8'), secrets)) : undefined
  } catch {
    json = undefined
  }
  const said = errorMessage(json)
  if (status === 401) {
    throw upstreamKeyRefused(call.origin, said?.message)
  }
  const headers: Record<string, string> = {}
  for (const name of RELAYED_ERROR_HEADERS) {
    const value = answer.headers[name]
    if (typeof value === 'string') headers[name] = value
  }
  const wanted = ctx.services.text.ports.byOperation(operation)?.envelope ?? 'main'
  if (said?.envelope === wanted && status >= 400 && status <= 599) {
    return reply.code(status).headers(headers).type('application/json; charset=utf-8').send(JSON.stringify(json))
  }
  const relayed = status >= 400 && status <= 599 ? status : 502
  const message = said?.message ?? `The upstream gateway ${call.origin} answered ${status}${answer.statusMessage ? ` ${answer.statusMessage}` : ''}`
  throw upstreamError(relayed, message, headers, said?.metadata)
}

/** The event a stream ends with when the upstream's stream broke part way, in the route's words (its surface's; chat's for another). */
function streamErrorFrame(ctx: EmulatorContext, operation: RecordedOperation, status: number, message: string): string {
  const surface = ctx.services.text.ports.byOperation(operation) ?? ctx.services.text.ports.byOperation('chat.create')!
  return surface.streamErrorFrame(status, message)
}

// ---- The proxy ----------------------------------------------------------------------------------------

/** What the proxy knows of one request, from its start to its answer's end. */
/** How the exchange's text surface reads its upstream's answers (registered with the text engine). */
function upstreamOf(x: Exchange): UpstreamReader {
  const surface = x.ctx.services.text.ports.byOperation(x.operation)
  if (!surface) throw new Error(`${x.operation} is not a text surface's operation`)
  return surface.upstream
}

interface Exchange {
  ctx: EmulatorContext
  request: FastifyRequest
  reply: FastifyReply
  operation: RecordedOperation
  apiType: ApiType
  admitted: Admitted
  region: Region | null
  outgoing: Outgoing
  asked: string[]
  call: UpstreamCall
  answer: IncomingMessage
  /** When the answer's head arrived (ms after the request was sent). */
  headMs: number
}

/**
 * Forwards the request to the upstream gateway and relays its answer (see the file's head). Called
 * by the recordings hook for a request no recording answers when --on-miss is `upstream`.
 */
/**
 * The upstream gateway (--on-miss upstream), after the recordings: the request is forwarded as it came
 * and the answer relayed on the wire as it arrives (recordings-proxy.service.ts), billed at the cost the
 * upstream reported, and saved under --record.
 */
export function upstreamSource(ctx: EmulatorContext): AnswerSource {
  return {
    name: 'upstream',
    order: 500,
    async answer(_ctx, _caller, _ask, call) {
      await relayFromUpstream(ctx, call.exchange.request, call.exchange.reply, call.operation as RecordedOperation, call.apiType)
      return RELAYED
    },
  }
}

/**
 * Answers the request with the upstream's answer (proxyToUpstream), and marks it answered: awaiting the
 * reply waits for its answer to end, or its connection to be cut part way (the client gone, an answer
 * cut at a bound), when it is not `sent` and Fastify would answer (and the handler bill) it again.
 */
export async function relayFromUpstream(
  ctx: EmulatorContext,
  request: FastifyRequest,
  reply: FastifyReply,
  operation: RecordedOperation,
  apiType: ApiType,
): Promise<FastifyReply> {
  await proxyToUpstream(ctx, request, reply, operation, apiType)
  if (!reply.sent) reply.hijack()
  return reply
}

async function proxyToUpstream(
  ctx: EmulatorContext,
  request: FastifyRequest,
  reply: FastifyReply,
  operation: RecordedOperation,
  apiType: ApiType,
): Promise<FastifyReply> {
  const upstream = ctx.config.upstream
  if (!upstream) throw noUpstream()
  const url = new URL(`${new URL(upstream).origin}${request.url.split('?')[0]}`)
  const who = caller(request)
  const region = isEuRequest(request.raw) ? 'eu' : null
  const outgoing = await outgoingBody(request)
  const asked = modelsAsked(outgoing.body)

  // Refused here as a local answer would be, before anything is forwarded: rate limits, then the ledger.
  const admitted = admit(ctx, who)
  const target = billingTarget(ctx, operation, asked, null, null)
  checkUnpriced(ctx, admitted, { model: target.model, endpoints: target.endpoints, region })
  await loadTokenizer()

  const call = new UpstreamCall(url.origin, reply)
  let answer: IncomingMessage
  try {
    answer = await call.open(url, outgoingHeaders(ctx, request, outgoing), outgoing.bytes, ctx.ownAddresses.lookupFor(url))
  } catch (error) {
    call.done()
    throw call.failure(error)
  }
  const exchange: Exchange = { ctx, request, reply, operation, apiType, admitted, region, outgoing, asked, call, answer, headMs: call.elapsed() }
  const status = answer.statusCode ?? 0
  // Said at once, for an answer that ends in an error; said again, with its file, once it is complete.
  noteSource(request, { kind: 'proxied', upstream_status: status, upstream_ms: Math.round(exchange.headMs), recorded_file: null })
  if (status >= 300 && status < 400) {
    answer.resume()
    call.done()
    throw upstreamRedirected(call.origin, status)
  }
  if (status < 200 || status >= 300) {
    try {
      return await relayError(ctx, call, answer, reply, operation)
    } finally {
      call.done()
    }
  }
  const contentType = answer.headers['content-type'] ?? 'application/octet-stream'
  if (/^text\/event-stream\b/i.test(contentType)) return relayStream(exchange, contentType)
  return relayWhole(exchange, contentType)
}

/** Saves the answer when --record is set: its file, or why it was not saved; null without --record. */
async function record(x: Exchange, answer: Recorded['answer']): Promise<Saved | null> {
  const { ctx, operation } = x
  const dir = ctx.config.record
  if (!dir) return null
  let normal: unknown
  try {
    normal = isTextOperation(operation) ? normalTextRequest(textAskOf(ctx, operation, x.outgoing.body)) : normalRawRequest(operation, x.outgoing.body)
  } catch (error) {
    return notSavedWarning(ctx, operation, `its request has no normal form (${error instanceof Error ? error.message : String(error)})`)
  }
  const secrets = [ctx.config.upstreamKey, ctx.config.adminToken, bearerToken(x.request)]
  return saveRecording(ctx, dir, { operation, request: normal, answer, upstream: x.call.origin, latencyMs: x.call.elapsed() }, secrets)
}

/** An answer --record does not save, and why (the log's line; the journal says the same); null without --record. */
const notRecorded = (x: Exchange, reason: string): Saved | null => (x.ctx.config.record ? notSavedWarning(x.ctx, x.operation, reason) : null)

/** The journal's word on a proxied answer once it is complete: the upstream's status, its time, and where it went. */
function noteProxied(x: Exchange, status: number, ms: number, saved: Saved | null): void {
  noteSource(x.request, {
    kind: 'proxied',
    upstream_status: status,
    upstream_ms: Math.round(ms),
    recorded_file: saved && 'file' in saved ? saved.file : null,
    ...(saved && 'notSaved' in saved && { not_recorded: saved.notSaved }),
  })
}

const userOf = (body: unknown): string | null => {
  const user = object(body).user
  return typeof user === 'string' && user !== '' ? user.slice(0, 512) : null
}

/**
 * A JSON (or bytes) answer. Up to what a recording may hold (MAX_FILE_BYTES) it is read whole, billed
 * (a refusal is the answer, as for a local one), saved and relayed. A larger one could never be saved:
 * it is relayed as it arrives, without being held, and billed once it has ended (relayThrough).
 */
async function relayWhole(x: Exchange, contentType: string): Promise<FastifyReply> {
  const { ctx, call, answer, operation, reply } = x
  // Whatever happens between the readers below, an error of the answer is no crash.
  answer.on('error', () => undefined)
  const declared = Number(answer.headers['content-length'])
  if (declared > UPSTREAM_ANSWER_BYTES) {
    call.stop('too large')
    call.done()
    throw call.failure(null)
  }
  let held: Held
  try {
    held = declared > MAX_FILE_BYTES ? { start: [] } : await readHeld(answer, MAX_FILE_BYTES)
  } catch (error) {
    call.done()
    throw call.failure(error)
  }
  if ('start' in held) return relayThrough(x, contentType, held.start)
  call.done()
  const { bytes } = held
  const totalMs = call.elapsed()
  const status = answer.statusCode ?? 200

  let text: ReadText | null = null
  let raw: { raw: ReadRaw; keep: boolean } | null = null
  let json: unknown
  if (isTextOperation(operation)) {
    try {
      json = JSON.parse(bytes.toString('utf8'))
    } catch {
      json = undefined
    }
    text = textFromJson(upstreamOf(x), json)
  } else {
    raw = rawFromAnswer(status, contentType, bytes, x.asked[0] ?? '')
    json = raw.raw.json
  }
  const billed = billProxied(ctx, {
    admitted: x.admitted,
    operation,
    apiType: x.apiType,
    region: x.region,
    asked: x.asked,
    model: text ? text.model || null : null,
    provider: text?.provider ?? raw?.raw.provider ?? null,
    usage: text ? text.usage : rawBilling(operation, raw!.raw, x.outgoing.body),
    finishReason: text?.choices[0]?.finish_reason ?? null,
    streamed: false,
    origin: requestOrigin(x.request),
    user: userOf(x.outgoing.body),
    generationId: upstreamGenerationId(answer, json),
    latencyMs: x.headMs,
    totalMs,
  })
  const costUsd = nanosToUsd(billed.costNanos)
  const saved = text
    ? await record(x, { text: { ...text, usage: { ...text.usage, cost: costUsd } } })
    : raw!.keep
      ? await record(x, { raw: { ...raw!.raw, cost: costUsd } })
      : notRecorded(x, `the answer is ${bytes.length} bytes, more than the ${RAW_ANSWER_BYTES} a recording keeps of an answer that is not text`)
  noteProxied(x, status, totalMs, saved)
  const media = MEDIA_TYPES.find((type) => contentType.toLowerCase().startsWith(type))
  if (operation === 'audio.speech' && media) keepMedia(x.request, { contentType: media, bytes })
  return reply.code(status).header('x-generation-id', billed.generationId).type(contentType).send(bytes)
}

/** An answer read whole (`bytes`), or the start of one larger than the bound (`start`: the answer is paused after it). */
type Held = { bytes: Buffer } | { start: Buffer[] }

/** Reads the answer while it stays within `limit` bytes; past it, stops reading and gives what arrived. */
function readHeld(answer: IncomingMessage, limit: number): Promise<Held> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const detach = (): void => {
      answer.off('data', onData)
      answer.off('end', onEnd)
      answer.off('close', onClose)
      answer.off('error', onError)
    }
    const onData = (chunk: Buffer): void => {
      size += chunk.length
      chunks.push(chunk)
      if (size <= limit) return
      detach()
      answer.pause()
      resolve({ start: chunks })
    }
    const onEnd = (): void => {
      detach()
      resolve({ bytes: Buffer.concat(chunks) })
    }
    const onClose = (): void => {
      if (answer.complete) return
      detach()
      reject(new Error('the upstream answer was cut short'))
    }
    const onError = (error: Error): void => {
      detach()
      reject(error)
    }
    answer.on('data', onData)
    answer.on('end', onEnd)
    answer.on('close', onClose)
    answer.on('error', onError)
  })
}

/**
 * An answer larger than a recording may be: relayed as it arrives (the reader's pace holds the upstream
 * back) and never held whole; a JSON one is skimmed on the way for what bills it (its usage, model,
 * provider and id: recordings-skim.service.ts). Billed once it has ended, as a stream is: the bytes have gone,
 * so a ledger refusal then is a warning, not the answer. One cut part way (by the upstream, a bound or
 * the client leaving) ends the caller's answer early and is not billed: its usage never arrived.
 */
function relayThrough(x: Exchange, contentType: string, start: readonly Buffer[]): FastifyReply {
  const { ctx, call, answer, operation, reply } = x
  const status = answer.statusCode ?? 200
  const body = new RecordedStream(ctx.config.journalBodyLimit)
  const skimmer = isJson(contentType) ? new JsonSkimmer() : null
  let size = 0
  let settled = false

  /** Passes one piece on; false once the call is stopped (too large, or the caller gone). */
  const pass = (chunk: Buffer): boolean => {
    size += chunk.length
    if (size > UPSTREAM_ANSWER_BYTES) {
      call.stop('too large')
      return false
    }
    skimmer?.push(chunk)
    if (body.write(chunk)) return true
    call.stop('client')
    return false
  }

  const finish = (ended: boolean): void => {
    if (settled) return
    settled = true
    call.done()
    if (!ended) {
      const why =
        call.stopped === 'client'
          ? 'the client left before it ended'
          : call.stopped === 'too large'
            ? `it ran past ${UPSTREAM_ANSWER_BYTES} bytes`
            : call.stopped === 'timeout'
              ? `it did not end within ${UPSTREAM_TIMEOUT_MS / 1000} s`
              : 'the upstream closed it part way'
      ctx.warn(`upstream: a ${operation} answer was relayed in part and not billed: ${why}`)
      noteProxied(x, status, call.elapsed(), notRecorded(x, `the answer was cut part way (${why})`))
      // Destroyed with an error, the caller's connection is cut: its client sees an answer that broke off.
      body.destroy(new Error(`the upstream answer was cut: ${why}`))
      return
    }
    const json = skimmer?.skeleton() ?? {}
    const text = isTextOperation(operation) ? textFromJson(upstreamOf(x), json) : null
    const raw: ReadRaw | null = text
      ? null
      : {
          status,
          content_type: contentType,
          json,
          model: x.asked[0] ?? '',
          provider: typeof json.provider === 'string' ? json.provider : null,
          cost: usdOf(json),
        }
    try {
      billProxied(ctx, {
        admitted: x.admitted,
        operation,
        apiType: x.apiType,
        region: x.region,
        asked: x.asked,
        model: text ? text.model || null : null,
        provider: text?.provider ?? raw?.provider ?? null,
        usage: text ? text.usage : rawBilling(operation, raw!, x.outgoing.body),
        finishReason: text?.choices[0]?.finish_reason ?? null,
        streamed: false,
        origin: requestOrigin(x.request),
        user: userOf(x.outgoing.body),
        generationId: upstreamGenerationId(answer, json),
        latencyMs: x.headMs,
        totalMs: call.elapsed(),
      })
    } catch (error) {
      ctx.warn(`upstream: a ${operation} answer of ${size} bytes was relayed but not billed: ${error instanceof Error ? error.message : String(error)}`)
    }
    noteProxied(x, status, call.elapsed(), notRecorded(x, `the answer is ${size} bytes, more than the ${MAX_FILE_BYTES} a recording may be`))
    body.end()
  }

  let passing = true
  for (const chunk of start) if (passing) passing = pass(chunk)
  answer.on('data', (chunk: Buffer) => {
    if (!pass(chunk)) return
    if (body.full) {
      answer.pause()
      void body.drained().then(() => answer.resume())
    }
  })
  // An answer stopped (too large, the caller gone) may still end: what it had sent was buffered.
  answer.on('end', () => finish(call.stopped === null))
  answer.on('close', () => finish(answer.complete && call.stopped === null))
  // The start already failed to pass (the caller gone): the call is stopped, and close settles it.
  if (passing) void body.drained().then(() => answer.resume())

  // The upstream's id where it gave one in a header; the answer's own id reaches the generation once read.
  const generationId = upstreamGenerationId(answer, undefined)
  if (generationId) reply.header('x-generation-id', generationId)
  return reply.code(status).type(contentType).send(body)
}

/** The cost a skimmed answer reports (`usage.cost`), or null. */
function usdOf(json: Json): number | null {
  const cost = object(json.usage).cost
  return typeof cost === 'number' && Number.isFinite(cost) && cost >= 0 ? cost : null
}

/**
 * A stream, relayed chunk by chunk as it arrives (the reader's pace holds the upstream back), read as
 * it goes, and billed when it ends: by the usage it reported, or, cut part way, by what arrived.
 * Saved only when it ended whole.
 */
function relayStream(x: Exchange, contentType: string): FastifyReply {
  const { ctx, call, answer, operation, reply } = x
  const body = new RecordedStream(ctx.config.journalBodyLimit)
  const parser = new SseParser()
  const reader = isTextOperation(operation) ? new TextStreamReader(upstreamOf(x)) : null
  const decoder = new TextDecoder()
  let size = 0
  let settled = false
  /** What arrived from the answer's last event on, sent once it is billed and saved. */
  let held: string | null = null

  const take = (text: string): void => {
    const at = call.elapsed()
    for (const event of parser.push(text)) reader?.push(event, at)
  }

  const finish = async (ended: boolean): Promise<void> => {
    if (settled) return
    settled = true
    call.done()
    const rest = decoder.decode()
    take(rest)
    if (rest !== '') held = (held ?? '') + rest
    for (const event of parser.end()) reader?.push(event, call.elapsed())
    const whole = ended && (reader === null || (reader.finished && reader.error === null))
    if (!ended && call.stopped !== 'client') {
      const [status, message] =
        call.stopped === 'timeout'
          ? [504, `The upstream gateway ${call.origin} did not finish within ${UPSTREAM_TIMEOUT_MS / 1000} s`]
          : call.stopped === 'too large'
            ? [502, `The upstream gateway ${call.origin} streamed more than ${UPSTREAM_ANSWER_BYTES / 1024 / 1024} MiB`]
            : [502, `The upstream gateway ${call.origin} closed the stream part way`]
      body.write((held ?? '') + streamErrorFrame(ctx, operation, status, message))
      held = null
    }
    const read = reader?.read() ?? null
    const counted: ReadUsage | null =
      read && !reader!.reportedUsage
        ? { prompt_tokens: promptTokensOf(ctx, operation, x.outgoing.body), completion_tokens: completionTokensOf(read) + reader!.droppedTokens, cost: null }
        : null
    let saved: Saved | null = null
    try {
      const billed = billProxied(ctx, {
        admitted: x.admitted,
        operation,
        apiType: x.apiType,
        region: x.region,
        asked: x.asked,
        model: read?.model || null,
        provider: read?.provider ?? null,
        usage: counted ?? read?.usage ?? { prompt_tokens: 0, completion_tokens: 0, cost: null },
        // As a local stream ends: its finish reason; `error` where the upstream said one; null where it was cut.
        finishReason: whole ? (read?.choices[0]?.finish_reason ?? null) : reader?.error ? 'error' : null,
        streamed: true,
        origin: requestOrigin(x.request),
        user: userOf(x.outgoing.body),
        generationId: upstreamGenerationId(answer, undefined),
        latencyMs: read?.timing?.first_token_ms ?? x.headMs,
        totalMs: call.elapsed(),
      })
      if (whole && read && reader!.overflowed) saved = notRecorded(x, `its text is more than the ${MAX_FILE_BYTES} characters a recording may hold`)
      else if (whole && read) saved = await record(x, { text: { ...read, usage: { ...read.usage, cost: nanosToUsd(billed.costNanos) } } })
      else if (reader) saved = notRecorded(x, reader.error !== null ? 'the upstream broke the stream with an error' : 'the stream was cut part way')
    } catch (error) {
      // The answer has gone out; the ledger refused it after the fact (credits spent meanwhile).
      ctx.warn(`upstream: a streamed ${operation} answer was relayed but not billed: ${error instanceof Error ? error.message : String(error)}`)
    }
    noteProxied(x, answer.statusCode ?? 200, call.elapsed(), saved)
    if (held !== null) body.write(held)
    body.end()
  }

  const settle = (ended: boolean): void => {
    finish(ended).catch((error: unknown) => {
      x.request.log.error({ err: error }, 'proxied stream failed')
      body.end()
    })
  }

  answer.on('data', (chunk: Buffer) => {
    size += chunk.length
    if (size > UPSTREAM_ANSWER_BYTES) return call.stop('too large')
    const text = decoder.decode(chunk, { stream: true })
    take(text)
    // From the answer's last event on, the bytes wait for it to be billed and saved: a client that
    // closes on `[DONE]` would otherwise leave before the journal hears where the answer went.
    if (held !== null || reader?.finished) {
      held = (held ?? '') + text
      return
    }
    if (!body.write(text)) return call.stop('client')
    if (body.full) {
      answer.pause()
      void body.drained().then(() => answer.resume())
    }
  })
  answer.on('end', () => settle(true))
  answer.on('error', () => undefined) // a stop aborts the answer: `close` settles it
  answer.on('close', () => settle(answer.complete && call.stopped === null))

  const generationId = upstreamGenerationId(answer, undefined)
  if (generationId) reply.header('x-generation-id', generationId)
  return reply
    .code(answer.statusCode ?? 200)
    .type(contentType)
    .header('cache-control', 'no-cache')
    .header('x-accel-buffering', 'no')
    .send(body)
}
