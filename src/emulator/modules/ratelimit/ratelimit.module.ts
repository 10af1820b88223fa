// Optional request limits on inference routes, per key and per account.
import { defineModule, type EmulatorContext } from '../module.ts'
import { ratelimitAdminRoutes } from './ratelimit.admin.ts'
import { createRateLimiter, rateLimitState, type RateLimiter, type RateLimits } from './ratelimit.service.ts'
import { RATELIMIT_CONFIG } from './ratelimit.config.ts'

declare module '../module.ts' {
  interface Services {
    ratelimit: RateLimiter
  }
}

const configured = ({ config }: EmulatorContext): RateLimits => ({
  keyPerMinute: config.rateLimitKeyPerMinute,
  keyPerDay: config.rateLimitKeyPerDay,
  accountPerMinute: config.rateLimitAccountPerMinute,
  accountPerDay: config.rateLimitAccountPerDay,
})

export const ratelimitModule = defineModule({
  name: 'ratelimit',
  config: RATELIMIT_CONFIG,
  create: (ctx) => createRateLimiter(configured(ctx)),
  state: (ctx) => [rateLimitState(ctx.services.ratelimit, configured(ctx))],
  admin: ratelimitAdminRoutes,
})
