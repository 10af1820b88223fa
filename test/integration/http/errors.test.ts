import { describe, expect, it } from 'vitest'
import { sha256Hex } from '../../../src/emulator/core/rng.ts'
import { testEmulator } from '../../helpers/emulator.ts'

describe('one error envelope for every failure', () => {
  it('404 for an unknown route, in the envelope', async () => {
    const emu = await testEmulator()
    const res = await emu.get('/api/v1/nothing-here')
    expect(res.status).toBe(404)
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    expect(res.body).toEqual({ error: { code: 404, message: 'Not Found: no route for GET /api/v1/nothing-here' } })
  })

  it('400 for malformed JSON', async () => {
    const emu = await testEmulator()
    const res = await emu.request({
      method: 'PATCH',
      url: `/api/v1/keys/${sha256Hex(emu.keys.standard)}`,
      headers: { authorization: `Bearer ${emu.keys.management}`, 'content-type': 'application/json' },
      payload: '{"name": ',
    })
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe(400)
    expect(res.body.error.message).toMatch(/^Malformed JSON body/)
  })

  it('400 naming the content type for a body that is not JSON (neither real service declares 415)', async () => {
    const emu = await testEmulator()
    const res = await emu.request({
      method: 'PATCH',
      url: `/api/v1/keys/${sha256Hex(emu.keys.standard)}`,
      headers: { authorization: `Bearer ${emu.keys.management}`, 'content-type': 'text/plain' },
      payload: 'name=x',
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      error: { code: 400, message: 'Unsupported Content-Type: send the body as application/json', metadata: { field: 'content-type', location: 'headers' } },
    })
    // The video router answers in its vendor's envelope.
    const video = await emu.request({
      method: 'POST',
      url: '/router/v1/video/ent/v2/text2video',
      headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'text/plain' },
      payload: 'model=videoq2',
    })
    expect(video.status).toBe(400)
    expect(video.body).toMatchObject({ code: 400, reason: 'BadRequest', message: 'bad request' })
    expect(video.headers['x-emulator-detail']).toBe('Unsupported Content-Type: send the body as application/json')
  })

  it('413 for a body over the limit', async () => {
    const emu = await testEmulator()
    const res = await emu.request({
      method: 'PATCH',
      url: `/api/v1/keys/${sha256Hex(emu.keys.standard)}`,
      headers: { authorization: `Bearer ${emu.keys.management}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(1_100_000) }),
    })
    expect(res.status).toBe(413)
    expect(res.body).toEqual({
      error: { code: 413, message: 'Request payload too large: this route takes bodies up to 1 MB', metadata: { limit_bytes: 1048576 } },
    })
  })

  it('400 for an empty JSON body', async () => {
    const emu = await testEmulator()
    const res = await emu.request({
      method: 'PATCH',
      url: `/api/v1/keys/${sha256Hex(emu.keys.standard)}`,
      headers: { authorization: `Bearer ${emu.keys.management}`, 'content-type': 'application/json' },
      payload: '',
    })
    expect(res.status).toBe(400)
    expect(res.body.error.message).toContain('Request body is empty')
  })

  it('500 without internals when something unexpected breaks', async () => {
    const emu = await testEmulator()
    emu.ctx.db.close() // the next query throws inside the handler
    const res = await emu.get('/api/v1/keys', emu.keys.management)
    expect(res.status).toBe(500)
    expect(res.body).toEqual({ error: { code: 500, message: 'Internal Server Error' } })
    expect(JSON.stringify(res.body)).not.toMatch(/database|sqlite|stack|\.ts/i)
  })

  it('--wrong-key-kind-status 403 answers a standard key on a management operation as the real service does; activity stays 403', async () => {
    const spec = await testEmulator()
    expect((await spec.get('/api/v1/guardrails', spec.keys.standard)).body).toEqual({
      error: { code: 401, message: 'Only management keys can perform this operation' },
    })
    const real = await testEmulator({ wrongKeyKindStatus: 403 })
    expect((await real.get('/api/v1/guardrails', real.keys.standard)).body).toEqual({
      error: { code: 403, message: 'Only management keys can perform this operation' },
    })
    expect((await real.get('/api/v1/activity', real.keys.standard)).status).toBe(403)
    // Inference with a management key is another matter: still 401.
    expect((await real.send('POST', '/api/v1/embeddings', { model: 'openai/text-embedding-3-small', input: 'x' }, real.keys.management)).status).toBe(401)
  })

  it('--crypto-charges gone answers both charge paths with the real 410, key or not, and creates nothing', async () => {
    const emu = await testEmulator({ cryptoCharges: 'gone' })
    for (const path of ['/api/v1/credits/crypto', '/api/v1/credits/coinbase']) {
      for (const key of [undefined, emu.keys.standard]) {
        const res = await emu.send('POST', path, { amount: 10, sender: '0x9a85CB3bfd494Ea3a8C9E50aA6a3c1a7E8BACE11', chain_id: 8453 }, key)
        expect(res.status).toBe(410)
        expect(res.body.error).toEqual({ code: 410, message: expect.stringMatching(/^The Coinbase APIs used by this endpoint have been deprecated/) })
      }
    }
    expect((await emu.get('/_emulator/api/charges')).body.data).toEqual([])
  })
})
