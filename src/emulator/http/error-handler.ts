// Every failure leaves through here, in the envelope of the API that was called: the main API's
// {"error":{"code","message","metadata"?}} or the video router's {"code","reason","message","metadata"}.
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify'
import { ApiError, mainEnvelope } from '../core/errors.ts'
import type { Rng } from '../core/rng.ts'
import { validationToApiError } from './validation.ts'

const ROUTER_PREFIX = '/router/'

/** Reasons the router envelope uses for statuses that carry none of their own. */
const ROUTER_REASON: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  402: 'CreditInsufficient',
  403: 'Forbidden',
  404: 'NotFound',
  413: 'RequestTooLarge',
  429: 'TooManyRequests',
  500: 'InternalServiceFailure',
  502: 'BadGateway',
  503: 'ServiceUnavailable',
}

/** SQLite's codes for a write the disk refused (full, read-only, an I/O error): the client is not at fault. */
const isStorageFailure = (code: unknown): boolean =>
  typeof code === 'string' && (code === 'SQLITE_FULL' || code.startsWith('SQLITE_IOERR') || code.startsWith('SQLITE_READONLY') || code === 'SQLITE_CANTOPEN')

const megabytes = (bytes: number): string => `${Number((bytes / 1024 / 1024).toFixed(2))} MB`

/** `bodyLimit` is the route's own (each route sets what its bodies need), named in a 413. */
export function toApiError(error: FastifyError | Error, bodyLimit?: number): ApiError {
  if (error instanceof ApiError) return error
  const e = error as FastifyError & { validation?: unknown[]; validationContext?: string }
  if (Array.isArray(e.validation)) return validationToApiError(e.validation as never, e.validationContext)
  switch (e.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      // A 400 in the envelope, as the real gateway and the video vendor answer (neither declares 415).
      return new ApiError(400, 'Unsupported Content-Type: send the body as application/json', { metadata: { field: 'content-type', location: 'headers' } })
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return bodyLimit === undefined
        ? new ApiError(413, 'Request payload too large')
        : new ApiError(413, `Request payload too large: this route takes bodies up to ${megabytes(bodyLimit)}`, { metadata: { limit_bytes: bodyLimit } })
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError(400, 'Request body is empty but Content-Type is application/json: send a JSON body or no Content-Type')
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError(400, `Malformed JSON body: ${e.message}`)
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError(400, 'Content-Length does not match the body')
  }
  if (isStorageFailure(e.code)) {
    return new ApiError(503, "The emulator's database could not be written (is the disk full or read-only?): nothing was changed, and reads still work; free some space and retry", {
      headers: { 'retry-after': '5' },
      metadata: { reason: 'storage_unavailable' },
    })
  }
  if (e instanceof SyntaxError || e.code === 'FST_ERR_BAD_JSON') return new ApiError(400, `Malformed JSON body: ${e.message}`)
  const status = e.statusCode ?? 500
  if (status >= 400 && status < 500) return new ApiError(status, e.message)
  return new ApiError(500, 'Internal Server Error')
}

/** Which API's error envelope a scope answers in: the gateway's (and the admin API's), or the video router's. */
export type Envelope = 'main' | 'router'

/**
 * The envelope for a request no route matched (a 404, or an error found before routing). The path is
 * canonical by then (see canonical-path.ts), so its first segment says which API it was meant for.
 */
export const envelopeForUnrouted = (url: string): Envelope => (url.startsWith(ROUTER_PREFIX) ? 'router' : 'main')

export function renderError(envelope: Envelope, error: ApiError, traceRng: Rng): unknown {
  if (envelope === 'main') return mainEnvelope(error)
  return {
    code: error.status,
    reason: error.reason ?? ROUTER_REASON[error.status] ?? 'BadRequest',
    message: error.message,
    metadata: { trace_id: traceRng.hex(32), ...error.metadata },
  }
}

export function sendError(reply: FastifyReply, error: ApiError, traceRng: Rng, envelope: Envelope): FastifyReply {
  return reply.code(error.status).headers(error.headers).type('application/json; charset=utf-8').send(renderError(envelope, error, traceRng))
}

/**
 * Every error in this scope (and the scopes it registers) answers in `envelope`: the scope, not the
 * URL, says which API a route belongs to. The root installs the main envelope; the video router's
 * scope its own.
 */
export function installErrorHandling(app: FastifyInstance, traceRng: Rng, envelope: Envelope): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const apiError = toApiError(error, request.routeOptions.bodyLimit)
    // Internals stay in the log; the client gets the envelope and nothing of the stack or SQL.
    if (apiError.status >= 500 && apiError.status !== 503) request.log.error({ err: error }, 'unexpected error')
    return sendError(reply, apiError, traceRng, envelope)
  })
}

/** The 404 for paths no route matches, in the envelope of the API the path is under. */
export function installNotFound(app: FastifyInstance, traceRng: Rng): void {
  app.setNotFoundHandler((request, reply) => {
    const envelope = envelopeForUnrouted(request.url)
    const message = `Not Found: no route for ${request.method} ${request.url.split('?')[0]}`
    return sendError(reply, new ApiError(404, message, envelope === 'router' ? { reason: 'NotFound' } : {}), traceRng, envelope)
  })
}
