// Serves the built inspector (out/renderer, from `npm run build`) at /_emulator/, so any browser can
// use the same UI as the desktop window. Without a build, the page says how to make one.
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { extname, join } from 'node:path'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { PACKAGE_ROOT } from '../config.ts'
import { installSendFile } from './send-file.ts'

export const UI_PREFIX = '/_emulator'
export const RENDERER_DIR = join(PACKAGE_ROOT, 'out', 'renderer')

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>Model Gateway Emulator</title>
<body style="font-family:system-ui,sans-serif;padding:2rem;max-width:40rem">
<h1>Model Gateway Emulator</h1>
<p>The inspector UI has not been built in this checkout. Run <code>npm run build</code>, then reload.</p>
<p>The API works without it: <a href="api/health">admin API health</a>.</p></body>`

// The UI's own strict policy: scripts and connections only from this origin.
const CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self'; connect-src 'self'"

export async function uiRoutes(app: FastifyInstance, { dir = RENDERER_DIR }: { dir?: string } = {}): Promise<void> {
  // @fastify/static sends the files (types, ETag, ranges, and never a path outside `dir`), loaded on the
  // first file asked for (send-file.ts); the routes below decide which file a URL means.
  installSendFile(app, dir)
  const serve = async (request: FastifyRequest, reply: FastifyReply) => {
    // The shell's asset URLs are relative, so the page must be at /_emulator/ (the router folds the slash).
    if (request.url.split('?')[0] === UI_PREFIX) return reply.redirect(`${UI_PREFIX}/`)
    const wanted = (request.params as { '*'?: string })['*'] || 'index.html'
    // The admin API shares the prefix: an unknown API path is a JSON 404, never the app shell.
    if (wanted === 'api' || wanted.startsWith('api/')) return reply.callNotFound()
    reply.header('content-security-policy', CSP).header('x-content-type-options', 'nosniff')
    if (!existsSync(join(dir, 'index.html'))) return reply.type('text/html; charset=utf-8').send(NOT_BUILT)
    // A path without an extension is one of the app's client-side routes: the shell. A file that is
    // missing is a 404. Built assets have content hashes in their names: cached for good.
    if (extname(wanted) === '') return reply.sendFile('index.html', { cacheControl: false })
    return wanted.startsWith('assets/') ? reply.sendFile(wanted, { maxAge: '365d', immutable: true }) : reply.sendFile(wanted, { cacheControl: false })
  }
  app.get(`${UI_PREFIX}/`, { config: { operation: 'ui.index' } }, serve)
  app.get(`${UI_PREFIX}/*`, { config: { operation: 'ui.asset' } }, serve)
}

// The icon is an SVG of the build (src/renderer/public/favicon.svg), which the page links; its policy
// lets it run nothing should someone open it as a page.
const ICON_CSP = "default-src 'none'; style-src 'unsafe-inline'"

/**
 * GET /favicon.ico, which browsers ask for by themselves on every page of the listener (the JSON of the
 * admin API, the docs, the 401 page): the UI's icon, or a 204 without a build, rather than a 404 in the
 * console. Registered in a scope of its own, beside the guarded admin scope: it is the same public
 * bytes for every caller (no state, no token), so it needs no guard and weakens none, and it is
 * outside the emulated APIs, so never journaled nor faulted.
 */
export async function faviconRoutes(app: FastifyInstance, { dir = RENDERER_DIR }: { dir?: string } = {}): Promise<void> {
  app.get('/favicon.ico', { config: { operation: 'ui.favicon' } }, async (_request, reply) => {
    let icon: Buffer
    try {
      icon = await readFile(join(dir, 'favicon.svg'))
    } catch {
      return reply.code(204).header('cache-control', 'no-cache').send()
    }
    return reply
      .type('image/svg+xml')
      .header('content-security-policy', ICON_CSP)
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'public, max-age=86400')
      .send(icon)
  })
}
