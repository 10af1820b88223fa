// The video router: asynchronous tasks that advance on the clock, their media, and the admin API. The
// gateway's own video jobs (modules/videos) are tasks of this engine too.
import { importRowError } from '../../core/lifecycle.ts'
import { defineModule } from '../module.ts'
import { GATEWAY_OPERATION, StoredTaskRequest } from './video.schemas.ts'
import { videoAdminRoutes } from './video.admin.ts'
import { videoRoutes } from './video.routes.ts'
import { loadVideoFixtures, VideoService } from './video.service.ts'

declare module '../module.ts' {
  interface Services {
    video: VideoService
  }
}

export const videoModule = defineModule({
  name: 'video',
  needs: ['ratelimit', 'callbacks', 'journal', 'ledger'],
  create: (ctx) => new VideoService(ctx, loadVideoFixtures(ctx.config.fixtures)),
  state: (ctx) => [
    {
      ...ctx.services.video.state(),
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
  due: (ctx) => [ctx.services.video.dueSource()],
  router: videoRoutes,
  admin: videoAdminRoutes,
})
