// Image generation: POST /images (the gateway's), POST /images/generations (OpenAI's), the image models
// and their endpoints; its service draws the images chat answers carry when asked for them.
import { defineModule } from '../module.ts'
import { imagesRoutes } from './images.routes.ts'
import { createImagesService, type ImagesService } from './images.service.ts'

declare module '../module.ts' {
  interface Services {
    images: ImagesService
  }
}

export const imagesModule = defineModule({
  name: 'images',
  needs: ['catalog', 'chat', 'journal', 'ledger', 'ratelimit'],
  create: (ctx) => createImagesService(ctx),
  gateway: imagesRoutes,
})
