// What the clock's admin API refuses: an advance that says how far in none or several ways, or goes
// back in time (setting the clock does that), or a duration it cannot read.
import { ApiError } from '../../core/errors.ts'

export const oneAdvanceAmount = (): ApiError =>
  new ApiError(400, 'Send exactly one of `ms` (milliseconds), `by` (a duration such as "1d") or `to` (an ISO time)')
export const advanceIntoPast = (to: string, now: string): ApiError =>
  new ApiError(400, `Field \`to\` (${to}) is before the emulator's now (${now}); use POST /_emulator/api/clock/set to go back`)
export const unreadableDuration = (why: string): ApiError => new ApiError(400, `Field \`by\`: ${why}`)
