// One OpenAPI 3.1 document for the gateway (/api/v1), the video router (/router/v1) and the admin API
// (/_emulator/api), made by @fastify/swagger from the routes themselves: each route's operation id,
// auth and area (config) and its TypeBox schemas, responses included. /_emulator/docs renders it with
// @fastify/swagger-ui, whose assets ship in the package: no CDN, so the page works offline.
import fastifySwagger from '@fastify/swagger'
import fastifySwaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify'
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

/** At the root, before any route: @fastify/swagger sees every route the scopes register. */
export function registerOpenApi(app: FastifyInstance, ctx: EmulatorContext): void {
  void app.register(fastifySwagger, {
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
    transformObject: (documentObject) => markOptionalBodies(plain((documentObject as { openapiObject: unknown }).openapiObject)) as never,
  })
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
  await app.register(fastifySwaggerUi, {
    routePrefix: DOCS_PATH,
    // Everything from this origin (the page works offline); no inline script, nothing from elsewhere.
    staticCSP: DOCS_CSP,
    // Its hook sets that policy after the scope's own (frame-guard.ts): the framing rule is merged again.
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
}
