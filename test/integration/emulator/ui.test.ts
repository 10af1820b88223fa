// The inspector UI is served by the emulator at /_emulator/ from the renderer build.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Fastify from 'fastify'
import { describe, expect, it, onTestFinished } from 'vitest'
import { uiRoutes } from '../../../src/emulator/http/ui.ts'
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
