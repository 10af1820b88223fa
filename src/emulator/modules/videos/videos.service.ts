// The gateway's own video API: a job is a task of the video engine (modules/video), of the operation
// `gateway`, so it moves pending -> in_progress -> completed | failed on the same virtual clock, with
// the same dwell times, failure rules and admin controls as the router's tasks. Creating one bills it
// (per video second, through the meter) and records its generation, in one transaction; a job that
// fails is refunded by the engine. Its webhook, on completion or failure, goes out through the
// callbacks outbox in the transaction of that step.
import type { RequestOrigin } from '../../http/request-origin.ts'
import { toIso } from '../../core/clock.ts'
import { nanosToUsd } from '../../core/money.ts'
import { deriveUnit } from '../../core/rng.ts'
import type { EmulatorContext } from '../module.ts'
import type { AuthContext } from '../caller.ts'
import type { CatalogModel, Region } from '../catalog/catalog.schemas.ts'
import { videoSecondsNanos } from '../meter/meter-pricers.service.ts'
import { meter } from '../meter/meter.service.ts'
import type { TaskRow } from '../video-router/video-router.repo.ts'
import { GATEWAY_OPERATION, type StoredGatewayVideoRequest, type TaskState } from '../video-router/video-router.schemas.ts'
import type { OutcomeOverride } from '../video-router/video-router.service.ts'
import { contentNotReady, jobNotFound, noSuchVideo, notAVideoModel, undescribedVideoModel } from './videos.errors.ts'
import { isVideoModel, videoModelView, videoSecondPrice } from './videos.models.ts'
import type { JobStatus, VideoGenerationBody, VideoJob, VideoModel, VideoModelFixture } from './videos.schemas.ts'
import { checkCallbackTarget, checkVideoRequest } from './videos.input.ts'

export interface CreateJob {
  caller: AuthContext
  body: VideoGenerationBody
  /** `scheme://host` the request was made to: the job's URLs start with it. */
  origin: string
  region: Region | null
  /** From X-Emulator-Video-Outcome. */
  outcome: OutcomeOverride
  from: RequestOrigin
}

/** The error code the engine gives a task cancelled (an admin's fail with this code). */
const CANCELLED = 'UserCancelled'

/** A job makes one video: content index 0. */
const VIDEOS_PER_JOB = 1

export class VideosService {
  /** What each video model accepts, by id (fixtures/videos/models.json). */
  readonly specs: ReadonlyMap<string, VideoModelFixture>
  private readonly ctx: EmulatorContext

  constructor(ctx: EmulatorContext, specs: ReadonlyMap<string, VideoModelFixture>) {
    this.ctx = ctx
    this.specs = specs
    ctx.services['video-router'].registerSurface(GATEWAY_OPERATION, { stepped: (task, state, at) => this.stepped(task, state, at) })
  }

  /** GET /videos/models: the catalog's video models the fixture describes, in catalog order. */
  models(): VideoModel[] {
    return this.ctx.services.catalog
      .get()
      .models.filter((m) => isVideoModel(m) && this.specs.has(m.id))
      .map((m) => videoModelView(m, this.specs.get(m.id)!))
  }

  private videoModel(id: string): { model: CatalogModel; spec: VideoModelFixture } {
    const { model } = this.ctx.services.catalog.resolve(id, 'video')
    if (!isVideoModel(model)) throw notAVideoModel(model.id, model.architecture.output_modalities)
    const spec = this.specs.get(model.id)
    if (!spec) throw undescribedVideoModel(model.id)
    return { model, spec }
  }

  async create(job: CreateJob): Promise<TaskRow> {
    const ctx = this.ctx
    const { model, spec } = this.videoModel(job.body.model)
    const checked = await checkVideoRequest(job.body, spec, ctx.ownAddresses)
    await checkCallbackTarget(checked.callback_url, ctx.ownAddresses)
    const costNanos = videoSecondsNanos(videoSecondPrice(spec, checked.generate_audio), checked.duration)
    const dwell = ctx.services['video-router'].settings
    // The job, its usage and its generation are reported to the journal only if the whole transaction holds.
    return meter(ctx, {
      caller: job.caller,
      operation: 'videos.create',
      model: { id: model.id, canonical_slug: model.canonical_slug },
      endpoints: model.endpoints,
      region: job.region,
      tokens: { prompt: 0 },
      price: () => costNanos,
      generation: () => ({
        apiType: 'video',
        idKind: null,
        idLabel: 'video',
        origin: job.from,
        user: null,
        streamed: false,
        finishReason: null,
        latencyMs: 0,
        generationTimeMs: dwell.created_ms + dwell.queueing_ms + dwell.processing_ms,
      }),
      after: (billed): TaskRow => {
        // The job's id, plan and seed come from the engine's sequence, as a router task's do.
        const label = ctx.ids.next('video-task')
        const stored: StoredGatewayVideoRequest = {
          operation: GATEWAY_OPERATION,
          ...checked,
          seed: checked.seed ?? Math.floor(deriveUnit(ctx.config.seed, `seed:${label}`) * 2_147_483_647) + 1,
          generation_id: billed.generationId!,
        }
        return ctx.services['video-router'].start(label, job.outcome, {
          account_id: job.caller.account.id,
          key_hash: job.caller.key.hash,
          operation: GATEWAY_OPERATION,
          model: model.id,
          template: null,
          request: JSON.stringify(stored),
          // Priced in USD on the usage row, not in the router's credits.
          credits: 0,
          usage_id: billed.usage_id,
          payload: '',
          callback_url: checked.callback_url,
          origin: job.origin,
          off_peak: 0,
          watermark: 0,
        })
      },
    })
  }

  /** The caller's job, or 404: another account's job, or a router task, is as unknown as a missing one. */
  own(caller: AuthContext, id: string): TaskRow {
    const task = this.ctx.services['video-router'].tasks.get(id)
    if (!task || task.operation !== GATEWAY_OPERATION || task.account_id !== caller.account.id) throw jobNotFound(id)
    return task
  }

  /** Refuses content before the job completed (a 400, as the document has it), and an index past its videos. */
  checkContent(task: TaskRow, index: number): void {
    const status = statusOf(task)
    if (status !== 'completed') throw contentNotReady(task.id, status)
    if (index >= VIDEOS_PER_JOB) throw noSuchVideo(task.id, index, VIDEOS_PER_JOB)
  }

  /** The job as GET /videos/{jobId} answers it (and the create, and the webhook's data). */
  view(task: TaskRow): VideoJob {
    const stored = JSON.parse(task.request) as StoredGatewayVideoRequest
    const status = statusOf(task)
    const url = `${task.origin}/api/v1/videos/${task.id}`
    const job: VideoJob = { id: task.id, polling_url: url, status, generation_id: stored.generation_id }
    if (status === 'completed') {
      const usage = task.usage_id === null ? undefined : this.ctx.services.usage.get(task.usage_id)
      job.unsigned_urls = Array.from({ length: VIDEOS_PER_JOB }, (_, i) => `${url}/content?index=${i}`)
      job.usage = { cost: nanosToUsd(usage?.cost_nanos ?? 0), is_byok: usage?.byok === 1 }
    }
    if (status === 'cancelled') job.error = 'The video generation job was cancelled'
    if (status === 'failed') job.error = `The provider could not generate the video (${task.err_code})`
    return job
  }

  /**
   * Each step of a job, in its transaction: a job that ends finishes its generation and is told to its
   * callback URL, as the real gateway's webhook event (video.generation.<status>, the job in `data`).
   */
  private stepped(task: TaskRow, state: TaskState, at: number): string | null {
    if (state !== 'success' && state !== 'failed') return null
    const job = this.view(task)
    this.ctx.services.generations.finish(job.generation_id!, state === 'success' ? 'stop' : 'error')
    const { polling_url: _, ...data } = job
    return JSON.stringify({ type: `video.generation.${job.status}`, created_at: toIso(at), data: { ...data, model: task.model } })
  }
}

/** The document's status of a task: created and queueing are pending, processing is in_progress. */
export function statusOf(task: TaskRow): JobStatus {
  switch (task.state) {
    case 'created':
    case 'queueing':
      return 'pending'
    case 'processing':
      return 'in_progress'
    case 'success':
      return 'completed'
    case 'failed':
      return task.err_code === CANCELLED ? 'cancelled' : 'failed'
  }
}
