// The real gateway's words for crypto charges it no longer takes (--crypto-charges gone).
import { ApiError } from '../../core/errors.ts'

const CHARGES_GONE_MESSAGE =
  'The Coinbase APIs used by this endpoint have been deprecated, so the Coinbase Commerce credits API has been removed. Use the web credits purchase flow instead.'

export const chargesGone = (): ApiError => new ApiError(410, CHARGES_GONE_MESSAGE)
export const chargeNotFound = (id: string): ApiError => new ApiError(404, `Charge ${id} not found`)
export const chargeExpired = (id: string, at: string): ApiError => new ApiError(409, `Charge ${id} expired at ${at}`, { metadata: { status: 'expired' } })
export const chargeConfirmed = (id: string): ApiError => new ApiError(409, `Charge ${id} is already confirmed`, { metadata: { status: 'confirmed' } })
