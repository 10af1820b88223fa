// The fuzzed operations of the gateway's video API: a valid request of each, which the fuzz run
// (test/integration/fuzz/fuzz.ts) mutates into bad ones; fuzz/kit.ts says what this file exports.
import { IMG, PNG_DATA, type FuzzOperation } from '../fuzz/kit.ts'

export const operations: FuzzOperation[] = [
  {
    place: 72,
    method: 'POST',
    path: '/api/v1/videos',
    key: 'standard',
    body: {
      model: 'google/veo-3.1',
      prompt: 'p',
      frame_images: [{ type: 'image_url', image_url: { url: PNG_DATA }, frame_type: 'first_frame' }],
      input_references: [{ type: 'audio_url', audio_url: { url: 'data:audio/mpeg;base64,SUQz' } }],
    },
    media: [
      ['frame_images', 0, 'image_url', 'url'],
      ['input_references', 0, 'audio_url', 'url'],
    ],
  },
  {
    place: 91,
    method: 'POST',
    path: '/api/v1/videos',
    key: 'standard',
    body: {
      model: 'google/veo-3.1',
      prompt: 'p',
      duration: 4,
      size: '1280x720',
      frame_images: [{ type: 'image_url', image_url: { url: IMG }, frame_type: 'first_frame' }],
      callback_url: 'http://127.0.0.1:9/x',
    },
  },
  { place: 92, method: 'GET', path: '/api/v1/videos/models' },
  { place: 93, method: 'GET', path: '/api/v1/videos/123', key: 'standard' },
  { place: 94, method: 'GET', path: '/api/v1/videos/123/content?index=0', key: 'standard' },
]
