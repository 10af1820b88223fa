// The video router under /router/v1/video (standard key as Bearer token; errors in the vendor's
// envelope): the six create operations, the task query (Fetch V2), cancel and list, the template
// list, and the media that successful tasks link to.
import { basename, dirname } from 'node:path'
import type { FastifyPluginAsync, FastifyRequest } from 'fastify'
import { resolveFixture } from '../../config.ts'
import type { EmulatorContext } from '../module.ts'
import { caller } from '../../http/auth.ts'
import { gateBodies } from '../../http/body-gate.ts'
import { installMediaJsonParser, type MediaBody } from '../../http/media-body.ts'
import { installSendFile } from '../../http/send-file.ts'
import { MAX_IMAGE_BYTES } from '../../media/image-inspect.ts'
import { OPERATIONS } from './video-router.models.ts'
import type { TaskRow } from './video-router.repo.ts'
import { createBodies, GATEWAY_OPERATION, RouterResponses, type CreateBodies } from './video-router.schemas.ts'
import type { OutcomeOverride } from './video-router.service.ts'
import { checkCallbackTarget, validateCreate, vendorBodyValidator } from './video-router.input.ts'
import { badRequest, routerError, taskNotFound } from './video-router.errors.ts'

/** A 50 MB image arrives as about 67 MB of base64; keyframes add more. */
const CREATE_BODY_LIMIT = 200 * 1024 * 1024
/** The longest string an image of MAX_IMAGE_BYTES can be: its base64, and a data URI's head (with room for a long type). */
const MAX_IMAGE_CHARS = 256 + Math.ceil(MAX_IMAGE_BYTES / 3) * 4

/**
 * The create bodies' images, bounded as they arrive (media-body.ts): each at most 50 MB, in the vendor's
 * words for an image too large; the rest of a body together at most 8 MB (a `payload` of its 1,048,576
 * characters, escaped, fits).
 */
const CREATE_MEDIA: MediaBody = {
  fields: ['images[]', 'start_image', 'image_settings[].key_image'].map((path) => ({
    path,
    maxChars: MAX_IMAGE_CHARS,
    refuse: (field: string) =>
      routerError('PageSizeOutOfRange', `page size out of range: ${field}`, `${field}: over the ${MAX_IMAGE_BYTES / 1024 / 1024} MB limit`),
  })),
  otherBytes: 8 * 1024 * 1024,
}

const OUTCOME_HEADER = 'x-emulator-video-outcome'
const MAX_PAGE_SIZE = 100

const originOf = (request: FastifyRequest): string => `${request.protocol}://${request.host}`

function outcomeOf(request: FastifyRequest): OutcomeOverride {
  const value = request.headers[OUTCOME_HEADER]
  if (value === undefined) return null
  if (value === 'success' || value === 'failed' || value === 'stuck') return value
  throw badRequest('header X-Emulator-Video-Outcome must be success, failed or stuck')
}

// The fixture files a successful task links to (a folder given by --fixtures may replace them).
const MEDIA: Record<string, string> = {
  'video.mp4': 'media/sample.mp4',
  'watermarked.mp4': 'media/sample-watermarked.mp4',
  'cover.jpg': 'media/cover.jpg',
}

export const videoRoutes: FastifyPluginAsync<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  const video = ctx.services['video-router']
  const media = new Map(Object.entries(MEDIA).map(([name, file]) => [name, resolveFixture(ctx.config.fixtures, file)]))
  // @fastify/static sends the media: content type, ETag, Last-Modified and single ranges, so a
  // browser's video element can seek. Only the paths above are ever sent. It is loaded on the first
  // file sent (http/send-file.ts).
  installSendFile(app, dirname(media.get('video.mp4')!))
  installMediaJsonParser(app, CREATE_MEDIA)
  gateBodies(app, ctx)

  /** The caller's task, or TaskNotFound: another account's task, or a job of the gateway's video API, is as unknown as a missing one. */
  const ownTask = (request: FastifyRequest, id: string): TaskRow => {
    const task = ctx.services['video-router'].tasks.get(id)
    if (!task || task.account_id !== caller(request).account.id || task.operation === GATEWAY_OPERATION) throw taskNotFound(id)
    return task
  }

  const bodies = createBodies(ctx.config.multiframeMinKeyFrames)
  for (const operation of OPERATIONS) {
    app.post(
      `/ent/v2/${operation}`,
      {
        config: { operation: `video.${operation.replace('-', '')}`, auth: 'standard' },
        bodyLimit: CREATE_BODY_LIMIT,
        schema: { summary: `Create a ${operation} task`, tags: ['video'], body: bodies[operation], response: RouterResponses.created(operation) },
        // A body that fails its schema is answered in the vendor's words.
        validatorCompiler: vendorBodyValidator,
      },
      async (request) => {
        const checked = await validateCreate(operation, request.body as CreateBodies[typeof operation], video.fixtures.templates, {
          own: ctx.ownAddresses,
          minKeyFrames: ctx.config.multiframeMinKeyFrames,
        })
        await checkCallbackTarget(checked, ctx.ownAddresses)
        const task = video.create({ caller: caller(request), request: checked, origin: originOf(request), outcome: outcomeOf(request) })
        return video.createdView(task)
      },
    )
  }

  app.get<{ Params: { id: string } }>(
    '/ent/v2/tasks/:id/creations',
    {
      config: { operation: 'video.tasks.get', auth: 'standard' },
      schema: { summary: 'Get a task and its creations (Fetch V2)', tags: ['video'], response: RouterResponses.task },
    },
    async (request) => video.view(ownTask(request, request.params.id), ctx.clock.now()),
  )

  app.post<{ Params: { id: string } }>(
    '/ent/v2/tasks/:id/cancel',
    {
      config: { operation: 'video.tasks.cancel', auth: 'standard' },
      schema: { summary: 'Cancel a task that has not started processing', tags: ['video'], response: RouterResponses.cancel },
    },
    async (request) => {
      video.cancel(ownTask(request, request.params.id))
      return {}
    },
  )

  app.get<{ Querystring: Record<string, string | string[] | undefined> }>(
    '/ent/v2/tasks',
    { config: { operation: 'video.tasks.list', auth: 'standard' }, schema: { summary: 'List tasks', tags: ['video'], response: RouterResponses.list } },
    async (request) => {
      const q = request.query
      const states = [q.states, q['states[]']]
        .flat()
        .filter((s): s is string => typeof s === 'string')
        .flatMap((s) => s.split(','))
      const known = ['created', 'queueing', 'processing', 'success', 'failed']
      const unknown = states.find((s) => !known.includes(s))
      if (unknown !== undefined) throw routerError('FieldInvalid', 'invalid field: states', `states: ${unknown} is not one of ${known.join(', ')}`)
      const int = (name: string, fallback: number) => {
        const raw = q[name]
        if (raw === undefined) return fallback
        if (typeof raw !== 'string' || !/^\d+$/.test(raw)) throw routerError('FieldInvalid', `invalid field: ${name}`, `${name} must be an integer >= 0`)
        return Number(raw)
      }
      const page = int('pager.page', 0)
      const size = int('pager.pagesz', 10)
      if (size < 1 || size > MAX_PAGE_SIZE) throw routerError('FieldInvalid', 'invalid field: pager.pagesz', `pager.pagesz must be from 1 to ${MAX_PAGE_SIZE}`)
      const filter = { account_id: caller(request).account.id, states: states.length > 0 ? states : null, except: GATEWAY_OPERATION }
      const rows = ctx.services['video-router'].tasks.list({ ...filter, limit: size, offset: page * size })
      const total = ctx.services['video-router'].tasks.count(filter)
      const now = ctx.clock.now()
      return {
        tasks: rows.map((task) => {
          const r = JSON.parse(task.request) as Record<string, unknown>
          // The list's documented fields beside the query's.
          return {
            ...video.view(task, now),
            ...(task.template !== null && { template: task.template }),
            prompt: r.prompt,
            images: r.images,
            duration: r.duration,
            resolution: r.resolution,
            aspect_ratio: r.aspect_ratio,
          }
        }),
        next_page_token: (page + 1) * size < total ? String(page + 1) : '',
      }
    },
  )

  app.get(
    '/templates',
    {
      config: { operation: 'video.templates' },
      schema: { summary: 'List the templates of template2video', tags: ['video'], response: RouterResponses.templates },
    },
    async () => ({
      templates: [...video.fixtures.templates.values()],
    }),
  )

  // Creation URLs are capabilities, like the vendor's signed URLs: no key needed to fetch them.
  app.get<{ Params: { id: string; file: string } }>(
    '/media/:id/:file',
    { config: { operation: 'video.media' }, schema: { summary: 'The video and cover of a successful task', tags: ['video'], response: RouterResponses.media } },
    async (request, reply) => {
      const task = ctx.services['video-router'].tasks.get(request.params.id)
      const file = media.get(request.params.file)
      if (task?.state !== 'success' || !file)
        throw routerError(
          'CreationNotFound',
          'creation not found',
          `no ${request.params.file} for task ${request.params.id} (unknown, not finished, or not one of its files)`,
          404,
        )
      // The plain URL of a task asked with a watermark serves the watermarked video too.
      const chosen = request.params.file === 'video.mp4' && task.watermark ? media.get('watermarked.mp4')! : file
      return reply.header('cache-control', 'private, max-age=86400').sendFile(basename(chosen), dirname(chosen), { cacheControl: false })
    },
  )
}
