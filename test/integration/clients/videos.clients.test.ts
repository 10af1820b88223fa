// The gateway's video API through the official clients a user points at the emulator, over real HTTP:
// @openrouter/sdk's `videoGeneration` (submit, poll, download, list models, typed errors) and the AI
// SDK provider's video model with `experimental_generateVideo`, which polls until the job completes.
// The clock is the emulator's manual one: a test moves it once the job exists, so nothing sleeps.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { OpenRouter } from '@openrouter/sdk'
import * as errors from '@openrouter/sdk/models/errors'
import { createOpenRouter } from '@openrouter/ai-sdk-provider'
import { experimental_generateVideo } from 'ai'
import { describe, expect, it } from 'vitest'
import { listeningEmulator } from '../../helpers/emulator.ts'

const VEO = 'google/veo-3.1'
const SAMPLE = readFileSync(fileURLToPath(new URL('../../../fixtures/media/sample.mp4', import.meta.url)))

const client = (url: string, apiKey: string) => new OpenRouter({ apiKey, serverURL: `${url}/api/v1`, retryConfig: { strategy: 'none' } })

async function bytesOf(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = []
  for await (const chunk of stream) chunks.push(chunk)
  return Buffer.concat(chunks)
}

describe('@openrouter/sdk', () => {
  it('submits a job, polls it to completed as the clock moves, downloads the video, lists the models', async () => {
    const emu = await listeningEmulator()
    const sdk = client(emu.url, emu.keys.standard)
    const job = await sdk.videoGeneration.generate({
      appTitle: 'videos client test',
      videoGenerationRequest: { model: VEO, prompt: 'A serene mountain landscape at sunset', duration: 4, aspectRatio: '9:16', resolution: '1080p' },
    })
    expect(job).toEqual({
      id: expect.stringMatching(/^\d{18}$/),
      pollingUrl: `${emu.url}/api/v1/videos/${job.id}`,
      status: 'pending',
      generationId: expect.stringMatching(/^gen-/),
    })

    await emu.send('POST', '/_emulator/api/clock/advance', { ms: 6_000 })
    expect((await sdk.videoGeneration.getGeneration({ jobId: job.id })).status).toBe('in_progress')
    await emu.send('POST', '/_emulator/api/clock/advance', { ms: 20_000 })
    const done = await sdk.videoGeneration.getGeneration({ jobId: job.id })
    expect(done).toMatchObject({
      status: 'completed',
      unsignedUrls: [`${emu.url}/api/v1/videos/${job.id}/content?index=0`],
      usage: { cost: 1.6, isByok: false },
    })

    const video = await bytesOf(await sdk.videoGeneration.getVideoContent({ jobId: job.id, index: 0 }))
    expect(video.equals(SAMPLE)).toBe(true)

    const generation = await sdk.generations.getGeneration({ id: job.generationId! })
    expect(generation.data).toMatchObject({ apiType: 'video', totalCost: 1.6, model: VEO })

    const models = await sdk.videoGeneration.listVideosModels()
    expect(models.data.map((m) => m.id)).toEqual([VEO, 'openai/sora-2'])
    expect(models.data[0]).toMatchObject({ supportedDurations: [4, 6, 8], supportedFrameImages: ['first_frame', 'last_frame'], generateAudio: true })
  })

  it('surfaces a refused request, an unknown job, content too early and a 402 as the typed errors', async () => {
    const emu = await listeningEmulator()
    const sdk = client(emu.url, emu.keys.standard)
    const bad = await sdk.videoGeneration.generate({ videoGenerationRequest: { model: VEO, prompt: 'x', duration: 5 } }).catch((e: unknown) => e)
    expect(bad).toBeInstanceOf(errors.BadRequestResponseError)
    expect((bad as errors.BadRequestResponseError).error).toMatchObject({ code: 400, message: `Field \`duration\` must be one of 4, 6, 8 for ${VEO} (got 5)` })

    const unknown = await sdk.videoGeneration.getGeneration({ jobId: '123456789012345678' }).catch((e: unknown) => e)
    expect(unknown).toBeInstanceOf(errors.NotFoundResponseError)

    const job = await sdk.videoGeneration.generate({ videoGenerationRequest: { model: VEO, prompt: 'x' } })
    const early = await sdk.videoGeneration.getVideoContent({ jobId: job.id }).catch((e: unknown) => e)
    expect(early).toBeInstanceOf(errors.BadRequestResponseError)

    const broke = (await emu.send('POST', '/_emulator/api/accounts', {})).body.data.standard_key as string
    const poor = await client(emu.url, broke)
      .videoGeneration.generate({ videoGenerationRequest: { model: VEO, prompt: 'x' } })
      .catch((e: unknown) => e)
    expect(poor).toBeInstanceOf(errors.PaymentRequiredResponseError)
  })

  it('refuses a callback URL that points at the emulator itself', async () => {
    const emu = await listeningEmulator()
    const res = await emu.send('POST', '/api/v1/videos', { model: VEO, prompt: 'x', callback_url: `${emu.url}/hook` }, emu.keys.standard)
    expect(res.status).toBe(400)
    const host = new URL(emu.url).host
    expect(res.body.error).toEqual({
      code: 400,
      message: `Field \`callback_url\` must not point at the emulator itself (${host}): give the address of your own receiver`,
      metadata: { field: 'callback_url', location: 'body', issue: `must not point at the emulator itself (${host}): give the address of your own receiver` },
    })
  })
})

describe('@openrouter/ai-sdk-provider with ai', () => {
  it('experimental_generateVideo submits, polls until completed and downloads the video', async () => {
    const emu = await listeningEmulator()
    // Once the job exists, the clock runs it to its end.
    emu.ctx.events.on('video.task', (event) => {
      if ((event as { state: string }).state === 'created') void emu.clock.advance('1m')
    })
    const openrouter = createOpenRouter({ apiKey: emu.keys.standard, baseURL: `${emu.url}/api/v1` })
    const { videos, providerMetadata } = await experimental_generateVideo({
      model: openrouter.videoModel('openai/sora-2', { pollIntervalMs: 10 }),
      prompt: 'a lighthouse at dusk',
      resolution: '720x1280',
      duration: 8,
      maxRetries: 0,
      // The content URL wants the key, as the real gateway's does.
      download: async ({ url }) => {
        const res = await fetch(url, { headers: { authorization: `Bearer ${emu.keys.standard}` } })
        return { data: new Uint8Array(await res.arrayBuffer()), mediaType: res.headers.get('content-type') ?? undefined }
      },
    })
    expect(videos).toHaveLength(1)
    expect(Buffer.from(videos[0]!.uint8Array).equals(SAMPLE)).toBe(true)
    expect(videos[0]!.mediaType).toBe('video/mp4')
    expect(providerMetadata.openrouter).toMatchObject({ cost: 0.8, generationId: expect.stringMatching(/^gen-/) })
    const task = (await emu.get('/_emulator/api/video/tasks')).body.data[0]
    expect(task.request).toMatchObject({ size: '720x1280', resolution: '720p', aspect_ratio: '9:16', duration: 8 })
  })
})
