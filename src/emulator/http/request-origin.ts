// Where a gateway request came from, as GET /api/v1/generation reports it for every surface: the
// referring page, the app's title, the user agent, and the X-Emulator-Fixture header a chat fixture
// may match. Each header is read once, bounded, and never required.
import type { FastifyRequest } from 'fastify'

export interface RequestOrigin {
  referer: string | null
  title: string | null
  userAgent: string | null
  /** The X-Emulator-Fixture header, which a chat fixture may match (text surfaces only). */
  fixture: string | null
}

/** The most characters of a header kept. */
const HEADER_CHARS = 512

const header = (request: FastifyRequest, name: string): string | null => {
  const value = request.headers[name]
  return typeof value === 'string' && value !== '' ? value.slice(0, HEADER_CHARS) : null
}

export const requestOrigin = (request: FastifyRequest): RequestOrigin => ({
  referer: header(request, 'http-referer') ?? header(request, 'referer'),
  title: header(request, 'x-title') ?? header(request, 'x-openrouter-title'),
  userAgent: header(request, 'user-agent'),
  fixture: header(request, 'x-emulator-fixture'),
})
