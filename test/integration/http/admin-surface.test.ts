// The admin API, its docs and the UI, tried as an attacker on the user's machine would: every other
// spelling of their paths, a rebound Host, a page of another origin. The guards hang on the routes'
// plugin scope, so no spelling of a path reaches a route around them.
import { request as httpRequest } from 'node:http'
import { describe, expect, it } from 'vitest'
import { listeningEmulator, testEmulator, type TestEmulator } from '../../helpers/emulator.ts'
import type { RunningEmulator } from '../../../src/emulator/index.ts'

interface Operation {
  method: string
  path: string
}

/** Every operation of the OpenAPI document under `prefix`, with its path parameters filled in. */
async function operations(emu: TestEmulator, prefix: string, headers: Record<string, string> = {}): Promise<Operation[]> {
  const doc = (await emu.request({ method: 'GET', url: '/_emulator/api/openapi.json', headers })).body as { paths: Record<string, Record<string, unknown>> }
  return Object.entries(doc.paths)
    .filter(([path]) => path.startsWith(prefix))
    .flatMap(([path, methods]) => Object.keys(methods).map((method) => ({ method: method.toUpperCase(), path: path.replace(/\{[^}]+\}/g, 'x') })))
}

/** Spellings of `path` that a lenient router could fold into it; each must be refused. */
function spellings(path: string): string[] {
  const [, first = '', ...rest] = path.split('/')
  const tail = rest.join('/')
  return [
    `/${path}`,
    `//${path}`,
    `/${first}//${tail}`,
    `/${first.replace('_', '%5F')}/${tail}`,
    `/${first.replace('_', '%5f')}/${tail}`,
    `/${first.replace('e', '%65')}/${tail}`,
    `/${first}/./${tail}`,
    `/x/../${first}/${tail}`,
    `/${first}/${tail.replace('/', '%2F')}`,
    `/${first}\\${tail}`,
  ].filter((spelling) => spelling !== path)
}

interface RawAnswer {
  status: number
  body: any
  headers: Record<string, string | string[] | undefined>
}

/** A request over a real socket, with the path exactly as given (no client normalises it). */
function raw(emu: RunningEmulator, method: string, path: string, headers: Record<string, string>): Promise<RawAnswer> {
  const { port } = new URL(emu.url)
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method, path, headers: { ...headers, ...(method === 'GET' ? {} : { 'content-type': 'application/json' }) } },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          let body: unknown = text
          try {
            body = JSON.parse(text)
          } catch {
            // not JSON: the assertion shows the text
          }
          resolve({ status: res.statusCode ?? 0, body, headers: res.headers })
        })
      },
    )
    req.on('error', reject)
    req.end(method === 'GET' ? undefined : '{}')
  })
}

describe('other spellings of admin paths', () => {
  it('are refused for every admin route, with a rebound Host and without the token, and change nothing', async () => {
    const emu = await listeningEmulator({ adminToken: 'let-me-in' })
    const admin = { 'x-emulator-admin-token': 'let-me-in' }
    const before = (await emu.request({ method: 'GET', url: '/_emulator/api/export', headers: admin })).body
    const ops = await operations(emu, '/_emulator/', admin)
    expect(ops.length).toBeGreaterThan(40)
    for (const { method, path } of ops) {
      // The canonical spelling exists and is guarded: 403 for the Host, 401 without the token.
      expect((await raw(emu, method, path, { host: 'evil.example' })).status, `${method} ${path}`).toBe(403)
      expect((await raw(emu, method, path, { host: '127.0.0.1' })).status, `${method} ${path}`).toBe(401)
      for (const spelling of spellings(path)) {
        const res = await raw(emu, method, spelling, { host: 'evil.example' })
        expect([400, 404], `${method} ${spelling}: ${JSON.stringify(res.body)}`).toContain(res.status)
        expect(res.body.error.code).toBe(res.status)
      }
    }
    expect((await emu.request({ method: 'GET', url: '/_emulator/api/export', headers: admin })).body).toEqual(before)
  })

  it('name the path in a 400 in the envelope of the API it was meant for', async () => {
    const emu = await listeningEmulator()
    const gateway = await raw(emu, 'GET', '//api/v1/keys', { authorization: `Bearer ${emu.keys.management}` })
    expect(gateway).toMatchObject({
      status: 400,
      body: {
        error: {
          code: 400,
          message: 'Request path is not canonical (repeated slashes): spell it without it, as the API documents it',
          metadata: { field: 'path', location: 'path' },
        },
      },
    })
    const encoded = await raw(emu, 'GET', '/%5Femulator/api/health', {})
    expect(encoded.body.error).toMatchObject({
      code: 400,
      message: expect.stringContaining('an encoded unreserved character (%5F for "_")'),
      metadata: { field: 'path' },
    })
    // The video router answers in its vendor's envelope.
    const router = await raw(emu, 'GET', '/router/v1/video/ent/v2/%74asks', { authorization: `Bearer ${emu.keys.standard}` })
    expect(router).toMatchObject({ status: 400, body: { code: 400, reason: 'BadRequest', message: 'bad request' } })
    expect(router.headers['x-emulator-detail']).toContain('not canonical')
    // The canonical spellings answer as always, a trailing slash included.
    expect((await raw(emu, 'GET', '/_emulator/api/health', {})).status).toBe(200)
    expect((await raw(emu, 'GET', '/api/v1/models/', {})).status).toBe(200)
    expect((await raw(emu, 'GET', '/api/v1/models?q=%5F%2F..', {})).status).toBe(200)
  })
})

describe('paths the router cannot read as they are', () => {
  it('answer in the envelope of the API whose route they reach: undecodable escapes 400, over-long parameters 414', async () => {
    const emu = await listeningEmulator()
    const standard = { authorization: `Bearer ${emu.keys.standard}` }
    const gateway = await raw(emu, 'GET', '/api/v1/models/openai/%zz/endpoints', {})
    expect(gateway).toMatchObject({
      status: 400,
      body: { error: { code: 400, message: 'Request path is malformed: a percent-escape does not decode', metadata: { field: 'path' } } },
    })
    // A cut UTF-8 sequence does not decode either.
    expect((await raw(emu, 'GET', '/_emulator/api/accounts/%E0%A4%A', {})).body.error).toMatchObject({ code: 400, metadata: { field: 'path' } })
    const router = await raw(emu, 'GET', '/router/v1/video/ent/v2/tasks/%zz/creations', standard)
    expect(router).toMatchObject({ status: 400, body: { code: 400, reason: 'BadRequest' } })
    expect(router.headers['x-emulator-detail']).toContain('malformed')

    const long = 'x'.repeat(501)
    const tooLong = await raw(emu, 'GET', `/api/v1/guardrails/${long}`, { authorization: `Bearer ${emu.keys.management}` })
    expect(tooLong).toMatchObject({
      status: 414,
      body: { error: { code: 414, message: 'Path parameter `id` is longer than 500 characters', metadata: { field: 'id' } } },
    })
    const routerLong = await raw(emu, 'GET', `/router/v1/video/ent/v2/tasks/${long}/creations`, standard)
    expect(routerLong.status).toBe(414)
    expect(routerLong.body).toMatchObject({ code: 414, metadata: { trace_id: expect.any(String) } })
    // 500 characters is still a parameter: an unknown id, not a refusal.
    expect((await raw(emu, 'GET', `/api/v1/guardrails/${'x'.repeat(500)}`, { authorization: `Bearer ${emu.keys.management}` })).status).toBe(404)
  })
})

describe('requests from a page of another origin', () => {
  it('are refused with a 403 on every state-changing admin route, and change nothing', async () => {
    const emu = await testEmulator()
    const writes = (await operations(emu, '/_emulator/')).filter((op) => op.method !== 'GET')
    expect(writes.length).toBeGreaterThan(30)
    const before = (await emu.get('/_emulator/api/export')).body
    for (const { method, path } of writes) {
      for (const headers of [{ origin: 'http://evil.example' }, { origin: 'null' }, { origin: 'http://localhost:5173' }, { 'sec-fetch-site': 'cross-site' }]) {
        const res = await emu.request({ method: method as 'POST', url: path, headers: { host: 'localhost:8710', ...headers }, payload: {} })
        expect(res.status, `${method} ${path} ${JSON.stringify(headers)}`).toBe(403)
        expect(res.body.error).toMatchObject({
          code: 403,
          message: expect.stringMatching(/^Cross-origin request refused/),
          metadata: { field: 'origin' in headers ? 'origin' : 'sec-fetch-site', location: 'headers' },
        })
      }
    }
    expect((await emu.get('/_emulator/api/export')).body).toEqual(before)
  })

  it('still lets the UI (its own origin), a configured CORS origin, scripts and navigations through', async () => {
    const emu = await testEmulator({ corsOrigins: ['http://localhost:5173'] })
    const advance = (headers: Record<string, string>) =>
      emu.request({
        method: 'POST',
        url: '/_emulator/api/clock/advance',
        headers: { host: 'localhost:8710', 'content-type': 'application/json', ...headers },
        payload: { ms: 1000 },
      })
    expect((await advance({ origin: 'http://localhost:8710', 'sec-fetch-site': 'same-origin' })).status).toBe(200)
    expect((await advance({ origin: 'http://localhost:5173', 'sec-fetch-site': 'same-site' })).status).toBe(200)
    expect((await advance({})).status).toBe(200)
    expect((await advance({ origin: 'http://localhost:8711' })).status).toBe(403)
    // A link to the UI from another site opens it; a cross-site fetch of the API does not read it.
    const ui = await emu.request({
      method: 'GET',
      url: '/_emulator/',
      headers: { host: 'localhost:8710', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' },
    })
    expect(ui.status).toBe(200)
    const read = await emu.request({
      method: 'GET',
      url: '/_emulator/api/accounts',
      headers: { host: 'localhost:8710', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors' },
    })
    expect(read.status).toBe(403)
  })

  it('do not concern the gateway, which its keys guard (and CORS, where configured)', async () => {
    const emu = await testEmulator()
    const res = await emu.request({
      method: 'GET',
      url: '/api/v1/keys',
      headers: { origin: 'http://evil.example', authorization: `Bearer ${emu.keys.management}` },
    })
    expect(res.status).toBe(200)
    expect(res.headers['access-control-allow-origin']).toBeUndefined()
  })
})
