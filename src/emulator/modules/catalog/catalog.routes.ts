// The model catalog: GET /models (public, or RSS), /models/user (filtered for the caller), the
// endpoints of one model, the zero-data-retention preview, and the count.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import type { EmulatorContext } from '../module.ts'
import { modelNotFound } from './catalog.errors.ts'
import { isEuRequest } from '../../http/listeners.ts'
import { caller } from '../../http/auth.ts'
import type { Catalog, ModelFilters } from './catalog-index.service.ts'
import {
  EmbeddingsModelsQuery,
  EmbeddingsModelsResponse,
  ListModelsQuery,
  ModelCountResponse,
  ModelEndpointsResponse,
  ModelListResponse,
  ModelPathParams,
  ModelResponse,
  OUTPUT_MODALITIES,
  ProvidersResponse,
  UserModelListResponse,
  ZdrEndpointsResponse,
  type CatalogModel,
  type Region,
} from './catalog.schemas.ts'
import { modelsFeed } from './catalog-rss.service.ts'
import { providersOf } from './catalog-providers.service.ts'
import type { EndpointPolicy } from './catalog-policy.service.ts'
import { unknownOutputModality } from './catalog.errors.ts'

const JSON_TYPE = 'application/json; charset=utf-8'

/**
 * Sends a body the catalog serialised ahead (once per catalog or per distinct query): Fastify sends
 * bytes and JSON strings as they are, so the routes' response schemas document these bodies without
 * re-serialising them.
 */
const sendPrepared = (reply: FastifyReply, body: Buffer | string): FastifyReply => reply.type(JSON_TYPE).send(body)

function commaList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
}

function parseOutputModalities(value: string | undefined): string[] | 'all' {
  const list = value === undefined ? ['text'] : commaList(value)
  if (list.includes('all')) return 'all'
  const unknown = list.find((m) => !(OUTPUT_MODALITIES as readonly string[]).includes(m))
  if (unknown !== undefined || list.length === 0) {
    throw unknownOutputModality(value, OUTPUT_MODALITIES)
  }
  return list
}

function filtersOf(query: ListModelsQuery): ModelFilters {
  return {
    category: query.category,
    supportedParameters: commaList(query.supported_parameters),
    outputModalities: parseOutputModalities(query.output_modalities),
    limit: query.limit,
    offset: query.offset,
  }
}

/** The region asked for: ?region wins; a request to the EU listener means eu. */
const regionOf = (request: FastifyRequest, query: ListModelsQuery): Region | null => query.region ?? (isEuRequest(request.raw) ? 'eu' : null)

/** The same path and query without paging, for links.next. */
function nextBase(request: FastifyRequest): string {
  const [path, search = ''] = request.url.split('?')
  const params = new URLSearchParams(search)
  params.delete('offset')
  params.delete('limit')
  const rest = params.toString()
  return rest ? `${path}?${rest}` : path!
}

/** The real GET /api/v1/models answer's Cache-Control. */
const PUBLIC_LIST_CACHE = 'public, max-age=120, stale-while-revalidate=3600, stale-if-error=3600'

const originOf = (request: FastifyRequest): string => `${request.protocol}://${request.host}`

/** The model a path names (`/:author/:slug`, by id or canonical slug), or its 404. */
function modelOf(catalog: Catalog, { author, slug }: { author: string; slug: string }): CatalogModel {
  const model = catalog.find(`${author}/${slug}`)
  if (!model) throw modelNotFound(`${author}/${slug}`)
  return model
}

export const catalogRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  const sendList = (request: FastifyRequest, reply: FastifyReply, query: ListModelsQuery, policies: readonly EndpointPolicy[]) => {
    const catalog = ctx.services.catalog.get()
    const filters = filtersOf(query)
    if (query.use_rss) {
      const models = catalog.list(filters, policies, nextBase(request)).models
      return reply.type('application/rss+xml; charset=utf-8').send(modelsFeed(models, originOf(request), query.use_rss_chat_links ?? false))
    }
    return sendPrepared(reply, catalog.list(filters, policies, nextBase(request)).body)
  }

  app.get(
    '/models',
    {
      config: { operation: 'models.list' },
      schema: { summary: 'List models', tags: ['models'], querystring: ListModelsQuery, response: ModelListResponse },
    },
    async (request, reply) => {
      const region = regionOf(request, request.query)
      // The public list is cacheable, as the real one says (a browser app or a proxy may keep it).
      reply.header('cache-control', PUBLIC_LIST_CACHE)
      if (request.query.use_rss) return sendList(request, reply, request.query, region ? [{ source: 'region', region }] : [])
      // The public list depends only on the URL and the region: its bytes are memoised per catalog.
      const body = ctx.services.catalog
        .get()
        .memo(
          `${region}|${request.url}`,
          () => ctx.services.catalog.get().list(filtersOf(request.query), region ? [{ source: 'region', region }] : [], nextBase(request)).body,
        )
      return sendPrepared(reply, body)
    },
  )

  app.get(
    '/models/count',
    {
      config: { operation: 'models.count' },
      schema: { summary: 'Count models', tags: ['models'], querystring: ListModelsQuery, response: ModelCountResponse },
    },
    async (request) => {
      const region = regionOf(request, request.query)
      const models = ctx.services.catalog
        .get()
        .filter({ ...filtersOf(request.query), limit: undefined, offset: undefined }, region ? [{ source: 'region', region }] : [])
      return { data: { count: models.length } }
    },
  )

  app.get(
    '/models/user',
    {
      config: { operation: 'models.user', auth: 'any' },
      schema: { summary: "List the models the caller's key may use", tags: ['models'], querystring: ListModelsQuery, response: UserModelListResponse },
    },
    async (request, reply) => sendList(request, reply, request.query, ctx.services.catalog.policies.for(caller(request), regionOf(request, request.query))),
  )

  app.get(
    '/models/:author/:slug/endpoints',
    {
      config: { operation: 'models.endpoints' },
      schema: { summary: 'List the endpoints of a model', tags: ['models'], params: ModelPathParams, response: ModelEndpointsResponse },
    },
    async (request, reply) => {
      const catalog = ctx.services.catalog.get()
      return sendPrepared(reply, catalog.endpointsJson(modelOf(catalog, request.params)))
    },
  )

  app.get(
    '/model/:author/:slug',
    {
      config: { operation: 'models.get' },
      schema: { summary: 'Get a model (an id, a free variant or a canonical slug)', tags: ['models'], params: ModelPathParams, response: ModelResponse },
    },
    async (request, reply) => {
      const catalog = ctx.services.catalog.get()
      return sendPrepared(reply, `{"data":${catalog.modelJson(modelOf(catalog, request.params))}}`)
    },
  )

  app.get(
    '/embeddings/models',
    {
      config: { operation: 'embeddings.models' },
      schema: { summary: 'List the embeddings models', tags: ['embeddings'], querystring: EmbeddingsModelsQuery, response: EmbeddingsModelsResponse },
    },
    async (request, reply) => {
      const { offset, limit } = request.query
      // Both omitted: the whole list; an offset alone pages by the real default of 500.
      const filters = {
        supportedParameters: [],
        outputModalities: ['embeddings'],
        offset: offset ?? undefined,
        limit: limit ?? (offset == null ? undefined : 500),
      }
      return sendPrepared(reply, ctx.services.catalog.get().list(filters, [], '/api/v1/embeddings/models').body)
    },
  )

  app.get(
    '/providers',
    { config: { operation: 'providers.list' }, schema: { summary: 'List the providers', tags: ['models'], response: ProvidersResponse } },
    async (_request, reply) => {
      const catalog = ctx.services.catalog.get()
      // Once per catalog: it changes only when the catalog does.
      const body = catalog.memo('providers', () => Buffer.from(JSON.stringify({ data: providersOf(catalog.models, ctx.services.catalog.providers) })))
      return sendPrepared(reply, body)
    },
  )

  app.get(
    '/endpoints/zdr',
    {
      config: { operation: 'endpoints.zdr' },
      schema: { summary: 'Preview zero-data-retention endpoints', tags: ['models'], querystring: Type.Object({}), response: ZdrEndpointsResponse },
    },
    async (_request, reply) => sendPrepared(reply, ctx.services.catalog.get().zdrBody),
  )
}
