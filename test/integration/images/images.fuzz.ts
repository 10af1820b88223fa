// The fuzzed operations of images: a valid request of each, which the fuzz run
// (test/integration/fuzz/fuzz.ts) mutates into bad ones; fuzz/kit.ts says what this file exports.
import { IMG, PNG_DATA, type FuzzOperation } from '../fuzz/kit.ts'

export const operations: FuzzOperation[] = [
  {
    place: 61,
    method: 'POST',
    path: '/api/v1/images',
    key: 'standard',
    body: {
      model: 'openai/gpt-image-1',
      prompt: 'p',
      n: 2,
      size: '1024x1024',
      output_format: 'webp',
      background: 'transparent',
      input_references: [{ type: 'image_url', image_url: { url: IMG } }],
      provider: { order: ['openai'] },
    },
  },
  {
    place: 62,
    method: 'POST',
    path: '/api/v1/images',
    key: 'standard',
    body: { model: 'bytedance-seed/seedream-4.5', prompt: 'p', resolution: '2K', aspect_ratio: '16:9', output_format: 'jpeg', seed: 1 },
  },
  {
    place: 63,
    method: 'POST',
    path: '/api/v1/images/generations',
    key: 'standard',
    body: { model: 'openai/dall-e-3', prompt: 'p', size: '1792x1024', response_format: 'url', quality: 'hd' },
  },
  { place: 64, method: 'GET', path: '/api/v1/images/models' },
  { place: 65, method: 'GET', path: '/api/v1/images/models/openai/gpt-image-1/endpoints' },
  {
    place: 75,
    method: 'POST',
    path: '/api/v1/images',
    key: 'standard',
    body: { model: 'openai/gpt-image-1', prompt: 'p', size: '1024x1024', input_references: [{ type: 'image_url', image_url: { url: PNG_DATA } }] },
    media: [['input_references', 0, 'image_url', 'url'], ['prompt']],
  },
]
