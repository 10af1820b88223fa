// The gateway's video API under /api/v1/videos (standard key; the model list is public like /models):
// submit a job (202), poll it, download its video once completed, and list the video models.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { basename, dirname } from 'node:path'
import { resolveFixture } from '../../config.ts'
import type { EmulatorContext } from '../module.ts'
import { requestOrigin } from '../../http/request-origin.ts'
import { caller } from '../../http/auth.ts'
import { isEuRequest } from '../../http/listeners.ts'
import type { OutcomeOverride } from '../video-router/video-router.service.ts'
import { gateBodies } from '../../http/body-gate.ts'
import { installMediaJsonParser, type MediaBody } from '../../http/media-body.ts'
import { installSendFile } from '../../http/send-file.ts'
import { MAX_IMAGE_BYTES } from '../../media/image-inspect.ts'
import { badOutcomeHeader, inlineTooLarge } from './videos.errors.ts'
import {
  ContentQuery,
  ContentResponses,
  CreateResponses,
  JobParams,
  JobResponses,
  ModelsResponses,
  OUTCOME_HEADER,
  VideoGenerationBody,
} from './videos.schemas.ts'

/** Two frames and a few references inline, each up to the 50 MB an image may be (about 67 MB as base64). */
const CREATE_BODY_LIMIT = 160 * 1024 * 1024
/** A data URI's head (`data:image/webp;base64,`), with room for a long media type. */
const DATA_URI_HEAD_CHARS = 256
/** The longest string an inline frame or reference of MAX_IMAGE_BYTES can be. */
const MAX_INLINE_CHARS = DATA_URI_HEAD_CHARS + Math.ceil(MAX_IMAGE_BYTES / 3) * 4

/**
 * The create body's media, bounded as they arrive (media-body.ts): each inline frame and reference at
 * most an image's 50 MB, the rest of the body (prompt, URLs, options) 1 MB together.
 */
const CREATE_MEDIA: MediaBody = {
  fields: ['frame_images[].image_url.url', 'input_references[].image_url.url', 'input_references[].audio_url.url', 'input_references[].video_url.url'].map(
    (path) => ({ path, maxChars: MAX_INLINE_CHARS, refuse: (field: string) => inlineTooLarge(field, MAX_IMAGE_BYTES) }),
  ),
  otherBytes: 1024 * 1024,
}

const SAMPLE = 'media/sample.mp4'

function outcomeOf(request: FastifyRequest): OutcomeOverride {
  const value = request.headers[OUTCOME_HEADER]
  if (value === undefined) return null
  if (value === 'success' || value === 'failed' || value === 'stuck') return value
  throw badOutcomeHeader()
}

export const videosRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  const videos = ctx.services.videos
  const sample = resolveFixture(ctx.config.fixtures, SAMPLE)
  // @fastify/static sends the video: its type, ETag, Last-Modified and single ranges (a player seeks).
  // It is loaded on the first file sent (http/send-file.ts).
  installSendFile(app, dirname(sample))
  installMediaJsonParser(app, CREATE_MEDIA)
  gateBodies(app, ctx)

  app.post(
    '/videos',
    {
      config: { operation: 'videos.create', auth: 'standard' },
      bodyLimit: CREATE_BODY_LIMIT,
      schema: { summary: 'Submit a video generation job', tags: ['videos'], body: VideoGenerationBody, response: CreateResponses },
    },
    async (request, reply) => {
      const task = await videos.create({
        caller: caller(request),
        body: request.body,
        origin: `${request.protocol}://${request.host}`,
        region: isEuRequest(request.raw) ? 'eu' : null,
        outcome: outcomeOf(request),
        from: requestOrigin(request),
      })
      return reply.code(202).send(videos.view(task))
    },
  )

  app.get(
    '/videos/models',
    { config: { operation: 'videos.models' }, schema: { summary: 'List the video generation models', tags: ['videos'], response: ModelsResponses } },
    async () => ({ data: videos.models() }),
  )

  app.get(
    '/videos/:jobId',
    {
      config: { operation: 'videos.get', auth: 'standard' },
      schema: { summary: 'Poll a video generation job', tags: ['videos'], params: JobParams, response: JobResponses },
    },
    async (request) => videos.view(videos.own(caller(request), request.params.jobId)),
  )

  app.get(
    '/videos/:jobId/content',
    {
      config: { operation: 'videos.content', auth: 'standard' },
      schema: { summary: "Download a completed job's video", tags: ['videos'], params: JobParams, querystring: ContentQuery, response: ContentResponses },
    },
    async (request, reply) => {
      videos.checkContent(videos.own(caller(request), request.params.jobId), request.query.index ?? 0)
      return reply.header('cache-control', 'private, max-age=86400').sendFile(basename(sample), dirname(sample), { cacheControl: false })
    },
  )
}
