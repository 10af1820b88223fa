// Connections are bounded on both listeners: a client that trickles its headers or its body is
// closed once the request timeout passes, idle keep-alive connections close, and a connection cap
// keeps the open ones working. Every wait here is for a socket event, never a fixed time.
import { connect, type Socket } from 'node:net'
import { describe, expect, it, onTestFinished } from 'vitest'
import { loadConfig } from '../../../src/emulator/config.ts'
import { listeningEmulator } from '../../helpers/emulator.ts'

interface Ended {
  /** What the server sent before it closed the connection. */
  received: string
}

/** Opens a socket to `url`, writes `first`, then one more byte every `everyMs` until the server closes it. */
function trickle(url: string, first: string, everyMs: number, byte = 'x'): Promise<Ended> {
  const { port } = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1')
    onTestFinished(() => {
      socket.destroy()
    })
    let received = ''
    let timer: NodeJS.Timeout | undefined
    socket.on('connect', () => {
      socket.write(first)
      timer = setInterval(() => socket.write(byte), everyMs)
    })
    socket.on('data', (chunk) => (received += chunk.toString('latin1')))
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // The server may close while a byte is on its way: the connection ended all the same.
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error)
    })
    socket.on('close', () => {
      clearInterval(timer)
      resolve({ received })
    })
  })
}

const opened = (url: string): Promise<Socket> =>
  new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(url).port), '127.0.0.1', () => resolve(socket))
    socket.on('error', reject)
    onTestFinished(() => {
      socket.destroy()
    })
  })

const closed = (socket: Socket): Promise<void> => new Promise((resolve) => (socket.destroyed ? resolve() : socket.once('close', () => resolve())))

/** One whole request on an open socket; resolves with the start of the answer. */
const ask = (socket: Socket, path: string): Promise<string> =>
  new Promise((resolve) => {
    socket.once('data', (chunk) => resolve(chunk.toString('latin1')))
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n`)
  })

describe('a client that sends its request too slowly', () => {
  it('is answered 408 and closed, trickling its headers or its body, on both listeners', async () => {
    const emu = await listeningEmulator({ requestTimeoutMs: 400, euPort: 0 })
    expect(emu.euUrl).not.toBeNull()
    for (const url of [emu.url, emu.euUrl!]) {
      const started = performance.now()
      const headers = await trickle(url, 'GET /api/v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ', 50)
      expect(headers.received).toMatch(/^HTTP\/1\.1 408 /)
      const body = await trickle(
        url,
        `POST /api/v1/embeddings HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${emu.keys.standard}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"input":"`,
        50,
      )
      expect(body.received).toMatch(/^HTTP\/1\.1 408 /)
      // Well before Node's own defaults (60 s for headers, none for a body).
      expect(performance.now() - started).toBeLessThan(10_000)
    }
    // Nothing was billed for the request that never arrived.
    expect((await emu.get('/_emulator/api/journal')).body.data.filter((e: { operation: string }) => e.operation === 'embeddings.create')).toEqual([])
  })

  it('does not hold a quick client up', async () => {
    const emu = await listeningEmulator({ requestTimeoutMs: 400 })
    const socket = await opened(emu.url)
    expect(await ask(socket, '/api/v1/models/count')).toMatch(/^HTTP\/1\.1 200 /)
  })
})

describe('idle and surplus connections', () => {
  it('closes a keep-alive connection once it has been idle for the keep-alive timeout', async () => {
    const emu = await listeningEmulator({ keepAliveTimeoutMs: 200 })
    const socket = await opened(emu.url)
    expect(await ask(socket, '/api/v1/models/count')).toMatch(/^HTTP\/1\.1 200 /)
    expect(await ask(socket, '/api/v1/models/count')).toMatch(/keep-alive: timeout=/i)
    await closed(socket)
  })

  it('refuses connections beyond the cap, while the open ones keep working, on both listeners', async () => {
    const emu = await listeningEmulator({ maxConnections: 2, euPort: 0 })
    for (const url of [emu.url, emu.euUrl!]) {
      const first = await opened(url)
      const second = await opened(url)
      expect(await ask(first, '/api/v1/models/count')).toMatch(/^HTTP\/1\.1 200 /)
      const surplus = await opened(url)
      await closed(surplus)
      expect(await ask(second, '/api/v1/models/count')).toMatch(/^HTTP\/1\.1 200 /)
      first.destroy()
      second.destroy()
      await Promise.all([closed(first), closed(second)])
    }
  })
})

describe('the limits as settings', () => {
  it('are read from flags, with defaults of 30 s, 5 s and 1024', () => {
    expect(loadConfig({})).toMatchObject({ requestTimeoutMs: 30_000, keepAliveTimeoutMs: 5_000, maxConnections: 1_024 })
    expect(loadConfig({ flags: { 'request-timeout': '10s', 'keep-alive-timeout': '1s', 'max-connections': '50' } })).toMatchObject({
      requestTimeoutMs: 10_000,
      keepAliveTimeoutMs: 1_000,
      maxConnections: 50,
    })
    expect(() => loadConfig({ flags: { 'max-connections': '0' } })).toThrow(/--max-connections/)
  })
})
