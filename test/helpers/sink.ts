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
}

/** `holdMs` keeps each answer back a little, so parallel attempts overlap at the receiver. */
export async function startSink(reply: (n: number) => Reply = () => 200, { holdMs = 0 }: { holdMs?: number } = {}): Promise<Sink> {
  const received: Received[] = []
  let inFlight = 0
  let maxInFlight = 0
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
      if (answer === 'hang') return
      maxInFlight = Math.max(maxInFlight, ++inFlight)
      const send = () => {
        inFlight--
        res.writeHead(answer, { 'content-type': 'application/json' }).end('{"ok":true}')
      }
      if (holdMs > 0) setTimeout(send, holdMs)
      else send()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
  onTestFinished(close)
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received, close, maxInFlight: () => maxInFlight }
}
