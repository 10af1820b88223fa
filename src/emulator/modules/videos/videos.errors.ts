// The words of the gateway's video API for what it refuses, in the main envelope: a model that makes
// no video, an unknown job (another account's is as unknown), content asked before there is any, and
// the emulator's own outcome header.
import { ApiError, fieldError } from '../../core/errors.ts'
import type { JobStatus } from './videos.schemas.ts'

export const notAVideoModel = (id: string, outputs: readonly string[]): ApiError =>
  new ApiError(400, `${id} is not a video generation model (it outputs ${outputs.join(', ')}); choose one of GET /api/v1/videos/models`, {
    metadata: { field: 'model', location: 'body' },
  })

/** A catalog model that makes video (a catalog of one's own) which fixtures/videos/models.json does not describe. */
export const undescribedVideoModel = (id: string): ApiError =>
  new ApiError(400, `${id} makes video, but the emulator's video models (fixtures/videos/models.json) do not describe it: add it there to use it`, {
    metadata: { field: 'model', location: 'body' },
  })

export const jobNotFound = (id: string): ApiError =>
  new ApiError(404, `Video generation job ${id} not found`, { metadata: { field: 'jobId', location: 'params' } })

export const contentNotReady = (id: string, status: JobStatus): ApiError =>
  new ApiError(400, `Video generation job ${id} is ${status}: its content is there once it is completed`, {
    metadata: { field: 'jobId', location: 'params', status },
  })

export const noSuchVideo = (id: string, index: number, count: number): ApiError =>
  new ApiError(400, `Query parameter \`index\` must be < ${count}: job ${id} made ${count} video${count === 1 ? '' : 's'} (got ${index})`, {
    metadata: { field: 'index', location: 'querystring', issue: `must be < ${count}` },
  })

export const badOutcomeHeader = (): ApiError =>
  new ApiError(400, 'Header `X-Emulator-Video-Outcome` must be success, failed or stuck', {
    metadata: { field: 'x-emulator-video-outcome', location: 'headers' },
  })

/** An inline frame or reference longer than any of at most `limitBytes` can be, refused as its characters arrive. */
export const inlineTooLarge = (field: string, limitBytes: number): ApiError => fieldError(field, `is over the ${limitBytes / 1024 / 1024} MB limit`)
