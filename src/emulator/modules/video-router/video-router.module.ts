// The video router: asynchronous tasks that advance on the clock, their media, and the admin API. The
// gateway's own video jobs (modules/videos) are tasks of this engine too.
import { importRowError } from '../../core/lifecycle.ts'
import type { Limit } from '../../core/limits.ts'
import { defineModule } from '../module.ts'
import { MAX_IMAGE_BYTES } from '../../media/image-inspect.ts'
import { GATEWAY_OPERATION, MAX_KEYFRAMES, MAX_PAYLOAD, MAX_PROMPT, StoredTaskRequest } from './video-router.schemas.ts'
import { videoAdminRoutes } from './video-router.admin.ts'
import { videoRoutes } from './video-router.routes.ts'
import { loadVideoFixtures, VideoService } from './video-router.service.ts'
import { VIDEO_CONFIG } from './video-router.config.ts'

declare module '../module.ts' {
  interface Services {
    'video-router': VideoService
  }
}

/** What this area bounds (docs/limits.md). */
const LIMITS: readonly Limit[] = [
  { what: 'Bytes of one inline image (decoded)', value: MAX_IMAGE_BYTES, unit: 'bytes', beyond: '400 `PageSizeOutOfRange` naming it, as it arrives' },
  { what: 'Characters of a prompt', value: MAX_PROMPT, unit: 'characters', beyond: '400 `FieldInvalid` naming `prompt`' },
  { what: "Characters of a task's `payload`", value: MAX_PAYLOAD, unit: 'characters', beyond: '400 `FieldInvalid` naming `payload`' },
  { what: 'Key frames of a multiframe task', value: MAX_KEYFRAMES, unit: 'items', beyond: '400 `FieldInvalid` naming `image_settings`' },
]

export const videoModule = defineModule({
  name: 'video-router',
  config: VIDEO_CONFIG,
  limits: LIMITS,
  needs: ['meter', 'callbacks', 'journal'],
  create: (ctx) => new VideoService(ctx, loadVideoFixtures(ctx.config.fixtures)),
  state: (ctx) => [
    {
      ...ctx.services['video-router'].state(),
      imports: {
        video_tasks: {
          json: { request: StoredTaskRequest },
          // Each surface reads its own tasks' requests: the column and the request must agree on whose it is.
          check: (row, i) => {
            if (typeof row.request !== 'string') return
            const gateway = (JSON.parse(row.request) as { operation: string }).operation === GATEWAY_OPERATION
            if (gateway !== (row.operation === GATEWAY_OPERATION))
              throw importRowError('video_tasks', i, 'operation', `must be ${GATEWAY_OPERATION} exactly when its request's operation is ${GATEWAY_OPERATION}`)
          },
        },
      },
      mints: [{ kind: 'video-task', table: 'video_tasks', column: 'id', idOf: (ids, label) => ids.task(label) }],
    },
  ],
  due: (ctx) => [ctx.services['video-router'].dueSource()],
  router: videoRoutes,
  admin: videoAdminRoutes,
})
