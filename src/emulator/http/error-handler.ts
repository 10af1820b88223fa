// Every failure leaves through here, in the envelope of the API that was called: the main API's
// {"error":{"code","message","metadata"?}}, the video router's {"code","reason","message","metadata"}
// or the Messages API's Anthropic-shaped {"type":"error","error":{"type","message"},"request_id"}.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { ApiError, mainEnvelope, ROUTER_REASON } from '../core/errors.ts'
import type { Rng } from '../core/rng.ts'
import { validationToApiError } from './validation.ts'
import {
  clientError,
  contentLengthMismatch,
  emptyJsonBody,
  internalError,
  malformedJson,
  noRoute,
  payloadTooLarge,
  storageUnavailable,
  unsupportedContentType,
} from './http.errors.ts'

/**
 * The vendor's fixed message for each reason of its error table (real-services.md A7). A router error
 * without a reason of its own (authentication, rate limits, body parsing...) answers with these words,
 * and the emulator's explanation moves to the X-Emulator-Detail header.
 */
const VENDOR_MESSAGE: Record<string, string> = {
  BadRequest: 'bad request',
  Unauthorized: 'unauthorized',
  CreditInsufficient: 'insufficient credits',
  Forbidden: 'forbidden',
  NotFound: 'not found',
  Canceled: 'request canceled by client',
  Conflict: 'resource conflict',
  TooManyRequests: 'too many requests',
  InternalServiceFailure: 'internal service failure',
}

/** The header that carries the emulator's own explanation of an error whose body keeps the vendor's words. */
const DETAIL_HEADER = 'x-emulator-detail'
const MAX_DETAIL = 2000

/** A header value is Latin-1 without control characters: anything else is escaped, so no detail can break the reply. */
const headerSafe = (text: string): string => text.slice(0, MAX_DETAIL).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)

/** SQLite's codes for a write the disk refused (full, read-only, an I/O error): the client is not at fault. */
const isStorageFailure = (code: unknown): boolean =>
  typeof code === 'string' && (code === 'SQLITE_FULL' || code.startsWith('SQLITE_IOERR') || code.startsWith('SQLITE_READONLY') || code === 'SQLITE_CANTOPEN')

/** `bodyLimit` is the route's own (each route sets what its bodies need), named in a 413. */
export function toApiError(error: FastifyError | Error, bodyLimit?: number): ApiError {
  if (error instanceof ApiError) return error
  const e = error as FastifyError & { validation?: unknown[]; validationContext?: string }
  if (Array.isArray(e.validation)) return validationToApiError(e.validation as never, e.validationContext)
  switch (e.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      // A 400 in the envelope, as the real gateway and the video vendor answer (neither declares 415).
      return unsupportedContentType()
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return payloadTooLarge(bodyLimit)
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return emptyJsonBody()
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return malformedJson(e.message)
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return contentLengthMismatch()
  }
  if (isStorageFailure(e.code)) {
    return storageUnavailable()
  }
  if (e instanceof SyntaxError || e.code === 'FST_ERR_BAD_JSON') return malformedJson(e.message)
  const status = e.statusCode ?? 500
  // A library's client error may carry headers of its own (a 416's Content-Range, from @fastify/static).
  const headers = (e as { headers?: Record<string, unknown> }).headers
  if (status >= 400 && status < 500)
    return clientError(status, e.message, headers && Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), String(v)])))
  return internalError()
}

/** Which API's error envelope a scope answers in: the gateway's (and the admin API's), the video router's, or the Messages API's. */
export type Envelope = 'main' | 'router' | 'anthropic'

interface RenderedError {
  body: unknown
  detail: string | undefined
  /** The request id an Anthropic client reads from its `request-id` header. */
  requestId?: string
}

/** The Anthropic error type of each status (the real document's AnthropicMessagesErrorResponse enum). */
const ANTHROPIC_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  408: 'timeout_error',
  429: 'rate_limit_error',
  503: 'overloaded_error',
  504: 'timeout_error',
  529: 'overloaded_error',
}

/** The gateway's own error type (the document's ApiErrorType), where the error does not name one. */
const API_ERROR_TYPES: Record<number, string> = {
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
  529: 'provider_overloaded',
}

/** The `error` object of an Anthropic error (an answer's or a stream's `event: error`). */
export function anthropicError(status: number, message: string, errorType?: unknown): { type: string; message: string; error_type: string } {
  const type = ANTHROPIC_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error')
  return { type, message, error_type: typeof errorType === 'string' ? errorType : (API_ERROR_TYPES[status] ?? (status >= 500 ? 'server' : 'invalid_request')) }
}

function render(envelope: Envelope, error: ApiError, traceRng: Rng): RenderedError {
  if (envelope === 'main') return { body: mainEnvelope(error), detail: error.detail }
  if (envelope === 'anthropic') {
    const requestId = `req_${traceRng.hex(24)}`
    const body = {
      type: 'error',
      error: anthropicError(error.status, error.message, error.metadata?.error_type),
      ...(error.metadata && { metadata: error.metadata }),
      request_id: requestId,
    }
    return { body, detail: error.detail, requestId }
  }
  // A thrower that names a reason speaks the vendor's words already; anything else gets the vendor's
  // message for its status, and what the emulator had to say goes to the detail header.
  const reason = error.reason ?? ROUTER_REASON[error.status] ?? 'BadRequest'
  const vendorMessage = error.reason === undefined ? VENDOR_MESSAGE[reason] : undefined
  const message = vendorMessage ?? error.message
  const detail = error.detail ?? (vendorMessage !== undefined && vendorMessage !== error.message ? error.message : undefined)
  return { body: { code: error.status, reason, message, metadata: { trace_id: traceRng.hex(32) } }, detail }
}

export function sendError(reply: FastifyReply, error: ApiError, traceRng: Rng, envelope: Envelope): FastifyReply {
  const { body, detail, requestId } = render(envelope, error, traceRng)
  reply.code(error.status).headers(error.headers).type('application/json; charset=utf-8')
  if (detail !== undefined) reply.header(DETAIL_HEADER, headerSafe(detail))
  if (requestId !== undefined) reply.header('request-id', requestId)
  return reply.send(body)
}

/**
 * Every error in this scope (and the scopes it registers) answers in `envelope`: the scope, not the
 * URL, says which API a route belongs to. The root installs the main envelope; the video router's
 * scope its own.
 */
export function installErrorHandling(
  app: FastifyInstance,
  traceRng: Rng,
  envelope: Envelope,
  /** The scope's own words for an error it can explain better (the Messages API's for a key sent as x-api-key). */
  refine: (error: ApiError, request: FastifyRequest) => ApiError = (error) => error,
): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const apiError = refine(toApiError(error, request.routeOptions.bodyLimit), request)
    // Internals stay in the log; the client gets the envelope and nothing of the stack or SQL.
    if (apiError.status >= 500 && apiError.status !== 503) request.log.error({ err: error }, 'unexpected error')
    return sendError(reply, apiError, traceRng, envelope)
  })
}

/** The 404 for paths no route of this scope (and its prefix) matches, in the scope's envelope. */
export function installNotFound(app: FastifyInstance, traceRng: Rng, envelope: Envelope): void {
  app.setNotFoundHandler((request, reply) => {
    return sendError(reply, noRoute(request.method, request.url.split('?')[0]!), traceRng, envelope)
  })
}
