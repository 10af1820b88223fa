// Record and replay on the gateway's routes that answer in other than text: a preHandler on each route
// that declares itself `recordable` in its config, after authentication, faults and validation.
// A recording (embeddings, images, speech, transcriptions) answers here, billed at its recorded cost.
// A request no recording answers gets what --on-miss says: a generated answer (the handler runs), the
// upstream's, or the no-match error, with nothing billed. A text surface's routes (`config.text`) get no
// hook: the text engine asks its registered answer sources, the recordings and the upstream among them
// (recordings-source.service.ts), in its handler.
//
// Installed from build-app.ts on the gateway scope, before the modules register their routes: a
// module's own plugin is a scope of its own, whose onRoute hook would see only its own routes.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { caller } from '../../http/auth.ts'
import { isEuRequest } from '../../http/listeners.ts'
import { requestOrigin } from '../../http/request-origin.ts'
import { addRouteHook } from '../../http/route-hooks.ts'
import { keepMedia, MEDIA_TYPES, noteSource, type MediaType } from '../../journal/journal.ts'
import type { ApiType } from '../generations/generations.repo.ts'
import { routeByPreferences } from '../catalog/catalog-routing.service.ts'
import { recordedNanos } from '../meter/meter-pricers.service.ts'
import { meter, servedBy } from '../meter/meter.service.ts'
import type { EmulatorContext } from '../module.ts'
import { noRecording } from './recordings.errors.ts'
import { isRawOperation, type RawOperation } from './recordings-normal.service.ts'
import { relayFromUpstream } from './recordings-proxy.service.ts'
import type { RecordedRawAnswer } from './recordings-replay.service.ts'

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Its answers are recorded (--record) and replayed (--replay), and a miss goes where --on-miss says;
     * the value is the `api_type` of the generation a replayed or proxied answer records.
     */
    recordable?: ApiType
  }
}

/** Whether anything of record and replay is configured: without, no hook is attached at all. */
export const replayConfigured = (ctx: EmulatorContext): boolean =>
  ctx.config.replay !== null || ctx.config.upstream !== null || ctx.services.recordings.onMiss !== 'generate'

export function installRecordingsHook(app: FastifyInstance, ctx: EmulatorContext): void {
  if (!replayConfigured(ctx)) return
  app.addHook('onRoute', (route) => {
    const config = route.config
    const operation = config?.operation
    const apiType = config?.recordable
    if (!config || !operation || !apiType) return
    if (config.text !== undefined) {
      if (!ctx.services.text.ports.surface(config.text)) throw new Error(`route ${operation} names text surface ${config.text}, which is not registered`)
      return
    }
    if (!isRawOperation(operation)) throw new Error(`${operation} is recordable, but a recording file cannot keep its answer (recordings-format.service.ts)`)
    const recorded: Recorded = { operation, apiType }
    addRouteHook(route, 'preHandler', async (request, reply) => replayOrMiss(ctx, request, reply, recorded))
  })
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value)

/** What a recordable route is: its operation and the `api_type` it records. */
interface Recorded {
  operation: RawOperation
  apiType: ApiType
}

async function replayOrMiss(ctx: EmulatorContext, request: FastifyRequest, reply: FastifyReply, recorded: Recorded): Promise<FastifyReply | undefined> {
  const recordings = ctx.services.recordings
  const header = requestOrigin(request).fixture
  const { operation } = recorded
  const body = request.body
  // A form (a multipart transcription) is read by its handler only: it is never replayed.
  const found = isObject(body) ? recordings.findRaw(operation, body, header) : null
  if (found) {
    const answered = replayRaw(ctx, request, reply, operation, recorded.apiType, found)
    if (answered) return answered
    // Used up meanwhile by another request: whatever answers next.
    return replayOrMiss(ctx, request, reply, recorded)
  }
  return miss(ctx, request, reply, recorded, isObject(body) && typeof body.model === 'string' ? body.model : null)
}

function miss(ctx: EmulatorContext, request: FastifyRequest, reply: FastifyReply, recorded: Recorded, model: string | null): Promise<FastifyReply> | undefined {
  switch (ctx.services.recordings.onMiss) {
    case 'error':
      throw noRecording(model, null)
    case 'upstream':
      return relayFromUpstream(ctx, request, reply, recorded.operation, recorded.apiType)
    case 'generate':
      noteSource(request, { kind: 'generated' })
      return undefined
  }
}

/** Tokens a recorded JSON answer reports (`usage.prompt_tokens`, or `input_tokens`), else 0. */
function promptTokensOf(json: unknown): number {
  const usage = isObject(json) && isObject(json.usage) ? json.usage : {}
  const tokens = usage.prompt_tokens ?? usage.input_tokens
  return typeof tokens === 'number' && Number.isInteger(tokens) && tokens >= 0 ? tokens : 0
}

/**
 * Answers with a recording of another operation: its JSON or bytes, content type and status, billed
 * at the recorded cost through the meter (402 first, guardrails, key limits), with a generation row
 * (its id in X-Generation-Id; the body stays as recorded). The recording's use is counted in the
 * billing transaction. Null when another request used it up meanwhile.
 */
function replayRaw(
  ctx: EmulatorContext,
  request: FastifyRequest,
  reply: FastifyReply,
  operation: RawOperation,
  apiType: ApiType,
  found: RecordedRawAnswer,
): FastifyReply | null {
  const who = caller(request)
  const { raw, model } = found
  const origin = requestOrigin(request)
  const provider = isObject(request.body) ? request.body.provider : undefined
  const generationId = meter(ctx, {
    caller: who,
    operation,
    model: { id: model.id, canonical_slug: model.canonical_slug },
    endpoints: found.endpoints,
    region: isEuRequest(request.raw) ? 'eu' : null,
    route: routeByPreferences(model, isObject(provider) ? provider : undefined),
    proceed: () => ctx.services.recordings.usable(found.file),
    tokens: { prompt: promptTokensOf(raw.json) },
    price: () => recordedNanos(raw.cost),
    generation: (endpoint) => {
      const latencyMs = Math.round(found.latencyMs ?? servedBy(endpoint, { latencyS: 0.5, tokensPerSecond: 50 }).latencyMs)
      return {
        apiType,
        idKind: apiType,
        idLabel: apiType,
        origin,
        user: isObject(request.body) && typeof request.body.user === 'string' ? request.body.user : null,
        streamed: false,
        finishReason: null,
        latencyMs,
        generationTimeMs: latencyMs,
      }
    },
    after: ({ generationId }) => {
      ctx.services.recordings.use(found.file)
      return generationId!
    },
    source: { request, answer: { kind: 'replayed', file: found.file } },
  })
  if (generationId === null) return null
  const bytes = raw.base64 !== undefined ? Buffer.from(raw.base64, 'base64') : Buffer.from(JSON.stringify(raw.json))
  const mediaType = raw.content_type.split(';')[0]!.trim().toLowerCase()
  if (raw.base64 !== undefined && (MEDIA_TYPES as readonly string[]).includes(mediaType)) keepMedia(request, { contentType: mediaType as MediaType, bytes })
  return reply.code(raw.status).type(raw.content_type).header('x-generation-id', generationId).header('content-length', bytes.length).send(bytes)
}
