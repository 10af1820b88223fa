// What the journal's admin API refuses: an entry (or a file of one) it no longer holds, and one more
// event stream client than it serves at once.
import { ApiError } from '../core/errors.ts'

export const journalEntryNotFound = (id: number): ApiError => new ApiError(404, `Journal entry ${id} not found`)

/** The file `index` of an entry: the entry is gone (`held` false), or holds no such file. */
export const journalFileNotFound = (id: number, index: number, held: boolean): ApiError =>
  new ApiError(
    404,
    held
      ? `Journal entry ${id} holds no file ${index}: its answer carried fewer, or they were dropped for newer ones (--journal-media-limit)`
      : `Journal entry ${id} not found`,
  )

export const tooManySubscribers = (limit: number): ApiError =>
  new ApiError(503, `Too many event stream clients: at most ${limit} may be connected at once; close another stream (an inspector tab) and retry`, {
    headers: { 'retry-after': '5' },
    metadata: { reason: 'too_many_subscribers', limit },
  })
