// The OAuth PKCE flow through the authorization page in Chromium, as an app's user goes through it:
// the app's link (/auth?callback_url=...) opens the page, the person picks an account and clicks
// Authorize (or Deny), and the browser lands on the app's callback, a small server on 127.0.0.1 here,
// with the code, which the app then exchanges for a key of that account.
import { createHash } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import { sha256Hex } from '../../src/emulator/core/rng.ts'
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.ts'
import { closeBrowser, hasChromium, launch } from './harness.ts'

const VERIFIER = 'e2e-verifier-0123456789-abcdefghijklmnopqrstuvwxyz'
const CHALLENGE = createHash('sha256').update(VERIFIER).digest('base64url')

/** The app's side: a callback server that answers a page and hands over the query of each /callback it gets. */
async function startApp(): Promise<{ server: Server; callback: string; next(): Promise<URLSearchParams> }> {
  const waiting: Array<(query: URLSearchParams) => void> = []
  const arrived: URLSearchParams[] = []
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    // The browser asks for the app's icon too: nothing there, and nothing failing.
    if (url.pathname !== '/callback') return void res.writeHead(204).end()
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>App</title><h1>Back in the app</h1>')
    const waiter = waiting.shift()
    if (waiter) waiter(url.searchParams)
    else arrived.push(url.searchParams)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    server,
    callback: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`,
    next: () => {
      const ready = arrived.shift()
      return ready ? Promise.resolve(ready) : new Promise((resolve) => waiting.push(resolve))
    },
  }
}

const closeServer = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections()
    server.close(() => resolve())
  })

async function exchange(emu: RunningEmulator, body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${emu.url}/api/v1/auth/keys`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  return { status: res.status, body: await res.json() }
}

describe.skipIf(!hasChromium)('the OAuth authorization page', () => {
  afterAll(closeBrowser)

  it('Authorize: the app gets a code for the account picked, and exchanges it for a key of that account', async () => {
    const emu = await startEmulator({ port: 0, euPort: -1, db: ':memory:', clock: 'manual', clockStart: '2026-03-04T10:00:00.000Z', logLevel: 'silent' })
    const app = await startApp()
    const context = await (await launch()).newContext()
    try {
      const created = await fetch(`${emu.url}/_emulator/api/accounts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Picked account', credits_usd: 5 }),
      })
      const picked = ((await created.json()) as { data: { id: string } }).data.id
      const page = await context.newPage()
      page.setDefaultTimeout(10_000)
      const problems: string[] = []
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text())
      })
      page.on('pageerror', (error) => problems.push(error.message))

      const link = new URLSearchParams({ callback_url: app.callback, code_challenge: CHALLENGE, code_challenge_method: 'S256', limit: '2' })
      const opened = await page.goto(`${emu.url}/auth?${link}`)
      expect(opened?.status()).toBe(200)
      await page.getByRole('heading', { name: /^Authorize/ }).waitFor()
      await page.getByText('a spending limit of $2').waitFor()
      await page.getByRole('radio', { name: /Picked account/ }).check()
      const callback = app.next()
      await page.getByRole('button', { name: 'Authorize' }).click()
      const query = await callback
      await page.getByRole('heading', { name: 'Back in the app' }).waitFor()
      expect(new URL(page.url()).origin).toBe(new URL(app.callback).origin)
      const code = query.get('code')
      expect(code).toBeTruthy()
      expect(problems).toEqual([])

      const exchanged = await exchange(emu, { code, code_verifier: VERIFIER, code_challenge_method: 'S256' })
      expect(exchanged.status).toBe(200)
      const key = await fetch(`${emu.url}/_emulator/api/accounts/${picked}/keys`)
      const keys = ((await key.json()) as { data: Array<{ hash: string; name: string; limit: number }> }).data
      expect(keys.find((k) => k.hash === sha256Hex(exchanged.body.key))).toMatchObject({ name: new URL(app.callback).host, limit: 2 })
      // The code was for one exchange.
      expect((await exchange(emu, { code, code_verifier: VERIFIER })).status).toBe(403)
    } finally {
      await context.close()
      await closeServer(app.server)
      await emu.close()
    }
  })

  it('Deny: the app gets error=access_denied and no code', async () => {
    const emu = await startEmulator({ port: 0, euPort: -1, db: ':memory:', clock: 'manual', logLevel: 'silent' })
    const app = await startApp()
    const context = await (await launch()).newContext()
    try {
      const page = await context.newPage()
      page.setDefaultTimeout(10_000)
      await page.goto(`${emu.url}/auth?${new URLSearchParams({ callback_url: app.callback })}`)
      const callback = app.next()
      await page.getByRole('button', { name: 'Deny' }).click()
      const query = await callback
      expect(query.get('error')).toBe('access_denied')
      expect(query.get('code')).toBeNull()
    } finally {
      await context.close()
      await closeServer(app.server)
      await emu.close()
    }
  })

  it('a link with a callback the gateway refuses shows why, and sends the browser nowhere', async () => {
    const emu = await startEmulator({ port: 0, euPort: -1, db: ':memory:', clock: 'manual', logLevel: 'silent' })
    const context = await (await launch()).newContext()
    try {
      const page = await context.newPage()
      page.setDefaultTimeout(10_000)
      const opened = await page.goto(`${emu.url}/auth?callback_url=${encodeURIComponent('http://app.example/cb')}`)
      expect(opened?.status()).toBe(400)
      await page.getByRole('heading', { name: 'This authorization link cannot be used' }).waitFor()
      expect(await page.getByRole('button').count()).toBe(0)
      expect(new URL(page.url()).pathname).toBe('/_emulator/auth')
    } finally {
      await context.close()
      await emu.close()
    }
  })
})
