// What the observability destinations API refuses, in its words.
import { ApiError } from '../../core/errors.ts'

export const destinationNotFound = (id: string): ApiError => new ApiError(404, `Observability destination ${id} not found`)

/** The real service's cap: "A maximum of 5 destinations per type is allowed" (its 409). */
export const tooManyOfType = (type: string, most: number): ApiError =>
  new ApiError(409, `A workspace can have at most ${most} ${type} destinations: delete one, or change one of them`, {
    metadata: { type, limit: most },
  })

/** One more destination would pass what the account, or the emulator over every account, keeps (the 409 of the cap above). */
export const tooManyDestinations = (scope: 'account' | 'emulator', most: number): ApiError =>
  new ApiError(
    409,
    scope === 'account'
      ? `An account can have at most ${most} observability destinations over its workspaces: delete one before adding another`
      : `The emulator keeps at most ${most} observability destinations over all its accounts: delete one (or reset an account) before adding another`,
    { metadata: { limit: most } },
  )
