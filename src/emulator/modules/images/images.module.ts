// Image generation: POST /images (the gateway's), POST /images/generations (OpenAI's), the image models
// and their endpoints; its service draws the images chat answers carry when asked for them.
import type { Limit } from '../../core/limits.ts'
import { defineModule } from '../module.ts'
import { MAX_N, MAX_PROMPT_CHARS, MAX_REFERENCES } from './images.schemas.ts'
import { MAX_REQUEST_PIXELS } from './images.models.ts'
import { imagesRoutes } from './images.routes.ts'
import { createImagesService, type ImagesService } from './images.service.ts'

declare module '../module.ts' {
  interface Services {
    images: ImagesService
  }
}

/** What this area bounds (docs/limits.md). */
const LIMITS: readonly Limit[] = [
  {
    what: "Characters of a prompt (its tokens are checked against the model's context too)",
    value: MAX_PROMPT_CHARS,
    unit: 'characters',
    beyond: '400 naming `prompt`',
  },
  { what: 'Images one request asks for (`n`; fewer where the model makes fewer)', value: MAX_N, unit: 'items', beyond: '400 naming `n`' },
  {
    what: 'Reference images in one request (fewer where the model takes fewer)',
    value: MAX_REFERENCES,
    unit: 'items',
    beyond: '400 naming `input_references`',
  },
  {
    what: 'Pixels of all the images of one request together (one 4096x4096, or ten 1K ones)',
    value: MAX_REQUEST_PIXELS,
    unit: 'pixels',
    beyond: '400 naming `n`, before billing',
  },
]

export const imagesModule = defineModule({
  name: 'images',
  limits: LIMITS,
  needs: ['catalog', 'journal', 'meter'],
  create: (ctx) => createImagesService(ctx),
  gateway: imagesRoutes,
})
