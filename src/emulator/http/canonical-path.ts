// Refuses request paths that are not in their one canonical spelling, before any route's own hooks
// run. The router folds some spellings together (`/%5Femulator` matches `/_emulator`), so a check on
// a URL string could be walked around by spelling the path another way; refusing every other spelling
// means the path a request names is the path it is routed by, logged by and guarded by.
import type { IncomingMessage } from 'node:http'
import type { onRequestHookHandler } from 'fastify'
import { malformedPath, pathNotCanonical, pathParameterTooLong } from './http.errors.ts'

/** The longest path parameter a route takes (docs/security.md, limits: 500 characters). */
export const MAX_PARAM_LENGTH = 500
/**
 * The router's own limit, past any URL Node accepts (its headers are 16 KB at most): a longer parameter
 * still reaches its route, whose scope refuses it (a 414 in that API's envelope) by MAX_PARAM_LENGTH.
 */
export const ROUTED_PARAM_LENGTH = 16_384

const MALFORMED = Symbol('a percent-escape of the path does not decode')

/**
 * Fastify's rewriteUrl: a path whose percent-escapes do not decode (`%zz`, a cut or invalid UTF-8
 * sequence) would fail in the router, before any scope. It is routed with each `%` escaped instead,
 * marked, and refused by refuseNonCanonicalPaths in the envelope of the scope that owns it.
 */
export function routableUrl(req: IncomingMessage): string {
  const url = req.url ?? '/'
  const path = pathOf(url)
  if (!path.includes('%')) return url
  try {
    decodeURIComponent(path)
    return url
  } catch {
    ;(req as IncomingMessage & { [MALFORMED]?: true })[MALFORMED] = true
    return `${path.replaceAll('%', '%25')}${url.slice(path.length)}`
  }
}

/**
 * Why a path (the part before `?`) is not canonical, or null when it is:
 * - repeated slashes (`//_emulator/...`);
 * - dot segments (`/./`, `/../`, a trailing `/.` or `/..`), however spelt;
 * - a backslash, which some stacks read as a slash;
 * - a percent-encoded unreserved character (`%5F` for `_`, `%65` for `e`), which has one plain spelling;
 * - a percent-encoded slash or backslash (`%2F`, `%5C`), which would split a segment in two elsewhere.
 */
export function nonCanonicalReason(path: string): string | null {
  if (path.includes('//')) return 'repeated slashes'
  if (path.includes('\\')) return 'a backslash'
  if (path.includes('%')) {
    for (const match of path.matchAll(/%([0-9a-fA-F]{2})/g)) {
      const code = Number.parseInt(match[1]!, 16)
      const char = String.fromCharCode(code)
      if (char === '/' || char === '\\') return `an encoded ${char === '/' ? 'slash' : 'backslash'} (${match[0]})`
      if (/[A-Za-z0-9\-._~]/.test(char)) return `an encoded unreserved character (${match[0]} for "${char}")`
    }
  }
  for (const segment of path.split('/')) {
    if (segment === '.' || segment === '..') return 'a dot segment'
  }
  return null
}

const pathOf = (url: string): string => {
  const query = url.indexOf('?')
  return query === -1 ? url : url.slice(0, query)
}

/**
 * The global first hook: a request whose path is spelt otherwise than canonically, or does not decode,
 * gets a 400; a path parameter longer than MAX_PARAM_LENGTH a 414. It runs on the matched route (or its
 * scope's 404), so each answers in the envelope of the API that owns the path.
 */
export const refuseNonCanonicalPaths: onRequestHookHandler = (request, _reply, done) => {
  if ((request.raw as IncomingMessage & { [MALFORMED]?: true })[MALFORMED]) {
    return done(malformedPath())
  }
  for (const [name, value] of Object.entries((request.params ?? {}) as Record<string, unknown>)) {
    if (name !== '*' && typeof value === 'string' && value.length > MAX_PARAM_LENGTH) {
      return done(pathParameterTooLong(name, MAX_PARAM_LENGTH))
    }
  }
  const path = pathOf(request.url)
  // The fast path: a path with none of the characters the rules look at.
  if (!path.includes('//') && !path.includes('%') && !path.includes('\\') && !path.includes('/.')) return done()
  const reason = nonCanonicalReason(path)
  if (reason === null) return done()
  done(pathNotCanonical(reason))
}
