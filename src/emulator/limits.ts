// Every bound of the emulator, grouped as docs/limits.md lists them: the kernel's (HTTP, media work,
// outgoing calls, live events), each area's (its module's `limits`), and each route's body limit, read
// from the app itself. `npm run docs:limits` writes the page from here; a test fails when it is stale.
import type { FastifyInstance } from 'fastify'
import type { Limit, LimitGroup } from './core/limits.ts'
import { BODIES_IN_ALL, BODIES_PER_ACCOUNT } from './http/body-gate.ts'
import { routeBodyLimits } from './http/body-limits.ts'
import { DEFAULT_BODY_LIMIT } from './http/build-app.ts'
import { MAX_PARAM_LENGTH } from './http/canonical-path.ts'
import { MAX_JSON_DEPTH } from './http/json-body.ts'
import { MAX_RESOLVING, RESOLVE_TIMEOUT_MS } from './http/own-addresses.ts'
import { MAX_QUEUED_EVENTS, MAX_SUBSCRIBERS } from './journal/event-stream.ts'
import { MEDIA_QUEUE_PER_ACCOUNT, MEDIA_QUEUE_TOTAL, MEDIA_WORKER_HEAP_MB } from './media/media-queue.ts'
import { MODULES } from './modules/index.ts'

const HTTP: readonly Limit[] = [
  {
    what: 'A request body, unless its route says otherwise (below)',
    value: DEFAULT_BODY_LIMIT,
    unit: 'bytes',
    beyond: '413 naming the limit; at once, before a byte is read, when its declared length says so',
  },
  { what: 'Nesting of a JSON body (objects and arrays)', value: MAX_JSON_DEPTH, unit: 'levels', beyond: '400 naming `body`, before anything reads it' },
  { what: 'A path parameter', value: MAX_PARAM_LENGTH, unit: 'characters', beyond: "414 naming it, in its API's envelope" },
  {
    what: "One account's large bodies (uploads, transcriptions, images, videos, video tasks, server files) read at once",
    value: BODIES_PER_ACCOUNT,
    unit: 'requests',
    beyond: 'the next waits, unread, until one is answered (408 after --request-timeout)',
  },
  { what: "Everyone's large bodies read at once", value: BODIES_IN_ALL, unit: 'requests', beyond: 'the next waits, unread, as above' },
]

const MEDIA: readonly Limit[] = [
  {
    what: "One account's media jobs (images, speech, audio) waiting or about to be billed",
    value: MEDIA_QUEUE_PER_ACCOUNT,
    unit: 'requests',
    beyond: '429 with Retry-After: 1, before billing',
  },
  { what: "Every account's media jobs waiting", value: MEDIA_QUEUE_TOTAL, unit: 'requests', beyond: '429 with Retry-After: 1, before billing' },
  {
    what: "A media worker thread's heap",
    value: MEDIA_WORKER_HEAP_MB * 1024 * 1024,
    unit: 'bytes',
    beyond: '500 for that job alone; the next job gets a new thread',
  },
]

const OUTGOING: readonly Limit[] = [
  {
    what: "Resolving the host of a callback, destination or upstream URL on one of the emulator's ports",
    value: RESOLVE_TIMEOUT_MS,
    unit: 'ms',
    beyond: 'a 400 naming the field when the URL is given; a failed attempt (retried) when it is delivered to',
  },
  { what: 'Host names resolved at once', value: MAX_RESOLVING, unit: 'requests', beyond: 'the next waits its turn, within its time' },
]

const LIVE_EVENTS: readonly Limit[] = [
  { what: "Subscribers to the admin API's event stream at once", value: MAX_SUBSCRIBERS, unit: 'items', beyond: '503 with Retry-After' },
  {
    what: 'Events a subscriber may fall behind while its socket pushes back',
    value: MAX_QUEUED_EVENTS,
    unit: 'items',
    beyond: 'its connection is dropped (its reconnect replays what is still kept, or gets `reset`)',
  },
]

/** Each route whose body limit is not the default, as `POST /api/v1/videos`. */
function routeGroup(app: FastifyInstance): LimitGroup {
  const seen = new Set<string>()
  const limits: Limit[] = []
  for (const { method, url, limit } of routeBodyLimits(app)) {
    const what = `${method} ${url}`
    if (limit === DEFAULT_BODY_LIMIT || seen.has(what)) continue
    seen.add(what)
    limits.push({ what, value: limit, unit: 'bytes', beyond: '413 naming the limit' })
  }
  return { title: 'Request bodies by route', limits: limits.sort((a, b) => a.what.localeCompare(b.what)) }
}

/** Every group of the page, the kernel's first, then each area's in the order of modules/index.ts, then the routes'. */
export function limitGroups(app: FastifyInstance): LimitGroup[] {
  return [
    { title: 'HTTP', limits: HTTP },
    { title: 'Media work (worker threads)', limits: MEDIA },
    { title: 'Outgoing calls (callbacks, destinations, the upstream)', limits: OUTGOING },
    { title: 'Live events', limits: LIVE_EVENTS },
    ...MODULES.filter((module) => module.limits && module.limits.length > 0).map((module) => ({
      title: `The \`${module.name}\` area`,
      limits: module.limits!,
    })),
    routeGroup(app),
  ]
}
