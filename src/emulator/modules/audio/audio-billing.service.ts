// Billing an audio request through the meter: the usage row and the generation row (so GET
// /api/v1/generation answers for it), in one transaction, before any audio is made or read further.
import type { RequestOrigin } from '../../http/request-origin.ts'
import type { EmulatorContext } from '../module.ts'
import type { AuthContext } from '../caller.ts'
import type { CatalogEndpoint, CatalogModel, Region } from '../catalog/catalog.schemas.ts'
import type { ApiType } from '../generations/generations.repo.ts'
import { meter, servedBy } from '../meter/meter.service.ts'

export interface AudioBilling {
  operation: 'audio.speech' | 'audio.transcriptions'
  apiType: Extract<ApiType, 'tts' | 'stt'>
  /** Tokens the usage row records. */
  tokens: { prompt: number; completion: number }
  /** Cost on the endpoint that serves the request (a pricer's). */
  price: (endpoint: CatalogEndpoint) => number
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
  const metered = meter(ctx, {
    caller,
    operation: billing.operation,
    model: { id: model.id, canonical_slug: model.canonical_slug },
    endpoints: model.endpoints,
    region,
    tokens: billing.tokens,
    price: billing.price,
    generation: (endpoint) => {
      const served = servedBy(endpoint, { latencyS: 0.5, tokensPerSecond: 50 })
      return {
        apiType: billing.apiType,
        idKind: billing.apiType,
        idLabel: billing.apiType,
        origin: billing.origin,
        user: billing.user,
        streamed: false,
        finishReason: null,
        latencyMs: served.latencyMs,
        generationTimeMs: served.timeFor(billing.workTokens),
      }
    },
  })
  return { id: metered.generationId!, endpoint: metered.endpoint, costNanos: metered.charge.cost_nanos }
}
