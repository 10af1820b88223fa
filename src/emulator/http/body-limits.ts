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

/** A route's body limit, as docs/limits.md lists it. */
export interface RouteBodyLimit {
  method: string
  url: string
  limit: number
}

const bodyLimits = new WeakMap<FastifyInstance, RouteBodyLimit[]>()

/** The body limit of every route of `app` that takes a body, in the order they were registered. */
export const routeBodyLimits = (app: FastifyInstance): readonly RouteBodyLimit[] => bodyLimits.get(app) ?? []

/** Every route registered after this (in `app` and its scopes) refuses a body declared over its `bodyLimit` (else `defaultLimit`). */
export function refuseOversizedDeclarations(app: FastifyInstance, defaultLimit: number): void {
  const listed: RouteBodyLimit[] = []
  bodyLimits.set(app, listed)
  app.addHook('onRoute', (route) => {
    if (!takesBody(route)) return
    const limit = route.bodyLimit ?? defaultLimit
    addRouteHook(route, 'preParsing', refuseDeclaredOver(limit), true)
    for (const method of Array.isArray(route.method) ? route.method : [route.method])
      if (WRITE_METHODS.has(method)) listed.push({ method, url: route.url, limit })
  })
}
