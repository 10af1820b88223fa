// The Anthropic Messages API (POST /api/v1/messages) on the text engine: answers, billing, generations
// and chat fixtures are chat's; the request, the message, its stream and its errors are Anthropic's.
import { defineModule } from '../module.ts'
import { messagesRoutes } from './messages.routes.ts'

export const messagesModule = defineModule({ name: 'messages', needs: ['catalog', 'chat', 'recordings'], gateway: messagesRoutes })
