// The admin API and UI are guarded: a Host check against DNS rebinding, a token when the emulator is
// reachable beyond loopback; no CORS unless configured; and secrets stay out of callbacks.
import { describe, expect, it } from 'vitest'
import { createEmulator } from '../../../src/emulator/index.ts'
import { request as httpRequest } from 'node:http'
import { listeningEmulator, testEmulator } from '../../helpers/emulator.ts'

describe('the Host check on the admin API and UI', () => {
  it.each(['localhost:8710', '127.0.0.1:9000', '[::1]:8710', '127.0.0.2'])('accepts %s', async (host) => {
    const emu = await testEmulator()
    const res = await emu.request({ method: 'GET', url: '/_emulator/api/health', headers: { host } })
    expect(res.status).toBe(200)
  })

  it('refuses a rebound name with a 403 in the envelope, on the API and the UI, but not the gateway', async () => {
    const emu = await testEmulator()
    for (const url of ['/_emulator/api/health', '/_emulator/api/accounts', '/_emulator/']) {
      const res = await emu.request({ method: 'GET', url, headers: { host: 'attacker.example:8710' } })
      expect(res.status, url).toBe(403)
      expect(res.body).toEqual({
        error: {
          code: 403,
          message: 'Host attacker.example:8710 is not allowed for the admin API and UI; add it with --allowed-hosts if it is yours',
          metadata: { field: 'host', location: 'headers' },
        },
      })
    }
    // The gateway is guarded by its keys, not by the Host.
    expect((await emu.request({ method: 'GET', url: '/api/v1/models/count', headers: { host: 'attacker.example' } })).status).toBe(200)
  })

  it('accepts names given with allowedHosts', async () => {
    const emu = await testEmulator({ allowedHosts: ['emulator.test'] })
    expect((await emu.request({ method: 'GET', url: '/_emulator/api/health', headers: { host: 'emulator.test:8710' } })).status).toBe(200)
  })
})

describe('the admin token beyond loopback', () => {
  // Built without listening: tests only ever bind 127.0.0.1.
  const wide = () => createEmulator({ host: '0.0.0.0', clock: 'manual' })

  it('is required, random when none is given (whatever the seed), and accepted three ways', async () => {
    const emu = await wide()
    try {
      const token = emu.config.adminToken!
      expect(token).toMatch(/^gwe-admin-[A-Za-z0-9_-]{32}$/)
      // Another emulator with the same seed gets another token: nobody can work it out from the seed.
      const other = await createEmulator({ host: '0.0.0.0' })
      expect(other.config.adminToken).not.toBe(token)
      await other.close()
      const ask = (headers: Record<string, string>, url = '/_emulator/api/health') =>
        emu.app.inject({ method: 'GET', url, headers: { host: 'localhost', ...headers } })
      const refused = await ask({})
      expect(refused.statusCode).toBe(401)
      expect(refused.json().error.message).toMatch(/^The admin API and UI need the admin token/)
      expect((await ask({ authorization: 'Bearer wrong' })).statusCode).toBe(401)
      expect((await ask({ authorization: `Bearer ${token}` })).statusCode).toBe(200)
      expect((await ask({ 'x-emulator-admin-token': token })).statusCode).toBe(200)
      // A browser opens the UI once with ?token= and keeps it in an HttpOnly cookie.
      const page = await ask({}, `/_emulator/?token=${token}`)
      expect(page.statusCode).toBe(200)
      expect(page.headers['set-cookie']).toBe(`gwe_admin=${token}; Path=/_emulator; HttpOnly; SameSite=Strict`)
      expect((await ask({ cookie: `other=1; gwe_admin=${token}` })).statusCode).toBe(200)
      // The gateway keeps using API keys.
      expect((await emu.app.inject({ method: 'GET', url: '/api/v1/keys', headers: { authorization: `Bearer ${emu.keys.management}` } })).statusCode).toBe(200)
    } finally {
      await emu.close()
    }
  })

  it('answers a browser opening a page without it with a 401 page saying how to get in; clients keep the JSON', async () => {
    const emu = await testEmulator({ adminToken: 'let-me-in' })
    const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8'
    for (const url of ['/_emulator/', '/_emulator/requests', '/_emulator/docs', '/_emulator/api/health']) {
      const page = await emu.request({ method: 'GET', url, headers: { accept: BROWSER, 'sec-fetch-mode': 'navigate' } })
      expect(page.status, url).toBe(401)
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8')
      expect(page.body).toContain('The inspector needs the admin token')
      expect(page.body).toContain('/_emulator/?token=&lt;token&gt;')
      expect(page.body).not.toContain('let-me-in')
      expect(page.body).not.toMatch(/<script|\son\w+=/i)
      // No script may run (the docs' own hook keeps their policy, which allows this origin's files only).
      const csp = String(page.headers['content-security-policy'])
      if (url === '/_emulator/docs') expect(csp).toContain("script-src 'self';")
      else expect(csp).toMatch(/^default-src 'none';/)
      expect(csp).not.toMatch(/(script|default)-src[^;]*'unsafe-inline'/)
      expect(page.headers['cache-control']).toBe('no-store')
      expect(page.headers['set-cookie']).toBeUndefined()
    }
    // A wrong token (a stale cookie, an old link) is named as such, and still not shown.
    const stale = await emu.request({ method: 'GET', url: '/_emulator/?token=old-one', headers: { accept: BROWSER } })
    expect(stale.status).toBe(401)
    expect(stale.body).toContain('The token this browser sent is not the right one')
    expect(stale.body).not.toContain('old-one')
    const cookie = await emu.request({ method: 'GET', url: '/_emulator/', headers: { accept: BROWSER, cookie: 'gwe_admin=old-one' } })
    expect(cookie.body).toContain('not the right one')
    // The page reflects nothing of the request: a Host with markup in its port passes the Host check, not into the page.
    const odd = await emu.request({ method: 'GET', url: '/_emulator/', headers: { accept: BROWSER, host: 'localhost:<b>x</b>' } })
    expect(odd.status).toBe(401)
    expect(odd.body).not.toContain('<b>x</b>')

    // Scripts, SDKs and the UI's own fetches: the JSON envelope, as before.
    const message = /^The admin API and UI need the admin token/
    const json = [
      { method: 'GET', url: '/_emulator/api/health', headers: { accept: 'application/json' } },
      { method: 'GET', url: '/_emulator/api/health', headers: {} },
      { method: 'GET', url: '/_emulator/api/health', headers: { accept: '*/*' } },
      { method: 'GET', url: '/_emulator/', headers: { accept: 'application/json, text/html' } },
      { method: 'POST', url: '/_emulator/api/reset', headers: { accept: BROWSER } },
      { method: 'DELETE', url: '/_emulator/api/journal', headers: { accept: BROWSER } },
    ] as const
    for (const request of json) {
      const res = await emu.request(request)
      expect(res.status, `${request.method} ${request.url}`).toBe(401)
      expect(res.headers['content-type']).toMatch(/^application\/json/)
      expect(res.body.error.message).toMatch(message)
    }
    // With the token, the page itself.
    const inside = await emu.request({ method: 'GET', url: '/_emulator/?token=let-me-in', headers: { accept: BROWSER } })
    expect(inside.status).toBe(200)
    expect(inside.headers['set-cookie']).toContain('gwe_admin=let-me-in')
    // The other guards still answer first, in JSON: a rebound Host is a 403 even for a browser.
    const rebound = await emu.request({ method: 'GET', url: '/_emulator/', headers: { accept: BROWSER, host: 'attacker.example' } })
    expect(rebound.status).toBe(403)
    expect(rebound.body.error.metadata).toEqual({ field: 'host', location: 'headers' })
  })

  it('is not needed on loopback, unless one is configured', async () => {
    const emu = await testEmulator()
    expect(emu.config.adminToken).toBeNull()
    const guarded = await testEmulator({ adminToken: 'let-me-in' })
    expect((await guarded.get('/_emulator/api/health')).status).toBe(401)
    expect((await guarded.request({ method: 'GET', url: '/_emulator/api/health', headers: { 'x-emulator-admin-token': 'let-me-in' } })).status).toBe(200)
  })
})

describe('other guards', () => {
  it('sends no CORS headers unless configured: other origins cannot read the APIs from a browser', async () => {
    const emu = await testEmulator()
    for (const url of ['/api/v1/models/count', '/_emulator/api/health']) {
      const res = await emu.request({ method: 'GET', url, headers: { origin: 'https://elsewhere.example' } })
      expect(res.headers['access-control-allow-origin'], url).toBeUndefined()
    }
  })

  it('binds 127.0.0.1 by default', async () => {
    const emu = await testEmulator()
    expect(emu.config.host).toBe('127.0.0.1')
  })
})

describe('CORS where configured', () => {
  const APP = 'http://localhost:5173'

  it('answers a preflight from an allowed origin without a key, on the gateway and the router', async () => {
    const emu = await testEmulator({ corsOrigins: [APP] })
    for (const url of ['/api/v1/embeddings', '/router/v1/video/ent/v2/text2video']) {
      const res = await emu.request({
        method: 'OPTIONS',
        url,
        headers: { origin: APP, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type, x-title' },
      })
      expect(res.status, url).toBe(204)
      expect(res.headers['access-control-allow-origin']).toBe(APP)
      expect(res.headers['access-control-allow-methods']).toBe('GET, POST, PUT, PATCH, DELETE')
      expect(res.headers['access-control-allow-headers']).toBe('authorization, content-type, x-title')
      expect(res.headers.vary).toBe('Origin')
    }
  })

  it('lets the app read answers and errors, with the rate-limit headers exposed', async () => {
    const emu = await testEmulator({ corsOrigins: [APP] })
    const ok = await emu.request({ method: 'GET', url: '/api/v1/credits', headers: { origin: APP, authorization: `Bearer ${emu.keys.standard}` } })
    expect(ok.status).toBe(200)
    expect(ok.headers['access-control-allow-origin']).toBe(APP)
    expect(ok.headers['access-control-expose-headers']).toBe('retry-after, x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, x-generation-id')
    const refused = await emu.request({ method: 'GET', url: '/api/v1/credits', headers: { origin: APP } })
    expect(refused.status).toBe(401)
    expect(refused.headers['access-control-allow-origin']).toBe(APP)
  })

  it('ignores other origins, and never opens the admin API or the UI', async () => {
    const emu = await testEmulator({ corsOrigins: [APP] })
    const other = await emu.request({ method: 'GET', url: '/api/v1/models/count', headers: { origin: 'https://elsewhere.example' } })
    expect(other.headers['access-control-allow-origin']).toBeUndefined()
    for (const url of ['/_emulator/api/health', '/_emulator/']) {
      const res = await emu.request({ method: 'GET', url, headers: { origin: APP } })
      expect(res.headers['access-control-allow-origin'], url).toBeUndefined()
    }
    const preflight = await emu.request({ method: 'OPTIONS', url: '/_emulator/api/reset', headers: { origin: APP, 'access-control-request-method': 'POST' } })
    expect(preflight.status).toBe(404)
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined()
  })

  it('accepts any origin with *', async () => {
    const emu = await testEmulator({ corsOrigins: ['*'] })
    const res = await emu.request({ method: 'GET', url: '/api/v1/models/count', headers: { origin: 'https://demo.example' } })
    expect(res.headers['access-control-allow-origin']).toBe('https://demo.example')
  })

  it('refuses an origin with a path or without a scheme, naming the flag', async () => {
    const { loadConfig } = await import('../../../src/emulator/index.ts')
    expect(() => loadConfig({ flags: { 'cors-origins': 'localhost:5173' } })).toThrow(
      'invalid --cors-origins "localhost:5173": each origin must look like http://localhost:5173 (scheme and host, no path), or be *',
    )
    expect(loadConfig({ flags: { 'cors-origins': 'http://localhost:5173, https://App.example' } }).corsOrigins).toEqual([
      'http://localhost:5173',
      'https://app.example',
    ])
  })
})

describe('body limits per route', () => {
  const MB = 1024 * 1024
  /** Announces a body one byte over `limit` and sends a few bytes: the server must refuse before reading it. */
  async function announce(url: string, path: string, bytes: number, key: string | undefined): Promise<{ status: number; body: any }> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(bytes), ...(key && { authorization: `Bearer ${key}` }) },
      })
      req.on('response', (res) => {
        let text = ''
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk))
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }))
      })
      // The server may close the socket once it has answered; that is not a failure here.
      req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' || error.code === 'EPIPE' ? undefined : reject(error)))
      req.write('{"a":')
    })
  }

  it.each([
    ['keys', '/api/v1/keys', 1, 'management'],
    ['embeddings', '/api/v1/embeddings', 32, 'standard'],
    ['video creation', '/router/v1/video/ent/v2/img2video', 200, 'standard'],
    ['catalog extension', '/_emulator/api/catalog/models', 32, undefined],
    ['state import', '/_emulator/api/import', 2048, undefined],
  ] as const)("%s: 413 over %s MB, in the API's envelope, naming the limit", async (_name, path, megabytes, key) => {
    const emu = await listeningEmulator()
    const res = await announce(emu.url, path, megabytes * MB + 1, key && emu.keys[key])
    expect(res.status).toBe(413)
    const message = `Request payload too large: this route takes bodies up to ${megabytes} MB`
    if (path.startsWith('/router/')) {
      expect(res.body).toEqual({ code: 413, reason: 'RequestTooLarge', message, metadata: { trace_id: expect.any(String) } })
    } else {
      expect(res.body).toEqual({ error: { code: 413, message, metadata: { limit_bytes: megabytes * MB } } })
    }
  })

  it('lets the large routes take bodies over the 1 MB default', async () => {
    const emu = await testEmulator()
    const text = 'word '.repeat(300_000) // 1.5 MB of input
    const embeddings = await emu.send(
      'POST',
      '/api/v1/embeddings',
      { model: 'openai/text-embedding-3-small', input: [text.slice(0, 20_000)], user: text },
      emu.keys.standard,
    )
    expect(embeddings.status).not.toBe(413)
    const video = await emu.send('POST', '/router/v1/video/ent/v2/text2video', { model: 'videoq2', prompt: text }, emu.keys.standard)
    expect(video.status).toBe(400)
    expect(video.body.message).toMatch(/prompt/)
  })
})
