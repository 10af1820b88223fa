// Video tasks calling back: each state a receiver is told of arrives signed as the vendor signs (the
// test recomputes the signature from the documented algorithm), retries reach a receiver that was
// down, and a thousand tasks finish in one clock advance with every callback delivered.
import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { testEmulator, type TestEmulator } from '../../helpers/emulator.ts'
import { startSink, type Received } from '../../helpers/sink.ts'

/** The vendor's algorithm, written from its documentation, independently of the emulator's code. */
function expectedSignature(r: Received, secret: string): string {
  const date = String(r.headers.date)
  const nonce = String(r.headers['x-request-nonce'])
  const signing = `${r.method}\n${r.path}\n${r.query}\n${r.headers['x-hmac-access-key']}\n${date}\nDate:${date}\nx-request-nonce:${nonce}\n`
  return createHmac('sha256', secret).update(signing).digest('base64')
}

const createTask = (emu: TestEmulator, body: Record<string, unknown>) =>
  emu.request({
    method: 'POST',
    url: '/router/v1/video/ent/v2/text2video',
    headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ model: 'videoq2', prompt: 'a lighthouse at dusk', ...body }),
  })

/** Deliveries run in the background: waits until every due one has been attempted. */
async function settle(emu: { drainCallbacks(timeoutMs?: number): Promise<boolean> }): Promise<void> {
  expect(await emu.drainCallbacks()).toBe(true)
}

describe('video callbacks', () => {
  it('POSTs processing then success, signed with the key that created the task, the body being the task query', async () => {
    const emu = await testEmulator()
    const receiver = await startSink()
    const id = (await createTask(emu, { callback_url: `${receiver.url}/hooks/video?team=a&x=1` })).body.task_id
    await emu.clock.advance('1m')
    await settle(emu)
    expect(receiver.received.map((r) => r.body.state)).toEqual(['processing', 'success'])
    for (const r of receiver.received) {
      expect(r.method).toBe('POST')
      expect(r.path).toBe('/hooks/video')
      expect(r.query).toBe('team=a&x=1')
      expect(r.headers['content-type']).toBe('application/json')
      expect(r.headers['x-hmac-signed-headers']).toBe('Date;x-request-nonce')
      expect(r.headers['x-hmac-algorithm']).toBe('hmac-sha256')
      expect(r.headers['x-hmac-access-key']).toBe('video')
      // Date is real wall-clock time, so a receiver's skew check passes.
      expect(Math.abs(Date.parse(String(r.headers.date)) - Date.now())).toBeLessThan(60_000)
      expect(r.headers['x-hmac-signature']).toBe(expectedSignature(r, emu.keys.standard))
      // The key signs the request but never travels with it; nor does anything else of the emulator's.
      expect(JSON.stringify([r.headers, r.body])).not.toMatch(/sk-gw-v1-|gwe-admin-/)
    }
    const query = await emu.get(`/router/v1/video/ent/v2/tasks/${id}/creations`, emu.keys.standard)
    expect(receiver.received[1]!.body).toEqual(query.body)
    // Every attempt is listed through the admin API.
    const deliveries = (await emu.get(`/_emulator/api/callbacks?task_id=${id}`)).body.data
    expect(deliveries).toHaveLength(2)
  })

  it('sends failed, and carries the multi-frame payload back', async () => {
    const emu = await testEmulator()
    const receiver = await startSink()
    const frame = 'https://example.com/frame.png'
    const res = await emu.request({
      method: 'POST',
      url: '/router/v1/video/ent/v2/multiframe',
      headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json', 'x-emulator-video-outcome': 'failed' },
      payload: JSON.stringify({
        model: 'videoq2-turbo',
        start_image: frame,
        image_settings: [{ key_image: frame }, { key_image: frame }],
        payload: 'order-42',
        callback_url: receiver.url,
      }),
    })
    expect(res.status).toBe(200)
    await emu.clock.advance('1m')
    await settle(emu)
    expect(receiver.received.map((r) => [r.body.state, r.body.payload, r.body.err_code])).toEqual([
      ['processing', 'order-42', ''],
      ['failed', 'order-42', 'ModelUnavailable'],
    ])
  })

  it('retries a receiver that is down for the first two attempts: the third gets through', async () => {
    const emu = await testEmulator({ videoCreatedMs: 0, videoQueueingMs: 0, videoProcessingMs: 0 })
    // The first request is the processing callback (one attempt only); then success fails twice.
    const receiver = await startSink((n) => (n === 2 || n === 3 ? 503 : 200))
    const id = (await createTask(emu, { callback_url: receiver.url })).body.task_id
    await emu.clock.advance(0)
    await settle(emu)
    expect(receiver.received.map((r) => r.body.state)).toEqual(['processing', 'success'])
    await emu.clock.advance('10s')
    await settle(emu)
    expect(receiver.received).toHaveLength(3)
    await emu.clock.advance('1m')
    await settle(emu)
    expect(receiver.received).toHaveLength(4)
    const success = (await emu.get(`/_emulator/api/callbacks?task_id=${id}`)).body.data.find((d: { state: string }) => d.state === 'success')
    expect(success).toMatchObject({ status: 'delivered' })
    expect(success.attempts.map((a: { status: number | null }) => a.status)).toEqual([503, 503, 200])
  })

  it('a thousand tasks reach success in one clock advance, every callback delivered', async () => {
    const emu = await testEmulator()
    const receiver = await startSink()
    const account = (await emu.get('/_emulator/api/accounts')).body.data[0]
    await emu.send('PUT', `/_emulator/api/accounts/${account.id}/credits`, { credits_usd: 100_000 })
    for (let i = 0; i < 1000; i++) expect((await createTask(emu, { callback_url: receiver.url })).status).toBe(200)
    await emu.clock.advance('1m')
    await settle(emu)
    expect(receiver.received).toHaveLength(2000)
    const list = await emu.get('/router/v1/video/ent/v2/tasks?states=success&pager.pagesz=100', emu.keys.standard)
    expect(list.body.next_page_token).toBe('1')
    expect((await emu.get('/_emulator/api/video/tasks?state=success')).body.total_count).toBe(1000)
  }, 120_000)
})
