// Admin side of the video router (under /_emulator/api/video): see every task with its timeline, push
// one along (advance, succeed, fail with a code, change its planned outcome), and tune the engine.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { toIso } from '../../core/clock.ts'
import type { EmulatorContext } from '../module.ts'
import { data, Nullable, OptionalBody, page, StringEnum } from '../../http/schemas.ts'
import type { TaskRow } from './video-router.repo.ts'
import type { VideoRequest } from './video-router.input.ts'
import { VideoSettingsBody } from './video-router.service.ts'
import { VideoSettings, VideoTask } from './video-router.schemas.ts'
import { videoTaskEnded, videoTaskNotFound } from './video-router.errors.ts'

const TaskParams = Type.Object({ id: Type.String() })

/** What the task was asked to show: its prompt, or a multi-frame task's key-frame prompts in order. */
function promptOf(request: VideoRequest): string | null {
  if (request.prompt !== null) return request.prompt
  const segments = (request.segments ?? []).flatMap((s) => (s.prompt === null ? [] : [s.prompt]))
  return segments.length > 0 ? segments.join(' / ') : null
}

export const videoAdminRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  const video = ctx.services['video-router']
  const requireTask = (id: string): TaskRow => {
    const task = ctx.services['video-router'].tasks.get(id)
    if (!task) throw videoTaskNotFound(id)
    return task
  }
  const adminView = (task: TaskRow): VideoTask => {
    const request = JSON.parse(task.request) as VideoRequest
    return {
      ...video.view(task, ctx.clock.now()),
      ...(task.template !== null && { template: task.template }),
      created_at: toIso(task.created_at),
      account_id: task.account_id,
      key_hash: task.key_hash,
      operation: task.operation,
      prompt: promptOf(request),
      duration: request.duration,
      request,
      callback_url: task.callback_url,
      planned_outcome: task.outcome,
      next_transition_at: task.next_at === null ? null : toIso(task.next_at),
      timeline: ctx.services['video-router'].tasks.timeline(task.id).map((t) => ({ state: t.state, at: toIso(t.at) })),
    }
  }

  app.get(
    '/video/tasks',
    {
      config: { operation: 'admin.video.tasks.list' },
      schema: {
        response: page(VideoTask),
        querystring: Type.Object({
          account: Type.Optional(Type.String()),
          state: Type.Optional(StringEnum(['created', 'queueing', 'processing', 'success', 'failed'] as const)),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
          offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1e9 })),
        }),
      },
    },
    async (request) => {
      const filter = { account_id: request.query.account ?? null, states: request.query.state ? [request.query.state] : null }
      const rows = ctx.services['video-router'].tasks.list({ ...filter, limit: request.query.limit ?? 100, offset: request.query.offset ?? 0 })
      return { data: rows.map(adminView), total_count: ctx.services['video-router'].tasks.count(filter) }
    },
  )

  app.get(
    '/video/tasks/:id',
    { config: { operation: 'admin.video.tasks.get' }, schema: { response: data(VideoTask), params: TaskParams } },
    async (request) => ({
      data: adminView(requireTask(request.params.id)),
    }),
  )

  app.post(
    '/video/tasks/:id/advance',
    { config: { operation: 'admin.video.tasks.advance' }, schema: { response: data(VideoTask), params: TaskParams } },
    async (request) => {
      const task = requireTask(request.params.id)
      // One step now; a stuck task in processing has no next step until its outcome is changed.
      const planned = task.state === 'processing' && task.outcome === 'stuck' ? video.replan(task, 'success') : task
      return { data: adminView(video.step(planned.id, ctx.clock.now())) }
    },
  )

  app.post(
    '/video/tasks/:id/succeed',
    { config: { operation: 'admin.video.tasks.succeed' }, schema: { response: data(VideoTask), params: TaskParams } },
    async (request) => {
      const task = requireTask(request.params.id)
      if (task.state === 'success' || task.state === 'failed') throw videoTaskEnded(task.id, task.state)
      return { data: adminView(video.step(task.id, ctx.clock.now(), { state: 'success' })) }
    },
  )

  app.post(
    '/video/tasks/:id/fail',
    {
      config: { operation: 'admin.video.tasks.fail' },
      schema: { response: data(VideoTask), params: TaskParams, body: OptionalBody(Type.Object({ err_code: Type.Optional(Type.String({ minLength: 1 })) })) },
    },
    async (request) => {
      const task = requireTask(request.params.id)
      if (task.state === 'success' || task.state === 'failed') throw videoTaskEnded(task.id, task.state)
      const errCode = request.body?.err_code
      return { data: adminView(video.step(task.id, ctx.clock.now(), { state: 'failed', ...(errCode !== undefined && { err_code: errCode }) })) }
    },
  )

  app.post(
    '/video/tasks/:id/outcome',
    {
      config: { operation: 'admin.video.tasks.outcome' },
      schema: {
        response: data(VideoTask),
        params: TaskParams,
        body: Type.Object({ outcome: StringEnum(['success', 'failed', 'stuck'] as const), err_code: Type.Optional(Nullable(Type.String({ minLength: 1 }))) }),
      },
    },
    async (request) => {
      const task = requireTask(request.params.id)
      return { data: adminView(video.replan(task, request.body.outcome, request.body.err_code ?? undefined)) }
    },
  )

  app.get('/video/settings', { config: { operation: 'admin.video.settings.get' }, schema: { response: data(VideoSettings) } }, async () => ({
    data: video.settings,
  }))

  app.put(
    '/video/settings',
    { config: { operation: 'admin.video.settings.set' }, schema: { response: data(VideoSettings), body: VideoSettingsBody } },
    async (request) => {
      video.settings = { ...video.settings, ...request.body }
      return { data: video.settings }
    },
  )
}
