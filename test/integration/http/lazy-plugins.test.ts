// The docs (@fastify/swagger, @fastify/swagger-ui) and the file sender (@fastify/static) are loaded on
// first use, not at start (http/openapi.ts, http/send-file.ts): whatever is asked for first, and however
// many ask at once, gets the same answer as when they were loaded at start.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Fastify from 'fastify'
import { describe, expect, it, onTestFinished } from 'vitest'
import { uiRoutes } from '../../../src/emulator/http/ui.ts'
import { testEmulator } from '../../helpers/emulator.ts'

describe('the docs, loaded on first use', () => {
  it('answer an asset asked for first, under the docs policy, and the document after it', async () => {
    const emu = await testEmulator()
    const css = await emu.app.inject('/_emulator/docs/static/swagger-ui.css')
    expect(css.statusCode).toBe(200)
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8')
    expect(css.headers.etag).toBeTruthy()
    expect(css.headers['content-security-policy']).toContain("script-src 'self'; style-src 'self' 'unsafe-inline'")
    expect(css.headers['content-security-policy']).toContain("frame-ancestors 'none'")
    expect(css.headers['x-frame-options']).toBe('DENY')
    // The same asset again, by its ETag: not modified, with no body.
    const again = await emu.app.inject({ url: '/_emulator/docs/static/swagger-ui.css', headers: { 'if-none-match': String(css.headers.etag) } })
    expect(again.statusCode).toBe(304)
    expect(again.rawPayload.length).toBe(0)
    const document = await emu.app.inject('/_emulator/api/openapi.json')
    expect(document.statusCode).toBe(200)
    expect(Object.keys(document.json<{ paths: object }>().paths).length).toBeGreaterThan(50)
    expect((await emu.app.inject('/_emulator/docs/json')).json()).toEqual(document.json())
  })

  it('answer the document asked for first, then the page', async () => {
    const emu = await testEmulator()
    const yaml = await emu.app.inject('/_emulator/docs/yaml')
    expect(yaml.statusCode).toBe(200)
    expect(yaml.headers['content-type']).toBe('application/x-yaml')
    expect(yaml.body).toContain('openapi: 3.1.0')
    const page = await emu.app.inject('/_emulator/docs')
    expect(page.statusCode).toBe(200)
    expect(page.body).toContain('<title>Model Gateway Emulator: API documentation</title>')
  })

  it('answer requests that arrive together on a new emulator, each its own', async () => {
    const emu = await testEmulator()
    const urls = [
      '/_emulator/docs',
      '/_emulator/docs/static/swagger-ui-bundle.js',
      '/_emulator/docs/json',
      '/_emulator/docs/static/missing.js',
      '/_emulator/api/openapi.json',
    ]
    const answers = await Promise.all(urls.map((url) => emu.app.inject(url)))
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 404, 200])
    expect(answers[1]!.body).toContain('SwaggerUIBundle')
    // A missing asset is the admin scope's own not-found answer.
    expect(answers[3]!.json()).toMatchObject({ error: { code: 404 } })
  })

  it('refuse a range past the end with the 416 and Content-Range the file sender gives', async () => {
    const emu = await testEmulator()
    const res = await emu.app.inject({ url: '/_emulator/docs/static/swagger-ui.css', headers: { range: 'bytes=999999999-' } })
    expect(res.statusCode).toBe(416)
    expect(res.headers['content-range']).toMatch(/^bytes \*\/\d+$/)
  })
})

describe('the file sender, loaded on first use', () => {
  it('sends the first file asked for, and files asked for together', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gwe-lazy-'))
    mkdirSync(join(dir, 'assets'))
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>shell</title>')
    writeFileSync(join(dir, 'assets', 'a-1.js'), 'console.log(1)')
    writeFileSync(join(dir, 'assets', 'b-1.css'), 'body{}')
    const app = Fastify({ routerOptions: { ignoreTrailingSlash: true } })
    await app.register(uiRoutes, { dir })
    onTestFinished(() => app.close())
    const [script, style, shell] = await Promise.all(['/_emulator/assets/a-1.js', '/_emulator/assets/b-1.css', '/_emulator/'].map((url) => app.inject(url)))
    expect([script!.statusCode, style!.statusCode, shell!.statusCode]).toEqual([200, 200, 200])
    expect(script!.body).toBe('console.log(1)')
    expect(script!.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(style!.headers['content-type']).toBe('text/css; charset=utf-8')
    expect(shell!.body).toContain('<title>shell</title>')
    expect((await app.inject('/_emulator/assets/missing.js')).statusCode).toBe(404)
  })
})
