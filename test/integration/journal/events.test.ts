// The admin event stream (GET /_emulator/api/events) over real sockets: every event has an id from
// one increasing sequence, a reconnect with Last-Event-ID gets what it missed (or `reset` when that
// is no longer kept), and a client that stops reading is dropped instead of buffered without bound.
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { connect, type Socket } from 'node:net'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { MAX_QUEUED_EVENTS, REPLAY_EVENTS } from '../../../src/emulator/journal/event-stream.ts'
import { listeningEmulator, type TestEmulator } from '../../helpers/emulator.ts'
import type { RunningEmulator } from '../../../src/emulator/index.ts'

interface SseEvent {
  id: string | undefined
  event: string | undefined
  data: string | undefined
}

/** One stream read as a browser would: blocks of fields split on blank lines, comments skipped. */
function openStream(emu: RunningEmulator, headers: Record<string, string> = {}) {
  const events: SseEvent[] = []
  const waiters = new Set<() => void>()
  let response: IncomingMessage | undefined
  let buffer = ''
  const req = httpRequest(`${emu.url}/_emulator/api/events`, { headers }, (res) => {
    response = res
    res.setEncoding('utf8')
    res.on('data', (chunk: string) => {
      buffer += chunk
      let end: number
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end)
        buffer = buffer.slice(end + 2)
        const fields: Record<string, string> = {}
        for (const line of block.split('\n')) {
          if (line.startsWith(':') || !line.includes(':')) continue
          const at = line.indexOf(':')
          fields[line.slice(0, at)] = line.slice(at + 1).replace(/^ /, '')
        }
        if (fields.id !== undefined || fields.event !== undefined || fields.data !== undefined) {
          events.push({ id: fields.id, event: fields.event, data: fields.data })
        }
      }
      for (const wake of waiters) wake()
    })
  })
  req.end()
  return {
    events,
    /** Events that carry something (not the bare `id:` that opens a stream). */
    real: () => events.filter((e) => e.event !== undefined),
    async until(done: () => boolean): Promise<void> {
      while (!done()) await new Promise<void>((resolve) => waiters.add(resolve)).finally(() => waiters.clear())
    },
    status: () => response?.statusCode,
    close: () => req.destroy(),
  }
}

const adminPost = (emu: TestEmulator, path: string, body: unknown = {}) => emu.send('POST', `/_emulator/api${path}`, body)

describe('GET /_emulator/api/events', () => {
  it('gives every event an id, one increasing sequence, starting after the id it opens with', async () => {
    const emu = await listeningEmulator()
    const stream = openStream(emu)
    await stream.until(() => stream.events.length >= 1)
    expect(stream.status()).toBe(200)
    const [opening] = stream.events
    expect(opening).toEqual({ id: '0', event: undefined, data: undefined })

    await emu.get('/api/v1/models/count')
    await adminPost(emu, '/clock/advance', { ms: 1000 })
    await adminPost(emu, '/faults', { match: { operation: 'models.count' }, action: { status: 503 } })
    const [key] = (await emu.get('/api/v1/keys', emu.keys.management)).body.data
    await emu.send('PATCH', `/api/v1/keys/${key.hash}`, { name: 'renamed by a client' }, emu.keys.management)
    await stream.until(() => stream.real().length >= 6)
    stream.close()

    const real = stream.real()
    expect(real.map((e) => e.event)).toEqual(['journal', 'clock.moved', 'admin.changed', 'admin.changed', 'journal', 'journal'])
    expect(real.map((e) => Number(e.id))).toEqual([1, 2, 3, 4, 5, 6])
    expect(JSON.parse(real[0]!.data!)).toMatchObject({ operation: 'models.count', status: 200 })
    expect(JSON.parse(real[2]!.data!)).toEqual({ operation: 'admin.clock.advance' })
    expect(JSON.parse(real[3]!.data!)).toEqual({ operation: 'admin.faults.create' })
    expect(JSON.parse(real[5]!.data!)).toMatchObject({ operation: 'keys.update', method: 'PATCH', status: 200 })
  })

  it('replays what a client missed when it comes back with Last-Event-ID', async () => {
    const emu = await listeningEmulator()
    const first = openStream(emu)
    await first.until(() => first.events.length >= 1)
    for (let i = 0; i < 4; i++) await emu.get('/api/v1/models/count')
    await first.until(() => first.real().length >= 4)
    first.close()
    const seen = first.real()

    // While nobody listens: more requests, an account, a clock move.
    await emu.get('/api/v1/models')
    await adminPost(emu, '/accounts')
    await adminPost(emu, '/clock/advance', { ms: 60_000 })

    const back = openStream(emu, { 'last-event-id': seen[1]!.id! })
    await back.until(() => back.real().length >= 2 + 5)
    back.close()
    const replayed = back.real()
    expect(replayed.map((e) => Number(e.id))).toEqual([3, 4, 5, 6, 7, 8, 9])
    // The same events the first client got, then the ones it missed.
    expect(replayed.slice(0, 2)).toEqual(seen.slice(2))
    expect(replayed.slice(2).map((e) => e.event)).toEqual(['journal', 'account.created', 'admin.changed', 'clock.moved', 'admin.changed'])

    // Up to date: nothing to replay, nothing sent until the next event.
    const current = openStream(emu, { 'last-event-id': '9' })
    await current.until(() => current.events.length >= 0 && current.status() === 200)
    await emu.get('/api/v1/models/count')
    await current.until(() => current.real().length >= 1)
    current.close()
    expect(current.real().map((e) => e.id)).toEqual(['10'])
  })

  it(`sends reset when the asked id is older than the last ${REPLAY_EVENTS} events, or was never given`, async () => {
    const emu = await listeningEmulator()
    const stream = openStream(emu)
    await stream.until(() => stream.events.length >= 1)
    for (let i = 0; i < REPLAY_EVENTS + 10; i++) await emu.get('/api/v1/models/count')
    await stream.until(() => stream.real().length >= REPLAY_EVENTS + 10)
    stream.close()
    const last = REPLAY_EVENTS + 10

    // Event 10 is still kept (11 onwards are), event 9 is not: what follows 9 cannot all be replayed.
    const kept = openStream(emu, { 'last-event-id': '10' })
    await kept.until(() => kept.real().length >= REPLAY_EVENTS)
    kept.close()
    expect(kept.real()[0]!.id).toBe('11')
    expect(kept.real().at(-1)!.id).toBe(String(last))

    for (const [asked, reason] of [
      ['9', 'too-old'],
      ['1', 'too-old'],
      [String(last + 1), 'unknown-id'],
      ['not-a-number', 'unknown-id'],
    ]) {
      const late = openStream(emu, { 'last-event-id': asked! })
      await late.until(() => late.real().length >= 1)
      late.close()
      // The reset carries the newest id, so the browser's next reconnect starts from there.
      expect(late.real()).toEqual([{ id: String(last), event: 'reset', data: JSON.stringify({ reason, last_event_id: last }) }])
    }
  })

  it('drops a client that stops reading once it is too far behind, and keeps serving one that reads', async () => {
    const emu = await listeningEmulator()
    // The server's side of the slow client's connection, to watch what it holds for it.
    const serverSockets: Socket[] = []
    emu.app.server.on('connection', (socket: Socket) => serverSockets.push(socket))

    // A client that reads the first bytes of the stream, then never again.
    const port = Number(new URL(emu.url).port)
    const slow = connect(port, '127.0.0.1')
    await new Promise<void>((resolve) => slow.once('connect', () => resolve()))
    slow.write(`GET /_emulator/api/events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`)
    await new Promise<void>((resolve) => slow.once('data', () => resolve()))
    slow.pause()
    const held = serverSockets.at(-1)!
    const dropped = new Promise<void>((resolve) => held.once('close', () => resolve()))

    const fast = openStream(emu)
    await fast.until(() => fast.events.length >= 1)

    // Large events, in turns, so the reading client drains between them: 2000 x 16 KB = 32 MB, far
    // beyond what the sockets' kernel buffers take.
    const big = 'x'.repeat(16 * 1024)
    const total = 2000
    let mostHeld = 0
    for (let i = 0; i < total; i++) {
      emu.ctx.events.emit('video.task', { id: `${i}-${big}`, state: 'queueing' })
      if (!held.destroyed) mostHeld = Math.max(mostHeld, held.writableLength)
      if (i % 20 === 19) await nextTurn()
    }
    await dropped
    expect(held.destroyed).toBe(true)
    // What waited for the slow client never exceeded the bound (plus the socket's own buffer).
    const frame = big.length + 100
    expect(mostHeld).toBeLessThan((MAX_QUEUED_EVENTS + 4) * frame)
    expect(mostHeld).toBeLessThan((total * frame) / 4)

    // The reading client got every event, in order.
    await fast.until(() => fast.real().length >= total)
    fast.close()
    expect(fast.real().map((e) => Number(e.id))).toEqual(Array.from({ length: total }, (_, i) => i + 1))
    slow.destroy()
  })
})
