// GET /generation (any key: one of the account's generations, with its usage row's figures), GET
// /generation/content (any key: the stored prompt and answer of one of the account's generations)
// and POST /generation/feedback (management key: one piece of feedback per generation, a later one
// replacing the earlier).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { toIso } from '../../core/clock.ts'
import { ApiError } from '../../core/errors.ts'
import { nanosToUsd } from '../../core/money.ts'
import { caller } from '../../http/auth.ts'
import type { EmulatorContext } from '../module.ts'
import { contentNotStored, generationNotFound } from './generations.errors.ts'
import { ContentQuery, ContentResponse, FeedbackBody, FeedbackResponse, GenerationQuery, GenerationResponse } from './generations.schemas.ts'
import { contentView } from './generations.service.ts'

export const generationsRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  const { repo } = ctx.services.generations
  const tags = ['generations']

  // Tagged `chat` in the OpenAPI document, as it was when chat served it.
  app.get(
    '/generation',
    {
      config: { operation: 'generation.get', auth: 'any' },
      schema: { summary: 'Get a past generation', tags: ['chat'], querystring: GenerationQuery, response: GenerationResponse },
    },
    async (request) => {
      const found = ctx.services.generations.get(request.query.id, caller(request).account.id)
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

  app.get(
    '/generation/content',
    {
      config: { operation: 'generation.content', auth: 'any' },
      schema: { summary: "A past generation's stored prompt and answer", tags, querystring: ContentQuery, response: ContentResponse },
    },
    async (request) => {
      const { account } = caller(request)
      const { id } = request.query
      const generation = ctx.services.generations.get(id, account.id)
      if (!generation) throw generationNotFound(id, 'id', 'querystring')
      const row = repo.content(id, account.id)
      if (!row) throw contentNotStored(id, generation.api_type)
      return { data: contentView(row, generation) }
    },
  )

  app.post(
    '/generation/feedback',
    {
      config: { operation: 'generation.feedback', auth: 'management' },
      schema: { summary: 'Give feedback on a generation', tags, body: FeedbackBody, response: FeedbackResponse },
    },
    async (request) => {
      const { account } = caller(request)
      const { generation_id, category, comment } = request.body
      ctx.db
        .transaction(() => {
          if (!ctx.services.generations.get(generation_id, account.id)) throw generationNotFound(generation_id, 'generation_id', 'body')
          repo.upsertFeedback({ generation_id, account_id: account.id, category, comment: comment ?? null, created_at: ctx.clock.now(), updated_at: null })
        })
        .immediate()
      return { data: { success: true as const } }
    },
  )
}
