// Guards on the admin API, its documentation and the UI. installAdminGuard adds them as hooks of the
// plugin scope those routes are registered in, so they guard exactly the routes that scope serves,
// whatever spelling of the path reached them:
// - a Host check: a page on another site that rebinds its DNS name to 127.0.0.1 must not reach the
//   admin API, so only loopback names (and the configured host, and --allowed-hosts) are accepted;
// - an Origin check: a page on any other origin may send requests to 127.0.0.1 (a form, a fetch in
//   no-cors mode), so a request that says it comes from another origin, or that the browser marks
//   `Sec-Fetch-Site: cross-site`, is refused before it can change anything. Scripts and SDKs send no
//   Origin; the UI sends its own;
// - a token when the emulator listens beyond loopback: anyone on the network could otherwise reset it
//   or read its keys. The token comes as `Authorization: Bearer`, `X-Emulator-Admin-Token`, or, for a
//   browser, `?token=` on the UI once, which sets an HttpOnly cookie for the rest of the session.
import { createHash, timingSafeEqual } from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { ApiError } from '../core/errors.ts'
import type { EmulatorContext } from '../context.ts'

/** The admin API, the docs and the UI all live under this path: the cookie goes to them only. */
const COOKIE_PATH = '/_emulator'
const COOKIE = 'gwe_admin'
const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1', '[::1]'])

export const isLoopbackHost = (host: string): boolean => LOOPBACK_NAMES.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host)

/** The host name of a Host header, without its port. */
export function hostName(header: string): string {
  if (header.startsWith('[')) return header.slice(0, header.indexOf(']') + 1)
  return header.split(':')[0]!.toLowerCase()
}

// Digests first, so the comparison takes the same time whatever the length or content of the guess.
const digest = (text: string): Buffer => createHash('sha256').update(text).digest()
const same = (given: string, token: string): boolean => timingSafeEqual(digest(given), digest(token))

function tokenOf(request: FastifyRequest): string | null {
  const auth = request.headers.authorization
  if (auth?.startsWith('Bearer ')) return auth.slice(7).trim()
  const header = request.headers['x-emulator-admin-token']
  if (typeof header === 'string') return header
  const cookie = request.headers.cookie
    ?.split(';')
    .map((c) => c.trim())
    .find((c) => c.startsWith(`${COOKIE}=`))
  if (cookie) return decodeURIComponent(cookie.slice(COOKIE.length + 1))
  const query = (request.query as Record<string, unknown> | undefined)?.token
  return typeof query === 'string' ? query : null
}

/** Why a request from a browser page of another origin must be refused, or null when it may go on. */
function crossSiteReason(request: FastifyRequest, trustedOrigins: ReadonlySet<string>): string | null {
  const origin = request.headers.origin
  if (origin !== undefined) {
    const own = `http://${request.headers.host ?? ''}`.toLowerCase()
    const given = origin.toLowerCase()
    if (given !== own && !trustedOrigins.has(given)) return `origin ${origin}`
  }
  // Browsers mark every request; a plain link to the UI from another site (a navigation) stays fine.
  if (request.headers['sec-fetch-site'] === 'cross-site' && !(request.method === 'GET' && request.headers['sec-fetch-mode'] === 'navigate')) {
    return 'a cross-site page'
  }
  return null
}

/** Adds the guards as hooks of `scope`: every route registered in it (and below) is guarded, nothing else. */
export function installAdminGuard(scope: FastifyInstance, ctx: EmulatorContext): void {
  const allowed = new Set([...LOOPBACK_NAMES, hostName(ctx.config.host), ...ctx.config.allowedHosts.map((h) => h.toLowerCase())])
  const trustedOrigins = new Set(ctx.config.corsOrigins.filter((o) => o !== '*').map((o) => o.toLowerCase()))
  const token = ctx.config.adminToken
  // Callback style, not async: most requests pass every check at once.
  scope.addHook('onRequest', (request, reply, done) => {
    const host = request.headers.host
    if (!host || !(allowed.has(hostName(host)) || isLoopbackHost(hostName(host)))) {
      return done(
        new ApiError(403, `Host ${host ?? '(none)'} is not allowed for the admin API and UI; add it with --allowed-hosts if it is yours`, {
          metadata: { field: 'host', location: 'headers' },
        }),
      )
    }
    const crossSite = crossSiteReason(request, trustedOrigins)
    if (crossSite !== null) {
      return done(
        new ApiError(
          403,
          `Cross-origin request refused: the admin API and UI answer their own pages and clients that send no Origin (scripts, SDKs), not ${crossSite}`,
          {
            metadata: { field: request.headers.origin !== undefined ? 'origin' : 'sec-fetch-site', location: 'headers' },
          },
        ),
      )
    }
    if (token === null) return done()
    const given = tokenOf(request)
    if (given === null || !same(given, token)) {
      return done(
        new ApiError(
          401,
          'The admin API and UI need the admin token (the emulator listens beyond loopback): send Authorization: Bearer <token>, or open the UI with ?token=<token>',
        ),
      )
    }
    // A browser that came with ?token= keeps it in a cookie the page's scripts cannot read.
    if ((request.query as Record<string, unknown> | undefined)?.token !== undefined) {
      reply.header('set-cookie', `${COOKIE}=${encodeURIComponent(token)}; Path=${COOKIE_PATH}; HttpOnly; SameSite=Strict`)
    }
    done()
  })
}
