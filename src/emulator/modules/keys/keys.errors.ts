// The real gateway's words for a key it refuses: at the door (authentication) and when a request's
// key is gone by the time it is billed. Reviewable here at a glance; the routes and guards throw these.
import { ApiError } from '../../core/errors.ts'

export const noAuthCredentials = (): ApiError => new ApiError(401, 'No auth credentials found')
export const malformedAuthorization = (): ApiError => new ApiError(401, 'Malformed Authorization header: expected "Bearer <API key>"')
/** An unknown key (or one revoked since the request arrived). */
export const userNotFound = (): ApiError => new ApiError(401, 'User not found.')
export const keyDisabled = (): ApiError => new ApiError(401, 'This API key is disabled')
export const keyExpired = (at: number): ApiError => new ApiError(401, `This API key expired at ${new Date(at).toISOString()}`)
export const managementKeysOnly = (status: number): ApiError => new ApiError(status, 'Only management keys can perform this operation')
export const standardKeysOnly = (): ApiError => new ApiError(401, 'Management keys cannot be used for this operation: use a standard API key')
export const apiKeyNotFound = (hash: string): ApiError => new ApiError(404, `API key ${hash} not found`)
export const keyNotInAccount = (hash: string, accountId: string): ApiError => new ApiError(404, `Key ${hash} not found in account ${accountId}`)
export const creatorNotAMember = (accountId: string, members: readonly string[]): ApiError =>
  new ApiError(400, `Field \`creator_user_id\` must be a member of account ${accountId}`, { metadata: { field: 'creator_user_id', members } })
