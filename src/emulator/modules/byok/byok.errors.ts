// What the BYOK API refuses, in its words. A field's own rule (a bad list, a key that is not the
// account's) stays a fieldError where it is checked.
import { ApiError, fieldError } from '../../core/errors.ts'

export const credentialNotFound = (id: string): ApiError => new ApiError(404, `BYOK credential ${id} not found`)

/** `provider` names no provider the gateway knows (the document's slugs, or the running catalog's). */
export const unknownProvider = (field: string, location = 'body'): ApiError =>
  fieldError(field, 'must be a provider slug of the document or of the catalog, such as openai, anthropic or amazon-bedrock', location)

/** A 404 naming the field, where a `workspace_id` is not one of the caller's account. */
export const workspaceNotFound = (id: string, field: string, location: string): ApiError =>
  new ApiError(404, `Workspace ${id} not found`, { metadata: { field, location } })

/** An API key hash of an allow-list that is no key of the caller's account: the real document's 400. */
export const notAnAccountKey = (field: string): ApiError => fieldError(field, 'is not the hash of an API key of this account')

/** One more credential would pass what the account, or the emulator over every account, keeps: the management API's 409. */
export const tooManyCredentials = (scope: 'account' | 'emulator', most: number): ApiError =>
  new ApiError(
    409,
    scope === 'account'
      ? `An account can have at most ${most} BYOK credentials: delete one before adding another`
      : `The emulator keeps at most ${most} BYOK credentials over all its accounts: delete one (or reset an account) before adding another`,
    { metadata: { limit: most } },
  )
