// A body whose declared length (Content-Length) is over its route's limit is answered with the 413 of a
// body too large before a byte of it is read, on every route. Fastify checks the declared length only in
// its own body reader, which forms (multipart) and the media JSON reader (media-body.ts) do not use: a
// form declaring 1 GiB and sending 200 bytes waited for the request timeout. One preParsing hook on each
// route that takes a body, first of its preParsing hooks (nothing may wait on such a body), so the error
// handler of the route's scope answers it in its API's envelope, naming the limit (toApiError).
import { errorCodes, type FastifyInstance, type preParsingHookHandler, type RouteOptions } from 'fastify'
import { addRouteHook, WRITE_METHODS } from './route-hooks.ts'

const takesBody = (route: RouteOptions): boolean => (Array.isArray(route.method) ? route.method : [route.method]).some((m) => WRITE_METHODS.has(m))

/** The declared length of a request's body, or NaN when it declares none (a chunked body). */
export const declaredLength = (headers: { 'content-length'?: string | undefined }): number => Number(headers['content-length'] ?? Number.NaN)

function refuseDeclaredOver(limit: number): preParsingHookHandler {
  return (request, _reply, payload, done) => {
    if (declaredLength(request.headers) > limit) return done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE())
    done(null, payload)
  }
}

/** Every route registered after this (in `app` and its scopes) refuses a body declared over its `bodyLimit` (else `defaultLimit`). */
export function refuseOversizedDeclarations(app: FastifyInstance, defaultLimit: number): void {
  app.addHook('onRoute', (route) => {
    if (takesBody(route)) addRouteHook(route, 'preParsing', refuseDeclaredOver(route.bodyLimit ?? defaultLimit), true)
  })
}
