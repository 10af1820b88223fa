// POST /api/v1/messages (standard key): the Anthropic Messages API. Its routes are a scope of their
// own (under /api/v1/messages) that answers every error in Anthropic's envelope: those of the gateway
// scope's hooks (authentication, faults, the journal's), body parsing, validation, billing, and the
// 404 of any other path under it (an SDK's /v1/messages/count_tokens).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { createRng } from '../../core/rng.ts'
import { caller } from '../../http/auth.ts'
import { installErrorHandling, installNotFound } from '../../http/error-handler.ts'
import type { EmulatorContext } from '../module.ts'
import { isRelayed, textCall } from '../text/text-engine.service.ts'
import { answerText } from '../text/text.stream.ts'
import { apiKeyHeader } from './messages.errors.ts'
import { MessagesBody, MessagesResponse } from './messages.schemas.ts'
import { createMessage, messageResult, OPERATION } from './messages.service.ts'
import { messageFrames } from './messages.stream.ts'

/** Messages may carry images and PDFs as base64. */
const MESSAGES_BODY_LIMIT = 32 * 1024 * 1024

const messagesScope: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  // Before the routes: each route keeps the error handler of the scope it was declared in.
  const traceRng = createRng(ctx.config.seed, 'trace:messages')
  // A key sent only as `x-api-key` (the Anthropic SDKs' way, which the real document does not list)
  // fails authentication like no key at all, and is told how to send it instead.
  installErrorHandling(app, traceRng, 'anthropic', (error, request) =>
    error.status === 401 && request.headers.authorization === undefined && request.headers['x-api-key'] !== undefined ? apiKeyHeader() : error,
  )
  installNotFound(app, traceRng, 'anthropic')
  app.post(
    '',
    {
      config: { operation: OPERATION, auth: 'standard', text: 'messages', recordable: 'completions', presettable: true },
      bodyLimit: MESSAGES_BODY_LIMIT,
      schema: { summary: 'Create a message (the Anthropic Messages API)', tags: ['messages'], body: MessagesBody, response: MessagesResponse },
    },
    async (request, reply) => {
      const call = textCall(OPERATION, request, reply, request.body.stream === true)
      const { completion, options } = await createMessage(ctx, caller(request), request.body, call)
      // Relayed from the upstream gateway as it came: answered already.
      if (isRelayed(completion)) return reply
      return answerText(ctx, request, reply, completion, {
        stream: request.body.stream === true,
        json: () => messageResult(completion, options),
        frames: () => messageFrames(completion, options),
      })
    },
  )
}

export const messagesRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  await app.register(messagesScope, { prefix: '/messages', ctx })
}
