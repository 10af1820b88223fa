// The admin event stream's bounds over real sockets: a reconnect's replay honours backpressure like
// live events (a subscriber that never reads holds one socket buffer, not a copy of the replay), the
// number of subscribers is capped with a 503 in the admin envelope, and a reader that comes back still
// gets everything it missed, in order.
import { createParser, type EventSourceMessage } from 'eventsource-parser'
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { connect, type Socket } from 'node:net'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { describe, expect, it, onTestFinished } from 'vitest'
import { MAX_QUEUED_EVENTS, MAX_SUBSCRIBERS, REPLAY_EVENTS } from '../../../src/emulator/journal/event-stream.ts'
import type { RunningEmulator } from '../../../src/emulator/index.ts'
import { listeningEmulator } from '../../helpers/emulator.ts'

type SseEvent = Pick<EventSourceMessage, 'id' | 'event' | 'data'>

/** One stream, read as a browser would (eventsource-parser); closed when the test ends. */
function openStream(emu: RunningEmulator, headers: Record<string, string> = {}) {
  const events: SseEvent[] = []
  let response: IncomingMessage | undefined
  let body = ''
  const parser = createParser({ onEvent: (e) => e.event !== undefined && events.push({ id: e.id, event: e.event, data: e.data }) })
  const req = httpRequest(`${emu.url}/_emulator/api/events`, { headers }, (res) => {
    response = res
    res.setEncoding('utf8')
    res.on('data', (chunk: string) => {
      if (res.statusCode !== 200) body += chunk
      else parser.feed(chunk)
    })
  })
  req.on('error', () => {})
  req.end()
  const close = (): void => {
    req.destroy()
  }
  onTestFinished(close)
  return {
    events,
    ids: () => events.map((e) => Number(e.id)),
    status: () => response?.statusCode,
    headers: () => response?.headers,
    body: () => body,
    ended: () => response?.complete === true,
    localPort: () => req.socket?.localPort,
    close,
  }
}

/** The server's side of each connection, by the client's port: what the server holds for that client. */
function serverSides(emu: RunningEmulator): Map<number, Socket> {
  const sides = new Map<number, Socket>()
  emu.app.server.on('connection', (socket: Socket) => sides.set(socket.remotePort!, socket))
  return sides
}

/** A subscriber that asks for a replay from `lastEventId` and never reads a byte of it. */
async function stalledSubscriber(emu: RunningEmulator, lastEventId: string): Promise<Socket> {
  const port = Number(new URL(emu.url).port)
  const socket = connect({ port, host: '127.0.0.1' })
  // Paused from the start: nothing is ever read from the kernel, so the server's writes back up.
  socket.pause()
  onTestFinished(() => void socket.destroy())
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject))
  socket.write(`GET /_emulator/api/events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nLast-Event-ID: ${lastEventId}\r\n\r\n`)
  return socket
}

/** Milliseconds GET /_emulator/api/health takes, checked to answer 200. */
async function healthMs(emu: RunningEmulator): Promise<number> {
  const started = performance.now()
  const res = await fetch(`${emu.url}/_emulator/api/health`)
  expect(res.status).toBe(200)
  await res.arrayBuffer()
  return performance.now() - started
}

/** `count` events of about `size` bytes each, in turns so the streams that read drain between them. */
async function publish(emu: RunningEmulator, count: number, size: number, tag = 'e'): Promise<void> {
  const pad = 'x'.repeat(size)
  for (let i = 0; i < count; i++) {
    emu.ctx.events.emit('video.task', { id: `${tag}${i}-${pad}`, state: 'queueing' })
    if (i % 20 === 19) await nextTurn()
  }
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i)

describe('the admin event stream under many subscribers', () => {
  it('holds one socket buffer, not the replay, for each subscriber that never reads; health answers; the cap refuses one more', async () => {
    const emu = await listeningEmulator()
    const sides = serverSides(emu)
    // One reader (the open inspector); the stream keeps events from its first client on.
    const reader = openStream(emu)
    await expect.poll(() => reader.status()).toBe(200)
    // 8 KB frames: a replay (8 MB) past what loopback buffers for a socket that never reads (the sender's
    // buffer grows to 4 MB, the reader's stays small), so every stalled one backs up into the server.
    const FRAME = 8 * 1024
    await publish(emu, REPLAY_EVENTS, FRAME)
    await expect.poll(() => reader.events.length, { timeout: 10_000 }).toBe(REPLAY_EVENTS)
    // Each replay from the first kept event is ~8 MB: far beyond what a socket buffers.
    const replayBytes = REPLAY_EVENTS * FRAME

    // The attack: every other slot taken by a subscriber that asks for everything and never reads.
    const attackers = MAX_SUBSCRIBERS - 1
    const clients: Socket[] = []
    const slowest: number[] = []
    for (let i = 0; i < attackers; i++) {
      clients.push(await stalledSubscriber(emu, '1'))
      if (i % 16 === 15) slowest.push(await healthMs(emu))
    }
    const held = () => clients.map((c) => sides.get(c.localPort!)!)
    // Each one is attached (its stream's head and first frames were written)...
    await expect.poll(() => held().every((s) => s !== undefined && s.bytesWritten > 0), { timeout: 10_000 }).toBe(true)
    // ...and backed up: data waits in the server's buffer, the kernel's being full. (Loopback buffers grow
    // with the machine's free memory: where the kernel took a whole replay, nothing waits in the server.)
    let mostHeld = 0
    const sample = () => {
      for (const side of held()) mostHeld = Math.max(mostHeld, side.writableLength)
      return held().every((s) => s.writableLength > 0 || s.bytesWritten >= replayBytes)
    }
    await expect.poll(sample, { timeout: 10_000 }).toBe(true)
    slowest.push(await healthMs(emu))
    sample()
    // The bound: one socket buffer (the high-water mark) and the frame that crossed it, per subscriber.
    const bound = held()[0]!.writableHighWaterMark + FRAME + 1024
    expect(mostHeld).toBeLessThan(bound)
    // A fortieth of the replay each; the whole attack holds about what one replay would.
    expect(bound).toBeLessThan(replayBytes / 40)
    expect(held().reduce((sum, s) => sum + s.writableLength, 0)).toBeLessThan(attackers * bound)
    for (const ms of slowest) expect(ms).toBeLessThan(1000)

    // Every slot is taken: one more is refused in the admin envelope, and says when to retry.
    const refused = openStream(emu)
    await expect.poll(() => refused.ended()).toBe(true)
    expect(refused.status()).toBe(503)
    expect(refused.headers()!['retry-after']).toBe('5')
    expect(refused.headers()!['content-type']).toMatch(/^application\/json/)
    expect(JSON.parse(refused.body())).toEqual({
      error: {
        code: 503,
        message: `Too many event stream clients: at most ${MAX_SUBSCRIBERS} may be connected at once; close another stream (an inspector tab) and retry`,
        metadata: { reason: 'too_many_subscribers', limit: MAX_SUBSCRIBERS },
      },
    })

    // Once more than MAX_QUEUED_EVENTS events pass them, the stalled subscribers are dropped; the reader is not.
    await publish(emu, MAX_QUEUED_EVENTS + 1, 16, 'late')
    await expect.poll(() => held().every((s) => s.destroyed), { timeout: 10_000 }).toBe(true)
    await expect.poll(() => reader.events.length, { timeout: 10_000 }).toBe(REPLAY_EVENTS + MAX_QUEUED_EVENTS + 1)
    expect(reader.ids()).toEqual(range(1, REPLAY_EVENTS + MAX_QUEUED_EVENTS + 1))
    // Their slots are free again.
    const after = openStream(emu)
    await expect.poll(() => after.status()).toBe(200)
    for (const client of clients) client.destroy()
  })

  it(`refuses subscriber ${MAX_SUBSCRIBERS + 1} with a 503, and takes one again once a subscriber goes`, async () => {
    const emu = await listeningEmulator()
    const sides = serverSides(emu)
    const open = Array.from({ length: MAX_SUBSCRIBERS }, () => openStream(emu))
    await expect.poll(() => open.every((s) => s.status() === 200)).toBe(true)
    const refused = openStream(emu)
    await expect.poll(() => refused.status()).toBe(503)
    await expect.poll(() => refused.ended()).toBe(true)
    expect(JSON.parse(refused.body()).error).toMatchObject({ code: 503, metadata: { reason: 'too_many_subscribers', limit: MAX_SUBSCRIBERS } })
    // Those already connected keep their streams.
    await emu.get('/api/v1/models/count')
    await expect.poll(() => open.every((s) => s.events.length === 1)).toBe(true)

    const gone = sides.get(open[0]!.localPort()!)!
    open[0]!.close()
    // Once the server has seen that connection close, a newcomer gets in.
    await expect.poll(() => gone.closed).toBe(true)
    const again = openStream(emu)
    await expect.poll(() => again.status()).toBe(200)
    await emu.get('/api/v1/models/count')
    await expect.poll(() => again.events.length).toBe(1)
  })

  it('still replays everything a reader missed, past any socket buffer, with live events after it in order', async () => {
    const emu = await listeningEmulator()
    const first = openStream(emu)
    await expect.poll(() => first.status()).toBe(200)
    await publish(emu, 50, 16)
    await expect.poll(() => first.events.length).toBe(50)
    first.close()

    // While it is away: ~7.6 MB of events, all still kept.
    const FRAME = 8 * 1024
    await publish(emu, REPLAY_EVENTS - 50, FRAME)
    const back = openStream(emu, { 'last-event-id': '50' })
    await expect.poll(() => back.events.length).toBeGreaterThan(0)
    // Live events while it catches up come after the replay, neither lost nor repeated.
    await publish(emu, 20, 16, 'live')
    await expect.poll(() => back.events.length, { timeout: 10_000 }).toBe(REPLAY_EVENTS - 50 + 20)
    expect(back.ids()).toEqual(range(51, REPLAY_EVENTS + 20))
    expect(back.events.at(-1)!.data).toContain('"live19-')
    expect(back.events.some((e) => e.event === 'reset')).toBe(false)
    back.close()

    // A reader gone for longer than what is kept is told to start again, as before.
    const late = openStream(emu, { 'last-event-id': '5' })
    await expect.poll(() => late.events.length).toBe(1)
    expect(late.events[0]!.event).toBe('reset')
    expect(JSON.parse(late.events[0]!.data!)).toEqual({ reason: 'too-old', last_event_id: REPLAY_EVENTS + 20 })
  })
})
