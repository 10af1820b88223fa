// The video router's errors in its vendor's exact words (its error table's reason and message, fields
// filled in); the emulator's own explanation travels in the X-Emulator-Detail header.
import { ApiError } from '../../core/errors.ts'

/**
 * An error in the vendor's exact words (its error table's message, fields filled in); `detail`, the
 * emulator's explanation, travels in the X-Emulator-Detail header.
 */
export const routerError = (reason: string, message: string, detail?: string, status = 400): ApiError =>
  new ApiError(status, message, { reason, ...(detail !== undefined && { detail }) })

export const lacking = (field: string) => routerError('FieldLacking', `field is missing or empty: ${field}`, `${field} is required`)
export const invalid = (field: string, detail: string) => routerError('FieldInvalid', `invalid field: ${field}`, `${field} ${detail}`)
export const countOutOfRange = (field: string, detail: string) =>
  routerError('FieldItemCountOutOfRange', `field item count out of range: ${field}`, `${field}: ${detail}`)

export const badRequest = (detail: string): ApiError => routerError('BadRequest', 'bad request', detail)
export const taskNotFound = (id: string): ApiError => routerError('TaskNotFound', 'task not found', `no task ${id} for this account`, 404)
export const creditInsufficient = (detail: string, status: number): ApiError => routerError('CreditInsufficient', 'insufficient credits', detail, status)
export const forbidden = (detail: string): ApiError => routerError('Forbidden', 'forbidden', detail, 403)
export const cannotCancel = (state: string): ApiError => routerError('BadRequest', `task state is ${state}, can not cancel`)

// The admin API's words (the gateway's envelope, not the vendor's): a task it names that does not
// exist, or one already ended that it is asked to end.
export const videoTaskNotFound = (id: string): ApiError => new ApiError(404, `Video task ${id} not found`)
export const videoTaskEnded = (id: string, state: string): ApiError => new ApiError(409, `Video task ${id} already ended: ${state}`)
