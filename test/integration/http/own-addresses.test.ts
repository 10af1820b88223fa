// No way back to itself: a URL the emulator is given to call (a video callback, the gateway's video
// webhook, an observability destination, the upstream) is refused when its host name resolves to one of
// the emulator's own listeners, however it is spelt, when it is given and again when it is called;
// another server on loopback (a test's receiver) is still called, by name too.
import { lookup } from 'node:dns/promises'
import { createServer } from 'node:net'
import { hostname } from 'node:os'
import { describe, expect, it } from 'vitest'
import { startEmulator } from '../../../src/emulator/index.ts'
import { enqueueDelivery } from '../../../src/emulator/modules/callbacks/callbacks.service.ts'
import { sha256Hex } from '../../../src/emulator/core/rng.ts'
import { listeningEmulator, type TestEmulator } from '../../helpers/emulator.ts'
import { startSink } from '../../helpers/sink.ts'

/** The machine's own name, when it resolves to loopback only (as /etc/hosts maps it on most machines). */
const HOST = hostname().toLowerCase()
const hostIsLoopback = await lookup(HOST, { all: true }).then(
  (addresses) => addresses.length > 0 && addresses.every((a) => a.address.startsWith('127.') || a.address === '::1'),
  () => false,
)

const ADMIN = '/_emulator/api'

/** The requests that reach the emulator's own listener, whatever their path. */
function countArrivals(emu: { app: { server: NodeJS.EventEmitter } }): { count: number } {
  const seen = { count: 0 }
  emu.app.server.on('request', () => seen.count++)
  return seen
}

const routerTask = (emu: TestEmulator, callback_url: string) =>
  emu.send('POST', '/router/v1/video/ent/v2/text2video', { model: 'videoq2', prompt: 'a loop', callback_url }, emu.keys.standard)
const gatewayJob = (emu: TestEmulator, callback_url: string) =>
  emu.send('POST', '/api/v1/videos', { model: 'google/veo-3.1', prompt: 'a loop', callback_url }, emu.keys.standard)
const destination = (emu: TestEmulator, url: string) =>
  emu.send('POST', '/api/v1/observability/destinations', { type: 'webhook', name: 'Hook', config: { url } }, emu.keys.management)

/** A port nobody listens on now (one just released), for a start with a fixed port. */
async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

describe.runIf(hostIsLoopback)(`a name that resolves to the emulator (${HOST})`, () => {
  it('is refused where each URL is given, naming the field and the address, and nothing is stored', async () => {
    const emu = await listeningEmulator()
    const port = new URL(emu.url).port
    const url = `http://${HOST}:${port}/hook`
    const issue = `must not point at the emulator itself (${HOST}:${port}, which resolves to 127.0.0.1): give the address of your own receiver`

    const task = await routerTask(emu, url)
    expect(task.status).toBe(400)
    expect(task.body).toEqual({ code: 400, reason: 'FieldInvalid', message: 'invalid field: callback_url', metadata: { trace_id: expect.any(String) } })
    expect(task.headers['x-emulator-detail']).toBe(`callback_url ${issue}`)

    const job = await gatewayJob(emu, url)
    expect(job.status).toBe(400)
    expect(job.body).toEqual({ error: { code: 400, message: `Field \`callback_url\` ${issue}`, metadata: { field: 'callback_url', location: 'body', issue } } })

    const created = await destination(emu, url)
    expect(created.status).toBe(400)
    expect(created.body).toEqual({ error: { code: 400, message: `Field \`config.url\` ${issue}`, metadata: { field: 'config.url', location: 'body', issue } } })
    const kept = await destination(emu, 'https://hooks.example/traces')
    expect(kept.status).toBe(201)
    const moved = await emu.send('PATCH', `/api/v1/observability/destinations/${kept.body.data.id}`, { config: { url } }, emu.keys.management)
    expect(moved.status).toBe(400)
    expect(moved.body.error.metadata).toMatchObject({ field: 'config.url', issue })

    expect((await emu.get(`${ADMIN}/video/tasks`)).body.data).toEqual([])
    expect((await emu.get('/api/v1/observability/destinations', emu.keys.management)).body.data.map((d: any) => d.config.url)).toEqual([
      'https://hooks.example/traces',
    ])
  })

  it('is refused when the callback is made: the outbox never connects to its own listener, and does not retry', async () => {
    const emu = await listeningEmulator()
    const arrivals = countArrivals(emu)
    const port = new URL(emu.url).port
    // As an import (or a name that resolved elsewhere when it was given) would leave them.
    const enqueue = (url: string) =>
      emu.ctx.db.transaction(() =>
        enqueueDelivery(emu.ctx, {
          account_id: emu.ctx.services.accounts.list()[0]!.id,
          task_id: 'task-1',
          key_hash: sha256Hex(emu.keys.standard),
          url,
          state: 'success',
          body: '{}',
          terminal: true,
        }),
      )()
    const byName = enqueue(`http://${HOST}:${port}/api/v1/chat/completions`)
    const byAddress = enqueue(`http://127.0.0.1:${port}/api/v1/chat/completions`)
    expect(await emu.drainCallbacks()).toBe(true)
    const delivery = async (id: string) => (await emu.get(`${ADMIN}/callbacks/${id}`)).body.data
    expect(await delivery(byName)).toMatchObject({ status: 'failed', attempt_count: 1 })
    expect((await delivery(byName)).attempts[0]).toMatchObject({
      status: null,
      error: `refused: ${HOST} resolves to 127.0.0.1, an address of the emulator itself: it would call itself`,
    })
    expect(await delivery(byAddress)).toMatchObject({ status: 'failed', attempt_count: 1 })
    expect((await delivery(byAddress)).attempts[0]).toMatchObject({
      status: null,
      error: `refused: 127.0.0.1:${port} is the emulator itself, which it does not call`,
    })
    // Nothing reached the listener (the admin reads above are injected, not sent over a socket).
    expect(arrivals.count).toBe(0)
  })

  it('on another port is another server: a receiver on loopback gets its task callbacks by name', async () => {
    const emu = await listeningEmulator()
    const sink = await startSink()
    const url = `http://${HOST}:${new URL(sink.url).port}/hook`
    const task = await routerTask(emu, url)
    expect(task.status).toBe(200)
    await emu.clock.advance(60_000)
    expect(await emu.drainCallbacks()).toBe(true)
    expect(sink.received.length).toBeGreaterThan(0)
    expect(sink.received.every((r) => r.path === '/hook')).toBe(true)
  })
})

describe('loopback spelt any way, and the upstream', () => {
  it('as --upstream is a start error, by its address or by a name; another port of loopback is an upstream', async () => {
    const port = await freePort()
    for (const upstream of [`http://127.0.0.1:${port}`, `http://localhost:${port}`, ...(hostIsLoopback ? [`http://${HOST}:${port}`] : [])]) {
      const started = startEmulator({ db: ':memory:', logLevel: 'silent', host: '127.0.0.1', port, euPort: -1, upstream })
      await expect(started).rejects.toThrow(/^invalid --upstream ".+": it is this emulator itself \(.+\), which would proxy every request no recording answers/)
    }
    const sink = await startSink()
    const emu = await startEmulator({
      db: ':memory:',
      logLevel: 'silent',
      host: '127.0.0.1',
      port: 0,
      euPort: -1,
      upstream: `http://localhost:${new URL(sink.url).port}`,
    })
    await emu.close()
  })

  it('localhost with the root dot, or a name under localhost, is the emulator', async () => {
    const emu = await listeningEmulator()
    const port = new URL(emu.url).port
    for (const url of [`http://localhost.:${port}/hook`, `http://app.localhost:${port}/hook`]) {
      const res = await gatewayJob(emu, url)
      expect(res.status, url).toBe(400)
      expect(res.body.error.metadata.issue).toMatch(/^must not point at the emulator itself \(.+\): give the address of your own receiver$/)
    }
  })
})
