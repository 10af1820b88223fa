// Serves the built inspector (out/renderer, from `npm run build`) at /_emulator/, so any browser can
// use the same UI as the desktop window. Without a build, the page says how to make one.
import { existsSync, statSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { extname, join, normalize, sep } from 'node:path'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { PACKAGE_ROOT } from '../config.ts'

export const UI_PREFIX = '/_emulator'
export const RENDERER_DIR = join(PACKAGE_ROOT, 'out', 'renderer')

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
}

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>Model Gateway Emulator</title>
<body style="font-family:system-ui,sans-serif;padding:2rem;max-width:40rem">
<h1>Model Gateway Emulator</h1>
<p>The inspector UI has not been built in this checkout. Run <code>npm run build</code>, then reload.</p>
<p>The API works without it: <a href="api/health">admin API health</a>.</p></body>`

// The UI's own strict policy: scripts and connections only from this origin.
const CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self'; connect-src 'self'"

export async function uiRoutes(app: FastifyInstance, { dir = RENDERER_DIR }: { dir?: string } = {}): Promise<void> {
  const serve = async (request: FastifyRequest, reply: FastifyReply) => {
    // The shell's asset URLs are relative, so the page must be at /_emulator/ (the router folds the slash).
    if (request.url.split('?')[0] === UI_PREFIX) return reply.redirect(`${UI_PREFIX}/`)
    const wanted = (request.params as { '*'?: string })['*'] || 'index.html'
    // The admin API shares the prefix: an unknown API path is a JSON 404, never the app shell.
    if (wanted === 'api' || wanted.startsWith('api/')) return reply.callNotFound()
    const path = normalize(join(dir, wanted))
    reply.header('content-security-policy', CSP).header('x-content-type-options', 'nosniff')
    if (!existsSync(join(dir, 'index.html'))) return reply.type('text/html; charset=utf-8').send(NOT_BUILT)
    // Paths outside the build, and unknown paths, get the app shell (client-side routes) or a 404.
    const inside = path.startsWith(dir + sep)
    const found = inside ? statSync(path, { throwIfNoEntry: false }) : undefined
    // A directory of the build (`assets`) is no page and no file: a 404, like an unknown file.
    if (found?.isDirectory()) return reply.callNotFound()
    const file = found?.isFile() ? path : join(dir, 'index.html')
    if (file !== path && extname(wanted) !== '') return reply.callNotFound()
    const type = TYPES[extname(file)] ?? 'application/octet-stream'
    if (file.includes(`${sep}assets${sep}`)) reply.header('cache-control', 'public, max-age=31536000, immutable')
    return reply.type(type).send(await readFile(file))
  }
  app.get(`${UI_PREFIX}/`, { config: { operation: 'ui.index' } }, serve)
  app.get(`${UI_PREFIX}/*`, { config: { operation: 'ui.asset' } }, serve)
}
