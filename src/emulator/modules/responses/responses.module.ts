// The OpenAI-style Responses API (POST /api/v1/responses) on the text engine shared with chat: no
// state of its own (answers are generations, billed and recorded by the engine).
import { defineModule } from '../module.ts'
import { responsesRoutes } from './responses.routes.ts'

export const responsesModule = defineModule({ name: 'responses', needs: ['catalog', 'chat'], gateway: responsesRoutes })
