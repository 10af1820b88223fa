// What the HTTP layer refuses before any area sees a request, in the gateway's envelope (the video
// router's and the Messages API's scopes render the same errors in theirs): a request the admin
// guard turns away, a path that is not canonical, a body that cannot be read, one that breaks its
// route's schema, and the failures of the server itself.
import { ApiError } from '../core/errors.ts'

/** A byte count as the refusals say it: 32 MB, 0.5 MB. */
const megabytes = (bytes: number): string => `${Number((bytes / 1024 / 1024).toFixed(2))} MB`

// ---- The admin guard (admin-guard.ts) ------------------------------------------------------------

export const hostNotAllowed = (host: string | undefined): ApiError =>
  new ApiError(403, `Host ${host ?? '(none)'} is not allowed for the admin API and UI; add it with --allowed-hosts if it is yours`, {
    metadata: { field: 'host', location: 'headers' },
  })

/** `why` names what made it cross-site; `field` the header that said so (origin or sec-fetch-site). */
export const crossOriginRefused = (why: string, field: string): ApiError =>
  new ApiError(403, `Cross-origin request refused: the admin API and UI answer their own pages and clients that send no Origin (scripts, SDKs), not ${why}`, {
    metadata: { field, location: 'headers' },
  })

export const adminTokenRequired = (): ApiError =>
  new ApiError(
    401,
    'The admin API and UI need the admin token (the emulator listens beyond loopback): send Authorization: Bearer <token>, or open the UI with ?token=<token>',
  )

// ---- Authentication (auth.ts) --------------------------------------------------------------------

/** A key of the wrong kind, in the words and status a route declares for it (activity's 403). */
export const wrongKeyKind = (status: number, message: string): ApiError => new ApiError(status, message)

// ---- Paths (canonical-path.ts) -------------------------------------------------------------------

export const malformedPath = (): ApiError =>
  new ApiError(400, 'Request path is malformed: a percent-escape does not decode', { metadata: { field: 'path', location: 'path' } })
export const pathParameterTooLong = (name: string, most: number): ApiError =>
  new ApiError(414, `Path parameter \`${name}\` is longer than ${most} characters`, { metadata: { field: name, location: 'path' } })
export const pathNotCanonical = (reason: string): ApiError =>
  new ApiError(400, `Request path is not canonical (${reason}): spell it without it, as the API documents it`, {
    metadata: { field: 'path', location: 'path' },
  })
/** No route of the scope (and its prefix) matches the path. */
export const noRoute = (method: string, path: string): ApiError => new ApiError(404, `Not Found: no route for ${method} ${path}`)

// ---- Bodies (error-handler.ts, json-body.ts, media-body.ts, validation.ts) ----------------------

/** A 400 in the envelope, as the real gateway and the video vendor answer (neither declares 415). */
export const unsupportedContentType = (): ApiError =>
  new ApiError(400, 'Unsupported Content-Type: send the body as application/json', { metadata: { field: 'content-type', location: 'headers' } })
/** A body over its route's limit (`limit` unknown: the server's own). */
export const payloadTooLarge = (limit: number | undefined): ApiError =>
  limit === undefined
    ? new ApiError(413, 'Request payload too large')
    : new ApiError(413, `Request payload too large: this route takes bodies up to ${megabytes(limit)}`, { metadata: { limit_bytes: limit } })
/** A media body whose other fields pass what the route keeps besides its media, at `field`. */
export const tooMuchBesidesMedia = (media: string, limit: number, field: string): ApiError =>
  new ApiError(
    413,
    `Request payload too large: besides its media (${media}), a body of this route holds at most ${megabytes(limit)}, and this one passes that at \`${field}\``,
    { metadata: { field, location: 'body', limit_bytes: limit } },
  )
export const emptyJsonBody = (): ApiError =>
  new ApiError(400, 'Request body is empty but Content-Type is application/json: send a JSON body or no Content-Type')
export const malformedJson = (why: string): ApiError => new ApiError(400, `Malformed JSON body: ${why}`)
export const contentLengthMismatch = (): ApiError => new ApiError(400, 'Content-Length does not match the body')
/** The 400 of a body nested deeper than `limit` (the JSON bodies' parser, and the media bodies' reader). */
export const nestedTooDeep = (limit: number): ApiError =>
  new ApiError(400, `Request body nests objects and arrays more than ${limit} levels deep; no request of this API needs that many`, {
    metadata: { field: 'body', location: 'body', limit },
  })
/** A validation failure that names nothing. */
export const invalidRequestParameters = (): ApiError => new ApiError(400, 'Invalid request parameters')
/** The first failure of a route's schema, naming the field (or the body or query as a whole: `field` null). */
export const schemaViolation = (message: string, field: string | null, location: string, issue: string): ApiError =>
  new ApiError(400, message, { metadata: { field, location, issue } })

// ---- The server (error-handler.ts) ---------------------------------------------------------------

export const storageUnavailable = (): ApiError =>
  new ApiError(
    503,
    "The emulator's database could not be written (is the disk full or read-only?): nothing was changed, and reads still work; free some space and retry",
    {
      headers: { 'retry-after': '5' },
      metadata: { reason: 'storage_unavailable' },
    },
  )
/** A library's client error (4xx), with its own headers (a 416's Content-Range, from @fastify/static). */
export const clientError = (status: number, message: string, headers: Record<string, string> | undefined): ApiError =>
  new ApiError(status, message, headers ? { headers } : {})
export const internalError = (): ApiError => new ApiError(500, 'Internal Server Error')
