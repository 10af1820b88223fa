// For unit tests of the checks that throw an ApiError: what `run` refused with, as a plain object the
// test can compare (status, message, and the metadata, router reason or detail it carries).
import { ApiError } from '../../src/emulator/core/errors.ts'

export interface Refusal {
  status: number
  message: string
  metadata?: Record<string, unknown>
  reason?: string
  detail?: string
}

/** The ApiError `run` throws; fails the test when it throws nothing, or something else. */
export function refusal(run: () => unknown): Refusal {
  try {
    run()
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    return {
      status: error.status,
      message: error.message,
      ...(error.metadata !== undefined && { metadata: error.metadata }),
      ...(error.reason !== undefined && { reason: error.reason }),
      ...(error.detail !== undefined && { detail: error.detail }),
    }
  }
  throw new Error('expected a refusal (an ApiError), but nothing was thrown')
}

/** The ApiError an async check rejects with, as `refusal` gives it; fails the test when it resolves. */
export async function refusalOf(running: Promise<unknown>): Promise<Refusal> {
  let rejected: unknown
  try {
    await running
  } catch (error) {
    rejected = error
  }
  if (rejected === undefined) throw new Error('expected a refusal (an ApiError), but the check passed')
  return refusal(() => {
    throw rejected
  })
}

/** A 400 about one body field, as fieldError (core/errors.ts) makes it. */
export const fieldRefusal = (field: string, issue: string): Refusal => ({
  status: 400,
  message: `Field \`${field}\` ${issue}`,
  metadata: { field, location: 'body', issue },
})
