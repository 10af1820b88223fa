// The admin API's clock: read it, move it forward (running every transition due on the way), set it,
// freeze it, let it run. Every move is told on the event stream.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { parseDuration } from '../../core/clock.ts'
import { data } from '../../http/schemas.ts'
import type { EmulatorContext } from '../module.ts'
import { ClockAdvanceBody, ClockSetBody, ClockState } from './clock.schemas.ts'
import { advanceIntoPast, oneAdvanceAmount, unreadableDuration } from './clock.errors.ts'

export const clockAdminRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  const clockReply = async (promise: Promise<unknown> | unknown) => {
    await promise
    const state = ctx.clock.state()
    ctx.events.emit('clock.moved', state)
    return { data: state }
  }

  app.get('/clock', { config: { operation: 'admin.clock.get' }, schema: { response: data(ClockState) } }, async () => ({ data: ctx.clock.state() }))

  app.post(
    '/clock/advance',
    { config: { operation: 'admin.clock.advance' }, schema: { response: data(ClockState), body: ClockAdvanceBody } },
    async (request) => {
      const { ms, by, to } = request.body
      const given = [ms, by, to].filter((v) => v !== undefined).length
      if (given !== 1) throw oneAdvanceAmount()
      if (to !== undefined) {
        const target = Date.parse(to)
        if (target < ctx.clock.now()) {
          throw advanceIntoPast(to, ctx.clock.nowIso())
        }
        return clockReply(ctx.clock.advanceTo(target))
      }
      let amount: number
      try {
        amount = parseDuration(ms ?? by!)
      } catch (error) {
        throw unreadableDuration((error as Error).message)
      }
      return clockReply(ctx.clock.advance(amount))
    },
  )

  app.post('/clock/set', { config: { operation: 'admin.clock.set' }, schema: { response: data(ClockState), body: ClockSetBody } }, async (request) =>
    clockReply(ctx.clock.set(Date.parse(request.body.to))),
  )
  app.post('/clock/freeze', { config: { operation: 'admin.clock.freeze' }, schema: { response: data(ClockState) } }, async () => clockReply(ctx.clock.freeze()))
  app.post('/clock/resume', { config: { operation: 'admin.clock.resume' }, schema: { response: data(ClockState) } }, async () => clockReply(ctx.clock.resume()))
}
