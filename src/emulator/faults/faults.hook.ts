// Applies fault rules to gateway and router requests, after authentication and body parsing (so a
// rule can match a key, an account or a model) and before validation and the handler (so a faulted
// request changes no state). `X-Emulator-Fault: <status>` forces one on a single request.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { ApiError } from '../core/errors.ts'
import { sha256Hex } from '../core/rng.ts'
import type { EmulatorContext } from '../modules/module.ts'
import { bearerToken } from '../http/auth.ts'
import { addRouteHook } from '../http/route-hooks.ts'
import type { Journal } from '../journal/journal.ts'
import { faultDraw, faultError, matches, type FaultTarget } from './faults.ts'
import type { FaultAction, FaultMatch } from './faults.schemas.ts'
import { badFaultHeader } from './faults.errors.ts'

/** A fault that lets a streamed answer start, then breaks it. */
export interface StreamFault {
  status: number | null
  message: string | null
  afterChunks: number | null
  afterMs: number | null
  cut: boolean
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The fault rule that answered this request ('header' for X-Emulator-Fault), for the journal. */
    fault: string | null
    /** Set when a fault rule lets a streamed answer start and breaks it later (the handler applies it). */
    streamFault: StreamFault | null
  }
}

/**
 * Moves a body with fallback models to its next one: `model` becomes the first of `models` other than
 * it, and `models` keeps those after. False when there is none left to try.
 */
function nextModel(body: unknown): boolean {
  if (body === null || typeof body !== 'object') return false
  const fields = body as { model?: unknown; models?: unknown }
  if (!Array.isArray(fields.models)) return false
  const models = fields.models as unknown[]
  const current: unknown = typeof fields.model === 'string' ? fields.model : models[0]
  const rest = models.filter((m): m is string => typeof m === 'string' && m !== current)
  if (rest.length === 0) return false
  fields.model = rest[0]
  fields.models = rest.slice(1)
  return true
}

/** Operations whose answer can be streamed, and so can break part way. */
const STREAMING = new Set(['chat.create', 'completions.create', 'responses.create', 'messages.create'])

const FAULT_HEADER = 'x-emulator-fault'
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

function target(request: FastifyRequest, operation: string): FaultTarget {
  const token = bearerToken(request)
  const body = request.body as { model?: unknown; models?: unknown } | null | undefined
  // The model tried first: `model`, or the first of `models` when only the list is given.
  const listed: unknown = body && typeof body === 'object' && Array.isArray(body.models) ? (body.models as unknown[])[0] : null
  const first: unknown = body && typeof body === 'object' && typeof body.model === 'string' ? body.model : listed
  return {
    operation,
    method: request.method,
    path: request.url.split('?')[0]!,
    key_hash: request.auth?.key.hash ?? (token ? sha256Hex(token) : null),
    account_id: request.auth?.account.id ?? null,
    model: typeof first === 'string' ? first : null,
  }
}

export function installFaults(app: FastifyInstance, ctx: EmulatorContext, journal?: Journal): void {
  app.decorateRequest('fault', null)
  app.decorateRequest('streamFault', null)
  app.addHook('onRoute', (route) => {
    const operation = route.config?.operation
    // Installed in the emulated APIs' scope only: the admin API and the UI always answer.
    if (!operation) return
    addRouteHook(route, 'preValidation', (request, reply, done) => {
      // Nearly every request has neither the header nor an active rule to meet: it goes on at once,
      // without a promise (the rules' absence is known without a query, see faults.active).
      if (typeof request.headers[FAULT_HEADER] !== 'string' && ctx.services.faults.active().length === 0) return done()
      applyFaults(ctx, request, reply, operation, journal).then(() => done(), done)
    })
  })
}

/** Answers with the first matching fault rule's action, if any fires; the request goes on otherwise. */
async function applyFaults(
  ctx: EmulatorContext,
  request: FastifyRequest,
  reply: FastifyReply,
  operation: string,
  journal: Journal | undefined,
): Promise<FastifyReply | undefined> {
  const forced = request.headers[FAULT_HEADER]
  if (typeof forced === 'string') {
    const status = /^\d{3}$/.test(forced.trim()) ? Number(forced) : NaN
    if (!(status >= 400 && status <= 599)) throw badFaultHeader(FAULT_HEADER)
    request.fault = 'header'
    throw faultError(status, ctx.clock.now(), 'header')
  }

  const rules = ctx.services.faults.active()
  if (rules.length === 0) return
  const now = ctx.clock.now()
  // A request with fallback models (`models`) tries each in turn, as the real router does when a
  // provider fails: a fault that answers the first model's attempt moves the request to the next, and
  // only the last model's fault is the answer. The engine then serves, and names, the model left.
  for (;;) {
    const outcome = await firstFault(ctx, request, reply, operation, journal, rules, now)
    if (!(outcome instanceof ApiError)) return outcome
    if (!nextModel(request.body)) throw outcome
  }
}

/**
 * The first rule that fires for the request as it stands: an error to answer with, a reply already
 * given (a dropped connection), or undefined (none fired, or only latency or a stream fault).
 */
async function firstFault(
  ctx: EmulatorContext,
  request: FastifyRequest,
  reply: FastifyReply,
  operation: string,
  journal: Journal | undefined,
  rules: ReturnType<EmulatorContext['services']['faults']['active']>,
  now: number,
): Promise<ApiError | FastifyReply | undefined> {
  const seen = target(request, operation)
  for (const rule of rules) {
    if (rule.expires_at !== null && rule.expires_at <= now) continue
    if (!matches(JSON.parse(rule.match) as FaultMatch, seen)) continue
    const fires = rule.probability >= 1 || faultDraw(ctx.config.seed, rule.id, rule.evaluations) < rule.probability
    ctx.services.faults.count(rule.id, fires)
    if (!fires) continue
    request.fault = rule.id
    const action = JSON.parse(rule.action) as FaultAction
    const latency = action.latency_range_ms
      ? action.latency_range_ms.min +
        Math.floor(faultDraw(ctx.config.seed, `${rule.id}:latency`, rule.evaluations) * (action.latency_range_ms.max - action.latency_range_ms.min + 1))
      : (action.latency_ms ?? 0)
    if (latency > 0) await sleep(latency)
    const streamed = STREAMING.has(operation) && (request.body as { stream?: unknown } | null)?.stream === true
    if (action.stream && streamed) {
      request.streamFault = {
        status: action.status ?? null,
        message: action.message ?? null,
        afterChunks: action.stream.after_chunks ?? null,
        afterMs: action.stream.after_ms ?? null,
        cut: action.stream.cut === true,
      }
      return
    }
    if (action.drop || (action.stream?.cut && action.status === undefined)) {
      // No answer at all: the client sees the connection reset, as on a network failure.
      reply.hijack()
      request.raw.socket?.destroy()
      journal?.record(request, reply, true)
      return reply
    }
    if (action.status !== undefined) return faultError(action.status, now, rule.id, action)
    // Latency alone: the request goes on to its handler, late.
    return
  }
  return undefined
}
