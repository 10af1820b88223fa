// The contract cases of the video router. Collected by test/integration/contract/contract.test.ts, which
// checks each answer against the real document's operation or the vendor's documented shapes
// (contract/kit.ts says what this file exports).
import { dataUri, png } from '../../helpers/images.ts'
import type { TestEmulator } from '../../helpers/emulator.ts'
import { IMG, auth, get, send, malformed, brokeAccountKey, authCases, type Case, type Real } from '../contract/kit.ts'

/** Where these operations' answers are checked: the real document's operation, the vendor's shape, or nowhere (our own). */
export const real: Record<string, Real> = {
  'video.multiframe': { vendor: 'create' },
  'video.text2video': { vendor: 'create' },
  'video.img2video': { vendor: 'create' },
  'video.reference2video': { vendor: 'create' },
  'video.startend2video': { vendor: 'create' },
  'video.template2video': { vendor: 'create' },
  'video.tasks.get': { vendor: 'query' },
  'video.tasks.cancel': { vendor: 'cancel' },
  'video.tasks.list': { vendor: 'list' },
  'video.templates': { own: 'the template list the create operations accept (the vendor documents it on a web page)' },
  'video.media': { own: "the files a finished task links to (the vendor's are signed storage URLs)" },
}

/** Answers that differ from the real documents on purpose, by `operation status` (a row of docs/fidelity.md each). */
export const deliberate: Record<string, string> = {
  'video.startend2video 402': 'CreditInsufficient is a 400 in the vendor table; 402 was observed, and is the --video-credit-status 402 setting',
}

const ROUTER = '/router/v1/video/ent/v2'
const createVideo = (emu: TestEmulator, operation: string, body: unknown, key: string | undefined = emu.keys.standard) =>
  send(emu, 'POST', `${ROUTER}/${operation}`, body, key)
async function finishedTask(emu: TestEmulator): Promise<string> {
  const id = (await createVideo(emu, 'text2video', { model: 'videoq2', prompt: 'a fox' })).body.task_id
  await emu.send('POST', '/_emulator/api/clock/advance', { ms: 3_600_000 })
  return id
}

export const cases: Case[] = [
  {
    operation: 'video.text2video',
    name: 'a task',
    status: 200,
    run: (emu) => createVideo(emu, 'text2video', { model: 'videoq2', prompt: 'a fox', seed: 0, payload: 'p' }),
  },
  { operation: 'video.text2video', name: 'no prompt', status: 400, run: (emu) => createVideo(emu, 'text2video', { model: 'videoq2' }) },
  {
    operation: 'video.text2video',
    name: 'a bad style',
    status: 400,
    run: (emu) => createVideo(emu, 'text2video', { model: 'videoq2', prompt: 'x', style: 'noir' }),
  },
  { operation: 'video.text2video', name: 'a malformed body', status: 400, run: (emu) => malformed(emu, 'POST', `${ROUTER}/text2video`, emu.keys.standard) },
  {
    operation: 'video.text2video',
    name: 'a body that is not JSON',
    status: 400,
    run: (emu) =>
      emu.request({ method: 'POST', url: `${ROUTER}/text2video`, headers: { ...auth(emu.keys.standard), 'content-type': 'text/plain' }, payload: 'x' }),
  },
  {
    operation: 'video.text2video',
    name: 'too few credits',
    status: 400,
    run: async (emu) => createVideo(emu, 'text2video', { model: 'videoq2', prompt: 'x' }, await brokeAccountKey(emu)),
  },
  {
    operation: 'video.text2video',
    name: 'rate limited',
    status: 429,
    options: { rateLimitKeyPerMinute: 1 },
    run: async (emu) => (
      await createVideo(emu, 'text2video', { model: 'videoq2', prompt: 'x' }),
      createVideo(emu, 'text2video', { model: 'videoq2', prompt: 'x' })
    ),
  },
  ...authCases('video.text2video', (emu, key) => send(emu, 'POST', `${ROUTER}/text2video`, { model: 'videoq2', prompt: 'x' }, key), 'standard'),

  { operation: 'video.img2video', name: 'a task', status: 200, run: (emu) => createVideo(emu, 'img2video', { model: 'videoq2-pro', images: [IMG] }) },
  { operation: 'video.img2video', name: 'two images', status: 400, run: (emu) => createVideo(emu, 'img2video', { model: 'videoq2-pro', images: [IMG, IMG] }) },
  {
    operation: 'video.img2video',
    name: 'not an image',
    status: 400,
    run: (emu) => createVideo(emu, 'img2video', { model: 'videoq2-pro', images: ['data:image/gif;base64,R0lGODlhAQABAAAAACw='] }),
  },
  {
    operation: 'video.img2video',
    name: 'a 5:1 image',
    status: 400,
    run: (emu) => createVideo(emu, 'img2video', { model: 'videoq2-pro', images: [dataUri(png(500, 100), 'image/png')] }),
  },
  {
    operation: 'video.reference2video',
    name: 'a task',
    status: 200,
    run: (emu) => createVideo(emu, 'reference2video', { model: 'videoq2', images: [IMG], prompt: 'x' }),
  },
  {
    operation: 'video.reference2video',
    name: 'an unknown model',
    status: 400,
    run: (emu) => createVideo(emu, 'reference2video', { model: 'nothing', images: [IMG], prompt: 'x' }),
  },
  {
    operation: 'video.startend2video',
    name: 'a task',
    status: 200,
    run: (emu) => createVideo(emu, 'start-end2video', { model: 'videoq2-pro', images: [IMG, IMG] }),
  },
  {
    operation: 'video.startend2video',
    name: 'one image',
    status: 400,
    run: (emu) => createVideo(emu, 'start-end2video', { model: 'videoq2-pro', images: [IMG] }),
  },
  {
    operation: 'video.startend2video',
    name: 'too few credits as 402 (--video-credit-status 402)',
    status: 402,
    options: { videoCreditStatus: 402 },
    run: async (emu) => createVideo(emu, 'start-end2video', { model: 'videoq2-pro', images: [IMG, IMG] }, await brokeAccountKey(emu)),
  },
  {
    operation: 'video.multiframe',
    name: 'a task',
    status: 200,
    run: (emu) =>
      createVideo(emu, 'multiframe', { model: 'videoq2-pro', start_image: IMG, image_settings: [{ key_image: IMG }, { key_image: IMG, duration: 3 }] }),
  },
  {
    operation: 'video.multiframe',
    name: 'no key frames (the spec: image_settings is optional)',
    status: 200,
    run: (emu) => createVideo(emu, 'multiframe', { model: 'videoq2-pro', start_image: IMG }),
  },
  {
    operation: 'video.multiframe',
    name: 'one key frame with --multiframe-min-key-frames 2',
    status: 400,
    options: { multiframeMinKeyFrames: 2 },
    run: (emu) => createVideo(emu, 'multiframe', { model: 'videoq2-pro', start_image: IMG, image_settings: [{ key_image: IMG }] }),
  },
  {
    operation: 'video.multiframe',
    name: 'ten key frames',
    status: 400,
    run: (emu) =>
      createVideo(emu, 'multiframe', { model: 'videoq2-pro', start_image: IMG, image_settings: Array.from({ length: 10 }, () => ({ key_image: IMG })) }),
  },
  {
    operation: 'video.template2video',
    name: 'a task',
    status: 200,
    run: (emu) => createVideo(emu, 'template2video', { template: 'hug', images: [IMG], prompt: 'x', seed: 1 }),
  },
  {
    operation: 'video.template2video',
    name: 'an unknown template',
    status: 400,
    run: (emu) => createVideo(emu, 'template2video', { template: 'nothing', images: [IMG], prompt: 'x', seed: 1 }),
  },
  {
    operation: 'video.tasks.get',
    name: 'a new task',
    status: 200,
    run: async (emu) =>
      get(emu, `${ROUTER}/tasks/${(await createVideo(emu, 'text2video', { model: 'videoq2', prompt: 'x' })).body.task_id}/creations`, emu.keys.standard),
  },
  {
    operation: 'video.tasks.get',
    name: 'a finished task',
    status: 200,
    run: async (emu) => get(emu, `${ROUTER}/tasks/${await finishedTask(emu)}/creations`, emu.keys.standard),
  },
  {
    operation: 'video.tasks.get',
    name: 'an unknown task',
    status: 404,
    run: (emu) => get(emu, `${ROUTER}/tasks/123456789012345678/creations`, emu.keys.standard),
  },
  ...authCases('video.tasks.get', (emu, key) => get(emu, `${ROUTER}/tasks/123456789012345678/creations`, key), 'standard'),
  {
    operation: 'video.tasks.cancel',
    name: 'an off-peak task',
    status: 200,
    run: async (emu) =>
      send(
        emu,
        'POST',
        `${ROUTER}/tasks/${(await createVideo(emu, 'text2video', { model: 'videoq2', prompt: 'x', off_peak: true })).body.task_id}/cancel`,
        {},
        emu.keys.standard,
      ),
  },
  {
    operation: 'video.tasks.cancel',
    name: 'a finished task',
    status: 400,
    run: async (emu) => send(emu, 'POST', `${ROUTER}/tasks/${await finishedTask(emu)}/cancel`, {}, emu.keys.standard),
  },
  {
    operation: 'video.tasks.cancel',
    name: 'an unknown task',
    status: 404,
    run: (emu) => send(emu, 'POST', `${ROUTER}/tasks/123456789012345678/cancel`, {}, emu.keys.standard),
  },
  {
    operation: 'video.tasks.list',
    name: 'the list',
    status: 200,
    run: async (emu) => (await finishedTask(emu), get(emu, `${ROUTER}/tasks?pager.pagesz=5`, emu.keys.standard)),
  },
  { operation: 'video.tasks.list', name: 'a page size over 100', status: 400, run: (emu) => get(emu, `${ROUTER}/tasks?pager.pagesz=101`, emu.keys.standard) },
  { operation: 'video.tasks.list', name: 'an unknown state', status: 400, run: (emu) => get(emu, `${ROUTER}/tasks?states=done`, emu.keys.standard) },
  ...authCases('video.tasks.list', (emu, key) => get(emu, `${ROUTER}/tasks`, key), 'standard'),
  { operation: 'video.templates', name: 'the templates', status: 200, run: (emu) => get(emu, '/router/v1/video/templates', emu.keys.standard) },
  {
    operation: 'video.templates',
    name: 'a 500 fault',
    status: 500,
    run: async (emu) => (
      await send(emu, 'POST', '/_emulator/api/faults', { match: { operation: 'video.templates' }, action: { status: 500 } }),
      get(emu, '/router/v1/video/templates')
    ),
  },
  {
    operation: 'video.media',
    name: 'a video',
    status: 200,
    run: async (emu) => emu.request({ method: 'GET', url: `/router/v1/video/media/${await finishedTask(emu)}/video.mp4` }),
  },
  { operation: 'video.media', name: 'an unknown task', status: 404, run: (emu) => emu.request({ method: 'GET', url: '/router/v1/video/media/123/video.mp4' }) },
]
