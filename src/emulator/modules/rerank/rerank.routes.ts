// POST /api/v1/rerank (standard key).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { EmulatorContext } from '../module.ts'
import { requestOrigin } from '../../http/request-origin.ts'
import { caller } from '../../http/auth.ts'
import { isEuRequest } from '../../http/listeners.ts'
import { RerankBody, RerankResponse } from './rerank.schemas.ts'
import { createRerank } from './rerank.service.ts'

/** 1000 documents of real pages need more than the default 1 MB; a document is at most 512 KiB of text. */
const RERANK_BODY_LIMIT = 16 * 1024 * 1024

export const rerankRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  app.post(
    '/rerank',
    {
      config: { operation: 'rerank.create', auth: 'standard' },
      bodyLimit: RERANK_BODY_LIMIT,
      schema: { summary: 'Rerank documents by their relevance to a query', tags: ['rerank'], body: RerankBody, response: RerankResponse },
    },
    async (request) => createRerank(ctx, caller(request), request.body, isEuRequest(request.raw) ? 'eu' : null, requestOrigin(request)),
  )
}
