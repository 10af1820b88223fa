// The fuzzed operations of the video router and its settings: a valid request of each, which the fuzz run
// (test/integration/fuzz/fuzz.ts) mutates into bad ones; fuzz/kit.ts says what this file exports.
import { IMG, PNG_BASE64, PNG_DATA, type FuzzOperation } from '../fuzz/kit.ts'

export const operations: FuzzOperation[] = [
  {
    place: 73,
    method: 'POST',
    path: '/router/v1/video/ent/v2/start-end2video',
    key: 'standard',
    body: { model: 'videoq2-pro', images: [PNG_BASE64, PNG_DATA], payload: 'p' },
    media: [['images', 0], ['images', 1], ['payload']],
  },
  {
    place: 74,
    method: 'POST',
    path: '/router/v1/video/ent/v2/multiframe',
    key: 'standard',
    body: { model: 'videoq2-pro', start_image: PNG_DATA, image_settings: [{ key_image: PNG_BASE64, duration: 3 }] },
    media: [['start_image'], ['image_settings', 0, 'key_image']],
  },
  {
    place: 85,
    method: 'POST',
    path: '/router/v1/video/ent/v2/text2video',
    key: 'standard',
    body: { model: 'videoq2', prompt: 'p', duration: 5, resolution: '720p', seed: '3', callback_url: 'http://127.0.0.1:9/x' },
  },
  {
    place: 86,
    method: 'POST',
    path: '/router/v1/video/ent/v2/img2video',
    key: 'standard',
    body: { model: 'videoq2-pro', images: [IMG], movement_amplitude: 'auto' },
  },
  {
    place: 87,
    method: 'POST',
    path: '/router/v1/video/ent/v2/multiframe',
    key: 'standard',
    body: { model: 'videoq2-pro', start_image: IMG, image_settings: [{ key_image: IMG, duration: 3 }, { key_image: IMG }] },
  },
  { place: 88, method: 'POST', path: '/router/v1/video/ent/v2/start-end2video', key: 'standard', body: { model: 'videoq2-pro', images: [IMG, IMG] } },
  { place: 89, method: 'POST', path: '/router/v1/video/ent/v2/reference2video', key: 'standard', body: { model: 'videoq2', images: [IMG], prompt: 'p' } },
  {
    place: 90,
    method: 'POST',
    path: '/router/v1/video/ent/v2/template2video',
    key: 'standard',
    body: { template: 'hug', images: [IMG], prompt: 'p', seed: 1 },
  },
  { place: 95, method: 'GET', path: '/router/v1/video/ent/v2/tasks?states=success&pager.pagesz=5', key: 'standard' },
  { place: 96, method: 'GET', path: '/router/v1/video/ent/v2/tasks/123/creations', key: 'standard' },
  { place: 97, method: 'POST', path: '/router/v1/video/ent/v2/tasks/123/cancel', key: 'standard', body: {} },
  { place: 106, method: 'PUT', path: '/_emulator/api/video/settings', body: { failure_rate: 0.1, queueing_ms: 10 } },
]
