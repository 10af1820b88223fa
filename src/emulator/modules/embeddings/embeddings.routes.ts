// POST /api/v1/embeddings (standard key).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply } from 'fastify'
import type { EmulatorContext } from '../module.ts'
import { caller } from '../../http/auth.ts'
import { isEuRequest } from '../../http/listeners.ts'
import { EmbeddingsBody, EmbeddingsResponse } from './embeddings.schemas.ts'
import { createEmbeddings } from './embeddings.service.ts'

/** 2048 inputs, or images as data URIs, need more than the default 1 MB. */
const EMBEDDINGS_BODY_LIMIT = 32 * 1024 * 1024

export const embeddingsRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  app.post(
    '/embeddings',
    {
      config: { operation: 'embeddings.create', auth: 'standard', recordable: 'embeddings' },
      bodyLimit: EMBEDDINGS_BODY_LIMIT,
      schema: { summary: 'Create embeddings', tags: ['embeddings'], body: EmbeddingsBody, response: EmbeddingsResponse },
    },
    async (request, reply) => {
      const region = isEuRequest(request.raw) ? 'eu' : null
      const body = await createEmbeddings(ctx, caller(request), request.body, region)
      // Bytes written by the service, sent piece by piece (the schema only documents them).
      return (reply as FastifyReply).type('application/json; charset=utf-8').header('content-length', body.byteLength).send(body)
    },
  )
}
