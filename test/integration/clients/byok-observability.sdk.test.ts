// BYOK credentials and observability destinations through @openrouter/sdk over real HTTP: every
// operation passes the client's own validation of its answers, refusals arrive as its typed errors,
// and a destination made with it receives the trace of a call billed with a credential made with it.
import { OpenRouter } from '@openrouter/sdk'
import type { ObservabilityDestination } from '@openrouter/sdk/models'
import * as errors from '@openrouter/sdk/models/errors'
import { describe, expect, it } from 'vitest'
import { listeningEmulator } from '../../helpers/emulator.ts'
import { startSink } from '../../helpers/sink.ts'

describe('@openrouter/sdk 1.x: BYOK', () => {
  it('creates, reads, lists, updates and deletes a credential, its key never returned', async () => {
    const emu = await listeningEmulator()
    const client = new OpenRouter({ apiKey: emu.keys.management, serverURL: `${emu.url}/api/v1`, retryConfig: { strategy: 'none' } })
    const created = await client.byok.create({
      createBYOKKeyRequest: { provider: 'openai', key: 'sk-proj-sdk-secret-0123456789-AbCd', name: 'SDK key', isFallback: true, isByokOnly: true },
    })
    const id = created.data.id
    expect(created.data).toMatchObject({ provider: 'openai', label: 'sk-...AbCd', name: 'SDK key', isFallback: true, isByokOnly: true, sortOrder: 0 })
    expect(JSON.stringify(created)).not.toContain('sdk-secret')
    expect((await client.byok.get({ id })).data.name).toBe('SDK key')
    const listed = await client.byok.list({ provider: 'openai' })
    expect(listed.result.totalCount).toBe(1)
    expect(listed.result.data[0]!.id).toBe(id)
    const updated = await client.byok.update({ id, updateBYOKKeyRequest: { disabled: true, key: 'sk-proj-rotated-0123456789-WxYz' } })
    expect(updated.data).toMatchObject({ disabled: true, label: 'sk-...WxYz' })
    expect((await client.byok.delete({ id })).deleted).toBe(true)
    expect(await client.byok.get({ id }).catch((e: unknown) => e)).toBeInstanceOf(errors.NotFoundResponseError)
  })

  it('surfaces an empty key as the typed 400', async () => {
    const emu = await listeningEmulator()
    const client = new OpenRouter({ apiKey: emu.keys.management, serverURL: `${emu.url}/api/v1`, retryConfig: { strategy: 'none' } })
    const err = await client.byok.create({ createBYOKKeyRequest: { provider: 'openai', key: '' } }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(errors.BadRequestResponseError)
    expect((err as errors.BadRequestResponseError).error.message).toBe('Field `key` must not be empty')
  })
})

/** The client's union of destination types, as the langfuse one these tests make. */
function langfuse(destination: ObservabilityDestination) {
  if (destination.type !== 'langfuse') throw new Error(`not a langfuse destination: ${JSON.stringify(destination)}`)
  return destination
}

describe('@openrouter/sdk 1.x: observability destinations', () => {
  it('creates, reads, lists, updates and deletes, secrets masked', async () => {
    const emu = await listeningEmulator()
    const client = new OpenRouter({ apiKey: emu.keys.management, serverURL: `${emu.url}/api/v1`, retryConfig: { strategy: 'none' } })
    const created = await client.observability.create({
      createObservabilityDestinationRequest: {
        type: 'langfuse',
        name: 'SDK Langfuse',
        config: { publicKey: 'pk-lf-sdk-0123456789-EfGh', secretKey: 'sk-lf-sdk-secret-0123456789-AbCd' },
        regions: ['eu'],
      },
    })
    const id = langfuse(created.data).id
    expect(created.data).toMatchObject({ type: 'langfuse', name: 'SDK Langfuse', enabled: true, samplingRate: 1, regions: ['europe'] })
    // The client fills in the type's defaults (baseUrl) itself.
    expect(langfuse(created.data).config).toMatchObject({ publicKey: 'pk-l...EfGh', secretKey: 'sk-l...AbCd' })
    expect(langfuse((await client.observability.get({ id })).data).name).toBe('SDK Langfuse')
    expect((await client.observability.list()).result.totalCount).toBe(1)
    const updated = await client.observability.update({ id, updateObservabilityDestinationRequest: { enabled: false, samplingRate: 0.5 } })
    expect(updated.data).toMatchObject({ enabled: false, samplingRate: 0.5 })
    expect((await client.observability.delete({ id })).deleted).toBe(true)
    expect(await client.observability.get({ id }).catch((e: unknown) => e)).toBeInstanceOf(errors.NotFoundResponseError)
  })

  it('surfaces a sixth destination of a type as the typed 409', async () => {
    const emu = await listeningEmulator()
    const client = new OpenRouter({ apiKey: emu.keys.management, serverURL: `${emu.url}/api/v1`, retryConfig: { strategy: 'none' } })
    const webhook = { type: 'webhook' as const, name: 'Hook', config: { url: 'https://hooks.example.com/traces' } }
    for (let i = 0; i < 5; i++) await client.observability.create({ createObservabilityDestinationRequest: webhook })
    const err = await client.observability.create({ createObservabilityDestinationRequest: webhook }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(errors.ConflictResponseError)
  })

  it('sends a webhook it made the trace of a call billed with a BYOK credential it made', async () => {
    const emu = await listeningEmulator()
    const sink = await startSink()
    const client = new OpenRouter({ apiKey: emu.keys.management, serverURL: `${emu.url}/api/v1`, retryConfig: { strategy: 'none' } })
    await client.byok.create({ createBYOKKeyRequest: { provider: 'openai', key: 'sk-proj-sdk-0123456789-AbCd' } })
    await client.observability.create({
      createObservabilityDestinationRequest: { type: 'webhook', name: 'Hook', config: { url: `${sink.url}/traces` }, broadcastGenerationCost: true },
    })
    const res = await fetch(`${emu.url}/api/v1/embeddings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'openai/text-embedding-3-small', input: 'x', provider: { order: ['openai'], allow_fallbacks: false } }),
    })
    expect(res.status).toBe(200)
    await fetch(`${emu.url}/_emulator/api/clock/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"ms":1}' })
    expect(await emu.drainCallbacks()).toBe(true)
    const attributes = sink.received[0]!.body.resourceSpans[0].scopeSpans[0].spans[0].attributes as Array<{ key: string; value: Record<string, unknown> }>
    expect(attributes).toContainEqual({ key: 'gateway.is_byok', value: { boolValue: true } })
  })
})
