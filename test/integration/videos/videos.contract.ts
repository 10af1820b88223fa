// The contract cases of the gateway's video API. Collected by test/integration/contract/contract.test.ts, which
// checks each answer against the real document's operation or the vendor's documented shapes
// (contract/kit.ts says what this file exports).
import type { TestEmulator } from '../../helpers/emulator.ts'
import { CHAT_MODEL, IMG, auth, get, send, malformed, brokeAccountKey, authCases, type Case, type Real } from '../contract/kit.ts'

/** Where these operations' answers are checked: the real document's operation, the vendor's shape, or nowhere (our own). */
export const real: Record<string, Real> = {
  'videos.create': { gateway: ['post', '/videos'] },
  'videos.get': { gateway: ['get', '/videos/{jobId}'] },
  'videos.content': { gateway: ['get', '/videos/{jobId}/content'] },
  'videos.models': { gateway: ['get', '/videos/models'] },
}

const submitVideo = (emu: TestEmulator, body: unknown, key: string | undefined, headers: Record<string, string> = {}) =>
  emu.request({
    method: 'POST',
    url: '/api/v1/videos',
    headers: { ...auth(key), 'content-type': 'application/json', ...headers },
    payload: JSON.stringify(body),
  })
/** A job of the gateway's video API, finished when asked. */
async function videoJob(emu: TestEmulator, finished = false): Promise<string> {
  const id = (await submitVideo(emu, { model: 'openai/sora-2', prompt: 'a fox' }, emu.keys.standard)).body.id
  if (finished) await emu.send('POST', '/_emulator/api/clock/advance', { ms: 3_600_000 })
  return id
}

export const cases: Case[] = [
  {
    operation: 'videos.create',
    name: 'a job',
    status: 202,
    run: (emu) => submitVideo(emu, { model: 'google/veo-3.1', prompt: 'a fox', duration: 4 }, emu.keys.standard),
  },
  {
    operation: 'videos.create',
    name: 'first and last frames, a size, a webhook',
    status: 202,
    run: (emu) =>
      submitVideo(
        emu,
        {
          model: 'google/veo-3.1',
          size: '1080x1920',
          frame_images: [
            { type: 'image_url', image_url: { url: IMG }, frame_type: 'first_frame' },
            { type: 'image_url', image_url: { url: 'https://example.com/last.png' }, frame_type: 'last_frame' },
          ],
          callback_url: 'https://example.com/hook',
        },
        emu.keys.standard,
      ),
  },
  {
    operation: 'videos.create',
    name: 'a duration the model lacks',
    status: 400,
    run: (emu) => submitVideo(emu, { model: 'openai/sora-2', prompt: 'x', duration: 5 }, emu.keys.standard),
  },
  { operation: 'videos.create', name: 'a chat model', status: 400, run: (emu) => submitVideo(emu, { model: CHAT_MODEL, prompt: 'x' }, emu.keys.standard) },
  { operation: 'videos.create', name: 'a malformed body', status: 400, run: (emu) => malformed(emu, 'POST', '/api/v1/videos', emu.keys.standard) },
  {
    operation: 'videos.create',
    name: 'no credits',
    status: 402,
    run: async (emu) => submitVideo(emu, { model: 'openai/sora-2', prompt: 'x' }, await brokeAccountKey(emu)),
  },
  {
    operation: 'videos.create',
    name: 'rate limited',
    status: 429,
    options: { rateLimitKeyPerMinute: 1 },
    run: async (emu) => (
      await submitVideo(emu, { model: 'openai/sora-2', prompt: 'x' }, emu.keys.standard),
      submitVideo(emu, { model: 'openai/sora-2', prompt: 'x' }, emu.keys.standard)
    ),
  },
  ...authCases('videos.create', (emu, key) => submitVideo(emu, { model: 'openai/sora-2', prompt: 'x' }, key), 'standard'),
  { operation: 'videos.get', name: 'a pending job', status: 200, run: async (emu) => get(emu, `/api/v1/videos/${await videoJob(emu)}`, emu.keys.standard) },
  {
    operation: 'videos.get',
    name: 'a completed job',
    status: 200,
    run: async (emu) => get(emu, `/api/v1/videos/${await videoJob(emu, true)}`, emu.keys.standard),
  },
  {
    operation: 'videos.get',
    name: 'a failed job',
    status: 200,
    run: async (emu) => {
      const id = (await submitVideo(emu, { model: 'openai/sora-2', prompt: 'x' }, emu.keys.standard, { 'x-emulator-video-outcome': 'failed' })).body.id
      await emu.send('POST', '/_emulator/api/clock/advance', { ms: 3_600_000 })
      return get(emu, `/api/v1/videos/${id}`, emu.keys.standard)
    },
  },
  { operation: 'videos.get', name: 'an unknown job', status: 404, run: (emu) => get(emu, '/api/v1/videos/123456789012345678', emu.keys.standard) },
  ...authCases('videos.get', (emu, key) => get(emu, '/api/v1/videos/123456789012345678', key), 'standard'),
  {
    operation: 'videos.content',
    name: 'the video',
    status: 200,
    run: async (emu) => get(emu, `/api/v1/videos/${await videoJob(emu, true)}/content?index=0`, emu.keys.standard),
  },
  {
    operation: 'videos.content',
    name: 'a job not completed yet',
    status: 400,
    run: async (emu) => get(emu, `/api/v1/videos/${await videoJob(emu)}/content`, emu.keys.standard),
  },
  { operation: 'videos.content', name: 'an unknown job', status: 404, run: (emu) => get(emu, '/api/v1/videos/123456789012345678/content', emu.keys.standard) },
  ...authCases('videos.content', (emu, key) => get(emu, '/api/v1/videos/123456789012345678/content', key), 'standard'),
  { operation: 'videos.models', name: 'the video models', status: 200, run: (emu) => get(emu, '/api/v1/videos/models') },
  {
    operation: 'videos.models',
    name: 'a 500 fault',
    status: 500,
    run: async (emu) => (
      await send(emu, 'POST', '/_emulator/api/faults', { match: { operation: 'videos.models' }, action: { status: 500 } }),
      get(emu, '/api/v1/videos/models')
    ),
  },
]
