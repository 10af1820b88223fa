// What the generation routes refuse: generations the caller's account did not make, and generations
// whose content the emulator does not keep (or no longer keeps).
import { ApiError } from '../../core/errors.ts'
import { MAX_ACCOUNT_CONTENT_BYTES, MAX_ACCOUNT_CONTENTS } from './generations.schemas.ts'

export const generationNotFound = (id: string, field: string, location: string): ApiError =>
  new ApiError(404, `Generation ${id} not found`, { metadata: { field, location } })

/** GET /generation of an id the caller's account did not make (as the real service words it, without metadata). */
export const unknownGeneration = (id: string): ApiError => new ApiError(404, `Generation ${id} not found`)

/** A text generation without content was relayed upstream, or is older than what its account keeps (its content dropped). */
export const contentNotStored = (id: string, apiType: string): ApiError =>
  new ApiError(
    404,
    apiType === 'completions'
      ? `Generation ${id} has no stored content: the emulator keeps the content of the text generations it answers itself (not of those relayed upstream with --upstream), and of an account's newest ${MAX_ACCOUNT_CONTENTS} (${MAX_ACCOUNT_CONTENT_BYTES / 1024 / 1024} MiB at most): an older one's was dropped`
      : `Generation ${id} has no stored content: the emulator keeps the prompt and answer of text generations (chat, completions, responses, messages), and this one is ${apiType}`,
    { metadata: { field: 'id', location: 'querystring', api_type: apiType } },
  )
