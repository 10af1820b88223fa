// What the faults area refuses: a rule it is asked about that does not exist, a rule's action that
// does nothing or cannot be done, a preset it does not have, and a forced fault's header that is no
// error status. (What a rule answers is the rule's own: faults.ts' faultError.)
import { ApiError } from '../core/errors.ts'

export const faultRuleNotFound = (id: string): ApiError => new ApiError(404, `Fault rule ${id} not found`)
export const unknownFaultPreset = (name: string, presets: readonly string[]): ApiError =>
  new ApiError(404, `No preset ${name}; the presets are ${presets.join(', ')}`)

export const streamFaultNeedsAnEnd = (): ApiError =>
  new ApiError(400, 'Field `action.stream` needs a `status` (an error chunk) or `cut: true` (the connection closes)', {
    metadata: { field: 'action.stream', location: 'body' },
  })
export const streamFaultNeedsAWhen = (): ApiError =>
  new ApiError(400, 'Field `action.stream` needs `after_chunks` or `after_ms`: when the answer goes wrong', {
    metadata: { field: 'action.stream', location: 'body' },
  })
export const faultDoesNothing = (): ApiError =>
  new ApiError(400, 'Field `action` must have a status, a latency or drop', { metadata: { field: 'action', location: 'body' } })
export const latencyRangeReversed = (): ApiError =>
  new ApiError(400, 'Field `action.latency_range_ms.min` must be <= max', { metadata: { field: 'action.latency_range_ms.min', location: 'body' } })

/** The X-Emulator-Fault header (`header`) names no error status. */
export const badFaultHeader = (header: string): ApiError =>
  new ApiError(400, 'Header X-Emulator-Fault must be an HTTP status from 400 to 599', { metadata: { field: header, location: 'headers' } })
