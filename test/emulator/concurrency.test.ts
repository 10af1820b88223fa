// Concurrency: clients of one account over real HTTP, whose requests overlap one another's.
import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestEmulator, type TestEmulator } from '../../src/emulator/testing.ts'

const START = '2026-03-29T12:00:00.000Z' // a Sunday

let emu: TestEmulator
beforeAll(async () => {
  emu = await startTestEmulator({ clockStart: START, seed: 7 })
})
afterAll(async () => {
  await emu?.close()
})

interface Workspace {
  id: string
  management: string
  standard: string
  members: string[]
}

async function workspace(credits_usd: number): Promise<Workspace> {
  const { data } = await emu.admin.call<{ data: { id: string; management_key: string; standard_key: string; members: Array<{ id: string }> } }>('POST', '/accounts', {
    credits_usd,
  })
  return { id: data.id, management: data.management_key, standard: data.standard_key, members: data.members.map((m) => m.id) }
}

/**
 * POSTs a JSON body in two steps: the headers (authentication runs on them), then, once `between` has
 * run, the body. What a slow upload does, made deterministic.
 */
function postInTwoSteps(path: string, token: string, body: unknown, between: () => Promise<void>): Promise<{ status: number; body: any }> {
  const payload = JSON.stringify(body)
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
    setTimeout(() => {
      between().then(() => req.end(payload), reject)
    }, 50)
  })
}

describe('a key revoked while its request is on the way', () => {
  it('is a 401 for embeddings and video, never a 500, and nothing is billed', async () => {
    const ws = await workspace(10)
    const revoke = async (hash: string) => {
      await emu.admin.call('DELETE', `/accounts/${ws.id}/keys/${hash}`)
    }
    const newKey = async () => (await emu.admin.call<{ data: { key: string; hash: string } }>('POST', `/accounts/${ws.id}/keys`, {})).data

    const a = await newKey()
    const embedding = await postInTwoSteps('/api/v1/embeddings', a.key, { model: 'openai/text-embedding-3-small', input: 'in flight' }, () => revoke(a.hash))
    expect(embedding).toEqual({ status: 401, body: { error: { code: 401, message: 'User not found.' } } })

    const b = await newKey()
    const video = await postInTwoSteps('/router/v1/video/ent/v2/text2video', b.key, { model: 'videoq2', prompt: 'in flight' }, () => revoke(b.hash))
    expect(video.status).toBe(401)
    expect(video.body).toMatchObject({ code: 401, reason: 'Unauthorized', message: 'User not found.' })

    const account = (await emu.admin.call<{ data: { spent_usd: number } }>('GET', `/accounts/${ws.id}`)).data
    expect(account.spent_usd).toBe(0)
    expect((await emu.admin.call<{ data: unknown[] }>('GET', `/video/tasks?account=${ws.id}`)).data).toEqual([])
    const rows = emu.ctx.db.prepare('SELECT COUNT(*) AS n FROM usage WHERE account_id = ?').get(ws.id) as { n: number }
    expect(rows.n).toBe(0)
  })
})
