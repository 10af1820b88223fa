// Embeddings through the clients a user points at the emulator: openai (which asks for base64 by
// default and decodes it), @openrouter/sdk, and the AI SDK provider with embedMany.
import { OpenRouter } from '@openrouter/sdk'
import * as errors from '@openrouter/sdk/models/errors'
import { createOpenRouter } from '@openrouter/ai-sdk-provider'
import { embedMany } from 'ai'
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { cosine } from '../../../src/emulator/modules/embeddings/embeddings-vectors.service.ts'
import { listeningEmulator } from '../../helpers/emulator.ts'

const MODEL = 'openai/text-embedding-3-small'

describe('openai', () => {
  it('default encoding (base64, decoded by the client), explicit float and explicit base64 agree', async () => {
    const emu = await listeningEmulator()
    const client = new OpenAI({ apiKey: emu.keys.standard, baseURL: `${emu.url}/api/v1`, maxRetries: 0 })
    const byDefault = await client.embeddings.create({ model: MODEL, input: ['hello world', 'goodbye world'] })
    expect(byDefault.data).toHaveLength(2)
    expect(byDefault.data[0]!.embedding).toHaveLength(1536)
    expect(byDefault.usage.prompt_tokens).toBe(5) // hello·world, good·bye·world in cl100k_base
    const floats = await client.embeddings.create({ model: MODEL, input: ['hello world', 'goodbye world'], encoding_format: 'float' })
    byDefault.data[0]!.embedding.forEach((v, i) => expect(v).toBeCloseTo(floats.data[0]!.embedding[i]!, 6))
    const base64 = await client.embeddings.create({ model: MODEL, input: 'hello world', encoding_format: 'base64' })
    // Asked for explicitly, base64 comes back as the string.
    expect(typeof base64.data[0]!.embedding).toBe('string')
    expect(cosine(byDefault.data[0]!.embedding, byDefault.data[1]!.embedding)).toBeGreaterThan(0.2)
  })

  it('surfaces errors with the status and message', async () => {
    const emu = await listeningEmulator()
    const client = new OpenAI({ apiKey: emu.keys.standard, baseURL: `${emu.url}/api/v1`, maxRetries: 0 })
    const err = await client.embeddings.create({ model: 'nope/nothing', input: 'x' }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(OpenAI.BadRequestError)
    expect((err as InstanceType<typeof OpenAI.BadRequestError>).message).toBe('400 nope/nothing is not a valid model ID')
  })
})

describe('@openrouter/sdk', () => {
  it('generates embeddings and surfaces a 402 as the typed error', async () => {
    const emu = await listeningEmulator()
    const client = new OpenRouter({ apiKey: emu.keys.standard, serverURL: `${emu.url}/api/v1`, retryConfig: { strategy: 'none' } })
    const res = await client.embeddings.generate({ requestBody: { model: MODEL, input: 'from the sdk', dimensions: 128 } })
    if (typeof res === 'string') throw new Error('expected JSON, got a stream')
    expect(res.data[0]!.embedding).toHaveLength(128)
    expect(res.usage?.cost).toBeGreaterThan(0)

    const broke = (await (await fetch(`${emu.url}/_emulator/api/accounts`, { method: 'POST' })).json()) as { data: { standard_key: string } }
    const poor = new OpenRouter({ apiKey: broke.data.standard_key, serverURL: `${emu.url}/api/v1`, retryConfig: { strategy: 'none' } })
    const err = await poor.embeddings.generate({ requestBody: { model: MODEL, input: 'x' } }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(errors.PaymentRequiredResponseError)
  })
})

describe('@openrouter/ai-sdk-provider with ai', () => {
  it('embedMany returns one vector per value, in order', async () => {
    const emu = await listeningEmulator()
    const openrouter = createOpenRouter({ apiKey: emu.keys.standard, baseURL: `${emu.url}/api/v1` })
    const values = ['sunny day at the beach', 'rainy day in the city', 'a sunny beach holiday']
    const { embeddings } = await embedMany({ model: openrouter.textEmbeddingModel(MODEL), values, maxRetries: 0 })
    expect(embeddings).toHaveLength(3)
    expect(cosine(embeddings[0]!, embeddings[2]!)).toBeGreaterThan(cosine(embeddings[0]!, embeddings[1]!))
  })
})
