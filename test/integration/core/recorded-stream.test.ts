// RecordedStream (core/buffers.ts), the body of every text stream: a body written whole before it is
// piped (an answer with nothing to pace) goes to the response as one write and the end, and still ends
// as a stream (so Fastify's end-of-stream watch sees it finish, not close early); one written after it is
// piped flows as before. Either way the client gets the same bytes, chunked.
import { once } from 'node:events'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it, onTestFinished, vi } from 'vitest'
import { RecordedStream } from '../../../src/emulator/core/buffers.ts'

const FRAMES = 'data: {"a":1}\n\ndata: {"b":"é"}\n\ndata: [DONE]\n\n'

/** A server answering each request with the body `handle` makes; each body with the events it emitted. */
async function serve(
  handle: (body: RecordedStream, res: http.ServerResponse) => void,
  keep: number,
): Promise<{ url: string; bodies: Array<{ body: RecordedStream; events: string[] }> }> {
  const bodies: Array<{ body: RecordedStream; events: string[] }> = []
  const server = http.createServer((_req, res) => {
    res.setHeader('content-type', 'text/event-stream')
    const body = new RecordedStream(keep)
    const events: string[] = []
    for (const name of ['end', 'close', 'error']) body.on(name, () => events.push(name))
    bodies.push({ body, events })
    handle(body, res)
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  onTestFinished(() => {
    server.closeAllConnections()
    server.close()
  })
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bodies }
}

describe('RecordedStream', () => {
  it('a body written whole before it is piped reaches the client whole and chunked, and ends as a stream', async () => {
    const { url, bodies } = await serve((body, res) => {
      body.write(FRAMES)
      body.end()
      body.pipe(res)
    }, 16)
    for (let i = 0; i < 2; i++) {
      const res = await fetch(url)
      expect(res.headers.get('transfer-encoding')).toBe('chunked')
      expect(res.headers.get('content-length')).toBeNull()
      expect(await res.text()).toBe(FRAMES)
    }
    expect(bodies).toHaveLength(2)
    for (const { body, events } of bodies) {
      await vi.waitFor(() => expect(events).toEqual(['end', 'close'])) // ended, not closed early
      expect(body.sentBytes).toBe(Buffer.byteLength(FRAMES))
      expect(body.recorded().toString()).toBe(FRAMES.slice(0, 16))
    }
  })

  it('a body written after it is piped flows, piece by piece, to the same bytes', async () => {
    const { url, bodies } = await serve((body, res) => {
      body.pipe(res)
      setImmediate(() => {
        for (const frame of FRAMES.split(/(?<=\n\n)/)) body.write(frame)
        body.end()
      })
    }, 1024)
    const res = await fetch(url)
    expect(res.headers.get('transfer-encoding')).toBe('chunked')
    expect(await res.text()).toBe(FRAMES)
    await vi.waitFor(() => expect(bodies[0]!.events).toEqual(['end', 'close']))
    expect(bodies[0]!.body.recorded().toString()).toBe(FRAMES)
  })
})
