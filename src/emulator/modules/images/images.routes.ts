// POST /api/v1/images and /api/v1/images/generations (standard key); GET /api/v1/images/models and
// /api/v1/images/models/{author}/{slug}/endpoints (public, as the real ones are).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { fieldError } from '../../core/errors.ts'
import { gateBodies } from '../../http/body-gate.ts'
import { installMediaJsonParser, type MediaBody } from '../../http/media-body.ts'
import { requestOrigin } from '../../http/request-origin.ts'
import { caller } from '../../http/auth.ts'
import { isEuRequest } from '../../http/listeners.ts'
import { keepMedia } from '../../journal/journal.ts'
import type { EmulatorContext } from '../module.ts'
import { ModelPathParams } from '../catalog/catalog.schemas.ts'
import { MEDIA_TYPES } from '../../media/image-encode.ts'
import { imageModelEndpoints, imageModelsList } from './images-views.service.ts'
import { ImageModelEndpointsResponse, ImageModelsResponse, ImagesBody, ImagesResponse, OpenAiImagesBody, OpenAiImagesResponse } from './images.schemas.ts'
import { gatewayAnswer, gatewayJob, makeImages, openAiAnswer, openAiJob, type MadeImages } from './images.service.ts'

/** Reference images come as data URLs: up to 16 of them. */
const IMAGES_BODY_LIMIT = 32 * 1024 * 1024

/**
 * The references arrive as they are sent (media-body.ts), bounded by the body alone; the rest of a body
 * (a prompt of 128,000 characters, escaped, and the provider lists fit) at most 2 MB together.
 */
const IMAGES_MEDIA: MediaBody = {
  fields: [
    {
      path: 'input_references[].image_url.url',
      maxChars: IMAGES_BODY_LIMIT,
      refuse: (field) => fieldError(field, `must be at most ${IMAGES_BODY_LIMIT} characters`),
    },
  ],
  otherBytes: 2 * 1024 * 1024,
}

const JSON_TYPE = 'application/json; charset=utf-8'

/** The answer, with its generation's id, and its images kept whole for the journal's inspector. */
function send(request: FastifyRequest, reply: FastifyReply, made: MadeImages, body: string): FastifyReply {
  for (const file of made.files) keepMedia(request, { contentType: MEDIA_TYPES[made.format], bytes: file })
  return reply.header('x-generation-id', made.generationId).type(JSON_TYPE).send(body)
}

export const imagesRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  installMediaJsonParser(app, IMAGES_MEDIA)
  gateBodies(app, ctx)
  const call = (request: FastifyRequest, operation: string) => ({
    operation,
    region: isEuRequest(request.raw) ? ('eu' as const) : null,
    origin: requestOrigin(request),
  })

  app.post(
    '/images',
    {
      config: { operation: 'images.create', auth: 'standard', recordable: 'image' },
      bodyLimit: IMAGES_BODY_LIMIT,
      schema: { summary: 'Generate images', tags: ['images'], body: ImagesBody, response: ImagesResponse },
    },
    async (request, reply) => {
      const made = await makeImages(ctx, caller(request), await gatewayJob(ctx, request.body), call(request, 'images.create'))
      return send(request, reply, made, gatewayAnswer(made))
    },
  )

  app.post(
    '/images/generations',
    {
      config: { operation: 'images.generations', auth: 'standard', recordable: 'image' },
      bodyLimit: IMAGES_BODY_LIMIT,
      schema: {
        summary: "Generate images in OpenAI's shape (the path of the openai client's images.generate)",
        tags: ['images'],
        body: OpenAiImagesBody,
        response: OpenAiImagesResponse,
      },
    },
    async (request, reply) => {
      const made = await makeImages(ctx, caller(request), openAiJob(ctx, request.body), call(request, 'images.generations'))
      return send(request, reply, made, openAiAnswer(made, request.body))
    },
  )

  app.get(
    '/images/models',
    { config: { operation: 'images.models' }, schema: { summary: 'List the image models', tags: ['images'], response: ImageModelsResponse } },
    async (_request, reply) => (reply as FastifyReply).type(JSON_TYPE).send(imageModelsList(ctx)),
  )

  app.get(
    '/images/models/:author/:slug/endpoints',
    {
      config: { operation: 'images.models.endpoints' },
      schema: { summary: 'List the endpoints of an image model', tags: ['images'], params: ModelPathParams, response: ImageModelEndpointsResponse },
    },
    async (request, reply) => (reply as FastifyReply).type(JSON_TYPE).send(imageModelEndpoints(ctx, `${request.params.author}/${request.params.slug}`)),
  )
}
