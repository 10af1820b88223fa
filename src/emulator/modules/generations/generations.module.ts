// Generation content and feedback: the prompt and answer of each text generation (kept by the text
// engine as it records the generation), and the feedback given on a generation.
import { defineModule } from '../module.ts'
import { generationsAdminRoutes } from './generations.admin.ts'
import { createGenerationsContentRepo, generationsContentState } from './generations.repo.ts'
import { generationsRoutes } from './generations.routes.ts'
import { ContentInput } from './generations.schemas.ts'
import { createGenerationsService, type GenerationsService } from './generations.service.ts'

declare module '../module.ts' {
  interface Services {
    generations: GenerationsService
  }
}

export const generationsModule = defineModule({
  name: 'generations',
  needs: ['accounts', 'chat'],
  create: (ctx) => createGenerationsService(createGenerationsContentRepo(ctx.db)),
  state: (ctx) => [{ ...generationsContentState(ctx.db), imports: { generation_contents: { json: { input: ContentInput } } } }],
  gateway: generationsRoutes,
  admin: generationsAdminRoutes,
})
