// What the Messages API refuses in its own words (a field's rule stays a fieldError where it is checked).
import { ApiError } from '../../core/errors.ts'

/**
 * A key sent the Anthropic way (`x-api-key`) and not as the gateway takes it: the real document's only
 * scheme for /messages is Bearer. The answer says how to send it (never the key itself).
 */
export const apiKeyHeader = (): ApiError =>
  new ApiError(
    401,
    'The x-api-key header is not accepted here: send your API key as a Bearer token (Authorization: Bearer <key>). ' +
      'With @anthropic-ai/sdk pass `authToken: key, apiKey: null`; with Claude Code set ANTHROPIC_AUTH_TOKEN to the key and ANTHROPIC_API_KEY="".',
    { metadata: { field: 'x-api-key', location: 'headers' } },
  )
