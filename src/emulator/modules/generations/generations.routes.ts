// GET /generation (any key: the row of one of the account's billed calls), GET /generation/content (any key: the stored prompt and answer of one of the account's generations)
// and POST /generation/feedback (management key: one piece of feedback per generation, a later one
// replacing the earlier).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { caller } from '../../http/auth.ts'
import type { EmulatorContext } from '../module.ts'
import { contentNotStored, generationNotFound } from './generations.errors.ts'
import { ContentQuery, ContentResponse, FeedbackBody, FeedbackResponse, GenerationQuery, GenerationResponse } from './generations.schemas.ts'
import { contentView } from './generations.service.ts'

export const generationsRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  const { repo } = ctx.services.generations
  const tags = ['generations']

  app.get(
    '/generation',
    {
      config: { operation: 'generation.get', auth: 'any' },
      // Tagged as the chat call it describes, as before it moved here.
      schema: { summary: 'Get a past generation', tags: ['chat'], querystring: GenerationQuery, response: GenerationResponse },
    },
    async (request) => ({ data: ctx.services.generations.lookup(request.query.id, caller(request).account.id) }),
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
