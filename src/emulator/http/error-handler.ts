// Every failure leaves through here, in the envelope of the API that was called: the main API's
// {"error":{"code","message","metadata"?}} or the video router's {"code","reason","message","metadata"}.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
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
  415: 'BadRequest',
  429: 'TooManyRequests',
  500: 'InternalServiceFailure',
  502: 'BadGateway',
  503: 'ServiceUnavailable',
}

const megabytes = (bytes: number): string => `${Number((bytes / 1024 / 1024).toFixed(2))} MB`

/** `bodyLimit` is the route's own (each route sets what its bodies need), named in a 413. */
export function toApiError(error: FastifyError | Error, bodyLimit?: number): ApiError {
  if (error instanceof ApiError) return error
  const e = error as FastifyError & { validation?: unknown[]; validationContext?: string }
  if (Array.isArray(e.validation)) return validationToApiError(e.validation as never, e.validationContext)
  switch (e.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(415, 'Unsupported Content-Type: send the body as application/json')
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
  if (e instanceof SyntaxError || e.code === 'FST_ERR_BAD_JSON') return new ApiError(400, `Malformed JSON body: ${e.message}`)
  const status = e.statusCode ?? 500
  if (status >= 400 && status < 500) return new ApiError(status, e.message)
  return new ApiError(500, 'Internal Server Error')
}

export function renderError(request: FastifyRequest, error: ApiError, traceRng: Rng): unknown {
  if (!request.url.startsWith(ROUTER_PREFIX)) return mainEnvelope(error)
  return {
    code: error.status,
    reason: error.reason ?? ROUTER_REASON[error.status] ?? 'BadRequest',
    message: error.message,
    metadata: { trace_id: traceRng.hex(32), ...error.metadata },
  }
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: ApiError, traceRng: Rng): FastifyReply {
  return reply.code(error.status).headers(error.headers).type('application/json; charset=utf-8').send(renderError(request, error, traceRng))
}

export function installErrorHandling(app: FastifyInstance, traceRng: Rng): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const apiError = toApiError(error, request.routeOptions.bodyLimit)
    // Internals stay in the log; the client gets the envelope and nothing of the stack or SQL.
    if (apiError.status >= 500) request.log.error({ err: error }, 'unexpected error')
    return sendError(request, reply, apiError, traceRng)
  })
  app.setNotFoundHandler((request, reply) => {
    const message = `Not Found: no route for ${request.method} ${request.url.split('?')[0]}`
    return sendError(request, reply, new ApiError(404, message, request.url.startsWith(ROUTER_PREFIX) ? { reason: 'NotFound' } : {}), traceRng)
  })
}
