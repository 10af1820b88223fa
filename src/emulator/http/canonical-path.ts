// Refuses request paths that are not in their one canonical spelling, before any route's own hooks
// run. The router folds some spellings together (`/%5Femulator` matches `/_emulator`), so a check on
// a URL string could be walked around by spelling the path another way; refusing every other spelling
// means the path a request names is the path it is routed by, logged by and guarded by.
import type { onRequestHookHandler } from 'fastify'
import { ApiError } from '../core/errors.ts'

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

/** The global first hook: a request whose path is spelt otherwise than canonically gets a 400. */
export const refuseNonCanonicalPaths: onRequestHookHandler = (request, _reply, done) => {
  const path = pathOf(request.url)
  // The fast path: a path with none of the characters the rules look at.
  if (!path.includes('//') && !path.includes('%') && !path.includes('\\') && !path.includes('/.')) return done()
  const reason = nonCanonicalReason(path)
  if (reason === null) return done()
  done(
    new ApiError(400, `Request path is not canonical (${reason}): spell it without it, as the API documents it`, {
      metadata: { field: 'path', location: 'path' },
    }),
  )
}
