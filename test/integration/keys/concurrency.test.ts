// Concurrency on the keys: a key revoked (or its whole account deleted) while a request it made is on
// the way, between the headers that authenticated it and the body. Real HTTP, one shared emulator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestEmulator, type TestEmulator } from '../../../src/emulator/testing.ts'
import { CONCURRENCY_START, postInTwoSteps, workspace } from '../../helpers/concurrency.ts'

let emu: TestEmulator
beforeAll(async () => {
  emu = await startTestEmulator({ clockStart: CONCURRENCY_START, seed: 7 })
})
afterAll(async () => {
  await emu?.close()
})

describe('a key revoked while its request is on the way', () => {
  it('is a 401 for embeddings and video, never a 500, and nothing is billed', async () => {
    const ws = await workspace(emu, 10)
    const revoke = async (hash: string) => {
      await emu.admin.call('DELETE', `/accounts/${ws.id}/keys/${hash}`)
    }
    const newKey = async () => (await emu.admin.call<{ data: { key: string; hash: string } }>('POST', `/accounts/${ws.id}/keys`, {})).data

    const a = await newKey()
    const embedding = await postInTwoSteps(emu, '/api/v1/embeddings', a.key, { model: 'openai/text-embedding-3-small', input: 'in flight' }, () =>
      revoke(a.hash),
    )
    expect(embedding).toEqual({ status: 401, body: { error: { code: 401, message: 'User not found.' } } })

    const b = await newKey()
    const video = await postInTwoSteps(emu, '/router/v1/video/ent/v2/text2video', b.key, { model: 'videoq2', prompt: 'in flight' }, () => revoke(b.hash))
    expect(video.status).toBe(401)
    expect(video.body).toMatchObject({ code: 401, reason: 'Unauthorized', message: 'unauthorized' })

    const account = (await emu.admin.call<{ data: { spent_usd: number } }>('GET', `/accounts/${ws.id}`)).data
    expect(account.spent_usd).toBe(0)
    expect((await emu.admin.call<{ data: unknown[] }>('GET', `/video/tasks?account=${ws.id}`)).data).toEqual([])
    const rows = emu.ctx.db.prepare('SELECT COUNT(*) AS n FROM usage WHERE account_id = ?').get(ws.id) as { n: number }
    expect(rows.n).toBe(0)
  })

  it('is a 401 for writes that bill nothing too, when the whole account is deleted meanwhile', async () => {
    for (const [path, body, kind] of [
      ['/api/v1/credits/crypto', { amount: 10, sender: '0x9a85CB3bfd494Ea3a8C9E50aA6a3c1a7E8BACE11', chain_id: 8453 }, 'standard'],
      ['/api/v1/guardrails', { name: 'in flight' }, 'management'],
    ] as const) {
      const ws = await workspace(emu, 10)
      const key = kind === 'standard' ? ws.standard : ws.management
      const res = await postInTwoSteps(emu, path, key, body, async () => void (await emu.admin.call('DELETE', `/accounts/${ws.id}`)))
      expect(res, path).toEqual({ status: 401, body: { error: { code: 401, message: 'User not found.' } } })
    }
    expect(emu.ctx.db.pragma('foreign_key_check')).toEqual([])
  })
})
