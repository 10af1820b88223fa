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
