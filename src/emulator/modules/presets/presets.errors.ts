// The words for a preset the gateway cannot find or use: on the presets API (the slug of the path)
// and on an inference request that names one (the body field that named it: `model` or `preset`).
import { ApiError } from '../../core/errors.ts'

export const presetNotFound = (slug: string): ApiError => new ApiError(404, `Preset ${slug} not found`)

export const presetVersionNotFound = (slug: string, version: number): ApiError => new ApiError(404, `Version ${version} of preset ${slug} not found`)

/** A request names a preset the caller's account does not have (or has, but not active). */
export const requestedPresetUnavailable = (slug: string, field: 'model' | 'preset', status: string | null): ApiError =>
  new ApiError(404, status === null ? `Preset ${slug} not found` : `Preset ${slug} is ${status}: only an active preset can be used`, {
    metadata: { field, location: 'body' },
  })

export const tooManyPresets = (max: number): ApiError =>
  new ApiError(400, `An account keeps at most ${max} presets: add versions to an existing one instead`, {
    metadata: { field: 'slug', location: 'params', limit: max },
  })

export const tooManyVersions = (slug: string, max: number): ApiError =>
  new ApiError(400, `Preset ${slug} has ${max} versions, the most one preset keeps: create another preset`, {
    metadata: { field: 'slug', location: 'params', limit: max },
  })

/** Where a bound on what presets hold together is kept: in one account, or in the emulator (every account). */
export type PresetsScope = 'account' | 'emulator'
const holder = (scope: PresetsScope): string => (scope === 'account' ? 'An account' : 'The emulator (all accounts together)')
/** There is no API to delete a preset: an account's reset (or deletion) over the admin API makes room. */
const room = (scope: PresetsScope): string =>
  scope === 'account' ? 'reset the account (POST /_emulator/api/accounts/{id}/reset) to make room' : 'reset or delete an account to make room'

export const tooManyPresetsInAll = (max: number): ApiError =>
  new ApiError(400, `${holder('emulator')} keeps at most ${max} presets: add versions to an existing one instead, or ${room('emulator')}`, {
    metadata: { field: 'slug', location: 'params', limit: max },
  })

export const tooManyVersionsIn = (scope: PresetsScope, max: number): ApiError =>
  new ApiError(400, `${holder(scope)} keeps at most ${max} preset versions: ${room(scope)}`, {
    metadata: { field: 'slug', location: 'params', limit: max },
  })

/** The new version's system prompt and settings would take its presets past their bytes. */
export const presetBytesFull = (scope: PresetsScope, usedBytes: number, versionBytes: number, limitBytes: number): ApiError =>
  new ApiError(
    400,
    `${holder(scope)} keeps at most ${limitBytes / 1024 / 1024} MiB of preset system prompts and settings; they hold ${usedBytes} bytes, and this version's ${versionBytes} more would pass it: ${room(scope)}`,
    { metadata: { field: 'body', location: 'body', used_bytes: usedBytes, version_bytes: versionBytes, limit_bytes: limitBytes } },
  )
