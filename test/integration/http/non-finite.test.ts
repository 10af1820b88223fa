// A number JSON cannot hold as a finite value (1e400 parses as Infinity) is refused wherever a number
// or an integer is expected, by one check in the validation layer: in a body, in each API's
// envelope, and in a query string (where "Infinity" and "1e400" would otherwise coerce), and
// nothing is stored. Before, `io_logging_api_key_ids: [1e400]` was stored as [0] and rerank
// `top_n: 1e400` answered 200.
import { describe, expect, it } from 'vitest'
import { testEmulator } from '../../helpers/emulator.ts'

const TOO_LARGE = 'it is too large to be a finite number'

describe('numbers that are not finite', () => {
  it('are refused in a body, naming the field, and nothing is stored', async () => {
    const emu = await testEmulator()
    const countWorkspaces = () => emu.ctx.db.prepare('SELECT count(*) FROM workspaces').pluck().get()
    const before = countWorkspaces()
    const res = await emu.request({
      method: 'POST',
      url: '/api/v1/workspaces',
      headers: { authorization: `Bearer ${emu.keys.management}`, 'content-type': 'application/json' },
      payload: '{"name":"Prod","slug":"prod","io_logging_api_key_ids":[1e400]}',
    })
    expect(res.status).toBe(400)
    expect(res.body.error.message).toBe(`Field \`io_logging_api_key_ids[0]\` must be an integer: ${TOO_LARGE}`)
    expect(res.body.error.metadata).toMatchObject({ field: 'io_logging_api_key_ids[0]', location: 'body' })
    expect(countWorkspaces()).toBe(before)
  })

  it('are refused where an integer has a minimum but no maximum (rerank top_n), before any billing', async () => {
    const emu = await testEmulator()
    const res = await emu.request({
      method: 'POST',
      url: '/api/v1/rerank',
      headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
      payload: '{"model":"cohere/rerank-v3.5","query":"bread","documents":["a loaf","a stock"],"top_n":1e400}',
    })
    expect(res.status).toBe(400)
    expect(res.body.error).toMatchObject({ code: 400, metadata: { field: 'top_n' } })
    expect(res.body.error.message).toContain(TOO_LARGE)
    expect(emu.ctx.db.prepare('SELECT count(*) FROM usage').pluck().get()).toBe(0)
  })

  it('are refused in a number field that may be null, and negative ones too', async () => {
    const emu = await testEmulator()
    const res = await emu.request({
      method: 'POST',
      url: '/api/v1/chat/completions',
      headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
      payload: '{"model":"openai/gpt-4o-mini","messages":[{"role":"user","content":"hi"}],"temperature":-1e400}',
    })
    expect(res.status).toBe(400)
    expect(res.body.error.metadata.field).toBe('temperature')
    expect(res.body.error.message).toContain(TOO_LARGE)
  })

  it("are refused in the Messages API's envelope and the video router's", async () => {
    const emu = await testEmulator()
    const messages = await emu.request({
      method: 'POST',
      url: '/api/v1/messages',
      headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
      payload: '{"model":"anthropic/claude-3.5-haiku","max_tokens":1e400,"messages":[{"role":"user","content":"hi"}]}',
    })
    expect(messages.status).toBe(400)
    expect(messages.body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } })
    expect(messages.body.error.message).toContain(TOO_LARGE)

    const video = await emu.request({
      method: 'POST',
      url: '/router/v1/video/ent/v2/text2video',
      headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
      payload: '{"model":"videoq2","prompt":"A fox","duration":1e400}',
    })
    // The router names the field in its vendor's terse words, as for any invalid field.
    expect(video.status).toBe(400)
    expect(video.body).toMatchObject({ code: 400, reason: 'FieldInvalid', message: 'invalid field: duration' })
  })

  it('are refused in a query string, whether spelt 1e400 or Infinity', async () => {
    const emu = await testEmulator()
    for (const spelling of ['1e400', 'Infinity', '-Infinity']) {
      const res = await emu.get(`/api/v1/keys?offset=${spelling}`, emu.keys.management)
      expect(res.status, spelling).toBe(400)
      expect(res.body.error.metadata).toMatchObject({ field: 'offset', location: 'querystring' })
    }
    // A finite number in a query still coerces.
    expect((await emu.get('/api/v1/keys?offset=0', emu.keys.management)).status).toBe(200)
  })
})
