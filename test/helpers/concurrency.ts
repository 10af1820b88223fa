// Shared by the concurrency tests (test/integration/*/concurrency.test.ts): an account of their own on a
// listening emulator made with startTestEmulator, and a POST whose body arrives only after something
// else has happened, which is what a slow upload does, made deterministic.
import { request as httpRequest, type IncomingMessage } from 'node:http'
import type { TestEmulator } from '../../src/emulator/testing.ts'

/** The clock the concurrency tests start at. */
export const CONCURRENCY_START = '2026-03-29T12:00:00.000Z' // a Sunday

export interface Workspace {
  id: string
  management: string
  standard: string
  members: string[]
}

/** A new account with `credits_usd`, its two keys and its members. */
export async function workspace(emu: TestEmulator, credits_usd: number): Promise<Workspace> {
  const { data } = await emu.admin.call<{ data: { id: string; management_key: string; standard_key: string; members: Array<{ id: string }> } }>(
    'POST',
    '/accounts',
    {
      credits_usd,
    },
  )
  return { id: data.id, management: data.management_key, standard: data.standard_key, members: data.members.map((m) => m.id) }
}

/**
 * POSTs a JSON body in two steps: the headers (authentication runs on them), then, once `between` has
 * run, the body. What a slow upload does, made deterministic.
 */
export function postInTwoSteps(
  emu: TestEmulator,
  path: string,
  token: string,
  body: unknown,
  between: () => Promise<void>,
): Promise<{ status: number; body: any }> {
  const payload = JSON.stringify(body)
  // The server has parsed the headers: Fastify's own 'request' listener (registered first) has routed
  // the request and started its onRequest hooks, authentication among them, which finish without I/O,
  // so before `between` can reach the server over a connection of its own.
  const arrived = new Promise<void>((resolve) => {
    const onRequest = (req: IncomingMessage) => {
      if (req.method !== 'POST' || req.url !== path) return
      emu.app.server.off('request', onRequest)
      resolve()
    }
    emu.app.server.on('request', onRequest)
  })
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${emu.url}${path}`,
      { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (text += chunk))
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }))
      },
    )
    req.on('error', reject)
    req.flushHeaders()
    // The headers must have been read (and the key authenticated) before the key goes.
    arrived.then(between).then(() => req.end(payload), reject)
  })
}
