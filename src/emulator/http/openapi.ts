// One OpenAPI 3.1 document for the gateway (/api/v1), the video router (/router/v1) and the admin API
// (/_emulator/api), made from the routes themselves: an onRoute hook (added in buildApp before any
// route plugin) collects each route's operation id, auth and TypeBox schemas. The document is built
// on its first request and kept, since routes do not change after start-up. /_emulator/docs renders it
// with Swagger UI from node_modules (swagger-ui-dist): no CDN, no inline script, so the page works
// offline and under the inspector's strict CSP.
import { readFile } from 'node:fs/promises'
import { http } from '../core/node-http.ts'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, RouteOptions } from 'fastify'
import { Type } from 'typebox'
import type { EmulatorContext } from '../context.ts'
import type { AuthKind, AuthRequirement } from './auth.ts'
import { ErrorEnvelope, OPTIONAL_BODY } from './schemas.ts'

// Here rather than beside the schema helpers (schemas.ts), which the browser build type-checks.
declare module 'fastify' {
  interface FastifySchema {
    /** For the OpenAPI document: one line on what the route does, and its group. */
    summary?: string
    tags?: string[]
  }
}

export const OPENAPI_PATH = '/_emulator/api/openapi.json'
export const DOCS_PATH = '/_emulator/docs'

type Json = Record<string, unknown>

/** What the document needs of one registered route. */
export interface CollectedRoute {
  method: string
  /** Fastify syntax, prefix included: /api/v1/keys/:hash */
  url: string
  operation: string
  auth: AuthKind | AuthRequirement | undefined
  schema: FastifySchema | undefined
  /** Which API the route belongs to: its scope stamps it (see declareArea), after this route was collected. */
  area(): Area
}

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

export interface RouteCollector {
  readonly routes: readonly CollectedRoute[]
  /** The onRoute hook: add it before any route is registered. */
  onRoute(route: RouteOptions): void
}

export function createRouteCollector(): RouteCollector {
  const routes: CollectedRoute[] = []
  const seen = new Set<string>()
  return {
    routes,
    onRoute(route) {
      const operation = route.config?.operation
      // The UI's own routes (shell, assets) are pages, not API operations.
      if (typeof operation !== 'string' || operation.startsWith('ui.')) return
      for (const method of [route.method].flat()) {
        if (method === 'HEAD') continue
        const id = `${method} ${route.url}`
        if (seen.has(id)) continue
        seen.add(id)
        // The scopes' hooks run after this root one: the area is read when the document is built.
        const config = route.config
        routes.push({
          method,
          url: route.url,
          operation,
          auth: config?.auth,
          schema: route.schema as FastifySchema | undefined,
          area: () => config?.area ?? 'gateway',
        })
      }
    },
  }
}

const RouterErrorSchema = Type.Object(
  {
    code: Type.Integer({ description: 'The HTTP status' }),
    reason: Type.String({ description: 'A stable reason, e.g. FieldInvalid or TaskNotFound' }),
    message: Type.String({ description: "The vendor's fixed words for the reason, e.g. `invalid field: model`" }),
    metadata: Type.Object({ trace_id: Type.String() }, { additionalProperties: true }),
  },
  { description: "The vendor's error envelope. The emulator's own explanation, when it has one, is in the X-Emulator-Detail response header." },
)

const AREA_TAGS: Record<Area, string> = {
  gateway: 'The Model Gateway API (/api/v1)',
  router: 'The video router (/router/v1)',
  admin: "The emulator's own admin API (/_emulator/api): no key needed",
}

/** `/models/:author/:slug` -> `/models/{author}/{slug}`, and the names of those parameters. */
export function toOpenApiPath(url: string): { path: string; params: string[] } {
  const params: string[] = []
  const path = url
    .replace(/::/g, '\u0000')
    .replace(/:([A-Za-z0-9_$]+)(\([^)]*\))?/g, (_, name: string) => {
      params.push(name)
      return `{${name}}`
    })
    .replace(/\*/g, () => {
      params.push('wildcard')
      return '{wildcard}'
    })
    // oxlint-disable-next-line no-control-regex -- NUL is the placeholder put in above, never in a path
    .replace(/\u0000/g, ':')
  return { path, params }
}

/** A plain JSON copy of a TypeBox schema: its non-enumerable `~kind` markers and our own flags dropped. */
function plain(schema: unknown): Json {
  const copy = JSON.parse(JSON.stringify(schema ?? {})) as Json
  delete copy[OPTIONAL_BODY]
  return copy
}

const isOptional = (schema: unknown): boolean => {
  if (!schema || typeof schema !== 'object') return false
  const s = schema as Record<string, unknown>
  return s[OPTIONAL_BODY] === true || s['~optional'] === true
}

function parametersOf(schema: unknown, where: 'path' | 'query'): Json[] {
  if (!schema || typeof schema !== 'object') return []
  const s = plain(schema)
  const properties = s.properties
  if (!properties || typeof properties !== 'object') return []
  const required = Array.isArray(s.required) ? (s.required as string[]) : []
  return Object.entries(properties as Record<string, Json>).map(([name, property]) => {
    const { description, ...rest } = property
    return {
      name,
      in: where,
      required: where === 'path' || required.includes(name),
      ...(typeof description === 'string' && { description }),
      schema: rest,
    }
  })
}

const statusKey = (code: string): string => (/^[1-5]xx$/i.test(code) ? code.toUpperCase() : code)

function describeStatus(code: string): string {
  if (code === 'default') return 'Error'
  if (/^[1-5]XX$/.test(code))
    return code.startsWith('2') ? 'Success' : code.startsWith('4') ? 'Client error' : code.startsWith('5') ? 'Server error' : 'Response'
  return http.STATUS_CODES[Number(code)] ?? 'Response'
}

function responsesOf(schema: FastifySchema | undefined, errorRef: Json): Json {
  const responses: Json = {}
  const declared = schema?.response
  if (declared && typeof declared === 'object') {
    for (const [code, entry] of Object.entries(declared as Record<string, unknown>)) {
      const key = statusKey(code)
      const e = entry as Json
      let content: Json
      if (entry === ErrorEnvelope) content = { 'application/json': { schema: errorRef } }
      else if (e && typeof e.content === 'object' && e.type === undefined) {
        // Fastify's long form: { description, content: { 'type': { schema } } }
        content = Object.fromEntries(Object.entries(e.content as Record<string, Json>).map(([type, media]) => [type, { schema: plain(media.schema) }]))
      } else content = { 'application/json': { schema: plain(entry) } }
      responses[key] = { description: typeof e?.description === 'string' ? e.description : describeStatus(key), content }
    }
  }
  if (!Object.keys(responses).some((code) => code.startsWith('2'))) {
    responses['200'] = { description: 'Success', content: { 'application/json': { schema: {} } } }
  }
  responses.default ??= { description: 'Error', content: { 'application/json': { schema: errorRef } } }
  return responses
}

function authNote(auth: AuthKind | AuthRequirement): string {
  const kind = typeof auth === 'string' ? auth : auth.kind
  return kind === 'any' ? 'Needs an API key (management or standard) as a Bearer token.' : `Needs a ${kind} API key as a Bearer token.`
}

export function buildOpenApiDocument(routes: readonly CollectedRoute[], version: string): Json {
  const paths: Record<string, Record<string, Json>> = {}
  const tags = new Map<string, string | undefined>()
  for (const route of routes) {
    const area = route.area()
    const { path, params: pathParams } = toOpenApiPath(route.url)
    const schema = route.schema
    const routeTags = schema?.tags && schema.tags.length > 0 ? schema.tags : [area]
    for (const tag of routeTags) if (!tags.has(tag)) tags.set(tag, tag === area ? AREA_TAGS[area] : undefined)

    const parameters = [...parametersOf(schema?.params, 'path'), ...parametersOf(schema?.querystring, 'query')]
    // Every templated segment needs a parameter, also on routes that check their params by hand.
    for (const name of pathParams) {
      if (!parameters.some((p) => p.in === 'path' && p.name === name)) parameters.push({ name, in: 'path', required: true, schema: { type: 'string' } })
    }

    const errorRef = { $ref: `#/components/schemas/${area === 'router' ? 'RouterError' : 'Error'}` }
    const secured = route.auth !== undefined && area !== 'admin'
    const operation: Json = {
      tags: routeTags,
      ...(schema?.summary && { summary: schema.summary }),
      ...(secured && { description: authNote(route.auth!) }),
      operationId: route.operation,
      ...(parameters.length > 0 && { parameters }),
      ...(schema?.body !== undefined && {
        requestBody: { required: !isOptional(schema.body), content: { 'application/json': { schema: plain(schema.body) } } },
      }),
      responses: responsesOf(schema, errorRef),
      ...(secured && { security: [{ bearerAuth: [] }] }),
    }
    ;(paths[path] ??= {})[route.method.toLowerCase()] = operation
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'Model Gateway Emulator',
      version,
      description:
        'A local emulator of the Model Gateway API: keys, guardrails, credits, the model catalog, embeddings and activity under ' +
        '/api/v1, the video router under /router/v1, and the emulator’s own admin API (accounts, clock, fixtures, faults) under ' +
        '/_emulator/api. Gateway and router operations take an API key as a Bearer token; the admin API needs none.',
    },
    servers: [{ url: '/', description: 'This emulator' }],
    tags: [...tags].map(([name, description]) => ({ name, ...(description && { description }) })),
    paths,
    components: {
      schemas: { Error: plain(ErrorEnvelope), RouterError: plain(RouterErrorSchema) },
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'An emulator API key (see GET /_emulator/api/accounts/{id}/keys)' } },
    },
  }
}

/** The folder of swagger-ui-dist, or null when it cannot be found (e.g. in a packaged build). */
export function findSwaggerUi(): string | null {
  try {
    return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))
  } catch {
    return null
  }
}

// The page's own policy: everything from this origin, no inline script (Swagger UI injects inline styles).
export const DOCS_CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:"

const HTML = 'text/html; charset=utf-8'

// Starts Swagger UI on the document. It lives in a file because the CSP forbids inline scripts; the
// document's URL is found from this script's own (…/_emulator/docs/assets/docs.js).
const INITIALIZER = `'use strict'
;(function () {
  var spec = new URL('../../api/openapi.json', document.currentScript.src).href
  var root = document.getElementById('swagger-ui')
  if (typeof window.SwaggerUIBundle !== 'function') {
    root.textContent = 'Swagger UI did not load. The document is at ' + spec
    return
  }
  window.ui = window.SwaggerUIBundle({
    url: spec,
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    presets: [window.SwaggerUIBundle.presets.apis],
    plugins: [window.SwaggerUIBundle.plugins.DownloadUrl],
    layout: 'BaseLayout',
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    displayOperationId: true,
    displayRequestDuration: true,
    filter: true,
    persistAuthorization: false,
  })
})()
`

const ASSETS: Record<string, { file?: string; type: string }> = {
  'swagger-ui.css': { file: 'swagger-ui.css', type: 'text/css; charset=utf-8' },
  'swagger-ui-bundle.js': { file: 'swagger-ui-bundle.js', type: 'text/javascript; charset=utf-8' },
  'docs.js': { type: 'text/javascript; charset=utf-8' },
}

const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!)

function docsPage(base: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Model Gateway Emulator: API documentation</title>
<link rel="stylesheet" href="${base}assets/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${base}assets/swagger-ui-bundle.js"></script>
<script src="${base}assets/docs.js"></script>
</body>
</html>
`
}

function missingPage(base: string): string {
  const spec = escapeHtml(base === './' ? '../api/openapi.json' : 'api/openapi.json')
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Model Gateway Emulator: API documentation</title></head>
<body style="font-family:system-ui,sans-serif;padding:2rem;max-width:40rem">
<h1>API documentation</h1>
<p>The documentation viewer's assets (the <code>swagger-ui-dist</code> package) are missing from this installation.</p>
<p>The OpenAPI document is still served: <a href="${spec}">openapi.json</a>.</p>
</body>
</html>
`
}

export interface OpenApiRoutesOptions {
  ctx: EmulatorContext
  routes: RouteCollector
  /** swagger-ui-dist's folder; null when missing. Defaults to the installed package. */
  swaggerUiDir?: string | null
}

export async function openapiRoutes(app: FastifyInstance, { ctx, routes, swaggerUiDir = findSwaggerUi() }: OpenApiRoutesOptions): Promise<void> {
  let document: string | undefined
  app.get(OPENAPI_PATH, { config: { operation: 'admin.openapi' }, schema: { summary: 'This OpenAPI document' } }, async (_request, reply) => {
    document ??= JSON.stringify(buildOpenApiDocument(routes.routes, ctx.version))
    return reply.type('application/json; charset=utf-8').send(document)
  })

  // Relative links, so the page works at /_emulator/docs and /_emulator/docs/ (and behind a path prefix).
  const baseOf = (request: FastifyRequest) => (request.url.split('?')[0]!.endsWith('/') ? './' : 'docs/')
  app.get(DOCS_PATH, { config: { operation: 'admin.docs' }, schema: { summary: 'This documentation, rendered by Swagger UI' } }, async (request, reply) => {
    reply.header('content-security-policy', DOCS_CSP).header('x-content-type-options', 'nosniff').type(HTML)
    return reply.send(swaggerUiDir === null ? missingPage(baseOf(request)) : docsPage(baseOf(request)))
  })

  const cache = new Map<string, Buffer | string>()
  app.get<{ Params: { file: string } }>(`${DOCS_PATH}/assets/:file`, { config: { operation: 'ui.docs.asset' } }, async (request, reply: FastifyReply) => {
    const asset = ASSETS[request.params.file]
    if (!asset || (asset.file && swaggerUiDir === null)) return reply.callNotFound()
    let body = cache.get(request.params.file)
    if (body === undefined) {
      body = asset.file ? await readFile(join(swaggerUiDir!, asset.file)) : INITIALIZER
      cache.set(request.params.file, body)
    }
    return reply.type(asset.type).header('cache-control', 'public, max-age=3600').header('x-content-type-options', 'nosniff').send(body)
  })
}
