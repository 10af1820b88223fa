// What the accounts area refuses, in the admin API's words: an account a path names that does not
// exist (every admin route under /accounts/:id answers it the same), and a credit change asking for
// two things at once.
import { ApiError } from '../../core/errors.ts'

export const accountNotFound = (id: string): ApiError => new ApiError(404, `Account ${id} not found`)
export const creditsOrBalance = (): ApiError =>
  new ApiError(400, 'Send exactly one of `credits_usd` (credits bought) or `balance_usd` (what is left after spending)')
