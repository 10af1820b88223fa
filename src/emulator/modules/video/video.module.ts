// The video router: asynchronous tasks that advance on the clock, their media, and the admin API.
import { defineModule } from '../module.ts'
import { StoredVideoRequest } from './video.schemas.ts'
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
      imports: { video_tasks: { json: { request: StoredVideoRequest } } },
      mints: [{ kind: 'video-task', table: 'video_tasks', column: 'id', idOf: (ids, label) => ids.task(label) }],
    },
  ],
  due: (ctx) => [ctx.services.video.dueSource()],
  router: videoRoutes,
  admin: videoAdminRoutes,
})
