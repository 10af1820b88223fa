// The words for a media job refused or lost: an account's queue full (a 429 before anything is billed),
// a worker that died under a job, an emulator closing; and errors as they cross between threads (a
// class does not survive the copy, so an ApiError goes as its parts and is made again).
import { ApiError } from '../core/errors.ts'

/** Seconds a client is asked to wait before it retries a refused media job: one job's time, about. */
const RETRY_AFTER_SECONDS = 1

/** 429: the caller's account (or every account together) has as many media jobs waiting as it may. */
export const mediaQueueFull = (limit: number, scope: 'account' | 'emulator'): ApiError =>
  new ApiError(
    429,
    scope === 'account'
      ? `Rate limit exceeded: ${limit} images, speeches or transcriptions of this account are already waiting to be made, the most one account may queue; retry once some are done`
      : `Rate limit exceeded: ${limit} images, speeches or transcriptions are already waiting to be made, the most the emulator queues; retry once some are done`,
    {
      headers: { 'retry-after': String(RETRY_AFTER_SECONDS) },
      metadata: { limit_source: scope === 'account' ? 'media_queue_account' : 'media_queue', limit },
    },
  )

/** 500: the worker thread making the answer stopped (out of memory, killed); the next job gets a new one. */
export const mediaWorkerFailed = (why: string): ApiError =>
  new ApiError(500, `The emulator's media worker stopped while making this answer (${why}), so none was made: retry the request`, {
    metadata: { reason: 'media_worker_failed' },
  })

/** 503: the emulator closed before the job's turn came. */
export const mediaClosing = (): ApiError =>
  new ApiError(503, 'The emulator is closing: this image, speech or transcription was not made', {
    headers: { 'retry-after': String(RETRY_AFTER_SECONDS) },
    metadata: { reason: 'closing' },
  })

/** An error as it crosses to the other thread. */
export type WireError =
  | { api: { status: number; message: string; metadata?: Record<string, unknown>; headers: Record<string, string>; reason?: string; detail?: string } }
  | { message: string }

export function toWire(error: unknown): WireError {
  if (error instanceof ApiError) {
    const { status, message, metadata, headers, reason, detail } = error
    return {
      api: {
        status,
        message,
        headers,
        ...(metadata !== undefined && { metadata }),
        ...(reason !== undefined && { reason }),
        ...(detail !== undefined && { detail }),
      },
    }
  }
  return { message: error instanceof Error ? error.message : String(error) }
}

/** The error a job failed with: a refusal of the input as it was made, anything else as the worker's failure. */
export function fromWire(wire: WireError): ApiError {
  if ('api' in wire) {
    const { status, message, ...options } = wire.api
    return new ApiError(status, message, options)
  }
  return mediaWorkerFailed(`it failed: ${wire.message}`)
}
