// The words for a Responses request that needs stored state: the gateway's Responses API is stateless
// (the real document: "no responses are stored, so a previous response cannot be referenced. Requests
// with a non-null value are rejected with a 400 error"), and so is the emulator's.
import { ApiError } from '../../core/errors.ts'

const WHY: Record<'previous_response_id' | 'store' | 'prompt', string> = {
  previous_response_id: 'is not supported: the Responses API is stateless, no response is stored to refer to. Send the whole conversation in `input` instead',
  store: 'must be false: the Responses API is stateless and stores no response',
  prompt: 'is not supported: no prompt templates are stored here. Send the text in `instructions` and `input` instead',
}

export const statelessOnly = (field: keyof typeof WHY): ApiError =>
  new ApiError(400, `Field \`${field}\` ${WHY[field]}`, { metadata: { field, location: 'body', issue: WHY[field] } })
