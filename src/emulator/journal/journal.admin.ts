// The journal under /_emulator/api: list with filters and paging (newest first), one entry, clear,
// a HAR 1.2 export that browser dev tools import, and an SSE stream of new entries and state changes.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply } from 'fastify'
import { Type } from 'typebox'
import { sha256Hex } from '../core/rng.ts'
import type { EmulatorContext } from '../modules/module.ts'
import { JournalEntry, JournalListQuery } from './journal.schemas.ts'
import { EventStream, MAX_SUBSCRIBERS } from './event-stream.ts'
import { data, ErrorEnvelope, OpenObject, page, Shape } from '../http/schemas.ts'
import { journalEntryNotFound, journalFileNotFound, tooManySubscribers } from './journal.errors.ts'

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  206: 'Partial Content',
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
}

const nameValues = (headers: Record<string, string>) => Object.entries(headers).map(([name, value]) => ({ name, value }))

/** One journal entry as a HAR 1.2 entry; what HAR has no field for goes under `_emulator`. */
function harEntry(entry: JournalEntry, origin: string) {
  const url = `${origin}${entry.path}${entry.query ? `?${entry.query}` : ''}`
  const requestType = entry.request.headers['content-type'] ?? 'application/json'
  const responseType = entry.response.headers['content-type'] ?? 'application/json'
  return {
    startedDateTime: entry.wall_time,
    time: entry.duration_ms,
    request: {
      method: entry.method,
      url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: nameValues(entry.request.headers),
      queryString: [...new URLSearchParams(entry.query)].map(([name, value]) => ({ name, value })),
      ...(entry.request.body !== null && { postData: { mimeType: requestType, text: entry.request.body } }),
      headersSize: -1,
      bodySize: entry.request.body_bytes,
    },
    response: {
      status: entry.status,
      statusText: STATUS_TEXT[entry.status] ?? '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: nameValues(entry.response.headers),
      content: { size: entry.response.body_bytes, mimeType: responseType, ...(entry.response.body !== null && { text: entry.response.body }) },
      redirectURL: '',
      headersSize: -1,
      bodySize: entry.response.body_bytes,
    },
    cache: {},
    timings: { send: 0, wait: entry.duration_ms, receive: 0 },
    _emulator: {
      id: entry.id,
      time: entry.time,
      operation: entry.operation,
      fault: entry.fault,
      account_id: entry.account_id,
      key_hash: entry.key_hash,
      effects: entry.effects,
    },
  }
}

/** The hash the journal files a key's requests under: the key's, or the hash itself when given one. */
const keyHashOf = (key: string): string => (/^[0-9a-f]{64}$/i.test(key) ? key.toLowerCase() : sha256Hex(key))

export const journalAdminRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  const journal = ctx.services.journal
  const filterOf = (q: {
    status?: number
    operation?: string
    path?: string
    key?: string
    account?: string
    fault?: string
    since?: string
    until?: string
  }) => ({
    status: q.status,
    operation: q.operation,
    path: q.path,
    key_hash: q.key === undefined ? undefined : keyHashOf(q.key),
    account_id: q.account,
    fault: q.fault,
    since: q.since === undefined ? undefined : Date.parse(q.since),
    until: q.until === undefined ? undefined : Date.parse(q.until),
  })

  app.get(
    '/journal',
    { config: { operation: 'admin.journal.list' }, schema: { response: page(JournalEntry), querystring: JournalListQuery } },
    async (request) => {
      const { entries, total } = journal.list(filterOf(request.query), request.query.limit ?? 100, request.query.offset ?? 0)
      return { data: entries, total_count: total }
    },
  )

  app.get(
    '/journal/har',
    {
      config: { operation: 'admin.journal.har' },
      schema: {
        response: { 200: OpenObject('The journal as a HAR 1.2 log ({"log":{...}}), secrets redacted'), '4xx': ErrorEnvelope },
        querystring: JournalListQuery,
      },
    },
    async (request, reply) => {
      const { entries } = journal.list(filterOf(request.query), request.query.limit ?? 10_000, request.query.offset ?? 0)
      const origin = `${request.protocol}://${request.host}`
      reply.header('content-disposition', 'attachment; filename="emulator.har"')
      // HAR lists entries oldest first.
      return {
        log: {
          version: '1.2',
          creator: { name: 'model-gateway-emulator', version: ctx.version },
          pages: [],
          entries: entries.reverse().map((e) => harEntry(e, origin)),
        },
      }
    },
  )

  app.get(
    '/journal/:id',
    {
      config: { operation: 'admin.journal.get' },
      schema: { response: data(JournalEntry), params: Type.Object({ id: Type.Integer({ minimum: 1, maximum: 1e12 }) }) },
    },
    async (request) => {
      const entry = journal.get(request.params.id)
      if (!entry) throw journalEntryNotFound(request.params.id)
      return { data: entry }
    },
  )

  // A file an answer carried, as the answer sent it, for the inspector's image and audio players. Only
  // the media types the journal keeps (never HTML or SVG), and not to be sniffed as anything else.
  app.get(
    '/journal/:id/media/:index',
    {
      config: { operation: 'admin.journal.media' },
      schema: {
        params: Type.Object({ id: Type.Integer({ minimum: 1, maximum: 1e12 }), index: Type.Integer({ minimum: 0, maximum: 1000 }) }),
        response: {
          200: {
            description: 'The file (an image, audio or video), with its media type',
            content: { 'application/octet-stream': { schema: { type: 'string' } } },
          },
          404: ErrorEnvelope,
        },
      },
    },
    async (request, reply) => {
      const { id, index } = request.params
      const media = journal.media(id, index)
      if (!media) {
        throw journalFileNotFound(id, index, journal.get(id) !== undefined)
      }
      // The schema documents the bytes; they are sent as they are.
      return (reply as FastifyReply)
        .type(media.contentType)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'private, max-age=3600')
        .send(media.bytes)
    },
  )

  app.delete('/journal', { config: { operation: 'admin.journal.clear' }, schema: { response: data(Shape({ cleared: Type.Boolean() })) } }, async () => {
    journal.clear()
    return { data: { cleared: true } }
  })

  // Server-sent events: `journal` for each new entry, one event per state change (video.task,
  // callback.attempt, charge.*, clock.moved, state.reset, account.created, admin.changed), each with
  // an id; Last-Event-ID replays what a client missed (event-stream.ts). At most MAX_SUBSCRIBERS
  // streams at once: one more is a 503 in the admin envelope (why not close the oldest: event-stream.ts).
  const stream = new EventStream(ctx, journal)
  // Event streams never end by themselves: a close ends them first, so it need not wait them out.
  app.addHook('preClose', (done) => {
    stream.close()
    done()
  })
  app.get(
    '/events',
    {
      config: { operation: 'admin.events' },
      schema: {
        response: {
          200: {
            description: 'Server-sent events: each with an id, its name and a JSON data line (see docs/admin-api.md)',
            content: { 'text/event-stream': { schema: { type: 'string' } } },
          },
          503: ErrorEnvelope,
        },
      },
    },
    async (request, reply) => {
      // Checked before the response is taken over, so the refusal is an ordinary admin error.
      if (stream.full) {
        throw tooManySubscribers(MAX_SUBSCRIBERS)
      }
      reply.hijack()
      const lastEventId = request.headers['last-event-id']
      stream.attach(reply.raw, Array.isArray(lastEventId) ? lastEventId[0] : lastEventId)
    },
  )
}
