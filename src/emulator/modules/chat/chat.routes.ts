// POST /api/v1/chat/completions, POST /api/v1/completions (standard key) and GET /api/v1/generation.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { toIso } from '../../core/clock.ts'
import { ApiError } from '../../core/errors.ts'
import { nanosToUsd } from '../../core/money.ts'
import type { EmulatorContext } from '../module.ts'
import { requestOrigin } from '../../http/request-origin.ts'
import { caller } from '../../http/auth.ts'
import { isEuRequest } from '../../http/listeners.ts'
import { ChatBody, ChatResponse, CompletionBody, CompletionResponse, GenerationQuery, GenerationResponse } from './chat.schemas.ts'
import { chatResult, createChatCompletion, createTextCompletion, textResult } from './chat.service.ts'
import { chatFrames } from './chat.stream.ts'
import { answerText } from '../text/text-stream.ts'

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
      const region = isEuRequest(request.raw) ? 'eu' : null
      const completion = await createChatCompletion(ctx, caller(request), request.body, region, requestOrigin(request))
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
      const region = isEuRequest(request.raw) ? 'eu' : null
      const completion = await createTextCompletion(ctx, caller(request), request.body, region, requestOrigin(request))
      return answerText(ctx, request, reply, completion, {
        stream: request.body.stream === true,
        json: () => textResult(completion),
        frames: () => chatFrames(completion, 'text'),
      })
    },
  )

  app.get(
    '/generation',
    {
      config: { operation: 'generation.get', auth: 'any' },
      schema: { summary: 'Get a past generation', tags: ['chat'], querystring: GenerationQuery, response: GenerationResponse },
    },
    async (request) => {
      const found = ctx.services.chat.generations.get(request.query.id, caller(request).account.id)
      if (!found) throw new ApiError(404, `Generation ${request.query.id} not found`)
      const cost = nanosToUsd(found.cost_nanos)
      return {
        data: {
          id: found.id,
          upstream_id: null,
          total_cost: cost,
          cache_discount: null,
          upstream_inference_cost: null,
          created_at: toIso(found.created_at),
          model: found.model,
          app_id: null,
          streamed: found.streamed === 1,
          cancelled: false,
          provider_name: found.provider,
          latency: found.latency_ms,
          moderation_latency: null,
          generation_time: found.generation_time_ms,
          finish_reason: found.finish_reason,
          native_finish_reason: found.finish_reason,
          tokens_prompt: found.prompt_tokens,
          tokens_completion: found.completion_tokens,
          native_tokens_prompt: found.prompt_tokens,
          native_tokens_completion: found.completion_tokens,
          native_tokens_completion_images: null,
          native_tokens_reasoning: found.reasoning_tokens,
          native_tokens_cached: 0,
          num_media_prompt: null,
          num_input_audio_prompt: null,
          num_media_completion: null,
          num_search_results: null,
          num_fetches: null,
          web_search_engine: null,
          origin: found.http_referer ?? '',
          usage: cost,
          is_byok: found.byok === 1,
          api_type: found.api_type,
          http_referer: found.http_referer,
          user_agent: found.user_agent,
          external_user: found.external_user,
          preset_id: null,
          router: null,
          workspace_id: null,
          service_tier: null,
          provider_responses: null,
          data_region: 'global',
        },
      }
    },
  )
}
