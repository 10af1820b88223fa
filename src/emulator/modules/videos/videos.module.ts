// The gateway's own asynchronous video API (/api/v1/videos): jobs that are tasks of the video engine,
// billed per video second, with the video models their fixture describes. Its jobs live in the video
// module's tables, so they are exported, imported and reset with its tasks.
import { defineModule } from '../module.ts'
import { loadVideoModels } from './videos.models.ts'
import { videosRoutes } from './videos.routes.ts'
import { VideosService } from './videos.service.ts'

declare module '../module.ts' {
  interface Services {
    videos: VideosService
  }
}

export const videosModule = defineModule({
  name: 'videos',
  needs: ['video', 'catalog', 'ratelimit', 'ledger', 'chat', 'usage', 'journal'],
  create: (ctx) => new VideosService(ctx, loadVideoModels(ctx.config.fixtures)),
  gateway: videosRoutes,
})
