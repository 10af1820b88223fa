// The meter: the one way a billed call is charged. `meter` takes the rate limit, then in one transaction
// (on a database file, a savepoint of this turn's group commit: store/db.ts) the ledger's checks and
// bill (the model allowed, the budgets and limits, credits; the usage row and the debit) at the price of
// the endpoint that serves the call, the generation row (GET /api/v1/generation), and whatever else the
// call writes with them (a video task); once that holds it tells the journal where the answer came from.
// A refusal anywhere writes nothing. The pricers (meter-pricers.service.ts) say what a call costs; only
// this folder reaches the ledger's writes (.dependency-cruiser.cjs), so no surface bills, settles or
// refunds another way.
import type { FastifyRequest } from 'fastify'
import { noteSource, withStagedEffects, type AnswerSource } from '../../journal/journal.ts'
import { groupedTransaction } from '../../store/db.ts'
import type { AuthContext } from '../caller.ts'
import type { CatalogEndpoint } from '../catalog/catalog.schemas.ts'
import { p50 } from '../catalog/catalog-routing.service.ts'
import type { NewGeneration } from '../generations/generations.repo.ts'
import { admit as admitUnpriced, bill, refund as refundUsage, settle } from '../ledger/ledger.service.ts'
import type { AdmissionRequest, Billed, LedgerEndpoint } from '../ledger/ledger.service.ts'
import type { EmulatorContext } from '../module.ts'

export type { Billed, LedgerEndpoint } from '../ledger/ledger.service.ts'

/** A call that has passed the rate limit (`admit`): what it may be billed as later, without taking it again. */
export interface Admitted {
  readonly caller: AuthContext
}

/** The generation a call records, but for what the meter fills in (its usage row, account and time). */
export type GenerationOf = Omit<NewGeneration, 'usageId' | 'accountId' | 'now'>

export interface MeterCall<E extends LedgerEndpoint, T> {
  /** Operation id of the route, recorded on the usage row. */
  operation: string
  /** The model's id (recorded on the usage row) and canonical slug: the names guardrails allow it by. */
  model: AdmissionRequest<E>['model']
  /** The endpoints that may serve the model, in catalog order. */
  endpoints: readonly E[]
  region?: AdmissionRequest<E>['region']
  /** Picks the serving endpoint among those the caller may use; may throw its own 404. Default: the healthiest. */
  route?: (allowed: readonly E[]) => E
  /** The tokens the usage row records. */
  tokens: { prompt: number; completion?: number; reasoning?: number }
  /** What the call costs on the serving endpoint, in nano-USD: a pricer's (meter-pricers.service.ts). */
  price: (endpoint: E) => number
  /** Paid through the caller's own provider key: recorded, but not debited from credits. Default: as its workspace's credentials say. */
  byok?: boolean
  /**
   * Inside the transaction, before anything is billed: false abandons the call (nothing is billed, and
   * the meter answers null), as when another request used up the recording that was to answer it.
   */
  proceed?: () => boolean
  /** The generation row, from the serving endpoint; null for a call that records none (embeddings, a router task). */
  generation: ((endpoint: E) => GenerationOf) | null
  /** Inside the transaction, once billed and recorded: the rest of what the call writes, and what the meter answers. */
  after?: (metered: Metered<E>) => T
  /** Where the answer came from, told to the journal of `request` once the transaction holds. */
  source?: { request: FastifyRequest; answer: AnswerSource }
}

export interface Metered<E extends LedgerEndpoint> extends Billed<E> {
  /** The generation's id (also the answer's X-Generation-Id), or null where none was recorded. */
  generationId: string | null
  /** The virtual time the call was billed at. */
  now: number
}

/** The rate limits (per key and account): the first refusal of a billed call, before any of its work. */
export function admit(ctx: EmulatorContext, caller: AuthContext): Admitted {
  ctx.services.ratelimit.admit(caller.key.hash, caller.account.id, ctx.clock.now())
  return { caller }
}

/**
 * Whether the ledger would take a call whose cost is known only once it is done (an answer relayed from
 * the upstream gateway): the ledger's checks in its order, and credits above zero. Writes nothing.
 */
export function checkUnpriced<E extends LedgerEndpoint>(ctx: EmulatorContext, admitted: Admitted, call: Omit<AdmissionRequest<E>, 'caller'>): void {
  admitUnpriced(ctx, { ...call, caller: admitted.caller })
}

/** Admits, prices, bills and records a call, in that order (see the file's head); null where `proceed` abandoned it. */
export function meter<E extends LedgerEndpoint, T = Metered<E>>(
  ctx: EmulatorContext,
  call: MeterCall<E, T> & { caller: AuthContext; proceed: () => boolean },
): T | null
export function meter<E extends LedgerEndpoint, T = Metered<E>>(ctx: EmulatorContext, call: MeterCall<E, T> & { caller: AuthContext; proceed?: undefined }): T
export function meter<E extends LedgerEndpoint, T = Metered<E>>(ctx: EmulatorContext, call: MeterCall<E, T> & { caller: AuthContext }): T | null {
  return chargeAdmitted(ctx, admit(ctx, call.caller), call)
}

/**
 * `meter` for a call admitted already (`admit`), whose work came between (a text answer written, an
 * upstream's relayed): the same transaction. Null where `proceed` abandoned it.
 */
export function chargeAdmitted<E extends LedgerEndpoint, T = Metered<E>>(ctx: EmulatorContext, admitted: Admitted, call: MeterCall<E, T>): T | null {
  const { caller } = admitted
  // What the transaction reports (usage rows, tasks) reaches the journal only if all of it holds.
  const result = withStagedEffects(() =>
    groupedTransaction(ctx.db, (): { value: T } | null => {
      if (call.proceed && !call.proceed()) return null
      const billed = bill(ctx, {
        caller,
        operation: call.operation,
        model: call.model,
        endpoints: call.endpoints,
        region: call.region ?? null,
        ...(call.route && { route: call.route }),
        ...(call.byok !== undefined && { byok: call.byok }),
        price: (endpoint) => ({
          prompt_tokens: call.tokens.prompt,
          ...(call.tokens.completion !== undefined && { completion_tokens: call.tokens.completion }),
          ...(call.tokens.reasoning !== undefined && { reasoning_tokens: call.tokens.reasoning }),
          cost_nanos: call.price(endpoint),
        }),
      })
      const now = ctx.clock.now()
      const generationId =
        call.generation === null
          ? null
          : ctx.services.generations.record({ ...call.generation(billed.endpoint), usageId: billed.usage_id, accountId: caller.account.id, now })
      const metered: Metered<E> = { ...billed, generationId, now }
      return { value: call.after ? call.after(metered) : (metered as T) }
    }),
  )
  if (result === null) return null
  if (call.source) noteSource(call.source.request, call.source.answer)
  return result.value
}

/**
 * How long a call took on `endpoint` as its generation says: its p50 latency (or `defaults.latencyS`)
 * to the first token, then `workTokens` at its p50 throughput (or `defaults.tokensPerSecond`).
 */
export function servedBy(
  endpoint: Pick<CatalogEndpoint, 'latency_last_30m' | 'throughput_last_30m'>,
  defaults: { latencyS: number; tokensPerSecond: number },
): { latencyMs: number; tokensPerSecond: number; timeFor: (workTokens: number) => number } {
  const latencyMs = Math.round((p50(endpoint.latency_last_30m) ?? defaults.latencyS) * 1000)
  const tokensPerSecond = p50(endpoint.throughput_last_30m) ?? defaults.tokensPerSecond
  return { latencyMs, tokensPerSecond, timeFor: (workTokens) => latencyMs + Math.round((workTokens / tokensPerSecond) * 1000) }
}

/**
 * Bills less than was charged (an answer cut short by a fault, priced by `brokenStreamNanos`): the usage
 * row keeps its prompt and takes what was delivered, and the generation says how it ended.
 */
export function settleBroken(
  ctx: EmulatorContext,
  at: { usageId: number; generationId: string },
  delivered: { completion_tokens: number; cost_nanos: number },
  finishReason: 'error' | null,
): void {
  settle(ctx, at.usageId, delivered)
  ctx.services.generations.finish(at.generationId, finishReason)
}

/** Gives back what a usage row cost (a failed video task): the row stays, costing nothing. Idempotent. */
export function refund(ctx: EmulatorContext, usageId: number): void {
  refundUsage(ctx, usageId)
}
