// The gateway's own asynchronous video API (/api/v1/videos): jobs that are tasks of the video engine,
// billed per video second, with the video models their fixture describes. Its jobs live in the video
// module's tables, so they are exported, imported and reset with its tasks.
import type { Limit } from '../../core/limits.ts'
import { defineModule } from '../module.ts'
import { MAX_DURATION, MAX_INPUT_REFERENCES, MAX_PROMPT, MAX_URL } from './videos.schemas.ts'
import { MAX_IMAGE_BYTES } from '../../media/image-inspect.ts'
import { loadVideoModels } from './videos.models.ts'
import { videosRoutes } from './videos.routes.ts'
import { VideosService } from './videos.service.ts'

declare module '../module.ts' {
  interface Services {
    videos: VideosService
  }
}

/** What this area bounds (docs/limits.md). */
const LIMITS: readonly Limit[] = [
  {
    what: 'Bytes of one inline frame or reference (decoded)',
    value: MAX_IMAGE_BYTES,
    unit: 'bytes',
    beyond: '400 naming the field, as it arrives (before the rest of the body is read)',
  },
  { what: 'Input references in one job', value: MAX_INPUT_REFERENCES, unit: 'items', beyond: '400 naming `input_references`' },
  { what: 'Characters of a prompt', value: MAX_PROMPT, unit: 'characters', beyond: '400 naming `prompt`' },
  { what: 'Characters of a URL (a reference, a callback)', value: MAX_URL, unit: 'characters', beyond: '400 naming the field' },
  { what: 'Seconds of video one job asks for (fewer where the model makes fewer)', value: MAX_DURATION, unit: 'seconds', beyond: '400 naming `duration`' },
]

export const videosModule = defineModule({
  name: 'videos',
  limits: LIMITS,
  needs: ['video-router', 'catalog', 'meter', 'generations', 'usage'],
  create: (ctx) => new VideosService(ctx, loadVideoModels(ctx.config.fixtures)),
  gateway: videosRoutes,
})
