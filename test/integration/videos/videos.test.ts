// The gateway's own video API over HTTP: a job from submission to its video on the virtual clock, the
// failure paths (planned, by rate, cancelled) and their refunds, the webhook, every refusal with its
// status and body, the ledger, faults, determinism, and jobs across export, import and reset.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { sha256Hex } from '../../../src/emulator/core/rng.ts'
import { createEmulator } from '../../../src/emulator/index.ts'
import { dataUri, png } from '../../helpers/images.ts'
import { testEmulator, type TestEmulator } from '../../helpers/emulator.ts'
import { startSink } from '../../helpers/sink.ts'

const ADMIN = '/_emulator/api'
const VEO = 'google/veo-3.1'
const SORA = 'openai/sora-2'
const SAMPLE = readFileSync(fileURLToPath(new URL('../../../fixtures/media/sample.mp4', import.meta.url)))
const IMG = dataUri(png(64, 36), 'image/png')
const FIXTURE = fileURLToPath(new URL('../../../fixtures/videos/models.json', import.meta.url))
/** created (1 s) + queueing (5 s) + processing (20 s): the engine's default dwell times. */
const WHOLE_JOB_MS = 26_000

type Headers = Record<string, string>

const submit = (emu: TestEmulator, body: Record<string, unknown>, headers: Headers = {}, key = emu.keys.standard) =>
  emu.request({
    method: 'POST',
    url: '/api/v1/videos',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
    payload: JSON.stringify(body),
  })
const poll = (emu: TestEmulator, id: string, key = emu.keys.standard) => emu.get(`/api/v1/videos/${id}`, key)
const content = (emu: TestEmulator, id: string, query = '', headers: Headers = {}, key = emu.keys.standard) =>
  emu.app.inject({ method: 'GET', url: `/api/v1/videos/${id}/content${query}`, headers: { authorization: `Bearer ${key}`, ...headers } })
const advance = async (emu: TestEmulator, ms: number) => expect((await emu.send('POST', `${ADMIN}/clock/advance`, { ms })).status).toBe(200)

/** What a refused request must leave as it was. */
function ledger(emu: TestEmulator) {
  const count = (table: string) => emu.ctx.db.prepare(`SELECT count(*) FROM ${table}`).pluck().get()
  return { usage: count('usage'), tasks: count('video_tasks'), generations: count('generations'), spent: count('usage WHERE cost_nanos > 0') }
}

describe('a job from submission to its video', () => {
  it('answers 202 pending, moves to in_progress and completed on the clock, then serves the sample video', async () => {
    const emu = await testEmulator()
    const res = await submit(emu, { model: VEO, prompt: 'A serene mountain landscape at sunset', duration: 8, resolution: '720p', aspect_ratio: '16:9' })
    expect(res.status).toBe(202)
    const id = res.body.id as string
    expect(res.body).toEqual({
      id: expect.stringMatching(/^\d{18}$/),
      polling_url: `http://localhost:80/api/v1/videos/${id}`,
      status: 'pending',
      generation_id: expect.stringMatching(/^gen-\d+-[A-Za-z0-9]{20}$/),
    })
    expect((await poll(emu, id)).body).toEqual(res.body)

    await advance(emu, 1_000) // created -> queueing: still pending
    expect((await poll(emu, id)).body.status).toBe('pending')
    await advance(emu, 5_000) // queueing -> processing
    expect((await poll(emu, id)).body).toEqual({ ...res.body, status: 'in_progress' })
    const early = await content(emu, id)
    expect(early.statusCode).toBe(400)
    expect(early.json()).toEqual({
      error: {
        code: 400,
        message: `Video generation job ${id} is in_progress: its content is there once it is completed`,
        metadata: { field: 'jobId', location: 'params', status: 'in_progress' },
      },
    })

    await advance(emu, 20_000)
    const done = await poll(emu, id)
    expect(done.status).toBe(200)
    expect(done.body).toEqual({
      ...res.body,
      status: 'completed',
      unsigned_urls: [`http://localhost:80/api/v1/videos/${id}/content?index=0`],
      // 8 s of Veo with audio (its default) at $0.40 a second.
      usage: { cost: 3.2, is_byok: false },
    })

    const video = await content(emu, id, '?index=0')
    expect(video.statusCode).toBe(200)
    expect(video.headers['content-type']).toBe('video/mp4')
    expect(video.rawPayload.equals(SAMPLE)).toBe(true)
    const part = await content(emu, id, '', { range: 'bytes=0-99' })
    expect(part.statusCode).toBe(206)
    expect(part.headers['content-range']).toBe(`bytes 0-99/${SAMPLE.length}`)
    expect(part.rawPayload.equals(SAMPLE.subarray(0, 100))).toBe(true)
    const beyond = await content(emu, id, '', { range: `bytes=${SAMPLE.length}-` })
    expect(beyond.statusCode).toBe(416)
    expect(beyond.headers['content-range']).toBe(`bytes */${SAMPLE.length}`)
    expect(beyond.json()).toEqual({ error: { code: 416, message: 'Range Not Satisfiable' } })

    const second = await content(emu, id, '?index=1')
    expect(second.statusCode).toBe(400)
    expect(second.json()).toEqual({
      error: {
        code: 400,
        message: `Query parameter \`index\` must be < 1: job ${id} made 1 video (got 1)`,
        metadata: { field: 'index', location: 'querystring', issue: 'must be < 1' },
      },
    })
    const negative = await content(emu, id, '?index=-1')
    expect(negative.statusCode).toBe(400)
    expect(negative.json().error).toMatchObject({ code: 400, message: 'Query parameter `index` must be >= 0', metadata: { field: 'index' } })
  })

  it('is a task of the video engine: its settings time it, and the admin API sees and moves it', async () => {
    const emu = await testEmulator()
    await emu.send('PUT', `${ADMIN}/video/settings`, { created_ms: 0, queueing_ms: 0, processing_ms: 60_000 })
    const id = (await submit(emu, { model: SORA, prompt: 'x' })).body.id
    await advance(emu, 1)
    expect((await poll(emu, id)).body.status).toBe('in_progress')
    const task = (await emu.get(`${ADMIN}/video/tasks/${id}`)).body.data
    expect(task).toMatchObject({ operation: 'gateway', model: SORA, state: 'processing', prompt: 'x', duration: 4 })
    expect(task.request).toMatchObject({ operation: 'gateway', resolution: '720p', aspect_ratio: '16:9', generate_audio: true, seed: expect.any(Number) })
    expect((await emu.send('POST', `${ADMIN}/video/tasks/${id}/succeed`)).status).toBe(200)
    expect((await poll(emu, id)).body.status).toBe('completed')
  })

  it('defaults to the model’s duration, resolution and aspect ratio; a size gives both of the latter', async () => {
    const emu = await testEmulator()
    const stored = async (body: Record<string, unknown>) => {
      const res = await submit(emu, body)
      expect(res.status).toBe(202)
      return (await emu.get(`${ADMIN}/video/tasks/${res.body.id}`)).body.data.request
    }
    expect(await stored({ model: SORA, prompt: 'x' })).toMatchObject({ duration: 4, resolution: '720p', aspect_ratio: '16:9', size: null })
    expect(await stored({ model: VEO, prompt: 'x', size: '1080x1920' })).toMatchObject({
      duration: 8,
      resolution: '1080p',
      aspect_ratio: '9:16',
      size: '1080x1920',
    })
    // A size with agreeing values is fine; frame images alone need no prompt; inline media is summarised.
    expect(
      await stored({
        model: VEO,
        size: '1280x720',
        resolution: '720p',
        aspect_ratio: '16:9',
        frame_images: [
          { type: 'image_url', image_url: { url: IMG }, frame_type: 'first_frame' },
          { type: 'image_url', image_url: { url: 'https://example.com/last.png' }, frame_type: 'last_frame' },
        ],
        input_references: [{ type: 'audio_url', audio_url: { url: 'data:audio/mpeg;base64,AAAA' } }],
        seed: 42,
        generate_audio: false,
        provider: { options: { 'google-vertex': { parameters: { negativePrompt: 'blurry' } } } },
      }),
    ).toEqual(
      expect.objectContaining({
        prompt: null,
        seed: 42,
        generate_audio: false,
        frame_images: [
          { frame_type: 'first_frame', url: expect.stringMatching(/^\(inline png image, 64x36, \d+ bytes\)$/) },
          { frame_type: 'last_frame', url: 'https://example.com/last.png' },
        ],
        input_references: [{ type: 'audio_url', url: '(inline audio/mpeg, 4 base64 characters)' }],
      }),
    )
  })
})

describe('jobs that fail', () => {
  it('fail when told (X-Emulator-Video-Outcome), with an error, refunded, and with no content', async () => {
    const emu = await testEmulator()
    const before = (await emu.get('/api/v1/credits', emu.keys.standard)).body.data
    const res = await submit(emu, { model: VEO, prompt: 'x', duration: 4 }, { 'x-emulator-video-outcome': 'failed' })
    expect(res.status).toBe(202)
    // Billed while it runs.
    expect((await emu.get('/api/v1/credits', emu.keys.standard)).body.data.total_usage).toBeCloseTo(before.total_usage + 1.6, 9)
    await advance(emu, WHOLE_JOB_MS)
    const failed = await poll(emu, res.body.id)
    expect(failed.body).toEqual({ ...res.body, status: 'failed', error: 'The provider could not generate the video (ModelUnavailable)' })
    expect((await emu.get('/api/v1/credits', emu.keys.standard)).body.data).toEqual(before)
    const generation = await emu.get(`/api/v1/generation?id=${res.body.generation_id}`, emu.keys.standard)
    expect(generation.body.data).toMatchObject({ api_type: 'video', total_cost: 0, finish_reason: 'error', model: VEO })
    const none = await content(emu, res.body.id)
    expect(none.statusCode).toBe(400)
    expect(none.json().error.metadata.status).toBe('failed')
  })

  it('fail at the engine’s failure rate for the model, and stick while told to', async () => {
    const emu = await testEmulator()
    await emu.send('PUT', `${ADMIN}/video/settings`, { model_failure_rates: { [SORA]: 1 }, fail_code: 'ContentPolicy' })
    const sora = (await submit(emu, { model: SORA, prompt: 'x' })).body.id
    const veo = (await submit(emu, { model: VEO, prompt: 'x' })).body.id
    const stuck = (await submit(emu, { model: VEO, prompt: 'x' }, { 'x-emulator-video-outcome': 'stuck' })).body.id
    await advance(emu, 10 * WHOLE_JOB_MS)
    expect((await poll(emu, sora)).body).toMatchObject({ status: 'failed', error: 'The provider could not generate the video (ContentPolicy)' })
    expect((await poll(emu, veo)).body.status).toBe('completed')
    expect((await poll(emu, stuck)).body.status).toBe('in_progress')
  })

  it('are cancelled when an admin fails them as UserCancelled', async () => {
    const emu = await testEmulator()
    const res = await submit(emu, { model: VEO, prompt: 'x' })
    expect((await emu.send('POST', `${ADMIN}/video/tasks/${res.body.id}/fail`, { err_code: 'UserCancelled' })).status).toBe(200)
    expect((await poll(emu, res.body.id)).body).toEqual({ ...res.body, status: 'cancelled', error: 'The video generation job was cancelled' })
  })
})

describe('the webhook', () => {
  it('POSTs the completed job once, as a video.generation event, signed by the callbacks engine', async () => {
    const emu = await testEmulator()
    const receiver = await startSink()
    const res = await submit(emu, { model: SORA, prompt: 'x', duration: 8, callback_url: `${receiver.url}/hooks/video?team=a` })
    await advance(emu, WHOLE_JOB_MS)
    expect(await emu.drainCallbacks()).toBe(true)
    // Only the end is told: not pending, not in_progress.
    expect(receiver.received).toHaveLength(1)
    const [hook] = receiver.received
    expect(hook!.path).toBe('/hooks/video')
    expect(hook!.query).toBe('team=a')
    expect(hook!.headers['x-hmac-signature']).toEqual(expect.any(String))
    expect(hook!.body).toEqual({
      type: 'video.generation.completed',
      created_at: '2026-03-04T10:00:26.000Z',
      data: {
        id: res.body.id,
        status: 'completed',
        generation_id: res.body.generation_id,
        unsigned_urls: [`http://localhost:80/api/v1/videos/${res.body.id}/content?index=0`],
        usage: { cost: 0.8, is_byok: false },
        model: SORA,
      },
    })
    expect(JSON.stringify([hook!.headers, hook!.body])).not.toContain(emu.keys.standard)
  })

  it('POSTs a failed job with its error', async () => {
    const emu = await testEmulator()
    const receiver = await startSink()
    const res = await submit(emu, { model: VEO, prompt: 'x', callback_url: receiver.url }, { 'x-emulator-video-outcome': 'failed' })
    await advance(emu, WHOLE_JOB_MS)
    expect(await emu.drainCallbacks()).toBe(true)
    expect(receiver.received.map((r) => r.body)).toEqual([
      {
        type: 'video.generation.failed',
        created_at: expect.any(String),
        data: { id: res.body.id, status: 'failed', generation_id: res.body.generation_id, error: expect.stringMatching(/ModelUnavailable/), model: VEO },
      },
    ])
  })
})

describe('refusals', () => {
  const veo = (extra: Record<string, unknown>) => ({ model: VEO, prompt: 'x', ...extra })
  const field = (name: string, message: string, metadata: Record<string, unknown> = {}) => ({
    code: 400,
    message,
    metadata: { field: name, location: 'body', ...metadata },
  })
  const issue = (name: string, text: string) => field(name, `Field \`${name}\` ${text}`, { issue: text })

  it.each<[string, Record<string, unknown>, unknown]>([
    ['no model', { prompt: 'x' }, issue('model', 'is required')],
    ['an unknown model', { model: 'nobody/nothing', prompt: 'x' }, field('model', 'nobody/nothing is not a valid model ID')],
    [
      'a model that makes no video',
      { model: 'openai/gpt-4o', prompt: 'x' },
      field('model', 'openai/gpt-4o is not a video generation model (it outputs text); choose one of GET /api/v1/videos/models'),
    ],
    ['no prompt and no images', { model: VEO }, issue('prompt', 'is required (it may be left out only when frame_images or input_references are given)')],
    ['a blank prompt', veo({ prompt: '  ' }), issue('prompt', 'is required (it may be left out only when frame_images or input_references are given)')],
    ['a prompt too long', veo({ prompt: 'x'.repeat(10_001) }), issue('prompt', 'must be at most 10000 characters')],
    ['a duration the model does not offer', veo({ duration: 5 }), issue('duration', `must be one of 4, 6, 8 for ${VEO} (got 5)`)],
    ['a duration of 0', veo({ duration: 0 }), issue('duration', 'must be >= 1')],
    ['a fractional duration', veo({ duration: 4.5 }), issue('duration', 'must be an integer')],
    ['a resolution the model does not offer', { model: SORA, prompt: 'x', resolution: '1080p' }, issue('resolution', `must be 720p for ${SORA} (got 1080p)`)],
    ['a resolution of no model', veo({ resolution: '360p' }), issue('resolution', 'must be one of 480p, 720p, 768p, 1080p, 1K, 2K, 4K')],
    ['an aspect ratio the model does not offer', veo({ aspect_ratio: '1:1' }), issue('aspect_ratio', `must be one of 16:9, 9:16 for ${VEO} (got 1:1)`)],
    [
      'a size the model does not offer',
      { model: SORA, prompt: 'x', size: '1920x1080' },
      issue('size', `must be one of 1280x720, 720x1280 for ${SORA} (got 1920x1080)`),
    ],
    ['a size that is no size', veo({ size: 'large' }), issue('size', 'is not valid (must match pattern "^[0-9]{1,5}x[0-9]{1,5}$")')],
    [
      'a size that disagrees with the resolution',
      veo({ size: '1280x720', resolution: '1080p' }),
      issue('size', 'is 1280x720 (720p, 16:9), which disagrees with resolution 1080p: give size alone, or agreeing values'),
    ],
    [
      'a size that disagrees with the aspect ratio',
      veo({ size: '1280x720', aspect_ratio: '9:16' }),
      issue('size', 'is 1280x720 (720p, 16:9), which disagrees with aspect_ratio 9:16: give size alone, or agreeing values'),
    ],
    ['a seed that is not an integer', veo({ seed: 'lucky' }), issue('seed', 'must be an integer')],
    ['a seed past exact integers', veo({ seed: 2 ** 60 }), issue('seed', 'must be <= 9007199254740991')],
    ['a model id too long', { model: 'a'.repeat(201), prompt: 'x' }, issue('model', 'must be at most 200 characters')],
    ['a duration past any model', veo({ duration: 601 }), issue('duration', 'must be <= 600')],
    ['generate_audio that is not a boolean', veo({ generate_audio: 'yes' }), issue('generate_audio', 'must be a boolean')],
    [
      'a last frame the model does not take',
      { model: SORA, frame_images: [{ type: 'image_url', image_url: { url: IMG }, frame_type: 'last_frame' }] },
      issue('frame_images[0].frame_type', `must be first_frame for ${SORA} (got last_frame)`),
    ],
    [
      'the same frame twice',
      veo({
        frame_images: [
          { type: 'image_url', image_url: { url: IMG }, frame_type: 'first_frame' },
          { type: 'image_url', image_url: { url: IMG }, frame_type: 'first_frame' },
        ],
      }),
      issue('frame_images[1].frame_type', 'repeats first_frame: give each frame once'),
    ],
    [
      'three frames',
      veo({ frame_images: Array.from({ length: 3 }, () => ({ type: 'image_url', image_url: { url: IMG }, frame_type: 'first_frame' })) }),
      issue('frame_images', 'must have at most 2 items'),
    ],
    ['a frame without its type', veo({ frame_images: [{ type: 'image_url', image_url: { url: IMG } }] }), issue('frame_images[0].frame_type', 'is required')],
    [
      'a frame that is no URL',
      veo({ frame_images: [{ type: 'image_url', image_url: { url: 'ftp://example.com/a.png' }, frame_type: 'first_frame' }] }),
      issue('frame_images[0].image_url.url', 'must be an http(s) URL or a data: URI of a PNG, JPEG or WebP image'),
    ],
    [
      'a frame that is a GIF',
      veo({ frame_images: [{ type: 'image_url', image_url: { url: 'data:image/gif;base64,R0lGODlhAQABAAAAACw=' }, frame_type: 'first_frame' }] }),
      issue('frame_images[0].image_url.url', 'a data URI image must be image/png, image/jpeg or image/webp, not image/gif'),
    ],
    [
      'a frame URL too long',
      veo({ frame_images: [{ type: 'image_url', image_url: { url: `https://example.com/${'a'.repeat(8192)}` }, frame_type: 'first_frame' }] }),
      issue('frame_images[0].image_url.url', 'must be at most 8192 characters'),
    ],
    [
      'a frame URL that does not parse',
      veo({ frame_images: [{ type: 'image_url', image_url: { url: 'http://' }, frame_type: 'first_frame' }] }),
      issue('frame_images[0].image_url.url', 'is not a valid URL'),
    ],
    [
      'more references than any model takes',
      veo({ input_references: Array.from({ length: 17 }, () => ({ type: 'image_url', image_url: { url: IMG } })) }),
      issue('input_references', 'must have at most 16 items'),
    ],
    [
      'an audio reference that is neither a URL nor a data URI',
      veo({ input_references: [{ type: 'audio_url', audio_url: { url: 'song.mp3' } }] }),
      issue('input_references[0].audio_url.url', 'must be an http(s) URL or a data: URI of base64 audio'),
    ],
    [
      'more references than the model takes',
      {
        model: SORA,
        prompt: 'x',
        input_references: [
          { type: 'image_url', image_url: { url: IMG } },
          { type: 'image_url', image_url: { url: IMG } },
        ],
      },
      issue('input_references', `must have at most 1 item for ${SORA}`),
    ],
    [
      'a reference without its URL object',
      veo({ input_references: [{ type: 'image_url', video_url: { url: 'https://example.com/a.mp4' } }] }),
      issue('input_references[0].image_url', "is required (the reference's type is image_url)"),
    ],
    [
      'a reference of an unknown type',
      veo({ input_references: [{ type: 'file_url', file_url: { url: 'https://example.com/a' } }] }),
      issue('input_references[0].type', 'must be one of image_url, audio_url, video_url'),
    ],
    [
      'a video reference that is not a video',
      veo({ input_references: [{ type: 'video_url', video_url: { url: 'data:audio/mpeg;base64,AAAA' } }] }),
      issue('input_references[0].video_url.url', 'must be a data URI like data:video/mp4;base64,...'),
    ],
    ['a callback URL that is not http', veo({ callback_url: 'ftp://example.com/hook' }), issue('callback_url', 'must be an http or https URL')],
    ['a callback URL too long', veo({ callback_url: `https://example.com/${'a'.repeat(8192)}` }), issue('callback_url', 'must be at most 8192 characters')],
    ['a callback URL that is no URL', veo({ callback_url: 'not a url' }), issue('callback_url', 'must be an http or https URL')],
    ['creativity', veo({ creativity: 1 }), issue('creativity', `is for video upscaling models only; ${VEO} generates video`)],
    ['an upscale factor', veo({ upscale_factor: 2 }), issue('upscale_factor', `is for video upscaling models only; ${VEO} generates video`)],
  ])('%s: 400 naming the field, nothing billed', async (_name, body, error) => {
    const emu = await testEmulator()
    const before = ledger(emu)
    const res = await submit(emu, body)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error })
    expect(ledger(emu)).toEqual(before)
  })

  it('a bad X-Emulator-Video-Outcome header: 400 naming it', async () => {
    const emu = await testEmulator()
    const res = await submit(emu, { model: VEO, prompt: 'x' }, { 'x-emulator-video-outcome': 'maybe' })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      error: {
        code: 400,
        message: 'Header `X-Emulator-Video-Outcome` must be success, failed or stuck',
        metadata: { field: 'x-emulator-video-outcome', location: 'headers' },
      },
    })
    expect(ledger(emu).tasks).toBe(0)
  })

  it('a model the catalog makes video with but the fixture does not describe: 400', async () => {
    const emu = await testEmulator()
    const veo = emu.ctx.services.catalog.get().find(VEO)!
    const endpoints = veo.endpoints.map((e) => ({ ...e, id: '00000000-0000-4000-8000-00000000c1a1' }))
    const clone = { ...veo, id: 'acme/clip-1', canonical_slug: 'acme/clip-1', name: 'Acme: Clip 1', endpoints }
    expect((await emu.send('POST', `${ADMIN}/catalog/models`, { models: [clone] })).status).toBe(200)
    const res = await submit(emu, { model: 'acme/clip-1', prompt: 'x' })
    expect(res.status).toBe(400)
    expect(res.body.error).toEqual(
      field('model', "acme/clip-1 makes video, but the emulator's video models (fixtures/videos/models.json) do not describe it: add it there to use it"),
    )
    expect((await emu.get('/api/v1/videos/models')).body.data.map((m: { id: string }) => m.id)).toEqual([VEO, SORA])
  })

  it('404 for an unknown job, another account’s job, and a router task; the router never shows a job', async () => {
    const emu = await testEmulator()
    const id = (await submit(emu, { model: VEO, prompt: 'x' })).body.id
    const unknown = await poll(emu, '123456789012345678')
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({
      error: { code: 404, message: 'Video generation job 123456789012345678 not found', metadata: { field: 'jobId', location: 'params' } },
    })
    const other = (await emu.send('POST', `${ADMIN}/accounts`, { name: 'other', credits_usd: 10 })).body.data.standard_key
    expect((await poll(emu, id, other)).body.error.message).toBe(`Video generation job ${id} not found`)
    expect((await content(emu, id, '', {}, other)).statusCode).toBe(404)

    const router = '/router/v1/video/ent/v2'
    const task = (await emu.send('POST', `${router}/text2video`, { model: 'videoq2', prompt: 'x' }, emu.keys.standard)).body.task_id
    expect((await poll(emu, task)).status).toBe(404)
    expect((await emu.get(`${router}/tasks/${id}/creations`, emu.keys.standard)).body).toMatchObject({ code: 404, reason: 'TaskNotFound' })
    expect((await emu.get(`${router}/tasks`, emu.keys.standard)).body.tasks.map((t: { id: string }) => t.id)).toEqual([task])
  })

  it('401 without a key, and a management key is the wrong kind', async () => {
    const emu = await testEmulator()
    const none = await emu.request({ method: 'POST', url: '/api/v1/videos', headers: { 'content-type': 'application/json' }, payload: '{}' })
    expect(none.status).toBe(401)
    expect((await submit(emu, { model: VEO, prompt: 'x' }, {}, emu.keys.management)).status).toBe(401)
    expect((await emu.get('/api/v1/videos/123')).status).toBe(401)
  })
})

describe('billing', () => {
  it('bills each second at the model’s SKU and moves key usage and credits by the job’s cost', async () => {
    const emu = await testEmulator()
    const cost = async (body: Record<string, unknown>) => {
      const id = (await submit(emu, body)).body.id
      await advance(emu, WHOLE_JOB_MS)
      return (await poll(emu, id)).body.usage.cost as number
    }
    expect(await cost({ model: VEO, prompt: 'x', duration: 6 })).toBe(2.4) // with audio, $0.40/s
    expect(await cost({ model: VEO, prompt: 'x', duration: 6, generate_audio: false })).toBe(1.2) // $0.20/s
    expect(await cost({ model: SORA, prompt: 'x', duration: 12 })).toBe(1.2) // $0.10/s, audio or not
    const key = (await emu.get('/api/v1/keys', emu.keys.management)).body.data.find((k: { hash: string }) => k.hash === sha256Hex(emu.keys.standard))
    expect(key.usage).toBeCloseTo(4.8, 9)
    expect((await emu.get('/api/v1/credits', emu.keys.standard)).body.data.total_usage).toBeCloseTo(4.8, 9)
    const usage = emu.ctx.db.prepare("SELECT operation, model, provider FROM usage WHERE operation = 'videos.create'").all()
    expect(usage).toEqual([
      { operation: 'videos.create', model: VEO, provider: 'Google' },
      { operation: 'videos.create', model: VEO, provider: 'Google' },
      { operation: 'videos.create', model: SORA, provider: 'OpenAI' },
    ])
  })

  it('records a video generation that GET /api/v1/generation answers', async () => {
    const emu = await testEmulator()
    const res = await submit(emu, { model: VEO, prompt: 'x', duration: 4 }, { 'x-openrouter-title': 'My App', 'http-referer': 'https://app.example' })
    const pending = (await emu.get(`/api/v1/generation?id=${res.body.generation_id}`, emu.keys.standard)).body.data
    expect(pending).toMatchObject({ id: res.body.generation_id, api_type: 'video', model: VEO, provider_name: 'Google', total_cost: 1.6, finish_reason: null })
    expect(pending).toMatchObject({ http_referer: 'https://app.example', streamed: false })
    await advance(emu, WHOLE_JOB_MS)
    expect((await emu.get(`/api/v1/generation?id=${res.body.generation_id}`, emu.keys.standard)).body.data.finish_reason).toBe('stop')
  })

  it('402 without credits, and nothing is billed or created', async () => {
    const emu = await testEmulator()
    const broke = (await emu.send('POST', `${ADMIN}/accounts`, { credits_usd: 1 })).body.data
    const res = await submit(emu, { model: VEO, prompt: 'x' }, {}, broke.standard_key)
    expect(res.status).toBe(402)
    expect(res.body.error).toMatchObject({ code: 402, metadata: { limit_source: 'openrouter_credits' } })
    expect((await emu.get('/api/v1/credits', broke.standard_key)).body.data).toEqual({ total_credits: 1, total_usage: 0 })
    expect(ledger(emu)).toMatchObject({ tasks: 0, usage: 0, generations: 0 })
    // What the balance affords goes through: 4 s of Sora is $0.40.
    expect((await submit(emu, { model: SORA, prompt: 'x' }, {}, broke.standard_key)).status).toBe(202)
  })

  it('guardrails: 404 when they leave the model no provider; 402 when their budget is spent', async () => {
    const emu = await testEmulator()
    const hash = sha256Hex(emu.keys.standard)
    const guardrail = (
      await emu.send('POST', '/api/v1/guardrails', { name: 'no google', ignored_providers: ['google-vertex'], limit_usd: 1 }, emu.keys.management)
    ).body.data
    await emu.send('POST', `/api/v1/guardrails/${guardrail.id}/assignments/keys`, { key_hashes: [hash] }, emu.keys.management)
    const refused = await submit(emu, { model: VEO, prompt: 'x' })
    expect(refused.status).toBe(404)
    expect(refused.body.error.message).toBe('No endpoints available matching your guardrail restrictions and data policy')
    expect((await submit(emu, { model: SORA, prompt: 'x', duration: 12 })).status).toBe(202) // $1.20: the budget is spent after it
    const spent = await submit(emu, { model: SORA, prompt: 'x' })
    expect(spent.status).toBe(402)
    expect(spent.body.error.metadata.limit_source).toBe('guardrail_budget')
  })

  it('429 past the rate limit, with nothing billed', async () => {
    const emu = await testEmulator({ rateLimitKeyPerMinute: 1 })
    expect((await submit(emu, { model: SORA, prompt: 'x' })).status).toBe(202)
    const before = ledger(emu)
    expect((await submit(emu, { model: SORA, prompt: 'x' })).status).toBe(429)
    expect(ledger(emu)).toEqual(before)
  })

  it('a fault header answers its status and bills nothing', async () => {
    const emu = await testEmulator()
    const res = await submit(emu, { model: VEO, prompt: 'x' }, { 'x-emulator-fault': '503' })
    expect(res.status).toBe(503)
    expect(res.body.error.code).toBe(503)
    expect(ledger(emu)).toMatchObject({ tasks: 0, usage: 0 })
    const poll503 = await emu.request({ method: 'GET', url: '/api/v1/videos/models', headers: { 'x-emulator-fault': '500' } })
    expect(poll503.status).toBe(500)
  })
})

describe('the video models', () => {
  it('lists the catalog’s video models with what the fixture says they take, without a key', async () => {
    const emu = await testEmulator()
    const res = await emu.get('/api/v1/videos/models')
    expect(res.status).toBe(200)
    const fixture = JSON.parse(readFileSync(FIXTURE, 'utf8')) as { models: Array<Record<string, unknown>> }
    expect(res.body.data).toHaveLength(2)
    for (const [i, model] of res.body.data.entries()) {
      const { defaults: _, max_input_references: __, ...spec } = fixture.models[i]!
      const catalog = emu.ctx.services.catalog.get().find(spec.id as string)!
      expect(model).toEqual({
        ...spec,
        canonical_slug: catalog.canonical_slug,
        hugging_face_id: null,
        name: catalog.name,
        created: catalog.created,
        description: catalog.description,
      })
    }
    expect(res.body.data[0]).toMatchObject({ id: VEO, supported_durations: [4, 6, 8], pricing_skus: { generate: '0.20', generate_with_audio: '0.40' } })
  })
})

describe('a fixtures folder of one’s own', () => {
  /** A folder whose videos/models.json is the bundled one changed by `change` (everything else: the bundled fixtures). */
  function folder(change: (models: Array<Record<string, unknown>>) => void): string {
    const dir = mkdtempSync(join(tmpdir(), 'gwe-videos-'))
    mkdirSync(join(dir, 'videos'))
    const doc = JSON.parse(readFileSync(FIXTURE, 'utf8')) as { models: Array<Record<string, unknown>> }
    change(doc.models)
    writeFileSync(join(dir, 'videos', 'models.json'), JSON.stringify(doc))
    return dir
  }

  it('describes what each model takes: no sizes, no frame images, no audio price', async () => {
    const dir = folder((models) => Object.assign(models[1]!, { supported_sizes: null, supported_frame_images: [], pricing_skus: {} }))
    const emu = await testEmulator({ fixtures: dir })
    const size = await submit(emu, { model: SORA, prompt: 'x', size: '1280x720' })
    expect(size.status).toBe(400)
    expect(size.body.error.message).toBe(`Field \`size\` is not supported by ${SORA}: give resolution and aspect_ratio`)
    const frame = await submit(emu, { model: SORA, frame_images: [{ type: 'image_url', image_url: { url: IMG }, frame_type: 'first_frame' }] })
    expect(frame.status).toBe(400)
    expect(frame.body.error).toMatchObject({
      message: `Field \`frame_images[0].frame_type\` must not be given: ${SORA} takes no frame images`,
      metadata: { field: 'frame_images[0].frame_type' },
    })
    // A model without a price costs nothing.
    const free = (await submit(emu, { model: SORA, prompt: 'x' })).body.id
    await advance(emu, WHOLE_JOB_MS)
    expect((await poll(emu, free)).body.usage).toEqual({ cost: 0, is_byok: false })
  })

  it('a bad file stops the start, naming the file and the field', async () => {
    const dir = folder((models) => delete models[0]!.supported_durations)
    const file = join(dir, 'videos', 'models.json')
    await expect(createEmulator({ db: ':memory:', fixtures: dir })).rejects.toThrow(`video models ${file}: \`models[0].supported_durations\` is required`)
    const unreachable = folder((models) => Object.assign(models[0]!, { defaults: { duration: 5, resolution: '720p', aspect_ratio: '16:9' } }))
    await expect(createEmulator({ db: ':memory:', fixtures: unreachable })).rejects.toThrow(
      `video models ${join(unreachable, 'videos', 'models.json')}: \`models[0].defaults\` must be among the model's supported durations, resolutions and aspect ratios`,
    )
  })
})

describe('determinism and state', () => {
  it('the same seed and requests give the same jobs, bytes for bytes', async () => {
    const run = async () => {
      const emu = await testEmulator()
      const a = await submit(emu, { model: VEO, prompt: 'x' })
      const b = await submit(emu, { model: SORA, prompt: 'y', duration: 8 })
      await advance(emu, WHOLE_JOB_MS)
      const stored = (await emu.get(`${ADMIN}/video/tasks/${a.body.id}`)).body.data.request
      return [a.body, b.body, (await poll(emu, a.body.id)).body, (await poll(emu, b.body.id)).body, stored]
    }
    expect(await run()).toEqual(await run())
  })

  it('export, reset and import keep jobs as they were; an account reset forgets its jobs', async () => {
    const emu = await testEmulator()
    const done = (await submit(emu, { model: VEO, prompt: 'x' })).body.id
    await advance(emu, WHOLE_JOB_MS)
    const waiting = (await submit(emu, { model: SORA, prompt: 'y' })).body.id
    const before = [(await poll(emu, done)).body, (await poll(emu, waiting)).body]
    const doc = (await emu.get(`${ADMIN}/export`)).body
    expect((await emu.send('POST', `${ADMIN}/reset`)).status).toBe(200)
    expect((await poll(emu, done)).status).toBe(404)
    expect((await emu.send('POST', `${ADMIN}/import`, doc)).status).toBe(200)
    expect([(await poll(emu, done)).body, (await poll(emu, waiting)).body]).toEqual(before)
    expect((await content(emu, done)).rawPayload.equals(SAMPLE)).toBe(true)
    // The imported job still runs on the clock.
    await advance(emu, WHOLE_JOB_MS)
    expect((await poll(emu, waiting)).body.status).toBe('completed')

    const account = (await emu.get(`${ADMIN}/accounts`)).body.data[0].id
    expect((await emu.send('POST', `${ADMIN}/accounts/${account}/reset`)).status).toBe(200)
    expect((await emu.get(`${ADMIN}/video/tasks`)).body.total_count).toBe(0)
  })

  it('an import is refused when a job’s stored request is not one, naming the value', async () => {
    const emu = await testEmulator()
    await submit(emu, { model: VEO, prompt: 'x' })
    const doc = (await emu.get(`${ADMIN}/export`)).body
    const row = doc.tables.video_tasks[0]
    const broken = structuredClone(doc)
    broken.tables.video_tasks[0].request = JSON.stringify({ ...JSON.parse(row.request), generation_id: undefined })
    const missing = await emu.send('POST', `${ADMIN}/import`, broken)
    expect(missing.status).toBe(400)
    expect(missing.body.error.metadata.field).toBe('tables.video_tasks[0].request')
    expect(missing.body.error.message).toMatch(/holds JSON whose `generation_id` is required/)
    const mislabelled = structuredClone(doc)
    mislabelled.tables.video_tasks[0].operation = 'text2video'
    const res = await emu.send('POST', `${ADMIN}/import`, mislabelled)
    expect(res.status).toBe(400)
    expect(res.body.error.metadata.field).toBe('tables.video_tasks[0].operation')
    expect(res.body.error.message).toBe("Field `tables.video_tasks[0].operation` must be gateway exactly when its request's operation is gateway")
  })
})
