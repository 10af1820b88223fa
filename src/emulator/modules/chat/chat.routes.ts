// POST /api/v1/chat/completions and POST /api/v1/completions (standard key).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { EmulatorContext } from '../module.ts'
import { caller } from '../../http/auth.ts'
import { ChatBody, ChatResponse, CompletionBody, CompletionResponse } from './chat.schemas.ts'
import { chatResult, chatSurface, completionsSurface, createChatCompletion, createTextCompletion, textResult } from './chat.service.ts'
import { chatFrames } from './chat.stream.ts'
import { isRelayed, textCall } from '../text/text-engine.service.ts'
import { answerText } from '../text/text.stream.ts'

/** Messages may carry images as data URIs. */
const CHAT_BODY_LIMIT = 32 * 1024 * 1024

export const chatRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  app.post(
    '/chat/completions',
    {
      config: { operation: 'chat.create', auth: 'standard', text: 'chat', recordable: 'completions', presettable: true },
      bodyLimit: CHAT_BODY_LIMIT,
      schema: { summary: 'Create a chat completion', tags: ['chat'], body: ChatBody, response: ChatResponse },
    },
    async (request, reply) => {
      const call = textCall(chatSurface.operation, request, reply, request.body.stream === true)
      const completion = await createChatCompletion(ctx, caller(request), request.body, call)
      // Relayed from the upstream gateway as it came: answered already.
      if (isRelayed(completion)) return reply
      return answerText(ctx, request, reply, completion, {
        stream: request.body.stream === true,
        json: () => chatResult(completion),
        frames: () => chatFrames(completion, 'chat'),
      })
    },
  )

  app.post(
    '/completions',
    {
      config: { operation: 'completions.create', auth: 'standard', text: 'completions', recordable: 'completions' },
      bodyLimit: CHAT_BODY_LIMIT,
      schema: { summary: 'Create a text completion (legacy: a prompt in, text out)', tags: ['chat'], body: CompletionBody, response: CompletionResponse },
    },
    async (request, reply) => {
      const call = textCall(completionsSurface.operation, request, reply, request.body.stream === true)
      const completion = await createTextCompletion(ctx, caller(request), request.body, call)
      if (isRelayed(completion)) return reply
      return answerText(ctx, request, reply, completion, {
        stream: request.body.stream === true,
        json: () => textResult(completion),
        frames: () => chatFrames(completion, 'text'),
      })
    },
  )
}
