// One webhook receiver for every test that needs a callback target: a real HTTP server on 127.0.0.1,
// closed when the test finishes. `reply(n)` answers the n-th request (1-based) with a status, or never.
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { onTestFinished } from 'vitest'

export interface Received {
  method: string
  path: string
  /** The query exactly as it arrived, without `?`. */
  query: string
  headers: IncomingHttpHeaders
  /** The body as sent. */
  text: string
  /** The body parsed as JSON (undefined when it is not JSON). */
  body: any
}

export type Reply = number | 'hang'

export interface Sink {
  url: string
  received: Received[]
  close(): Promise<void>
  /** The most requests the receiver had open at once. */
  maxInFlight(): number
  /** Resolves once `count` requests have arrived in all. */
  until(count: number): Promise<void>
  /** With `held`: sends the answers kept back so far, and answers later requests at once. */
  release(): void
}

/**
 * `held` keeps every answer back until `release()`: the requests stay open at the receiver, so a test
 * sees how many a sender has under way at once without racing a timer.
 */
export async function startSink(reply: (n: number) => Reply = () => 200, { held = false }: { held?: boolean } = {}): Promise<Sink> {
  const received: Received[] = []
  let inFlight = 0
  let maxInFlight = 0
  let releasing = !held
  const kept: Array<() => void> = []
  const waiters: Array<{ count: number; resolve: () => void }> = []
  const server = createServer((req, res) => {
    let text = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => (text += chunk))
    req.on('end', () => {
      const raw = req.url!
      const q = raw.indexOf('?')
      let body: unknown
      try {
        body = JSON.parse(text)
      } catch {
        body = undefined
      }
      received.push({ method: req.method!, path: q < 0 ? raw : raw.slice(0, q), query: q < 0 ? '' : raw.slice(q + 1), headers: req.headers, text, body })
      const answer = reply(received.length)
      if (answer !== 'hang') {
        maxInFlight = Math.max(maxInFlight, ++inFlight)
        const send = () => {
          inFlight--
          res.writeHead(answer, { 'content-type': 'application/json' }).end('{"ok":true}')
        }
        if (releasing) send()
        else kept.push(send)
      }
      for (const waiter of waiters.filter((w) => w.count <= received.length)) {
        waiters.splice(waiters.indexOf(waiter), 1)
        waiter.resolve()
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
  onTestFinished(close)
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close,
    maxInFlight: () => maxInFlight,
    until: (count) => (received.length >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve }))),
    release() {
      releasing = true
      for (const send of kept.splice(0)) send()
    },
  }
}
