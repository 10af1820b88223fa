// Images through the clients a user points at the emulator, unmodified, over real HTTP: openai's
// images.generate (which posts OpenAI's /images/generations) and a chat completion asking for an
// image; @openrouter/sdk's images.generate, listModels and listModelEndpoints (the real document's
// operations, through the SDK's own schema validation); the AI SDK's generateImage through the provider's
// image model (which posts the document's /images).
import { createOpenRouter } from '@openrouter/ai-sdk-provider'
import { OpenRouter } from '@openrouter/sdk'
import { generateImage } from 'ai'
import * as errors from '@openrouter/sdk/models/errors'
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { decodeDataUrl, decodeImage } from '../../helpers/decode-image.ts'
import { listeningEmulator } from '../../helpers/emulator.ts'

const PROMPT = 'a lighthouse on a cliff at dusk'

describe('openai', () => {
  it('images.generate: decodable images of the size and format asked, the same again, billed', async () => {
    const emu = await listeningEmulator()
    const client = new OpenAI({ apiKey: emu.keys.standard, baseURL: `${emu.url}/api/v1`, maxRetries: 0 })
    const res = await client.images.generate({ model: 'openai/gpt-image-1', prompt: PROMPT, n: 2, size: '1536x1024', output_format: 'webp' })
    expect(res.data).toHaveLength(2)
    expect(res.size).toBe('1536x1024')
    expect(res.output_format).toBe('webp')
    for (const image of res.data!) expect(decodeImage(Buffer.from(image.b64_json!, 'base64'), 'image/webp')).toMatchObject({ width: 1536, height: 1024 })
    const again = await client.images.generate({ model: 'openai/gpt-image-1', prompt: PROMPT, n: 2, size: '1536x1024', output_format: 'webp' })
    expect(again.data![0]!.b64_json).toBe(res.data![0]!.b64_json)
    const credits = (await (await fetch(`${emu.url}/api/v1/credits`, { headers: { authorization: `Bearer ${emu.keys.standard}` } })).json()) as {
      data: { total_usage: number }
    }
    expect(credits.data.total_usage).toBeCloseTo(4 * 0.042 + 2 * res.usage!.input_tokens * 0.000005, 9)
  })

  it('images.generate with response_format url: a data URL it can open', async () => {
    const emu = await listeningEmulator()
    const client = new OpenAI({ apiKey: emu.keys.standard, baseURL: `${emu.url}/api/v1`, maxRetries: 0 })
    const res = await client.images.generate({ model: 'openai/dall-e-3', prompt: PROMPT, size: '1792x1024', response_format: 'url' })
    expect(decodeDataUrl(res.data![0]!.url!)).toMatchObject({ mediaType: 'image/png', width: 1792, height: 1024 })
  })

  it('surfaces a refusal as the typed error with the status and message', async () => {
    const emu = await listeningEmulator()
    const client = new OpenAI({ apiKey: emu.keys.standard, baseURL: `${emu.url}/api/v1`, maxRetries: 0 })
    const err = await client.images.generate({ model: 'openai/dall-e-3', prompt: PROMPT, n: 3 }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(OpenAI.BadRequestError)
    expect((err as InstanceType<typeof OpenAI.BadRequestError>).message).toBe('400 Field `n` must be 1 for openai/dall-e-3, which makes one image per request')
  })

  it('a chat completion with modalities image returns a decodable image', async () => {
    const emu = await listeningEmulator()
    const client = new OpenAI({ apiKey: emu.keys.standard, baseURL: `${emu.url}/api/v1`, maxRetries: 0 })
    // The gateway's modalities take "image", which openai's types do not list.
    const request = { model: 'google/gemini-2.5-flash-image', messages: [{ role: 'user' as const, content: PROMPT }], modalities: ['image', 'text'] }
    const res = await client.chat.completions.create(request as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming)
    const message = res.choices[0]!.message as (typeof res.choices)[0]['message'] & { images?: Array<{ image_url: { url: string } }> }
    expect(message.content).toBeTruthy()
    expect(decodeDataUrl(message.images![0]!.image_url.url)).toMatchObject({ mediaType: 'image/png', width: 1024, height: 1024 })

    const stream = await client.chat.completions.create({ ...(request as unknown as OpenAI.ChatCompletionCreateParamsStreaming), stream: true })
    const streamed: string[] = []
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta as { images?: Array<{ image_url: { url: string } }> } | undefined
      for (const image of delta?.images ?? []) streamed.push(image.image_url.url)
    }
    expect(streamed).toEqual([message.images![0]!.image_url.url])
  })
})

describe('@openrouter/sdk', () => {
  it('images.generate, listModels and listModelEndpoints pass its schema checks', async () => {
    const emu = await listeningEmulator()
    const client = new OpenRouter({ apiKey: emu.keys.standard, serverURL: `${emu.url}/api/v1`, retryConfig: { strategy: 'none' } })
    const res = await client.images.generate({
      imageGenerationRequest: { model: 'bytedance-seed/seedream-4.5', prompt: PROMPT, resolution: '2K', aspectRatio: '3:2', outputFormat: 'jpeg', seed: 3 },
    })
    if (!('data' in res) || !Array.isArray(res.data)) throw new Error('expected JSON, got a stream')
    expect(res.data[0]!.mediaType).toBe('image/jpeg')
    expect(decodeImage(Buffer.from(res.data[0]!.b64Json, 'base64'), 'image/jpeg')).toMatchObject({ width: 2496, height: 1664 })
    expect(res.usage?.cost).toBeCloseTo(0.04, 9)

    const models = await client.images.listModels()
    expect(models.data.map((m) => m.id)).toContain('bytedance-seed/seedream-4.5')
    const endpoints = await client.images.listModelEndpoints({ author: 'bytedance-seed', slug: 'seedream-4.5' })
    expect(endpoints.endpoints[0]!.pricing).toEqual([{ billable: 'output_image', unit: 'image', costUsd: 0.04 }])
  })

  it('surfaces a 402 as the typed error', async () => {
    const emu = await listeningEmulator()
    const broke = (await (await fetch(`${emu.url}/_emulator/api/accounts`, { method: 'POST' })).json()) as { data: { standard_key: string } }
    const poor = new OpenRouter({ apiKey: broke.data.standard_key, serverURL: `${emu.url}/api/v1`, retryConfig: { strategy: 'none' } })
    const err = await poor.images.generate({ imageGenerationRequest: { model: 'openai/gpt-image-1', prompt: PROMPT } }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(errors.PaymentRequiredResponseError)
  })
})

describe('the AI SDK provider', () => {
  it('generateImage with the provider’s image model: decodable images of the size asked, billed per image', async () => {
    const emu = await listeningEmulator()
    const openrouter = createOpenRouter({ apiKey: emu.keys.standard, baseURL: `${emu.url}/api/v1` })
    const result = await generateImage({ model: openrouter.imageModel('black-forest-labs/flux.1-schnell'), prompt: PROMPT, n: 2, size: '512x512', seed: 7 })
    expect(result.images).toHaveLength(2)
    for (const image of result.images) expect(decodeImage(Buffer.from(image.uint8Array), image.mediaType)).toMatchObject({ width: 512, height: 512 })
    // Two pictures of one request differ; the same request gives the same pictures.
    expect(result.images[0]!.base64).not.toBe(result.images[1]!.base64)
    const again = await generateImage({ model: openrouter.imageModel('black-forest-labs/flux.1-schnell'), prompt: PROMPT, n: 2, size: '512x512', seed: 7 })
    expect(again.images[0]!.base64).toBe(result.images[0]!.base64)
    const credits = (await (await fetch(`${emu.url}/api/v1/credits`, { headers: { authorization: `Bearer ${emu.keys.standard}` } })).json()) as {
      data: { total_usage: number }
    }
    // flux.1-schnell: $0.003 an image, prompts free.
    expect(credits.data.total_usage).toBeCloseTo(4 * 0.003, 9)
  })
})
