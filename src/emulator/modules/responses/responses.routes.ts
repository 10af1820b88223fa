// POST /api/v1/responses (standard key): the OpenAI-style Responses API, answered by the text engine.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { EmulatorContext } from '../module.ts'
import { caller } from '../../http/auth.ts'
import { isRelayed, textCall } from '../text/text-engine.service.ts'
import { answerText } from '../text/text.stream.ts'
import { ResponsesBody, ResponsesResponse } from './responses.schemas.ts'
import { createResponse, responseResult, responsesSurface } from './responses.service.ts'
import { responseFrames } from './responses.stream.ts'

/** Input items may carry images and files as data URIs. */
const RESPONSES_BODY_LIMIT = 32 * 1024 * 1024

export const responsesRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  app.post(
    '/responses',
    {
      config: { operation: 'responses.create', auth: 'standard', text: 'responses', recordable: 'completions', presettable: true },
      bodyLimit: RESPONSES_BODY_LIMIT,
      schema: { summary: 'Create a response (the OpenAI-style Responses API)', tags: ['responses'], body: ResponsesBody, response: ResponsesResponse },
    },
    async (request, reply) => {
      const call = textCall(responsesSurface.operation, request, reply, request.body.stream === true)
      const created = await createResponse(ctx, caller(request), request.body, call)
      // Relayed from the upstream gateway as it came: answered already.
      if (isRelayed(created)) return reply
      return answerText(ctx, request, reply, created.completion, {
        stream: request.body.stream === true,
        json: () => responseResult(created),
        frames: () => responseFrames(created),
      })
    },
  )
}
