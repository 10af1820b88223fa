// The admin API's view of the feedback an account gave on its generations (the inspector and tests read it).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { toIso } from '../../core/clock.ts'
import { data } from '../../http/schemas.ts'
import type { EmulatorContext } from '../module.ts'
import { requireAccount } from '../accounts/accounts.service.ts'
import { FeedbackView } from './generations.schemas.ts'

const AccountParams = Type.Object({ id: Type.String() })

export const generationsAdminRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  app.get(
    '/accounts/:id/generation-feedback',
    { config: { operation: 'admin.generations.feedback.list' }, schema: { params: AccountParams, response: data(Type.Array(FeedbackView)) } },
    async (request) => ({
      data: ctx.services.generations.repo.feedback(requireAccount(ctx, request.params.id).id).map((row): FeedbackView => ({
        generation_id: row.generation_id,
        category: row.category as FeedbackView['category'],
        comment: row.comment,
        created_at: toIso(row.created_at),
        updated_at: row.updated_at === null ? null : toIso(row.updated_at),
      })),
    }),
  )
}
