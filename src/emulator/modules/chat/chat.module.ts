// Chat and text completions: the two surfaces of the text engine that speak chat's words (their routes,
// bodies and renderings, registered with the engine). GET /api/v1/generation is mounted among its routes
// (where the OpenAPI document lists it); the generations module answers it.
import type { Limit } from '../../core/limits.ts'
import { defineModule } from '../module.ts'
import { MAX_CHOICES, MAX_MESSAGES, MAX_TOOLS } from './chat.schemas.ts'
import { chatRoutes } from './chat.routes.ts'
import { chatSurface, completionsSurface } from './chat.service.ts'

/** Chat offers the other areas nothing but its registration with the engine. */
export type ChatService = Record<never, never>

declare module '../module.ts' {
  interface Services {
    chat: ChatService
  }
}

/** What this area bounds (docs/limits.md). */
const LIMITS: readonly Limit[] = [
  { what: 'Messages in one chat or text completion', value: MAX_MESSAGES, unit: 'items', beyond: '400 naming `messages`' },
  { what: 'Tools in one request', value: MAX_TOOLS, unit: 'items', beyond: '400 naming `tools`' },
  { what: 'Choices in one request (`n`)', value: MAX_CHOICES, unit: 'items', beyond: '400 naming `n`' },
]

export const chatModule = defineModule({
  name: 'chat',
  limits: LIMITS,
  needs: ['catalog', 'presets', 'text'],
  create: (ctx) => {
    ctx.services.text.ports.registerSurface(chatSurface)
    ctx.services.text.ports.registerSurface(completionsSurface)
    return {}
  },
  gateway: chatRoutes,
})
