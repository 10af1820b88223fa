// The inspector UI, its docs and the admin API are never shown inside another site's frame: every
// answer says so to the browser (X-Frame-Options, CSP frame-ancestors, one policy per answer), and a
// browser asking for them as a frame from anything but their own origin gets a 403 and nothing else.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { request as httpRequest } from 'node:http'
import { describe, expect, it } from 'vitest'
import { RENDERER_DIR } from '../../../src/emulator/http/ui.ts'
import { listeningEmulator, testEmulator, type TestEmulator } from '../../helpers/emulator.ts'

const HOST = 'localhost:8710'
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8'
const REFUSAL = /^The Model Gateway Emulator's inspector, API docs and admin API cannot be shown inside a frame of another page\.\n/

/** The frame guard's headers on one answer: X-Frame-Options, and one policy that denies every frame ancestor. */
function expectNotFrameable(headers: Record<string, unknown>, what: string): string {
  expect(headers['x-frame-options'], what).toBe('DENY')
  const policy = headers['content-security-policy']
  expect(typeof policy, `${what}: one policy, not several`).toBe('string')
  const ancestors = String(policy)
    .split(';')
    .map((d) => d.trim())
    .filter((d) => d.startsWith('frame-ancestors'))
  expect(ancestors, what).toEqual(["frame-ancestors 'none'"])
  return String(policy)
}

/** A file of the build when there is one; without a build, the asset route answers its "not built" page. */
function assetUrl(): string {
  const index = join(RENDERER_DIR, 'index.html')
  const asset = existsSync(index) ? /(?:src|href)="\.\/(assets\/[^"]+)"/.exec(readFileSync(index, 'utf8'))?.[1] : undefined
  return `/_emulator/${asset ?? 'favicon.svg'}`
}

const ask = (emu: TestEmulator, url: string, headers: Record<string, string> = {}) => emu.request({ method: 'GET', url, headers: { host: HOST, ...headers } })

describe('framing headers', () => {
  it('are on the UI page, its assets, the admin API (errors included) and the docs, merged into the policy each sets', async () => {
    const emu = await testEmulator()
    const page = await ask(emu, '/_emulator/', { accept: BROWSER })
    expect(page.status).toBe(200)
    // The UI's own policy stands, with the framing rule added.
    expect(expectNotFrameable(page.headers, 'UI page')).toMatch(/^default-src 'self'; script-src 'self';/)
    const client = await ask(emu, '/_emulator/requests/42', { accept: BROWSER })
    expect(client.body).toBe(page.body)
    expectNotFrameable(client.headers, 'a client-side route')

    const asset = await ask(emu, assetUrl())
    expect(asset.status).toBe(200)
    expectNotFrameable(asset.headers, assetUrl())
    expectNotFrameable((await ask(emu, '/_emulator/assets/missing-0.js')).headers, 'a missing asset')

    const health = await ask(emu, '/_emulator/api/health')
    expect(health.status).toBe(200)
    expectNotFrameable(health.headers, 'admin API')
    expectNotFrameable((await ask(emu, '/_emulator/api/openapi.json')).headers, 'the OpenAPI document')
    const missing = await ask(emu, '/_emulator/api/journal/999999')
    expect(missing.status).toBe(404)
    expect(missing.body.error.code).toBe(404)
    expectNotFrameable(missing.headers, 'admin 404')
    // Refused by the admin guard (a rebound Host): still not frameable.
    const rebound = await emu.request({ method: 'GET', url: '/_emulator/api/health', headers: { host: 'attacker.example' } })
    expect(rebound.status).toBe(403)
    expect(rebound.body.error.metadata).toEqual({ field: 'host', location: 'headers' })
    expectNotFrameable(rebound.headers, 'admin 403')

    // Swagger UI sets its own policy after the scope's hooks: the rule is merged into it, not sent twice.
    const docs = await ask(emu, '/_emulator/docs', { accept: BROWSER })
    expect(docs.status).toBe(200)
    expect(docs.body).toContain('API documentation')
    expect(expectNotFrameable(docs.headers, 'docs')).toContain("script-src 'self';")
    const docsAsset = /src="\.\/static\/([\w.-]+\.js)"/.exec(docs.body)?.[1] ?? /src="([^"]+\.js)"/.exec(docs.body)![1]!
    const script = await ask(emu, new URL(docsAsset, `http://${HOST}/_emulator/docs/static/`).pathname)
    expect(script.status).toBe(200)
    expectNotFrameable(script.headers, 'docs asset')
  })

  it('are on the 401 answers of an emulator that needs its admin token, page and JSON', async () => {
    const emu = await testEmulator({ adminToken: 'let-me-in' })
    for (const url of ['/_emulator/', '/_emulator/docs', '/_emulator/api/health']) {
      const page = await ask(emu, url, { accept: BROWSER, 'sec-fetch-dest': 'document', 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate' })
      expect(page.status, url).toBe(401)
      expect(page.body).toContain('The inspector needs the admin token')
      expectNotFrameable(page.headers, `401 page ${url}`)
    }
    const json = await ask(emu, '/_emulator/api/accounts', { accept: 'application/json' })
    expect(json.status).toBe(401)
    expect(json.body.error.message).toMatch(/^The admin API and UI need the admin token/)
    expectNotFrameable(json.headers, 'admin 401')
  })

  it('are one header each on the wire, the event stream included; the gateway is left as it was', async () => {
    const emu = await listeningEmulator()
    const rawHeaders = (path: string) =>
      new Promise<{ status: number; headers: string[] }>((resolve, reject) => {
        const req = httpRequest(`${emu.url}${path}`, (res) => {
          const answer = { status: res.statusCode!, headers: res.rawHeaders }
          // The event stream never ends: its head is all this needs.
          res.destroy()
          req.destroy()
          resolve(answer)
        })
        req.on('error', reject)
        req.end()
      })
    const count = (headers: string[], name: string) => headers.filter((h, i) => i % 2 === 0 && h.toLowerCase() === name).length
    for (const path of ['/_emulator/', '/_emulator/docs', '/_emulator/api/health', '/_emulator/api/events']) {
      const { status, headers } = await rawHeaders(path)
      expect(status, path).toBe(200)
      expect(count(headers, 'x-frame-options'), path).toBe(1)
      expect(count(headers, 'content-security-policy'), path).toBe(1)
      const at = headers.findIndex((h, i) => i % 2 === 0 && h.toLowerCase() === 'content-security-policy')
      expect(headers[at + 1], path).toContain("frame-ancestors 'none'")
    }
    // The gateway's answers are not the inspector's: unchanged, and not refused as frames.
    const models = await emu.request({ method: 'GET', url: '/api/v1/models/count', headers: { 'sec-fetch-dest': 'iframe', 'sec-fetch-site': 'cross-site' } })
    expect(models.status).toBe(200)
    expect(models.headers['x-frame-options']).toBeUndefined()
    const router = await emu.request({
      method: 'GET',
      url: '/router/v1/video/ent/v2/tasks/missing/creations',
      headers: { authorization: `Bearer ${emu.keys.standard}` },
    })
    expect(router.body).toMatchObject({ code: expect.any(Number), reason: expect.any(String) })
    expect(router.headers['x-frame-options']).toBeUndefined()
  })
})

describe('a request for the UI as a frame', () => {
  it.each([
    ['iframe', 'cross-site'],
    ['iframe', 'same-site'],
    ['frame', 'cross-site'],
    ['embed', 'cross-site'],
    ['object', 'same-site'],
  ])('is refused with a 403 when its destination is %s and it is %s', async (dest, site) => {
    const emu = await testEmulator()
    for (const url of ['/_emulator/', '/_emulator/requests/42', assetUrl(), '/_emulator/docs', '/_emulator/api/accounts']) {
      const res = await ask(emu, url, { accept: BROWSER, 'sec-fetch-dest': dest, 'sec-fetch-site': site, 'sec-fetch-mode': 'navigate' })
      expect(res.status, url).toBe(403)
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8')
      expect(res.headers['cache-control']).toBe('no-store')
      expect(res.body).toMatch(REFUSAL)
      expect(res.body).toContain('Open the inspector in a tab of its own')
      // Nothing of what was asked for.
      expect(res.body).not.toMatch(/<script|<html|"data"/i)
      expectNotFrameable(res.headers, url)
    }
  })

  it('is refused before the admin token is asked for, and before anything is served or set', async () => {
    const emu = await testEmulator({ adminToken: 'let-me-in' })
    const res = await ask(emu, '/_emulator/?token=let-me-in', {
      accept: BROWSER,
      'sec-fetch-dest': 'iframe',
      'sec-fetch-site': 'cross-site',
      'sec-fetch-mode': 'navigate',
    })
    expect(res.status).toBe(403)
    expect(res.body).toMatch(REFUSAL)
    expect(res.headers['set-cookie']).toBeUndefined()
  })

  it('from its own origin, and plain navigations and clients without Sec-Fetch headers, still get the UI', async () => {
    const emu = await testEmulator()
    const shell = (await ask(emu, '/_emulator/')).body as string
    expect(shell).toMatch(/<!doctype html>/i)
    const cases: Array<Record<string, string>> = [
      { 'sec-fetch-dest': 'iframe', 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'navigate' },
      { 'sec-fetch-dest': 'document', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' },
      { 'sec-fetch-dest': 'document', 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate' },
      {},
    ]
    for (const headers of cases) {
      const res = await ask(emu, '/_emulator/', { accept: BROWSER, ...headers })
      expect(res.status, JSON.stringify(headers)).toBe(200)
      expect(res.body).toBe(shell)
      expectNotFrameable(res.headers, JSON.stringify(headers))
    }
    // The UI's own fetches (same-origin, destination empty) reach the admin API as before.
    const api = await ask(emu, '/_emulator/api/health', {
      origin: `http://${HOST}`,
      'sec-fetch-dest': 'empty',
      'sec-fetch-site': 'same-origin',
      'sec-fetch-mode': 'cors',
    })
    expect(api.status).toBe(200)
  })
})
