// The 429 of a full rate-limit window, with the headers a client backs off by (in the answer and,
// as the real gateway has them, in its metadata).
import { ApiError } from '../../core/errors.ts'

export const rateLimitExceeded = (limit: number, window: { name: string; label: string }, reset: number, retryAfterSeconds: number): ApiError => {
  const headers = {
    'x-ratelimit-limit': String(limit),
    'x-ratelimit-remaining': '0',
    'x-ratelimit-reset': String(reset),
    'retry-after': String(retryAfterSeconds),
  }
  return new ApiError(429, `Rate limit exceeded: ${limit} ${window.label}. It resets at ${new Date(reset).toISOString()}`, {
    headers,
    metadata: {
      limit_source: window.name,
      headers: { 'X-RateLimit-Limit': headers['x-ratelimit-limit'], 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': headers['x-ratelimit-reset'] },
    },
  })
}
