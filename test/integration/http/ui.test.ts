// The inspector UI is served by the emulator at /_emulator/ from the renderer build.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Fastify from 'fastify'
import { describe, expect, it, onTestFinished } from 'vitest'
import { faviconRoutes, uiRoutes } from '../../../src/emulator/http/ui.ts'
import { testEmulator } from '../../helpers/emulator.ts'

async function uiApp(files: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'gwe-ui-'))
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true })
    writeFileSync(join(dir, name), text)
  }
  const app = Fastify({ routerOptions: { ignoreTrailingSlash: true } })
  await app.register(uiRoutes, { dir })
  onTestFinished(() => app.close())
  return app
}

describe('UI at /_emulator/', () => {
  it('serves the shell, its assets with a long cache, and the shell for client-side routes', async () => {
    const app = await uiApp({ 'index.html': '<!doctype html><script src="./assets/app-1.js"></script>', 'assets/app-1.js': 'console.log(1)' })
    const index = await app.inject('/_emulator/')
    expect(index.statusCode).toBe(200)
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(index.headers['content-security-policy']).toContain("script-src 'self'")
    const asset = await app.inject('/_emulator/assets/app-1.js')
    expect(asset.headers['content-type']).toMatch(/^(text|application)\/javascript; charset=utf-8$/i)
    expect(asset.headers['cache-control']).toContain('immutable')
    expect(asset.body).toBe('console.log(1)')
    expect((await app.inject('/_emulator/requests/42')).body).toBe(index.body)
  })

  it('redirects /_emulator to /_emulator/ so relative asset URLs resolve', async () => {
    const app = await uiApp({ 'index.html': 'shell' })
    const res = await app.inject('/_emulator')
    expect(res.statusCode).toBe(302)
    expect(res.headers.location).toBe('/_emulator/')
  })

  it('never serves a file outside the build, and 404s a missing asset', async () => {
    const app = await uiApp({ 'index.html': 'shell' })
    expect((await app.inject('/_emulator/assets/missing.js')).statusCode).toBe(404)
    // A directory of the build is no file (it was a 500, EISDIR): like any path without an extension, the shell.
    const withAssets = await uiApp({ 'index.html': 'shell', 'assets/app.js': '1' })
    for (const url of ['/_emulator/assets', '/_emulator/assets/']) expect((await withAssets.inject(url)).body, url).toBe('shell')
    expect((await app.inject('/_emulator/api/not-a-route')).statusCode).toBe(404)
    for (const url of ['/_emulator/../package.json', '/_emulator/%2e%2e/%2e%2e/package.json', '/_emulator/..%2fpackage.json']) {
      const res = await app.inject(url)
      expect(res.body, url).not.toContain('"name"')
    }
  })

  it('explains how to build the UI when there is no build', async () => {
    const app = await uiApp({})
    const res = await app.inject('/_emulator/')
    expect(res.statusCode).toBe(200)
    expect(res.body).toContain('npm run build')
  })

  it('is off with --no-ui', async () => {
    const emu = await testEmulator({ ui: false })
    const res = await emu.get('/_emulator/')
    expect(res.status).toBe(404)
    expect(res.body.error.code).toBe(404)
  })
})

describe('/favicon.ico', () => {
  const ICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><rect width="8" height="8"/></svg>'

  async function iconApp(files: Record<string, string>) {
    const dir = mkdtempSync(join(tmpdir(), 'gwe-icon-'))
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text)
    const app = Fastify()
    await app.register(faviconRoutes, { dir })
    onTestFinished(() => app.close())
    return app
  }

  it("answers with the build's SVG icon, or a 204 without a build: never a 404", async () => {
    const built = await iconApp({ 'favicon.svg': ICON })
    const icon = await built.inject('/favicon.ico')
    expect(icon.statusCode).toBe(200)
    expect(icon.headers['content-type']).toBe('image/svg+xml')
    expect(icon.headers['content-security-policy']).toMatch(/^default-src 'none'/)
    expect(icon.headers['x-content-type-options']).toBe('nosniff')
    expect(icon.body).toBe(ICON)
    expect((await built.inject({ method: 'HEAD', url: '/favicon.ico' })).statusCode).toBe(200)
    const bare = await (await iconApp({})).inject('/favicon.ico')
    expect(bare.statusCode).toBe(204)
    expect(bare.body).toBe('')
  })

  it('needs no admin token, is never journaled, and opens nothing else of the guarded surface', async () => {
    const emu = await testEmulator({ adminToken: 'let-me-in' })
    const res = await emu.request({ method: 'GET', url: '/favicon.ico', headers: { accept: 'image/avif,image/webp,image/*,*/*;q=0.8' } })
    expect([200, 204]).toContain(res.status)
    expect(res.headers['set-cookie']).toBeUndefined()
    // The guards still hold everywhere else, the UI's own files included.
    for (const url of ['/_emulator/', '/_emulator/favicon.svg', '/_emulator/api/health']) expect((await emu.get(url)).status, url).toBe(401)
    const journal = await emu.request({ method: 'GET', url: '/_emulator/api/journal', headers: { authorization: 'Bearer let-me-in' } })
    expect(journal.status).toBe(200)
    expect(journal.body.data).toEqual([])
  })

  it('is a 404 with --no-ui, like the UI', async () => {
    const emu = await testEmulator({ ui: false })
    expect((await emu.get('/favicon.ico')).status).toBe(404)
  })
})
