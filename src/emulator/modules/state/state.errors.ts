// The words for what the state's export and import refuse beyond a bad document (which is a 400 naming
// the value, from state.service.ts): too many exports at once, a snapshot that could not be taken, and a
// document's value larger than any the export writes.
import { ApiError } from '../../core/errors.ts'

/** Seconds a client is asked to wait before it asks for another export: about one export's time. */
const RETRY_AFTER_SECONDS = 5

const megabytes = (bytes: number): string => `${Number((bytes / 1024 / 1024).toFixed(2))} MB`

/** 429: as many exports of this emulator are under way as may be at once (each reads its own snapshot). */
export const tooManyExports = (limit: number): ApiError =>
  new ApiError(429, `Rate limit exceeded: ${limit} exports of the state are under way, the most the emulator makes at once; retry once one is done`, {
    headers: { 'retry-after': String(RETRY_AFTER_SECONDS) },
    metadata: { limit_source: 'state_exports', limit },
  })

/**
 * 503: the snapshot an export reads could not be taken (the temporary directory an in-memory state is
 * copied to is full or not writable, the database file cannot be opened a second time); nothing changed.
 */
export const exportSnapshotFailed = (error: unknown): ApiError => {
  const e = error as NodeJS.ErrnoException
  const why = e instanceof Error ? `${e.code ?? e.name}: ${e.message}` : String(error)
  return new ApiError(503, `The state could not be exported: its snapshot could not be taken (${why}); retry once that is fixed`, {
    headers: { 'retry-after': String(RETRY_AFTER_SECONDS) },
    metadata: { reason: 'export_snapshot_failed' },
  })
}

/**
 * 413: one value of an imported document (a row of a table, or another member of the envelope) is
 * larger than any the emulator's own export writes; refused as it passes the bound, before it is held.
 */
export const documentValueTooLarge = (field: string, limit: number): ApiError =>
  new ApiError(413, `Request payload too large: \`${field}\` is over ${megabytes(limit)}, the most one row (or other value) of a state document may hold`, {
    metadata: { field, location: 'body', limit_bytes: limit },
  })

/** 400: an imported document holds rows whose ids a sequence it lacks would mint again. */
export const lacksSequence = (kind: string, table: string, column: string, n: number): ApiError =>
  new ApiError(
    400,
    `Field \`tables.sequences\` lacks the sequence "${kind}": ${table} already holds the ${column} that ${kind} #${n} would mint, so the next create would collide`,
    { metadata: { field: 'tables.sequences', location: 'body', issue: `lacks the sequence "${kind}"`, table: 'sequences', row: null, column: 'kind' } },
  )

/** 400: an import's body is no JSON object. */
export const notAStateDocument = (): ApiError =>
  new ApiError(400, `Request body must be a state document (a JSON object, as GET /_emulator/api/export returns)`, {
    metadata: { field: null, location: 'body', issue: 'must be an object' },
  })

/** 400: the imported rows break a foreign key between tables. */
export const brokenForeignKey = (message: string): ApiError =>
  new ApiError(400, `The document breaks a foreign key: ${message}`, { metadata: { field: 'tables', location: 'body', issue: message } })
