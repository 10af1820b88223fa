// CORS, only where configured (`--cors-origins`): a web app served from a dev server (say
// http://localhost:5173) may call the gateway and the video router straight from the browser, as it
// would the real service. Nothing is sent when no origin is configured, and the admin API and UI
// (/_emulator/) never get CORS headers: another origin must not be able to drive the emulator.
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify'
import type { EmulatorContext } from '../modules/module.ts'

const METHODS = 'GET, POST, PUT, PATCH, DELETE'
/** Response headers a browser app needs to read to handle limits and faults as it would for real. */
const EXPOSED = 'retry-after, x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, x-generation-id'
const PREFLIGHT_MAX_AGE_S = '600'

/**
 * Adds CORS to the routes of `scope` (the emulated APIs' scope: the admin API and the UI are never in
 * it), and a preflight route under each of `prefixes`, since a preflight matches no route of its own.
 */
export function installCors(scope: FastifyInstance, ctx: EmulatorContext, prefixes: readonly string[]): void {
  const origins = new Set(ctx.config.corsOrigins)
  if (origins.size === 0) return
  const anyOrigin = origins.has('*')

  const allowedOrigin = (request: FastifyRequest): string | null => {
    const origin = request.headers.origin
    if (!origin) return null
    return anyOrigin || origins.has(origin.toLowerCase()) ? origin : null
  }

  const allow = (reply: FastifyReply, origin: string): void => {
    // The answer depends on the Origin, so caches must key on it.
    reply.header('access-control-allow-origin', origin).header('vary', 'Origin')
  }

  // A hook of the scope, so it runs before every route's own (authentication, faults): a preflight carries no key.
  scope.addHook('onRequest', async (request, reply) => {
    const origin = allowedOrigin(request)
    if (origin === null) return
    allow(reply, origin)
    const preflight = request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined
    if (!preflight) {
      reply.header('access-control-expose-headers', EXPOSED)
      return
    }
    const requested = request.headers['access-control-request-headers']
    return (
      reply
        .code(204)
        .header('access-control-allow-methods', METHODS)
        // Whatever headers the app's client sends (authorization, content-type, an SDK's own) are fine here.
        .header('access-control-allow-headers', typeof requested === 'string' ? requested : 'authorization, content-type')
        .header('access-control-max-age', PREFLIGHT_MAX_AGE_S)
        .send()
    )
  })
  // The hook above answers an allowed preflight; anything else that reaches the route is not one.
  const notAPreflight: RouteHandlerMethod = (_request, reply) => reply.callNotFound()
  for (const prefix of prefixes) scope.options(`${prefix}/*`, notAPreflight)
}
