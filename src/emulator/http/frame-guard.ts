// The admin API, its docs and the UI are never shown inside another site's frame. The UI's own calls
// are same-origin even inside a frame, so the Origin check (admin-guard.ts) cannot tell a framed UI
// from the real one: a hostile page could frame it and lure clicks on "Send" (which spends credits)
// or on a delete. installFrameGuard adds two hooks to the plugin scope that serves those routes:
// - every answer carries `X-Frame-Options: DENY` and a Content-Security-Policy with
//   `frame-ancestors 'none'`: merged into the policy a route sets (the UI's, the docs', the 401
//   page's), so there is one policy, never two. The browser enforces these, whatever it caches;
// - a browser asking for any of them as a frame (`Sec-Fetch-Dest: iframe`, `frame`, `embed` or
//   `object`) from anything but the same origin gets a short 403 and nothing else, before any other
//   guard or route runs. Clients that send no Sec-Fetch-* headers (curl, SDKs, old browsers) go on
//   as before; a top-level navigation (`Sec-Fetch-Dest: document`) is no frame.
import type { FastifyInstance } from 'fastify'

export const FRAME_ANCESTORS = "frame-ancestors 'none'"
/** The request destinations that mean "shown inside another page". */
const FRAME_DESTS = new Set(['iframe', 'frame', 'embed', 'object'])

const REFUSED = `The Model Gateway Emulator's inspector, API docs and admin API cannot be shown inside a frame of another page.
Open the inspector in a tab of its own instead (the UI link the emulator printed when it started).
`

/** `policy` with its frame-ancestors directive (if any) replaced by `frame-ancestors 'none'`. */
export function denyFrameAncestors(policy: string): string {
  const directives = policy
    .split(';')
    .map((d) => d.trim())
    .filter((d) => d !== '' && d.split(/\s+/)[0]!.toLowerCase() !== 'frame-ancestors')
  return [...directives, FRAME_ANCESTORS].join('; ')
}

/** Adds the framing guard as hooks of `scope`: every route registered in it (and below) carries it. */
export function installFrameGuard(scope: FastifyInstance): void {
  scope.addHook('onRequest', (request, reply, done) => {
    // On the raw response too: an answer written by hand (the hijacked event stream) carries the
    // headers as well; an answer sent through Fastify replaces them with the merged ones below.
    reply.raw.setHeader('x-frame-options', 'DENY')
    reply.raw.setHeader('content-security-policy', FRAME_ANCESTORS)
    const dest = request.headers['sec-fetch-dest']
    if (typeof dest === 'string' && FRAME_DESTS.has(dest.toLowerCase()) && request.headers['sec-fetch-site'] !== 'same-origin') {
      // Answered here: the hook does not call done, so no other guard and no route runs.
      void reply.code(403).type('text/plain; charset=utf-8').header('x-content-type-options', 'nosniff').header('cache-control', 'no-store').send(REFUSED)
      return
    }
    done()
  })
  scope.addHook('onSend', (_request, reply, payload, done) => {
    reply.header('x-frame-options', 'DENY')
    const policy = reply.getHeader('content-security-policy')
    if (Array.isArray(policy)) reply.header('content-security-policy', policy.map(denyFrameAncestors))
    else reply.header('content-security-policy', policy === undefined ? FRAME_ANCESTORS : denyFrameAncestors(String(policy)))
    done(null, payload)
  })
}
