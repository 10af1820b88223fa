// What the PKCE exchange refuses. A code that cannot give a key (unknown, expired, used) and a verifier
// that does not match its challenge are the document's 403; a request shaped wrong is a 400 naming the
// field. The code and the verifier themselves are never repeated back.
import { ApiError } from '../../core/errors.ts'

export const codeUnknown = (): ApiError => new ApiError(403, 'Invalid authorization code', { metadata: { reason: 'code_unknown' } })

export const codeExpired = (at: string, lifetime: string): ApiError =>
  new ApiError(403, `Authorization code expired at ${at}: codes can be exchanged for ${lifetime}; start the authorization again`, {
    metadata: { reason: 'code_expired', expired_at: at },
  })

export const codeUsed = (): ApiError =>
  new ApiError(403, 'Authorization code already used: each code is exchanged for one key', { metadata: { reason: 'code_used' } })

export const verifierMismatch = (method: string): ApiError =>
  new ApiError(403, `Invalid code_verifier: it does not match the code_challenge (${method})`, { metadata: { reason: 'code_verifier_mismatch', method } })

/** Too many codes waiting for their exchange in one account: the document's 409. */
export const tooManyPendingCodes = (limit: number): ApiError =>
  new ApiError(409, `Too many authorization codes waiting to be exchanged (${limit}): exchange some, or let them expire`, {
    metadata: { reason: 'too_many_pending_codes', limit },
  })
/** The account a code is issued for over the admin API (its first when none is named) does not exist. */
export const codeAccountNotFound = (id: string | undefined): ApiError =>
  new ApiError(404, id === undefined ? 'This emulator has no account' : `Account ${id} not found`)
