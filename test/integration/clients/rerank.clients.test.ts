// Rerank through the official client a user points at the emulator: @openrouter/sdk's
// `rerank.rerank` (the only official client with a rerank call: openai has none, and the AI SDK
// provider offers no reranking model), over real HTTP.
import { OpenRouter } from '@openrouter/sdk'
import * as errors from '@openrouter/sdk/models/errors'
import { describe, expect, it } from 'vitest'
import { listeningEmulator } from '../../helpers/emulator.ts'

const MODEL = 'cohere/rerank-v3.5'

const client = (url: string, apiKey: string) => new OpenRouter({ apiKey, serverURL: `${url}/api/v1`, retryConfig: { strategy: 'none' } })

describe('@openrouter/sdk', () => {
  it('reranks documents, most relevant first, with usage and the cost; the generation is found by its id', async () => {
    const emu = await listeningEmulator()
    const sdk = client(emu.url, emu.keys.standard)
    const res = await sdk.rerank.rerank({
      appTitle: 'rerank client test',
      requestBody: {
        model: MODEL,
        query: 'What is the capital of France?',
        documents: ['Berlin is the capital of Germany.', { text: 'Paris is the capital of France.' }, 'How to bake sourdough bread'],
        topN: 2,
        user: 'sdk-user',
      },
    })
    if (typeof res === 'string') throw new Error('expected JSON, got a stream')
    expect(res.model).toBe(MODEL)
    expect(res.provider).toBe('Cohere')
    expect(res.results.map((r) => r.index)).toEqual([1, 0])
    expect(res.results[0]!.document).toEqual({ text: 'Paris is the capital of France.' })
    expect(res.results[0]!.relevanceScore).toBeGreaterThan(res.results[1]!.relevanceScore)
    expect(res.usage).toEqual({ searchUnits: 1, totalTokens: expect.any(Number), cost: 0.002 })

    const generation = await sdk.generations.getGeneration({ id: res.id! })
    expect(generation.data).toMatchObject({ id: res.id, apiType: 'rerank', totalCost: 0.002, externalUser: 'sdk-user' })
  })

  it('surfaces a bad request, a 402 and a fault as the typed errors', async () => {
    const emu = await listeningEmulator()
    const sdk = client(emu.url, emu.keys.standard)
    const bad = await sdk.rerank.rerank({ requestBody: { model: MODEL, query: 'q', documents: ['a', ''] } }).catch((e: unknown) => e)
    expect(bad).toBeInstanceOf(errors.BadRequestResponseError)
    expect((bad as errors.BadRequestResponseError).error.message).toBe('Field `documents[1]` must not be empty')

    const broke = (await (await fetch(`${emu.url}/_emulator/api/accounts`, { method: 'POST' })).json()) as { data: { standard_key: string } }
    const poor = await client(emu.url, broke.data.standard_key)
      .rerank.rerank({ requestBody: { model: MODEL, query: 'q', documents: ['a'] } })
      .catch((e: unknown) => e)
    expect(poor).toBeInstanceOf(errors.PaymentRequiredResponseError)

    await fetch(`${emu.url}/_emulator/api/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ match: { operation: 'rerank.create' }, action: { status: 503 }, remaining: 1 }),
    })
    const unavailable = await sdk.rerank.rerank({ requestBody: { model: MODEL, query: 'q', documents: ['a'] } }).catch((e: unknown) => e)
    expect(unavailable).toBeInstanceOf(errors.ServiceUnavailableResponseError)
  })
})
