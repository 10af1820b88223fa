// The Anthropic Messages API (POST /api/v1/messages) on the text engine: answers, billing, generations
// and chat fixtures are chat's; the request, the message, its stream and its errors are Anthropic's.
import type { Limit } from '../../core/limits.ts'
import { defineModule } from '../module.ts'
import { MAX_BLOCKS, MAX_MESSAGES, MAX_STOP_SEQUENCES, MAX_TOOLS } from './messages.schemas.ts'
import { messagesRoutes } from './messages.routes.ts'
import { messagesSurface } from './messages.service.ts'
import type { TextSurface } from '../text/text-ports.service.ts'

declare module '../module.ts' {
  interface Services {
    /** The Messages API as registered with the text engine. */
    messages: TextSurface
  }
}

/** What this area bounds (docs/limits.md). */
const LIMITS: readonly Limit[] = [
  { what: 'Messages in one request', value: MAX_MESSAGES, unit: 'items', beyond: "400 naming `messages`, in Anthropic's envelope" },
  { what: 'Content blocks in one message, tool result or system prompt', value: MAX_BLOCKS, unit: 'items', beyond: '400 naming the field' },
  { what: 'Tools in one request', value: MAX_TOOLS, unit: 'items', beyond: '400 naming `tools`' },
  { what: 'Stop sequences', value: MAX_STOP_SEQUENCES, unit: 'items', beyond: '400 naming `stop_sequences`' },
]

export const messagesModule = defineModule({
  name: 'messages',
  limits: LIMITS,
  needs: ['catalog', 'presets', 'text'],
  create: (ctx) => ctx.services.text.ports.registerSurface(messagesSurface),
  gateway: messagesRoutes,
})
