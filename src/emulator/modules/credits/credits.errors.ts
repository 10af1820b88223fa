// The real gateway's words for crypto charges it no longer takes (--crypto-charges gone).
import { ApiError } from '../../core/errors.ts'

const CHARGES_GONE_MESSAGE =
  'The Coinbase APIs used by this endpoint have been deprecated, so the Coinbase Commerce credits API has been removed. Use the web credits purchase flow instead.'

export const chargesGone = (): ApiError => new ApiError(410, CHARGES_GONE_MESSAGE)
