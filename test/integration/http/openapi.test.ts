// The OpenAPI 3.1 document at /_emulator/api/openapi.json, made from the routes' own schemas, and the
// Swagger UI page at /_emulator/docs, served from local files under a strict CSP.
import { compileErrors, validate } from '@readme/openapi-parser'
import { describe, expect, it } from 'vitest'
import { testEmulator } from '../../helpers/emulator.ts'

type Operation = {
  operationId: string
  tags: string[]
  parameters?: { name: string; in: string; required: boolean; schema: Record<string, unknown> }[]
  requestBody?: { required: boolean; content: Record<string, { schema: any }> }
  responses: Record<string, any>
  security?: Record<string, string[]>[]
}

async function documentOf() {
  const emu = await testEmulator()
  const res = await emu.get('/_emulator/api/openapi.json')
  expect(res.status).toBe(200)
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
  const doc = res.body as { openapi: string; info: any; servers: any[]; paths: Record<string, Record<string, Operation>>; components: any }
  const operations = Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, ...op })))
  return { emu, doc, operations, op: (id: string) => operations.find((o) => o.operationId === id)! }
}

const KNOWN = [
  'keys.list',
  'keys.update',
  'keys.current',
  'models.list',
  'models.user',
  'models.endpoints',
  'endpoints.zdr',
  'guardrails.create',
  'guardrails.assignments.keys.assign',
  'credits.crypto',
  'credits.coinbase',
  'credits.get',
  'embeddings.create',
  'activity.list',
  'video.text2video',
  'video.startend2video',
  'video.tasks.get',
  'admin.health',
  'admin.accounts.create',
  'admin.clock.advance',
  'admin.openapi',
]

/** Full paths and methods from Fastify's route tree: each line's depth (4 characters a level) extends its parent's path. */
function registeredRoutes(tree: string): { path: string; methods: string[] }[] {
  const stack: string[] = []
  const routes: { path: string; methods: string[] }[] = []
  for (const line of tree.split('\n')) {
    const match = /^([│├└─ ]*)(\S+)(?: \(([A-Z, ]+)\))?$/.exec(line)
    if (!match) continue
    const depth = match[1]!.length / 4
    stack[depth] = `${stack[depth - 1] ?? ''}${match[2]}`
    stack.length = depth + 1
    if (match[3]) routes.push({ path: stack[depth]!, methods: match[3].split(', ') })
  }
  return routes
}

describe('OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const { doc } = await documentOf()
    expect(doc.openapi).toBe('3.1.0')
    expect(doc.info).toMatchObject({ title: 'Model Gateway Emulator', version: '0.1.0' })
    expect(doc.info.description).toContain('emulator')
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/' })])
    const result = await validate(structuredClone(doc) as never)
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true)
  })

  it('has every operation of the app once, and nothing of the UI', async () => {
    const { emu, operations } = await documentOf()
    const ids = operations.map((o) => o.operationId)
    expect(new Set(ids).size).toBe(ids.length)
    for (const id of KNOWN) expect(ids).toContain(id)
    expect(ids.filter((id) => id.startsWith('ui.'))).toEqual([])
    expect(
      operations.filter(
        (o) => o.path === '/_emulator/' || o.path.startsWith('/_emulator/{') || o.path.startsWith('/_emulator/docs/assets') || o.path === '/favicon.ico',
      ),
    ).toEqual([])
    // Every documented operation is a real route...
    for (const o of operations) {
      const url = o.path.replace(/\{([^}]+)\}/g, ':$1')
      expect(emu.app.hasRoute({ method: o.method.toUpperCase() as 'GET', url }), `${o.method} ${url}`).toBe(true)
    }
    // ...and every route but the UI's (its pages, its icon) and the docs page's own (its assets, its copy of the document) is documented.
    const registered = registeredRoutes(emu.app.printRoutes({ commonPrefix: false }))
      // (The OAuth authorization page and the real site's /auth link to it are pages too.)
      .filter(({ path }) => !path.startsWith('/_emulator/docs') && !/^\/_emulator\/?(\*)?$/.test(path) && path !== '/favicon.ico')
      .filter(({ path }) => path !== '/_emulator/auth' && path !== '/auth')
      .flatMap(({ methods }) => methods)
      .filter((method) => method !== 'HEAD')
    expect(registered.length).toBeGreaterThan(90)
    expect(operations.length, 'a route without config.operation is missing from the document').toBe(registered.length)
  })

  it('converts paths and documents parameters and bodies from the route schemas', async () => {
    const { doc, op } = await documentOf()

    const update = doc.paths['/api/v1/keys/{hash}']!.patch!
    expect(update.operationId).toBe('keys.update')
    expect(update.tags).toEqual(['keys'])
    expect(update.parameters).toEqual(
      [{ name: 'hash', in: 'path', required: true, schema: { type: 'string', minLength: 1 } }].map((p) => expect.objectContaining(p)),
    )
    expect(update.requestBody!.required).toBe(true)
    const body = update.requestBody!.content['application/json']!.schema
    expect(body.properties.limit).toEqual({ type: ['number', 'null'], minimum: 0, maximum: 1e9 })
    expect(body.required ?? []).not.toContain('limit')
    expect(update.responses['200'].content['application/json'].schema.properties.data.properties.hash).toEqual({ type: 'string' })
    expect(update.responses['4XX'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' })

    const list = op('keys.list')
    expect(list.parameters!.map((p) => [p.name, p.in, p.required])).toEqual([
      ['include_disabled', 'query', false],
      ['offset', 'query', false],
      ['limit', 'query', false],
      ['workspace_id', 'query', false],
    ])
    expect(op('models.endpoints').parameters!.map((p) => p.name)).toEqual(['author', 'slug'])
    // A route that checks its params by hand still gets its path parameter.
    expect(op('video.tasks.get').parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path', required: true, schema: { type: 'string' } })])
    // An optional body (x-optional-body) is documented as not required, without the marker.
    const create = op('admin.accounts.create')
    expect(create.requestBody!.required).toBe(false)
    expect(JSON.stringify(create.requestBody)).not.toContain('x-optional-body')
    expect(op('admin.clock.advance').requestBody!.content['application/json']!.schema.properties).toHaveProperty('by')
    expect(op('embeddings.create').requestBody!.required).toBe(true)
  })

  it('uses each API area’s error envelope', async () => {
    const { doc, op } = await documentOf()
    expect(doc.components.schemas.Error.properties.error.required).toEqual(['code', 'message'])
    expect(doc.components.schemas.RouterError.required).toEqual(['code', 'reason', 'message', 'metadata'])
    expect(doc.components.schemas.RouterError.properties.metadata.required).toEqual(['trace_id'])
    expect(op('video.text2video').responses.default.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/RouterError' })
    expect(op('embeddings.create').responses.default.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' })
    expect(op('admin.health').responses.default.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' })
  })

  it('asks for a Bearer key on the gateway and router routes that need one, never on the admin API', async () => {
    const { doc, operations, op } = await documentOf()
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' })
    for (const id of [
      'keys.list',
      'keys.update',
      'keys.current',
      'models.user',
      'credits.get',
      'embeddings.create',
      'activity.list',
      'video.text2video',
      'video.tasks.get',
    ]) {
      expect(op(id).security, id).toEqual([{ bearerAuth: [] }])
    }
    // Public routes need no key.
    expect(op('models.list').security).toBeUndefined()
    expect(op('video.media').security).toBeUndefined()
    const admin = operations.filter((o) => o.path.startsWith('/_emulator/'))
    expect(admin.length).toBeGreaterThan(20)
    for (const o of admin) {
      expect(o.security, o.operationId).toBeUndefined()
      expect(o.tags).toEqual(['admin'])
    }
  })

  it('describes every answer: each operation has a success status with a body schema or media type', async () => {
    const { operations } = await documentOf()
    const described = operations.filter((o) =>
      Object.entries(o.responses).some(([code, r]) => code.startsWith('2') && r.content && Object.keys(r.content).length > 0),
    )
    expect(operations.length).toBeGreaterThan(95)
    expect(operations.filter((o) => !described.includes(o)).map((o) => o.operationId)).toEqual([])
    // And what goes wrong: every operation names its error envelope.
    for (const o of operations) expect(o.responses.default ?? o.responses['4XX'], o.operationId).toBeDefined()
  })

  it('is built once and served the same every time', async () => {
    const { emu } = await documentOf()
    const a = await emu.app.inject('/_emulator/api/openapi.json')
    const b = await emu.app.inject('/_emulator/api/openapi.json')
    expect(a.body).toBe(b.body)
  })
})

describe('API docs page at /_emulator/docs', () => {
  it('serves Swagger UI from local assets under a strict CSP, with no inline script', async () => {
    const emu = await testEmulator()
    for (const url of ['/_emulator/docs', '/_emulator/docs/']) {
      const page = await emu.app.inject(url)
      expect(page.statusCode).toBe(200)
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8')
      expect(page.body).toContain('<title>Model Gateway Emulator: API documentation</title>')
      const csp = String(page.headers['content-security-policy'])
      expect(csp).toContain("default-src 'self'")
      expect(csp).toContain("script-src 'self';")
      expect(csp).not.toMatch(/https?:|unsafe-eval/)
      // Every script is a file of this origin; nothing points elsewhere.
      const scripts = [...page.body.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)]
      expect(scripts.length).toBeGreaterThanOrEqual(2)
      for (const [, attrs, text] of scripts) {
        expect(attrs).toMatch(/src="[^"]+"/)
        expect(text!.trim()).toBe('')
      }
      expect(page.body).not.toMatch(/(src|href)="(https?:)?\/\//)
      // Links that resolve under /_emulator/docs/static/ from either URL, and are served.
      for (const [, ref] of page.body.matchAll(/(?:src|href)="([^"]+)"/g)) {
        const path = new URL(ref!, `http://localhost${url}`).pathname
        expect(path).toMatch(/^\/_emulator\/docs\/static\/[\w.-]+$/)
        expect((await emu.app.inject(path)).statusCode, path).toBe(200)
      }
    }
    const bundle = await emu.app.inject('/_emulator/docs/static/swagger-ui-bundle.js')
    expect(bundle.body).toContain('SwaggerUIBundle')
    // The page's own copy of the document is the served one.
    const json = await emu.app.inject('/_emulator/docs/json')
    expect(json.json()).toEqual((await emu.app.inject('/_emulator/api/openapi.json')).json())

    // Only the package's files: nothing else of node_modules is reachable.
    expect((await emu.app.inject('/_emulator/docs/static/package.json')).statusCode).toBe(404)
    // An encoded slash is not a canonical spelling: refused before it reaches the route.
    expect((await emu.app.inject('/_emulator/docs/static/..%2F..%2Fpackage.json')).statusCode).toBe(400)
  })
})
