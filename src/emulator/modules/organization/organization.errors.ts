// What the organization's directory refuses: groups the directory does not hold, mappings that are not
// the caller's, and a group mapped twice to one workspace.
import { ApiError } from '../../core/errors.ts'

export const scimGroupNotFound = (id: string): ApiError =>
  new ApiError(404, `SCIM group ${id} not found`, { metadata: { field: 'scim_group_id', location: 'body' } })

export const mappingNotFound = (id: string): ApiError => new ApiError(404, `SCIM group mapping ${id} not found`)

export const mappingExists = (groupId: string, workspaceId: string, existing: string): ApiError =>
  new ApiError(409, `SCIM group ${groupId} is already mapped to workspace ${workspaceId} (mapping ${existing}): change its role with PATCH instead`, {
    metadata: { field: 'scim_group_id', location: 'body', mapping_id: existing },
  })

/** One more mapping would pass what the account, or the emulator over every account, keeps: the management API's 409. */
export const tooManyMappings = (scope: 'account' | 'emulator', most: number): ApiError =>
  new ApiError(
    409,
    scope === 'account'
      ? `An account can have at most ${most} SCIM group mappings: delete one before adding another`
      : `The emulator keeps at most ${most} SCIM group mappings over all its accounts: delete one (or reset an account) before adding another`,
    { metadata: { limit: most } },
  )
/** A 404 naming the field, where a `workspace_id` is not one of the caller's account. */
export const workspaceNotFound = (id: string, field: string, location: string): ApiError =>
  new ApiError(404, `Workspace ${id} not found`, { metadata: { field, location } })
