// Guards on the admin API, its documentation and the UI. installAdminGuard adds them as hooks of the
// plugin scope those routes are registered in, so they guard exactly the routes that scope serves,
// whatever spelling of the path reached them (after the framing guard of frame-guard.ts, which the same
// scope runs first):
// - a Host check: a page on another site that rebinds its DNS name to 127.0.0.1 must not reach the
//   admin API, so only loopback names (and the configured host, and --allowed-hosts) are accepted;
// - an Origin check: a page on any other origin may send requests to 127.0.0.1 (a form, a fetch in
//   no-cors mode), so a request that says it comes from another origin, or that the browser marks
//   `Sec-Fetch-Site: cross-site`, is refused before it can change anything. Scripts and SDKs send no
//   Origin; the UI sends its own;
// - a token when the emulator listens beyond loopback: anyone on the network could otherwise reset it
//   or read its keys. The token comes as `Authorization: Bearer`, `X-Emulator-Admin-Token`, or, for a
//   browser, `?token=` on the UI once, which sets an HttpOnly cookie for the rest of the session. A
//   browser that comes without it gets a page saying how to get in; scripts keep the JSON 401.
import { createHash, timingSafeEqual } from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { EmulatorContext } from '../modules/module.ts'
import { adminTokenRequired, crossOriginRefused, hostNotAllowed } from './http.errors.ts'

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

/**
 * A browser opening a page (a GET whose Accept names HTML and not JSON), not a script or the UI's own
 * fetches (JSON, or any type): it is answered with a page rather than the JSON envelope.
 */
function wantsPage(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false
  const accept = request.headers.accept ?? ''
  return accept.includes('text/html') && !accept.includes('application/json')
}

// The page says what to do and nothing of the request (no Host, no path, no token): nothing to reflect
// and nothing to leak. No script; its policy allows none.
const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
const tokenPage = (refused: boolean): string => `<!doctype html>
<html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Admin token needed · Model Gateway Emulator</title>
<body style="font-family:system-ui,sans-serif;line-height:1.5;padding:2rem;max-width:44rem">
<h1>The inspector needs the admin token</h1>
<p>This emulator asks for its admin token before it opens the inspector, the admin API or the docs: it listens
beyond loopback, or it was started with <code>--admin-token</code>.${
  refused
    ? ' <strong>The token this browser sent is not the right one</strong>: the random token changes at every start, unless <code>--admin-token</code> fixes it.'
    : ''
}</p>
<h2>How to get in</h2>
<ul>
<li>Open the <strong>UI</strong> link the emulator printed when it started: it carries the token
(<code>/_emulator/?token=&lt;token&gt;</code>). The browser keeps it in a cookie, so the link is needed once per session.</li>
<li>The token is the <strong>Admin token</strong> line of that start-up summary: the value of <code>--admin-token</code>
(or <code>GATEWAY_EMULATOR_ADMIN_TOKEN</code>), or a random one made at start when none was given.</li>
<li>On your own machine, an emulator on <code>127.0.0.1</code> (the default) without <code>--admin-token</code> needs no token,
and the desktop app opens its inspector by itself.</li>
</ul>
<p>Scripts send the token as <code>Authorization: Bearer &lt;token&gt;</code> or <code>X-Emulator-Admin-Token: &lt;token&gt;</code>.</p>
</body></html>
`
const PAGES = { missing: tokenPage(false), refused: tokenPage(true) }

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
      return done(hostNotAllowed(host))
    }
    const crossSite = crossSiteReason(request, trustedOrigins)
    if (crossSite !== null) {
      return done(crossOriginRefused(crossSite, request.headers.origin !== undefined ? 'origin' : 'sec-fetch-site'))
    }
    if (token === null) return done()
    const given = tokenOf(request)
    if (given === null || !same(given, token)) {
      if (wantsPage(request)) {
        // Answered here: the hook does not call done, so no route runs.
        void reply
          .code(401)
          .type('text/html; charset=utf-8')
          .header('content-security-policy', PAGE_CSP)
          .header('x-content-type-options', 'nosniff')
          .header('cache-control', 'no-store')
          .header('vary', 'accept')
          .send(given === null ? PAGES.missing : PAGES.refused)
        return
      }
      return done(adminTokenRequired())
    }
    // A browser that came with ?token= keeps it in a cookie the page's scripts cannot read.
    if ((request.query as Record<string, unknown> | undefined)?.token !== undefined) {
      reply.header('set-cookie', `${COOKIE}=${encodeURIComponent(token)}; Path=${COOKIE_PATH}; HttpOnly; SameSite=Strict`)
    }
    done()
  })
}
