// What the generation content and feedback routes refuse: generations the caller's account did not make,
// and generations whose content the emulator does not keep.
import { ApiError } from '../../core/errors.ts'

export const generationNotFound = (id: string, field: string, location: string): ApiError =>
  new ApiError(404, `Generation ${id} not found`, { metadata: { field, location } })

export const contentNotStored = (id: string, apiType: string): ApiError =>
  new ApiError(
    404,
    apiType === 'completions'
      ? `Generation ${id} has no stored content: it was relayed upstream (--upstream), and the emulator keeps the content of the text generations it answers itself`
      : `Generation ${id} has no stored content: the emulator keeps the prompt and answer of text generations (chat, completions, responses, messages), and this one is ${apiType}`,
    { metadata: { field: 'id', location: 'querystring', api_type: apiType } },
  )
