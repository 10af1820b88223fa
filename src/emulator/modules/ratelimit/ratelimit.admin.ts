// The admin API's request limits on inference routes: read them, set them.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { data } from '../../http/schemas.ts'
import type { EmulatorContext } from '../module.ts'
import { RateLimits, RateLimitsBody } from './ratelimit.service.ts'

export const ratelimitAdminRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  app.get('/rate-limits', { config: { operation: 'admin.rateLimits.get' }, schema: { response: data(RateLimits) } }, async () => ({
    data: ctx.services.ratelimit.limits(),
  }))

  app.put('/rate-limits', { config: { operation: 'admin.rateLimits.set' }, schema: { response: data(RateLimits), body: RateLimitsBody } }, async (request) => ({
    data: ctx.services.ratelimit.configure(request.body),
  }))
}
