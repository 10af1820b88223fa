// Billing an audio request: the usage row (through the ledger) and the generation row (so GET
// /api/v1/generation answers for it), in one transaction, before any audio is made or read further.
import type { RequestOrigin } from '../../http/request-origin.ts'
import { immediateTransaction } from '../../store/db.ts'
import type { EmulatorContext } from '../module.ts'
import type { AuthContext } from '../caller.ts'
import { p50 } from '../catalog/routing.ts'
import type { CatalogEndpoint, CatalogModel, Region } from '../catalog/catalog.schemas.ts'
import type { ApiType } from '../chat/chat.repo.ts'
import type { Charge } from '../ledger/ledger.service.ts'
import { bill } from '../ledger/ledger.service.ts'

export interface AudioBilling {
  operation: 'audio.speech' | 'audio.transcriptions'
  apiType: Extract<ApiType, 'tts' | 'stt'>
  /** Tokens and cost on the endpoint that serves the request. */
  price: (endpoint: CatalogEndpoint) => Charge
  /** Tokens the endpoint works through at its throughput, for the generation's time. */
  workTokens: number
  origin: RequestOrigin
  user: string | null
}

export interface AudioBilled {
  /** The generation id, also sent as the X-Generation-Id header. */
  id: string
  endpoint: CatalogEndpoint
  costNanos: number
}

export function billAudio(ctx: EmulatorContext, caller: AuthContext, model: CatalogModel, region: Region | null, billing: AudioBilling): AudioBilled {
  const now = ctx.clock.now()
  ctx.services.ratelimit.admit(caller.key.hash, caller.account.id, now)
  return immediateTransaction(ctx.db, (): AudioBilled => {
    const billed = bill(ctx, {
      caller,
      operation: billing.operation,
      model: { id: model.id, canonical_slug: model.canonical_slug },
      endpoints: model.endpoints,
      region,
      price: billing.price,
    })
    const endpoint = billed.endpoint
    const latencyMs = Math.round((p50(endpoint.latency_last_30m) ?? 0.5) * 1000)
    const tokensPerSecond = p50(endpoint.throughput_last_30m) ?? 50
    const id = ctx.services.chat.generations.record({
      usageId: billed.usage_id,
      accountId: caller.account.id,
      apiType: billing.apiType,
      idKind: billing.apiType,
      idLabel: billing.apiType,
      origin: billing.origin,
      user: billing.user,
      streamed: false,
      finishReason: null,
      latencyMs,
      generationTimeMs: latencyMs + Math.round((billing.workTokens / tokensPerSecond) * 1000),
      now,
    })
    return { id, endpoint, costNanos: billed.charge.cost_nanos }
  })
}
