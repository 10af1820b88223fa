// What the guardrails area refuses beyond a field's own rule (those stay fieldErrors where they are
// checked): a guardrail that is not the caller's account's.
import { ApiError } from '../../core/errors.ts'

export const guardrailNotFound = (id: string): ApiError => new ApiError(404, `Guardrail ${id} not found`)
