// Guards on the admin API and the UI (everything under /_emulator/):
// - a Host check: a page on another site that rebinds its DNS name to 127.0.0.1 must not reach the
//   admin API, so only loopback names (and the configured host, and --allowed-hosts) are accepted;
// - a token when the emulator listens beyond loopback: anyone on the network could otherwise reset it
//   or read its keys. The token comes as `Authorization: Bearer`, `X-Emulator-Admin-Token`, or, for a
//   browser, `?token=` on the UI once, which sets an HttpOnly cookie for the rest of the session.
import { timingSafeEqual } from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { ApiError } from '../core/errors.ts'
import type { EmulatorContext } from '../context.ts'

const ADMIN_PREFIX = '/_emulator'
const COOKIE = 'gwe_admin'
const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1', '[::1]'])

export const isLoopbackHost = (host: string): boolean => LOOPBACK_NAMES.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host)

/** The host name of a Host header, without its port. */
export function hostName(header: string): string {
  if (header.startsWith('[')) return header.slice(0, header.indexOf(']') + 1)
  return header.split(':')[0]!.toLowerCase()
}

const same = (a: string, b: string): boolean => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b))

function tokenOf(request: FastifyRequest): string | null {
  const auth = request.headers.authorization
  if (auth?.startsWith('Bearer ')) return auth.slice(7).trim()
  const header = request.headers['x-emulator-admin-token']
  if (typeof header === 'string') return header
  const cookie = request.headers.cookie?.split(';').map((c) => c.trim()).find((c) => c.startsWith(`${COOKIE}=`))
  if (cookie) return decodeURIComponent(cookie.slice(COOKIE.length + 1))
  const query = (request.query as Record<string, unknown> | undefined)?.token
  return typeof query === 'string' ? query : null
}

export function installAdminGuard(app: FastifyInstance, ctx: EmulatorContext): void {
  const allowed = new Set([...LOOPBACK_NAMES, hostName(ctx.config.host), ...ctx.config.allowedHosts.map((h) => h.toLowerCase())])
  const token = ctx.config.adminToken
  // Callback style, not async: this hook runs on every request, and most return at once.
  app.addHook('onRequest', (request, reply, done) => {
    if (!request.url.startsWith(ADMIN_PREFIX)) return done()
    const host = request.headers.host
    if (!host || !(allowed.has(hostName(host)) || isLoopbackHost(hostName(host)))) {
      return done(new ApiError(403, `Host ${host ?? '(none)'} is not allowed for the admin API and UI; add it with --allowed-hosts if it is yours`))
    }
    if (token === null) return done()
    const given = tokenOf(request)
    if (given === null || !same(given, token)) {
      return done(
        new ApiError(401, 'The admin API and UI need the admin token (the emulator listens beyond loopback): send Authorization: Bearer <token>, or open the UI with ?token=<token>'),
      )
    }
    // A browser that came with ?token= keeps it in a cookie the page's scripts cannot read.
    if ((request.query as Record<string, unknown> | undefined)?.token !== undefined) {
      reply.header('set-cookie', `${COOKIE}=${encodeURIComponent(token)}; Path=${ADMIN_PREFIX}; HttpOnly; SameSite=Strict`)
    }
    done()
  })
}
