// One OpenAPI 3.1 document for the gateway (/api/v1), the video router (/router/v1) and the admin API
// (/_emulator/api), made by @fastify/swagger from the routes themselves: each route's operation id,
// auth and area (config) and its TypeBox schemas, responses included. /_emulator/docs renders it with
// @fastify/swagger-ui, whose assets ship in the package: no CDN, so the page works offline.
// Both are loaded on first use, not at start (the document and the docs are seldom asked for, and the
// two packages, with yaml, @fastify/static and glob, were a sixth of the CLI's cold start): the routes
// are collected as they are registered and handed to @fastify/swagger when the document is first made;
// the docs page is an app of its own, made on its first request, to which the admin scope's docs
// routes hand their requests after the scope's guards have passed them.
import { createRequire } from 'node:module'
import type {} from '@fastify/swagger'
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifySchema, type RouteOptions } from 'fastify'
import { ROUTED_PARAM_LENGTH } from './canonical-path.ts'
import type { EmulatorContext } from '../modules/module.ts'
import type { AuthKind, AuthRequirement } from './auth.ts'
import { denyFrameAncestors, FRAME_ANCESTORS } from './frame-guard.ts'
import { ErrorEnvelope, OPTIONAL_BODY, RouterErrorSchema } from './schemas.ts'

export const OPENAPI_PATH = '/_emulator/api/openapi.json'
export const DOCS_PATH = '/_emulator/docs'
// Swagger UI sets inline styles; nothing else is allowed beyond this origin, and no page may frame it
// (see frame-guard.ts).
const DOCS_CSP = `default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; ${FRAME_ANCESTORS}`

type Json = Record<string, unknown>
type Area = 'gateway' | 'router' | 'admin'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The API a route belongs to, stamped by the plugin scope that registers it. */
    area?: Area
  }
}

/**
 * Marks every route a scope registers as belonging to `area` (the document's tag and error schema).
 * A nested scope stamps after its parent, so the innermost scope's area stands.
 */
export function declareArea(scope: FastifyInstance, area: Area): void {
  scope.addHook('onRoute', (route) => {
    if (route.config) route.config.area = area
  })
}

const AREA_TAGS: Record<Area, string> = {
  gateway: 'The Model Gateway API (/api/v1)',
  router: 'The video router (/router/v1)',
  admin: "The emulator's own admin API (/_emulator/api): no key needed",
}

/** A plain JSON copy of a TypeBox schema: its non-enumerable `~kind` markers dropped. */
const plain = (schema: unknown): Json => JSON.parse(JSON.stringify(schema ?? {})) as Json

function authNote(auth: AuthKind | AuthRequirement): string {
  const kind = typeof auth === 'string' ? auth : auth.kind
  return kind === 'any' ? 'Needs an API key (management or standard) as a Bearer token.' : `Needs a ${kind} API key as a Bearer token.`
}

/** What the document says of one route, from its config: the UI's pages and the docs' own routes are hidden. */
function describeRoute({ schema, url, route }: { schema: FastifySchema; url: string; route: RouteOptions }): { schema: Json; url: string } {
  const operation = route.config?.operation
  if (typeof operation !== 'string' || operation.startsWith('ui.')) return { schema: { hide: true }, url }
  const area = route.config?.area ?? 'gateway'
  const auth = route.config?.auth
  const secured = auth !== undefined && area !== 'admin'
  const errorRef = { $ref: `#/components/schemas/${area === 'router' ? 'RouterError' : 'Error'}` }
  const response = Object.fromEntries(
    Object.entries((schema?.response ?? {}) as Record<string, unknown>).map(([code, entry]) => [
      code,
      entry === ErrorEnvelope || entry === RouterErrorSchema
        ? { description: code.startsWith('5') ? 'Server error' : code.startsWith('4') ? 'Client error' : 'Error', ...errorRef }
        : entry,
    ]),
  )
  return {
    url,
    schema: {
      ...schema,
      operationId: operation,
      tags: schema?.tags && schema.tags.length > 0 ? schema.tags : [area],
      ...(secured && { description: authNote(auth), security: [{ bearerAuth: [] }] }),
      // Any other error is in the route's own envelope where it declares one (the Messages API's), else the area's.
      response: { ...response, default: ownEnvelope(schema?.response) ?? { description: 'Error', ...errorRef } },
    },
  }
}

/** A route's client-error schema when it is not the main envelope (an API that answers errors its own way). */
function ownEnvelope(responses: unknown): unknown {
  const declared = responses as Record<string, unknown> | undefined
  const clientError = declared?.['4xx'] ?? declared?.['4XX']
  return clientError !== undefined && clientError !== ErrorEnvelope && clientError !== RouterErrorSchema ? clientError : undefined
}

/** An optional body (see OptionalBody) is a requestBody that is not required; the marker itself goes. */
function markOptionalBodies(document: Json): Json {
  for (const methods of Object.values(document.paths as Record<string, Record<string, Json>>)) {
    for (const operation of Object.values(methods)) {
      const body = operation.requestBody as { required: boolean; content: Record<string, { schema: Json }> } | undefined
      for (const media of Object.values(body?.content ?? {})) {
        if (media.schema[OPTIONAL_BODY] !== true) continue
        delete media.schema[OPTIONAL_BODY]
        body!.required = false
      }
    }
  }
  return document
}

const load = createRequire(import.meta.url)

type SwaggerOptions = Record<string, unknown>
type Swagger = FastifyInstance['swagger']
type Hook = (...args: unknown[]) => unknown
type SwaggerPlugin = (instance: object, options: SwaggerOptions, done: () => void) => void

/**
 * @fastify/swagger's document function, made now from the routes and scopes it would have seen:
 * its plugin runs against a stand-in that keeps its hooks and its decoration, and its hooks are then
 * given what they would have been given at registration and at ready (routes do not change after).
 */
function makeSwagger(options: SwaggerOptions, routes: RouteOptions[], scopes: FastifyInstance[], root: FastifyInstance): Swagger {
  const { fastifySwagger } = load('@fastify/swagger') as { fastifySwagger: SwaggerPlugin }
  const hooks = new Map<string, Hook>()
  let swagger: Swagger | undefined
  const standIn = {
    addHook: (name: string, hook: Hook) => hooks.set(name, hook),
    decorate: (_name: string, value: Swagger) => (swagger = value),
    getSchemas: () => root.getSchemas(),
  }
  fastifySwagger(standIn, { ...options }, () => {})
  for (const route of routes) hooks.get('onRoute')!(route)
  for (const scope of scopes) void hooks.get('onRegister')!(scope)
  hooks.get('onReady')!(() => {})
  return swagger!
}

/** At the root, before any route: every route the scopes register is collected for the document. */
export function registerOpenApi(app: FastifyInstance, ctx: EmulatorContext): void {
  const options: SwaggerOptions = {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Model Gateway Emulator',
        version: ctx.version,
        description:
          'A local emulator of the Model Gateway API: keys, guardrails, credits, the model catalog, embeddings and activity under ' +
          '/api/v1, the video router under /router/v1, and the emulator’s own admin API (accounts, clock, fixtures, faults) under ' +
          '/_emulator/api. Gateway and router operations take an API key as a Bearer token; the admin API needs none.',
      },
      servers: [{ url: '/', description: 'This emulator' }],
      tags: Object.entries(AREA_TAGS).map(([name, description]) => ({ name, description })),
      components: {
        schemas: { Error: plain(ErrorEnvelope), RouterError: plain(RouterErrorSchema) } as never,
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'An emulator API key (see GET /_emulator/api/accounts/{id}/keys)' } },
      },
    },
    transform: describeRoute,
    transformObject: (documentObject: unknown) => markOptionalBodies(plain((documentObject as { openapiObject: unknown }).openapiObject)),
  }
  const routes: RouteOptions[] = []
  const scopes: FastifyInstance[] = []
  app.addHook('onRoute', (route) => {
    routes.push(route)
  })
  app.addHook('onRegister', (scope) => {
    scopes.push(scope)
  })
  let swagger: Swagger | undefined
  app.decorate('swagger', ((opts?: { yaml?: boolean }) => {
    swagger ??= makeSwagger(options, routes, scopes, app)
    return swagger(opts as never)
  }) as Swagger)
}

/** Response headers of the docs app that the admin scope's own reply sets for itself. */
const OWN_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length'])
/** The header that pairs a request handed to the docs app with the error it may end in. */
const HANDED = 'x-emulator-docs-request'

/**
 * The docs page (@fastify/swagger-ui, with @fastify/static for its assets) as an app of its own, under
 * the same path and router options, its document the main app's. An error it ends in is handed back
 * (kept in `errors`) so the admin scope answers it as any other.
 */
async function docsApp(swagger: Swagger, errors: Map<string, Error>): Promise<FastifyInstance> {
  const docs = Fastify({ logger: false, routerOptions: { ignoreTrailingSlash: true, maxParamLength: ROUTED_PARAM_LENGTH } })
  docs.setErrorHandler((error: Error, request, reply) => {
    errors.set(String(request.headers[HANDED]), error)
    return reply.code(500).send()
  })
  // Swagger UI needs the document's plugin registered (by its name) and its `swagger` decoration.
  const document = Object.assign(
    (scope: FastifyInstance, _options: unknown, done: () => void) => {
      scope.decorate('swagger', swagger)
      done()
    },
    {
      [Symbol.for('skip-override')]: true,
      [Symbol.for('fastify.display-name')]: '@fastify/swagger',
      [Symbol.for('plugin-meta')]: { name: '@fastify/swagger' },
    },
  )
  await docs.register(document)
  await docs.register(load('@fastify/swagger-ui') as never, {
    routePrefix: DOCS_PATH,
    // Everything from this origin (the page works offline); no inline script, nothing from elsewhere.
    staticCSP: DOCS_CSP,
    // Its hook sets that policy; the admin scope's framing rule (frame-guard.ts) is merged into it again.
    transformStaticCSP: denyFrameAncestors,
    theme: { title: 'Model Gateway Emulator: API documentation' },
    uiConfig: {
      deepLinking: true,
      docExpansion: 'list',
      defaultModelsExpandDepth: 0,
      displayOperationId: true,
      displayRequestDuration: true,
      filter: true,
      validatorUrl: null,
    },
  })
  await docs.ready()
  return docs
}

/** In the admin scope: the document as JSON, and Swagger UI on it (guarded like the rest of the admin surface). */
export async function openapiRoutes(app: FastifyInstance): Promise<void> {
  let document: string | undefined
  app.get(
    OPENAPI_PATH,
    {
      config: { operation: 'admin.openapi' },
      schema: {
        summary: 'This OpenAPI document',
        response: {
          200: { description: 'An OpenAPI 3.1 document', content: { 'application/json': { schema: { type: 'object', additionalProperties: true } } } },
        },
      },
    },
    async (_request, reply) => {
      // Built on the first request and kept: routes do not change after start-up.
      document ??= JSON.stringify(app.swagger())
      return reply.type('application/json; charset=utf-8').send(document)
    },
  )
  // The docs page: its routes (those Swagger UI registers) hand their requests to the docs app, made
  // on the first one; its answer is this scope's, after the scope's guards and framing rule, its
  // not-found and error answers the scope's own, all under the docs' policy as before.
  const errors = new Map<string, Error>()
  let docs: Promise<FastifyInstance> | undefined
  let handed = 0
  const serveDocs = async (request: FastifyRequest, reply: FastifyReply) => {
    docs ??= docsApp((opts) => app.swagger(opts as never) as never, errors).catch((error: unknown) => {
      docs = undefined
      throw error
    })
    const id = String(++handed)
    const answer = await (await docs).inject({ method: 'GET', url: request.url, headers: { ...request.headers, [HANDED]: id } })
    const error = errors.get(id)
    if (error !== undefined) {
      errors.delete(id)
      throw error
    }
    if (answer.statusCode === 404) return reply.callNotFound()
    for (const [name, value] of Object.entries(answer.headers)) if (!OWN_HEADERS.has(name) && value !== undefined) reply.header(name, value)
    reply.code(answer.statusCode)
    // A redirect or a 304 has no body (and no type to give one).
    return answer.rawPayload.length === 0 && answer.headers['content-type'] === undefined ? reply.send() : reply.send(answer.rawPayload)
  }
  const docsPolicy = (_request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void) => {
    reply.header('content-security-policy', denyFrameAncestors(DOCS_CSP))
    done(null, payload)
  }
  for (const path of ['', '/json', '/yaml', '/static/index.html', '/static/swagger-initializer.js', '/static/*'])
    app.get(`${DOCS_PATH}${path}`, { onSend: docsPolicy }, serveDocs)
  app.addHook('onClose', async () => {
    if (docs) await (await docs.catch(() => null))?.close()
  })
}
