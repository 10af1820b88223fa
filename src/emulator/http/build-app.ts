// Builds the Fastify app (not listening): error handling, validation, auth, then one plugin per API
// area under its prefix. Shells (CLI, desktop, tests) decide whether and where it listens.
import { createRequire } from 'node:module'
import Fastify, { LogController, type FastifyInstance, type FastifyRequest } from 'fastify'
import { REDACTED, redactUrl } from '../core/redact.ts'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { createRng } from '../core/rng.ts'
import type { EmulatorContext } from '../modules/module.ts'
import { MODULES } from '../modules/index.ts'
import { adminRoutes, type AdminHooks } from '../admin/admin.routes.ts'
import { installAdminGuard } from './admin-guard.ts'
import { installFrameGuard } from './frame-guard.ts'
import { gatewayHooks } from './gateway-hooks.ts'
import { installCors } from './cors.ts'
import { refuseNonCanonicalPaths, ROUTED_PARAM_LENGTH, routableUrl } from './canonical-path.ts'
import { installErrorHandling, installNotFound, sendError, toApiError } from './error-handler.ts'
import { installJsonParser } from './json-body.ts'
import { refuseOversizedDeclarations } from './body-limits.ts'
import { limitConnections, serverOptions } from './listeners.ts'
import { declareArea, openapiRoutes, registerOpenApi } from './openapi.ts'
import { lazySerializerCompiler } from './serialization.ts'
import { faviconRoutes, uiRoutes } from './ui.ts'
import { validatorCompiler } from './validation.ts'
import { uncommitted } from '../store/db.ts'

export const API_PREFIX = '/api/v1'
export const ROUTER_PREFIX = '/router/v1'
/** The video router's routes, under ROUTER_PREFIX. */
const VIDEO_PREFIX = '/video'
export const ADMIN_PREFIX = '/_emulator/api'

/** Bodies larger than this get a 413 (the video router raises it for its image uploads). */
export const DEFAULT_BODY_LIMIT = 1024 * 1024

/** pino-pretty, loaded only when logs go to a terminal. */
function prettyStream(): NodeJS.WritableStream {
  const pretty = createRequire(import.meta.url)('pino-pretty') as (options: object) => NodeJS.WritableStream
  return pretty({
    destination: 2,
    colorize: true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,reqId,method,path,status,ms,account',
    // A request is one short line; anything else keeps its message (and its fields below it).
    messageFormat: (log: Record<string, unknown>, messageKey: string) =>
      log[messageKey] === 'request'
        ? `${String(log.method)} ${String(log.path)} ${String(log.status)} ${String(log.ms)} ms${log.account ? ` ${String(log.account)}` : ''}`
        : String(log[messageKey] ?? ''),
  })
}

const DISPLAY_NAME = Symbol.for('fastify.display-name')

/**
 * `plugin` with its name given to Fastify up front. A plugin without one is looked for among the exports
 * of every loaded CommonJS module (require.cache), twice per plugin: with a hundred plugins, that was
 * a tenth of a start when the emulator runs from its sources in a test suite. The name is the same.
 */
function named<T extends (...args: never[]) => unknown>(plugin: T): T {
  if (plugin.name && !Object.hasOwn(plugin, DISPLAY_NAME)) Object.defineProperty(plugin, DISPLAY_NAME, { value: plugin.name })
  return plugin
}

export function buildApp(ctx: EmulatorContext, hooks: AdminHooks): FastifyInstance {
  const level = ctx.config.logLevel
  const traceRng = createRng(ctx.config.seed, 'trace')
  const app = Fastify({
    logger:
      level === 'silent'
        ? false
        : {
            level,
            // Readable lines on a terminal, JSON lines (for tools) otherwise.
            stream: process.stderr.isTTY ? prettyStream() : process.stderr,
            hooks: {
              // The CLI prints its own start-up summary: the framework's "Server listening at" lines are dropped.
              logMethod(args, method) {
                if (typeof args[0] === 'string' && args[0].startsWith('Server listening at')) return
                method.apply(this, args)
              },
            },
            // Secrets never reach a log line: a request is logged with its query's secrets redacted by
            // name (?api_key=, ?token=), and never with its headers.
            serializers: {
              req: (req: FastifyRequest) => ({ method: req.method, url: redactUrl(req.url), host: req.host, remoteAddress: req.ip }),
            },
            redact: { paths: ['req.headers', 'headers.authorization', 'headers["x-emulator-admin-token"]', 'headers.cookie'], censor: REDACTED },
          },
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: DEFAULT_BODY_LIMIT,
    // No load timer per plugin (a hundred of them, each a timeout set and cleared at every start): ours
    // are functions of this file's making, which do not wait on anything.
    pluginTimeout: 0,
    // Fastify sets these two on the server it makes (over what `http` says); the rest are Node's own.
    requestTimeout: ctx.config.requestTimeoutMs,
    keepAliveTimeout: ctx.config.keepAliveTimeoutMs,
    http: serverOptions(ctx.config),
    // On close, idle keep-alive connections go at once; requests under way finish (the emulator's close
    // bounds how long they may take). New requests on open connections get a 503 meanwhile.
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    // Over-long path parameters and undecodable percent-escapes are routed like any request (see
    // canonical-path.ts), so the scope that owns the path refuses them in its own envelope. What the
    // router still cannot route (a garbled absolute-form URL) belongs to no API: the main envelope.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: ROUTED_PARAM_LENGTH },
    rewriteUrl: routableUrl,
    frameworkErrors: (error, _request, reply) => {
      sendError(reply, toApiError(error), traceRng, 'main')
    },
  }).withTypeProvider<TypeBoxTypeProvider>()

  limitConnections(app.server, ctx.config)
  // Once closing, each answer closes its connection: a keep-alive client would otherwise hold the
  // close until its connection timed out.
  let closing = false
  app.addHook('preClose', (done) => {
    closing = true
    done()
  })
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close')
    // No answer leaves before the commit that holds what it wrote (group commit on a file: store/db.ts).
    const commit = uncommitted(ctx.db)
    if (commit === null) return done(null, payload)
    commit.then(
      () => done(null, payload),
      (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
    )
  })
  // One line per request at info (Fastify's own request logging writes two).
  if (level === 'info' || level === 'debug') {
    app.addHook('onResponse', (request, reply, done) => {
      const account = (request as FastifyRequest & { auth?: { account: { id: string } } | null }).auth?.account.id ?? null
      request.log.info(
        { method: request.method, path: redactUrl(request.url), status: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10, account },
        'request',
      )
      done()
    })
  }
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(lazySerializerCompiler())
  // Every body of these APIs is JSON; a text body gets a 400 naming the content type rather than a confusing type error.
  app.removeContentTypeParser('text/plain')
  installJsonParser(app)
  // A body declared larger than its route takes is a 413 before it is read, whatever reads it (forms too).
  refuseOversizedDeclarations(app, DEFAULT_BODY_LIMIT)
  installErrorHandling(app, traceRng, 'main')
  installNotFound(app, traceRng, 'main')
  // First of all hooks: a path spelt otherwise than canonically is refused, so the route a request
  // matched is the path it named, for every guard, log and journal entry after.
  app.addHook('onRequest', refuseNonCanonicalPaths)
  // Before any route plugin, so the OpenAPI document sees every route.
  registerOpenApi(app, ctx)

  // Each surface is a plugin scope of its own, and its hooks guard exactly the routes it registers.
  app.register(async function emulatedApis(api) {
    declareArea(api, 'gateway')
    installCors(api, ctx, [API_PREFIX, ROUTER_PREFIX])
    // The gateway's stages: each hook attaches to the routes of this scope whose config asks for it, in
    // the order of stage (onRequest, preValidation, preHandler) and order the modules declare
    // (http/gateway-hooks.ts): the journal, authentication, presets, faults, replay. The admin API and
    // the UI are outside the scope: never journaled nor faulted.
    for (const { hook } of gatewayHooks(MODULES)) hook.install(api, ctx)
    for (const module of MODULES) if (module.gateway) api.register(named(module.gateway), { prefix: API_PREFIX, ctx })
    api.register(
      async function videoRouter(router) {
        // The video router answers in its vendor's envelope, its 404s included.
        installErrorHandling(router, traceRng, 'router')
        installNotFound(router, traceRng, 'router')
        declareArea(router, 'router')
        for (const module of MODULES) if (module.router) router.register(named(module.router), { prefix: VIDEO_PREFIX, ctx })
      },
      { prefix: ROUTER_PREFIX },
    )
  })
  app.register(async function adminSurface(admin) {
    declareArea(admin, 'admin')
    // First: no page of another site may frame the UI, the docs or the admin API (frame-guard.ts).
    installFrameGuard(admin)
    installAdminGuard(admin, ctx)
    // A change made through the admin API (by a script, a test, another window) reaches the event
    // stream, so an open inspector follows it without polling.
    admin.addHook('onResponse', (request, reply, done) => {
      const operation = request.routeOptions.config.operation
      if (operation && request.method !== 'GET' && request.method !== 'HEAD' && reply.statusCode < 400) ctx.events.emit('admin.changed', { operation })
      done()
    })
    admin.register(named(adminRoutes), { prefix: ADMIN_PREFIX, ctx, hooks })
    for (const module of MODULES) if (module.admin) admin.register(named(module.admin), { prefix: ADMIN_PREFIX, ctx })
    for (const module of MODULES) if (module.pages) admin.register(named(module.pages), { ctx })
    admin.register(named(openapiRoutes))
    if (ctx.config.ui) admin.register(named(uiRoutes))
  })
  // Outside both scopes above: the same public icon for everyone (see faviconRoutes).
  if (ctx.config.ui) app.register(named(faviconRoutes))
  for (const module of MODULES) if (module.shortcuts) app.register(named(module.shortcuts), { ctx })
  return app
}
