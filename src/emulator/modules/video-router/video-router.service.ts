// Video tasks: creation (priced in credits, billed through the meter), the engine that moves them
// through created -> queueing -> processing -> success | failed on the virtual clock, and the views the
// router returns (and POSTs to callback URLs). Each transition is one transaction with its callback.
import { readFileSync } from 'node:fs'
import type { DueSource } from '../../core/clock.ts'
import { ApiError } from '../../core/errors.ts'
import { deriveUnit } from '../../core/rng.ts'
import { resolveFixture } from '../../config.ts'
import type { EmulatorContext } from '../module.ts'
import type { AuthContext } from '../caller.ts'
import { enqueueDelivery } from '../callbacks/callbacks.service.ts'
import { videoCreditsNanos } from '../meter/meter-pricers.service.ts'
import { meter, refund } from '../meter/meter.service.ts'
import { recordEffect } from '../../journal/journal.ts'
import { frameSize, TASK_TYPE, type Operation } from './video-router.models.ts'
import { createVideoRepo, videoTables, type TaskOutcome, type TaskRow, type VideoRepo } from './video-router.repo.ts'
import type { TaskState, TaskView, Template } from './video-router.schemas.ts'
import type { VideoRequest } from './video-router.input.ts'
import { cannotCancel, creditInsufficient, forbidden } from './video-router.errors.ts'
import { Type } from 'typebox'
import type { StateOwner } from '../../core/lifecycle.ts'
import { checkedSettings } from '../../http/validation.ts'

/** Facts of the bundled sample video (fixtures/media), reported for every creation. */
export const SAMPLE_VIDEO = { fps: 24 }

export interface Pricing {
  off_peak_factor: number
  /** model -> resolution -> [base, per second], in credits. */
  models: Record<string, Record<string, [number, number]>>
  templates: Record<string, number>
}

export interface VideoFixtures {
  pricing: Pricing
  templates: ReadonlyMap<string, Template>
}

export function loadVideoFixtures(fixturesDir: string): VideoFixtures {
  const read = (name: string) => JSON.parse(readFileSync(resolveFixture(fixturesDir, `video/${name}`), 'utf8')) as Record<string, unknown>
  const templates = (read('templates.json').templates as Template[]).map((t) => [t.template, t] as const)
  return { pricing: read('pricing.json') as unknown as Pricing, templates: new Map(templates) }
}

export function priceCredits(pricing: Pricing, templates: ReadonlyMap<string, Template>, request: VideoRequest): number {
  let credits: number
  if (request.template !== null) {
    credits = pricing.templates[templates.get(request.template)!.tier] ?? 0
  } else {
    const table = pricing.models[request.model!] ?? {}
    const [base, perSecond] = table[request.resolution] ?? Object.values(table)[0] ?? [0, 0]
    credits = base + perSecond * request.duration
  }
  return Math.ceil(credits * (request.off_peak ? pricing.off_peak_factor : 1))
}

/** Engine settings: dwell times, failure rates; start from the configuration, changeable at run time. */
export interface VideoSettings {
  created_ms: number
  queueing_ms: number
  processing_ms: number
  /** Extra queueing for off-peak tasks, which the vendor finishes within 48 hours. */
  off_peak_queueing_ms: number
  failure_rate: number
  model_failure_rates: Record<string, number>
  fail_code: string
}

export const OFF_PEAK_DEADLINE_MS = 48 * 3_600_000

const Duration = Type.Integer({ minimum: 0, maximum: 31_536_000_000 })
const Rate = Type.Number({ minimum: 0, maximum: 1 })
/** The settings as the admin API changes them and an imported document restores them: any subset. */
export const VideoSettingsBody = Type.Object(
  {
    created_ms: Type.Optional(Duration),
    queueing_ms: Type.Optional(Duration),
    processing_ms: Type.Optional(Duration),
    off_peak_queueing_ms: Type.Optional(Duration),
    failure_rate: Type.Optional(Rate),
    model_failure_rates: Type.Optional(Type.Record(Type.String(), Rate)),
    fail_code: Type.Optional(Type.String({ minLength: 1 })),
  },
  { additionalProperties: false },
)

export function initialVideoSettings(ctx: EmulatorContext): VideoSettings {
  return {
    created_ms: ctx.config.videoCreatedMs,
    queueing_ms: ctx.config.videoQueueingMs,
    processing_ms: ctx.config.videoProcessingMs,
    off_peak_queueing_ms: 3_600_000,
    failure_rate: ctx.config.videoFailureRate,
    model_failure_rates: {},
    fail_code: ctx.config.videoFailCode,
  }
}

/** Video models are billed like catalog models, with the router as their one provider and endpoint. */
function videoBillable(ctx: EmulatorContext, name: string) {
  const id = `video/${name}`
  return {
    model: { id, canonical_slug: id },
    endpoints: [{ id: ctx.ids.uuid(`video-endpoint:${name}`), provider: 'video', provider_name: 'Video', status: 0, zdr: false, regions: ['us' as const] }],
  }
}

export type OutcomeOverride = TaskOutcome | null

export interface CreateTask {
  caller: AuthContext
  request: VideoRequest
  origin: string
  /** From X-Emulator-Video-Outcome. */
  outcome: OutcomeOverride
}

/** A new task's own fields: `start` fills in its id, state and plan. */
export type NewTask = Omit<TaskRow, 'id' | 'state' | 'err_code' | 'refunded' | 'outcome' | 'fail_code' | 'next_at' | 'state_at' | 'created_at'>

/** Another surface whose jobs are tasks of this engine (the gateway's /api/v1/videos): what it does at each step. */
export interface TaskSurface {
  /**
   * Called inside the transaction of each step of one of its tasks (`task` as it is after the step):
   * records what the surface keeps of it, and gives the callback body to send for this state, if any.
   */
  stepped(task: TaskRow, state: TaskState, at: number): string | null
}

export class VideoService {
  settings: VideoSettings
  readonly fixtures: VideoFixtures
  /** The tasks' rows. */
  readonly tasks: VideoRepo
  private readonly ctx: EmulatorContext
  private readonly surfaces = new Map<string, TaskSurface>()

  constructor(ctx: EmulatorContext, fixtures: VideoFixtures) {
    this.ctx = ctx
    this.fixtures = fixtures
    this.tasks = createVideoRepo(ctx.db)
    this.settings = initialVideoSettings(ctx)
  }

  private get repo(): VideoRepo {
    return this.tasks
  }

  /** The tasks and the engine's settings, for the state lifecycle (core/lifecycle.ts). */
  state(): StateOwner {
    return {
      name: 'video',
      ...videoTables(this.ctx.db),
      settings: checkedSettings<VideoSettings>('video', VideoSettingsBody, {
        current: () => this.settings,
        defaults: () => initialVideoSettings(this.ctx),
        apply: (settings) => {
          this.settings = settings
        },
      }),
    }
  }

  create({ caller, request, origin, outcome }: CreateTask): TaskRow {
    const ctx = this.ctx
    const credits = priceCredits(this.fixtures.pricing, this.fixtures.templates, request)
    const costNanos = videoCreditsNanos(credits, ctx.config.videoCreditUsd)
    // The task and its usage are reported to the journal only if the whole transaction holds. No
    // generation row: a router task is seen through the router's own API.
    try {
      return meter(ctx, {
        caller,
        operation: `video.${request.operation.replace('-', '')}`,
        ...videoBillable(ctx, request.model ?? `template/${request.template}`),
        tokens: { prompt: 0 },
        price: () => costNanos,
        generation: null,
        after: (billed): TaskRow => {
          const label = ctx.ids.next('video-task')
          const seed = request.seed ?? Math.floor(deriveUnit(ctx.config.seed, `seed:${label}`) * 2_147_483_647) + 1
          return this.start(label, outcome, {
            account_id: caller.account.id,
            key_hash: caller.key.hash,
            operation: request.operation,
            model: request.model,
            template: request.template,
            request: JSON.stringify({
              ...request,
              images: request.images.map((img) => (img.startsWith('http') ? img : `(inline image, ${img.length} characters)`)),
              seed,
            }),
            credits,
            usage_id: billed.usage_id,
            payload: request.payload,
            callback_url: request.callback_url,
            origin,
            off_peak: request.off_peak ? 1 : 0,
            watermark: request.watermark ? 1 : 0,
          })
        },
      })
    } catch (error) {
      // Only the ledger refuses with these (the rate limit's 429 passes as it is).
      throw this.denial(error)
    }
  }

  /**
   * Opens a task in `created` under the id `label` mints (from the `video-task` sequence), its outcome
   * planned by the engine's rules: `override` (X-Emulator-Video-Outcome), else the failure rates, fixed
   * by (seed, task) so the same seed and calls give the same outcomes. Call inside the transaction that
   * billed it; the router's creates and the gateway's (modules/videos) both open their tasks here.
   */
  start(label: string, override: OutcomeOverride, task: NewTask): TaskRow {
    const ctx = this.ctx
    const id = ctx.ids.task(label)
    const rate = this.settings.model_failure_rates[task.model ?? ''] ?? this.settings.failure_rate
    const planned: TaskOutcome = override ?? (deriveUnit(ctx.config.seed, `outcome:${label}`) < rate ? 'failed' : 'success')
    const now = ctx.clock.now()
    const row: TaskRow = {
      ...task,
      id,
      state: 'created',
      err_code: '',
      refunded: 0,
      outcome: planned,
      fail_code: planned === 'failed' ? this.settings.fail_code : null,
      next_at: now + this.settings.created_ms,
      state_at: now,
      created_at: now,
    }
    this.repo.insert(row)
    this.repo.recordState(id, 'created', now)
    recordEffect('task', id)
    ctx.events.emit('video.task', { id, state: 'created' })
    return row
  }

  /** Another surface's say in its own tasks' steps (see TaskSurface), by their operation. */
  registerSurface(operation: string, surface: TaskSurface): void {
    this.surfaces.set(operation, surface)
  }

  /** Ledger denials in the vendor's words: spending limits are CreditInsufficient; guardrails forbid. */
  private denial(error: unknown): unknown {
    if (!(error instanceof ApiError)) return error
    if (error.status === 402 || (error.status === 403 && error.metadata?.limit_source === 'openrouter_key_limit')) {
      return creditInsufficient(error.message, this.ctx.config.videoCreditStatus)
    }
    if (error.status === 404) return forbidden(error.message)
    return error
  }

  /** The state after `state` on this task's path, and when it falls due. */
  private nextStep(task: TaskRow, state: TaskState, at: number): { state: TaskState; at: number | null } | null {
    const s = this.settings
    switch (state) {
      case 'created':
        // A queue of zero length is skipped.
        return s.queueing_ms > 0 || task.off_peak ? { state: 'queueing', at } : { state: 'processing', at }
      case 'queueing':
        return { state: 'processing', at }
      case 'processing':
        return task.outcome === 'stuck' ? null : { state: task.outcome === 'failed' ? 'failed' : 'success', at }
      case 'success':
      case 'failed':
        return null
    }
  }

  private dwell(task: TaskRow, state: TaskState): number {
    const s = this.settings
    if (state === 'created') return s.created_ms
    if (state === 'queueing') return s.queueing_ms + (task.off_peak ? s.off_peak_queueing_ms : 0)
    if (state === 'processing') return s.processing_ms
    return 0
  }

  /** Moves a task one step, in one transaction with its callback. Returns the task after. */
  step(id: string, at: number, force?: { state: 'success' | 'failed'; err_code?: string }): TaskRow {
    const ctx = this.ctx
    return ctx.db
      .transaction((): TaskRow => {
        const task = this.repo.get(id)!
        if (task.state === 'success' || task.state === 'failed') return task
        let target: TaskState
        let errCode = ''
        const overdue = task.off_peak === 1 && at - task.created_at >= OFF_PEAK_DEADLINE_MS
        if (force) {
          target = force.state
          errCode = force.state === 'failed' ? (force.err_code ?? task.fail_code ?? this.settings.fail_code) : ''
        } else if (overdue) {
          // Off-peak tasks not done within 48 hours are cancelled and refunded, as the vendor does.
          target = 'failed'
          errCode = 'UserCancelled'
        } else {
          const next = this.nextStep(task, task.state, at)
          if (!next) return task
          target = next.state
          if (target === 'failed') errCode = task.fail_code ?? this.settings.fail_code
        }
        const terminal = target === 'success' || target === 'failed'
        const following = terminal ? null : this.nextStep(task, target, at)
        // A stuck off-peak task still meets its 48-hour deadline.
        const nextAt = following ? at + this.dwell(task, target) : !terminal && task.off_peak ? task.created_at + OFF_PEAK_DEADLINE_MS : null
        const refunded = target === 'failed' && task.usage_id !== null && task.refunded === 0
        if (refunded) refund(ctx, task.usage_id!)
        this.repo.move({ id, state: target, err_code: errCode, next_at: nextAt, state_at: at, refunded: refunded || task.refunded ? 1 : 0 })
        this.repo.recordState(id, target, at)
        const after = this.repo.get(id)!
        // Another surface's task: it records the step, and says what its callback carries.
        const surface = this.surfaces.get(after.operation)
        const surfaceBody = surface?.stepped(after, target, at) ?? null
        if (after.callback_url && after.key_hash) {
          // The vendor calls back on processing, success and failed (not on created or queueing).
          const body = surface ? surfaceBody : target === 'processing' || terminal ? JSON.stringify(this.view(after, at)) : null
          if (body !== null) {
            enqueueDelivery(ctx, {
              account_id: after.account_id,
              task_id: id,
              key_hash: after.key_hash,
              url: after.callback_url,
              state: target,
              body,
              terminal,
            })
          }
        }
        ctx.events.emit('video.task', { id, state: target })
        return after
      })
      .immediate()
  }

  /** Cancels a task that has not started processing: it fails as UserCancelled and is refunded. */
  cancel(task: TaskRow): void {
    if (task.state !== 'created' && task.state !== 'queueing') {
      throw cannotCancel(task.state)
    }
    this.step(task.id, this.ctx.clock.now(), { state: 'failed', err_code: 'UserCancelled' })
  }

  /** Changes what a task will end in (admin, UI); 'stuck' keeps it processing until told otherwise. */
  replan(task: TaskRow, outcome: TaskOutcome, failCode?: string): TaskRow {
    const waiting = task.state === 'processing' && task.next_at === null && outcome !== 'stuck'
    this.repo.plan({
      id: task.id,
      outcome,
      fail_code: outcome === 'failed' ? (failCode ?? this.settings.fail_code) : null,
      next_at: waiting ? this.ctx.clock.now() : null,
    })
    return this.repo.get(task.id)!
  }

  dueSource(): DueSource {
    return {
      name: 'video tasks',
      nextDue: () => this.repo.nextDue(),
      runDue: (now) => {
        for (const task of this.repo.due(now)) {
          try {
            this.step(task.id, task.next_at!)
          } catch (error) {
            this.stepFailed(task, error)
          }
        }
      },
    }
  }

  /**
   * A step that throws (a database error, a bug) runs on the clock, outside any request: it must not
   * stop the other tasks' steps, nor be tried again for ever, since the task would stay due. The task
   * ends failed (refunded, its callback sent), with a warning; should even that fail, it leaves the
   * schedule, where an admin can still finish or fail it.
   */
  private stepFailed(task: TaskRow, error: unknown): void {
    const ctx = this.ctx
    const reason = error instanceof Error ? error.message : String(error)
    try {
      const after = this.step(task.id, task.next_at!, { state: 'failed' })
      ctx.warn(`video task ${task.id}: its step from ${task.state} failed (${reason}); the task ends ${after.state}`)
    } catch (again) {
      ctx.warn(
        `video task ${task.id}: its step from ${task.state} failed (${reason}), and so did failing it (${again instanceof Error ? again.message : String(again)}); it stays ${task.state}, off the schedule`,
      )
      try {
        this.repo.move({ id: task.id, state: task.state, err_code: task.err_code, next_at: null, state_at: task.state_at, refunded: task.refunded })
      } catch {
        // The database itself fails: the task stays due and is tried again at the next step of the clock.
      }
    }
  }

  /**
   * The task as the query (Fetch V2) returns it, and as callbacks carry it: the documented fields, and
   * `type`, `model` and `progress` as observed; nothing a vendor client would not find there.
   */
  view(task: TaskRow, now: number): TaskView {
    const request = JSON.parse(task.request) as VideoRequest & { seed: number }
    const processing = task.state === 'processing'
    const progress =
      task.state === 'success' ? 100 : processing ? Math.min(99, Math.floor(((now - task.state_at) / Math.max(1, this.settings.processing_ms)) * 100)) : 0
    const base = `${task.origin}/router/v1/video/media/${task.id}`
    const size = frameSize(
      task.template !== null ? (this.fixtures.templates.get(task.template)?.resolution ?? '720p') : request.resolution,
      request.aspect_ratio ?? '16:9',
    )
    return {
      id: task.id,
      ...(TASK_TYPE[task.operation as Operation] && { type: TASK_TYPE[task.operation as Operation] }),
      ...(task.model !== null && { model: task.model }),
      state: task.state,
      err_code: task.err_code,
      credits: task.refunded ? 0 : task.credits,
      payload: task.payload,
      bgm: request.bgm,
      off_peak: task.off_peak === 1,
      progress,
      creations:
        task.state === 'success'
          ? [
              {
                id: this.ctx.ids.creation(task.id),
                url: `${base}/video.mp4`,
                cover_url: `${base}/cover.jpg`,
                watermarked_url: `${base}/watermarked.mp4`,
                video: { duration: request.duration, fps: SAMPLE_VIDEO.fps, resolution: size },
              },
            ]
          : [],
    }
  }

  /** What a create call answers: exactly the fields of the spec's table for the operation. */
  createdView(task: TaskRow) {
    const request = JSON.parse(task.request) as VideoRequest
    const type = TASK_TYPE[task.operation as Operation]
    const common = { task_id: task.id, state: task.state }
    switch (task.operation as Operation) {
      case 'multiframe':
        return { ...common, model: task.model, resolution: request.resolution }
      case 'text2video':
        return {
          ...common,
          type,
          model: task.model,
          prompt: request.prompt,
          duration: request.duration,
          resolution: request.resolution,
          off_peak: request.off_peak,
        }
      case 'img2video':
        return { ...common, type, model: task.model, duration: request.duration, resolution: request.resolution, off_peak: request.off_peak }
      case 'reference2video':
        return { ...common, type, model: task.model }
      case 'start-end2video':
        return { ...common, type, model: task.model, duration: request.duration, resolution: request.resolution }
      case 'template2video':
        return { ...common, template: task.template, resolution: request.resolution, duration: request.duration }
    }
  }
}
