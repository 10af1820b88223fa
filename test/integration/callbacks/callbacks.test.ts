import { createHmac } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { sha256Hex } from '../../../src/emulator/core/rng.ts'
import { createEmulator, type Emulator } from '../../../src/emulator/index.ts'
import { callbackSigningString, enqueueDelivery, signCallback } from '../../../src/emulator/modules/callbacks/callbacks.service.ts'
import { listeningEmulator, testEmulator, TEST_START, type TestEmulator } from '../../helpers/emulator.ts'
import { startSink, type Received, type Reply } from '../../helpers/sink.ts'

const at = (offsetMs: number) => new Date(Date.parse(TEST_START) + offsetMs).toISOString()

/** A URL nobody listens on: a port just released. */
async function refusingUrl(): Promise<string> {
  const sink = await startSink()
  await sink.close()
  return sink.url
}

/** The vendor's verification, written from its documentation, over what the receiver actually got. */
function verifySignature(r: Received, secret: string): boolean {
  const names = String(r.headers['x-hmac-signed-headers']).split(';')
  const headerLines = names.map((name) => `${name}:${String(r.headers[name.toLowerCase()])}\n`).join('')
  const signing = `${r.method}\n${r.path}\n${r.query}\n${String(r.headers['x-hmac-access-key'])}\n${String(r.headers.date)}\n${headerLines}`
  return createHmac('sha256', secret).update(signing).digest('base64') === r.headers['x-hmac-signature']
}

interface EnqueueOptions {
  terminal?: boolean
  task?: string
  state?: string
  account?: string
  key?: string
}

function enqueue(emu: Emulator, url: string, o: EnqueueOptions = {}): string {
  const state = o.state ?? 'success'
  const task_id = o.task ?? 'task-1'
  return emu.ctx.db.transaction(() =>
    enqueueDelivery(emu.ctx, {
      account_id: o.account ?? emu.ctx.services.accounts.list()[0]!.id,
      task_id,
      key_hash: sha256Hex(o.key ?? emu.keys.standard),
      url,
      state,
      body: JSON.stringify({ id: task_id, state, creations: [{ url: 'https://cdn.example/v.mp4' }] }),
      terminal: o.terminal ?? true,
    }),
  )()
}

const view = async (emu: TestEmulator, id: string) => (await emu.get(`/_emulator/api/callbacks/${id}`)).body.data

/** Deliveries run in the background: waits until every due one has been attempted. */
async function settle(emu: { drainCallbacks(timeoutMs?: number): Promise<boolean> }): Promise<void> {
  expect(await emu.drainCallbacks()).toBe(true)
}

describe('signCallback', () => {
  it("matches the vendor's worked example", () => {
    const input = {
      url: 'http://127.0.0.1:8080/vidu/callback?name=james&age=36',
      secret: 'the-api-key',
      date: 'Tue, 06 May 2025 12:09:42 GMT',
      nonce: '123e4567-e89b-12d3-a456-426614174000',
    }
    const signing =
      'POST\n/vidu/callback\nname=james&age=36\nvideo\nTue, 06 May 2025 12:09:42 GMT\n' +
      'Date:Tue, 06 May 2025 12:09:42 GMT\nx-request-nonce:123e4567-e89b-12d3-a456-426614174000\n'
    expect(callbackSigningString(input)).toBe(signing)
    expect(signCallback(input)).toEqual({
      Date: input.date,
      'x-request-nonce': input.nonce,
      'X-HMAC-SIGNED-HEADERS': 'Date;x-request-nonce',
      'X-HMAC-SIGNATURE': createHmac('sha256', 'the-api-key').update(signing).digest('base64'),
      'X-HMAC-ALGORITHM': 'hmac-sha256',
      'X-HMAC-ACCESS-KEY': 'video',
    })
  })

  it('signs `/` and an empty query for a URL without either', () => {
    const string = callbackSigningString({ url: 'http://127.0.0.1:8080', date: 'D', nonce: 'N' })
    expect(string).toBe('POST\n/\n\nvideo\nD\nDate:D\nx-request-nonce:N\n')
  })
})

describe('callback delivery', () => {
  it('POSTs the body intact, signed with the key that created the task (query string included)', async () => {
    const emu = await testEmulator()
    const sink = await startSink()
    const events: unknown[] = []
    emu.ctx.events.on('callback.attempt', (e) => events.push(e))
    const id = enqueue(emu, `${sink.url}/vidu/callback?name=james&age=36`)
    expect(sink.received).toHaveLength(0) // nothing is sent until the clock runs due work

    await emu.clock.runDue()

    await settle(emu)
    expect(sink.received).toHaveLength(1)
    const r = sink.received[0]!
    expect(r).toMatchObject({ method: 'POST', path: '/vidu/callback', query: 'name=james&age=36' })
    expect(r.headers['content-type']).toBe('application/json')
    expect(r.body).toEqual({ id: 'task-1', state: 'success', creations: [{ url: 'https://cdn.example/v.mp4' }] })
    expect(r.headers).toMatchObject({ 'x-hmac-signed-headers': 'Date;x-request-nonce', 'x-hmac-algorithm': 'hmac-sha256', 'x-hmac-access-key': 'video' })
    expect(r.headers['x-request-nonce']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    // The Date is real time, so receivers' skew checks pass even though the virtual clock is elsewhere.
    expect(String(r.headers.date)).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/)
    expect(Math.abs(Date.parse(String(r.headers.date)) - Date.now())).toBeLessThan(60_000)
    expect(verifySignature(r, emu.keys.standard)).toBe(true)
    expect(verifySignature(r, emu.keys.management)).toBe(false)

    const v = await view(emu, id)
    expect(v).toMatchObject({
      id,
      task_id: 'task-1',
      status: 'delivered',
      attempt_count: 1,
      max_attempts: 4,
      next_attempt_at: null,
      delivered_at: at(0),
      body: r.text,
    })
    expect(v.attempts).toEqual([{ attempt: 1, at: at(0), wall_at: expect.any(String), status: 200, duration_ms: expect.any(Number), error: null }])
    expect(events).toEqual([{ delivery_id: id, task_id: 'task-1', status: 200, outcome: 'delivered' }])
  })

  it('retries a terminal state after each configured delay on the virtual clock, never before', async () => {
    const emu = await testEmulator()
    const sink = await startSink((n) => (n < 3 ? 500 : 200))
    const outcomes: string[] = []
    emu.ctx.events.on('callback.attempt', (e) => outcomes.push(e.outcome))
    const id = enqueue(emu, `${sink.url}/hook`)

    await emu.clock.runDue()

    await settle(emu)
    expect(sink.received).toHaveLength(1)
    expect(await view(emu, id)).toMatchObject({ status: 'pending', attempt_count: 1, next_attempt_at: at(10_000) })
    await emu.clock.advance(9_999)
    await settle(emu)
    expect(sink.received).toHaveLength(1)
    await emu.clock.advance(1)
    await settle(emu)
    expect(sink.received).toHaveLength(2)
    expect((await view(emu, id)).next_attempt_at).toBe(at(70_000))
    await emu.clock.advance(59_999)
    await settle(emu)
    expect(sink.received).toHaveLength(2)
    await emu.clock.advance(1)
    await settle(emu)
    expect(sink.received).toHaveLength(3)

    const v = await view(emu, id)
    expect(v).toMatchObject({ status: 'delivered', attempt_count: 3, next_attempt_at: null, delivered_at: at(70_000) })
    expect(v.attempts.map((a: any) => [a.attempt, a.at, a.status, a.error])).toEqual([
      [1, at(0), 500, 'HTTP 500'],
      [2, at(10_000), 500, 'HTTP 500'],
      [3, at(70_000), 200, null],
    ])
    expect(outcomes).toEqual(['retry', 'retry', 'delivered'])
    // Each attempt is signed afresh, with its own nonce.
    expect(sink.received.every((r) => verifySignature(r, emu.keys.standard))).toBe(true)
    expect(new Set(sink.received.map((r) => r.headers['x-request-nonce'])).size).toBe(3)
  })

  it('a terminal state that keeps failing ends failed after 1 + retries attempts; a non-terminal one is tried once', async () => {
    const emu = await testEmulator()
    const url = await refusingUrl()
    const terminal = enqueue(emu, `${url}/hook`)
    await emu.clock.advance('1h')
    await settle(emu)
    const v = await view(emu, terminal)
    expect(v).toMatchObject({ status: 'failed', attempt_count: 4, max_attempts: 4, next_attempt_at: null, delivered_at: null })
    expect(v.attempts.map((a: any) => [a.at, a.status, a.error])).toEqual([
      [at(0), null, 'connection refused'],
      [at(10_000), null, 'connection refused'],
      [at(70_000), null, 'connection refused'],
      [at(370_000), null, 'connection refused'],
    ])

    const processing = enqueue(emu, `${url}/hook`, { state: 'processing', terminal: false })
    await emu.clock.advance('1h')
    await settle(emu)
    expect(await view(emu, processing)).toMatchObject({ status: 'failed', attempt_count: 1, max_attempts: 1, next_attempt_at: null })
  })

  it('records a receiver that never answers as timed out', async () => {
    const emu = await testEmulator({ callbackTimeoutMs: 200 })
    const sink = await startSink(() => 'hang')
    const id = enqueue(emu, `${sink.url}/hook`)
    await emu.clock.runDue()
    await settle(emu)
    expect(sink.received).toHaveLength(1)
    const v = await view(emu, id)
    expect(v).toMatchObject({ status: 'pending', attempt_count: 1, next_attempt_at: at(10_000) })
    expect(v.attempts[0]).toMatchObject({ status: null, error: 'timed out after 200 ms' })
    expect(v.attempts[0].duration_ms).toBeGreaterThanOrEqual(150)
  })

  it('does not retry when the key that created the task is gone', async () => {
    const emu = await testEmulator()
    const sink = await startSink()
    const id = enqueue(emu, `${sink.url}/hook`)
    expect(emu.ctx.services.keys.delete(sha256Hex(emu.keys.standard))).toBe(true)
    await emu.clock.advance('1h')
    await settle(emu)
    expect(sink.received).toHaveLength(0)
    const v = await view(emu, id)
    expect(v).toMatchObject({ status: 'failed', attempt_count: 1 })
    expect(v.attempts[0]).toMatchObject({ status: null, error: 'the key that created the task no longer exists' })
  })

  it('attempts due deliveries in parallel, at most --callback-concurrency at once per receiver', async () => {
    const emu = await testEmulator({ callbackConcurrency: 3 })
    const sink = await startSink(undefined, { held: true })
    const ids = Array.from({ length: 40 }, (_, i) => enqueue(emu, `${sink.url}/hook`, { task: `task-${i}` }))
    await emu.clock.runDue()
    // Three arrive and are held open; the outbox accounts for the other 37 as queued behind them, so no
    // fourth attempt is on its way.
    await sink.until(3)
    const outbox = await emu.send('POST', '/_emulator/api/callbacks/drain', { timeout_ms: 0 })
    expect(outbox.body.data).toEqual({ drained: false, in_flight: 3, queued: 37, due: 0 })
    expect(sink.received).toHaveLength(3)
    sink.release()
    await settle(emu)
    expect(sink.received).toHaveLength(40)
    expect(sink.maxInFlight()).toBe(3)
    for (const id of ids) expect((await view(emu, id)).status).toBe('delivered')
  })

  it('writes the delivery with the caller’s transaction, and only inside one', async () => {
    const emu = await testEmulator()
    const delivery = {
      account_id: emu.ctx.services.accounts.list()[0]!.id,
      task_id: 't',
      key_hash: 'h',
      url: 'http://127.0.0.1:1/',
      state: 'success',
      body: '{}',
      terminal: true,
    }
    expect(() => enqueueDelivery(emu.ctx, delivery)).toThrow(/inside the transaction/)
    expect(() =>
      emu.ctx.db.transaction(() => {
        enqueueDelivery(emu.ctx, delivery)
        throw new Error('the state change failed')
      })(),
    ).toThrow('the state change failed')
    expect((await emu.get('/_emulator/api/callbacks')).body.data).toEqual([])
  })

  it('a delivery in flight when the emulator closes is made after a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'callbacks-'))
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
    const options = { db: join(dir, 'emulator.db'), clock: 'manual', clockStart: TEST_START, seed: 1, logLevel: 'silent' } as const
    let answer: Reply = 'hang'
    const sink = await startSink(() => answer)

    const first = await createEmulator(options)
    const id = enqueue(first, `${sink.url}/hook?from=restart`)
    const running = first.clock.runDue()
    await sink.until(1)
    await first.close()
    await running

    answer = 200
    const second = await createEmulator(options)
    onTestFinished(() => second.close())
    // The interrupted attempt did not count: still pending (and claimed again at start, so it may be under way).
    const before = (await second.app.inject({ url: `/_emulator/api/callbacks/${id}` })).json().data
    expect(before).toMatchObject({ status: 'pending', attempt_count: 0, attempts: [] })
    await second.clock.runDue()
    await settle(second)
    expect(sink.received).toHaveLength(2)
    expect(verifySignature(sink.received[1]!, second.keys.standard)).toBe(true)
    expect(sink.received[1]!.headers['x-request-nonce']).not.toBe(sink.received[0]!.headers['x-request-nonce'])
    const after = (await second.app.inject({ url: `/_emulator/api/callbacks/${id}` })).json().data
    expect(after).toMatchObject({ status: 'delivered', attempt_count: 1 })
    expect(after.attempts).toMatchObject([{ attempt: 1, status: 200, error: null }])
  })
})

describe('admin: /_emulator/api/callbacks', () => {
  it('redelivers now, whatever the status, without rescheduling retries', async () => {
    const emu = await testEmulator()
    let status = 500
    const sink = await startSink(() => status)
    const id = enqueue(emu, `${sink.url}/hook`, { terminal: false })
    await emu.clock.runDue()
    await settle(emu)
    expect((await view(emu, id)).status).toBe('failed')

    status = 200
    await emu.clock.advance('5m')
    await settle(emu)
    const res = await emu.send('POST', `/_emulator/api/callbacks/${id}/redeliver`)
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ id, status: 'delivered', attempt_count: 2, delivered_at: at(300_000), next_attempt_at: null })
    expect(res.body.data.attempts.map((a: any) => [a.at, a.status])).toEqual([
      [at(0), 500],
      [at(300_000), 200],
    ])
    expect(sink.received).toHaveLength(2)
    expect(verifySignature(sink.received[1]!, emu.keys.standard)).toBe(true)

    // A failed redelivery of a delivered callback leaves it delivered, and schedules nothing.
    status = 503
    const again = await emu.send('POST', `/_emulator/api/callbacks/${id}/redeliver`)
    expect(again.body.data).toMatchObject({ status: 'delivered', attempt_count: 3, next_attempt_at: null })
    expect(again.body.data.attempts[2]).toMatchObject({ status: 503, error: 'HTTP 503' })
    await emu.clock.advance('1h')
    await settle(emu)
    expect(sink.received).toHaveLength(3)
  })

  it('404 for an unknown delivery', async () => {
    const emu = await testEmulator()
    const notFound = { error: { code: 404, message: 'Callback delivery nope not found' } }
    const redeliver = await emu.send('POST', '/_emulator/api/callbacks/nope/redeliver')
    expect(redeliver.status).toBe(404)
    expect(redeliver.body).toEqual(notFound)
    expect((await emu.get('/_emulator/api/callbacks/nope')).body).toEqual(notFound)
  })

  it('lists newest first, with attempts, filtered by task, status and account', async () => {
    const emu = await testEmulator()
    const sink = await startSink()
    const refusing = await refusingUrl()
    const other = (await emu.send('POST', '/_emulator/api/accounts', { name: 'Other' })).body.data
    const a = enqueue(emu, `${sink.url}/a`, { task: 'task-a' })
    const b = enqueue(emu, `${refusing}/b`, { task: 'task-b', terminal: false })
    await emu.clock.runDue()
    await settle(emu)
    await emu.clock.advance('1s')
    await settle(emu)
    const c = enqueue(emu, `${sink.url}/c`, { task: 'task-a', state: 'processing', terminal: false })
    const d = enqueue(emu, `${sink.url}/d`, { task: 'task-d', account: other.id, key: other.standard_key })

    const ids = async (query = '') => {
      const res = await emu.get(`/_emulator/api/callbacks${query}`)
      expect(res.status).toBe(200)
      return res.body.data.map((v: any) => v.id)
    }
    expect(await ids()).toEqual([d, c, b, a])
    expect(await ids('?task_id=task-a')).toEqual([c, a])
    expect(await ids('?status=pending')).toEqual([d, c])
    expect(await ids('?status=failed')).toEqual([b])
    expect(await ids('?status=delivered')).toEqual([a])
    expect(await ids(`?account=${other.id}`)).toEqual([d])
    expect(await ids(`?account=${emu.ctx.services.accounts.list()[0]!.id}&task_id=task-a&status=delivered`)).toEqual([a])
    expect(await ids('?task_id=none')).toEqual([])
    expect((await emu.get('/_emulator/api/callbacks?status=lost')).status).toBe(400)

    const list = (await emu.get('/_emulator/api/callbacks')).body.data
    expect(list[3].attempts).toMatchObject([{ attempt: 1, status: 200 }])
    expect(list[2].attempts).toMatchObject([{ attempt: 1, status: null, error: 'connection refused' }])
    expect(list[0]).toMatchObject({ account_id: other.id, status: 'pending', attempts: [], created_at: at(1000) })
    expect(await view(emu, b)).toEqual(list[2])
  })
})

describe('callbacks are isolated and bounded', () => {
  /** Resolves with the first attempt event for `deliveryId`. */
  const attempted = (emu: Emulator, deliveryId: string) =>
    new Promise<{ status: number | null; outcome: string }>((resolve) => {
      const off = emu.ctx.events.on('callback.attempt', (e) => {
        if (e.delivery_id !== deliveryId) return
        off()
        resolve(e)
      })
    })

  it('a receiver that never answers holds up neither the clock nor another receiver', async () => {
    const emu = await testEmulator({ callbackTimeoutMs: 60_000 })
    const hanging = await startSink(() => 'hang')
    const fast = await startSink()
    // More hanging deliveries than any limit, queued before the fast one.
    for (let i = 0; i < 40; i++) enqueue(emu, `${hanging.url}/hook`, { task: `slow-${i}` })
    const quick = enqueue(emu, `${fast.url}/hook`, { task: 'quick' })
    const delivered = attempted(emu, quick)

    // The advance returns once the claims are committed, with the hanging attempts still under way.
    const state = await emu.clock.advance('1m')
    expect(state.now).toBe(at(60_000))
    expect(await delivered).toEqual({ delivery_id: quick, task_id: 'quick', status: 200, outcome: 'delivered' })
    expect(fast.received).toHaveLength(1)
    expect(hanging.received.length).toBeLessThanOrEqual(4) // the per-receiver limit
    // Tasks and other state move on meanwhile.
    expect((await emu.send('POST', '/_emulator/api/clock/advance', { ms: 1000 })).status).toBe(200)

    // The outbox is not drained while they hang: a drain says so when its time is up.
    expect(await emu.drainCallbacks(50)).toBe(false)
    const drain = await emu.send('POST', '/_emulator/api/callbacks/drain', { timeout_ms: 50 })
    expect(drain.status).toBe(200)
    expect(drain.body.data).toEqual({ drained: false, in_flight: 4, queued: 36, due: 0 })
  })

  it('drain waits for every due attempt, retries that fell due meanwhile included', async () => {
    const emu = await testEmulator()
    const sink = await startSink((n) => (n < 3 ? 500 : 200))
    const id = enqueue(emu, `${sink.url}/hook`)
    await emu.clock.advance('1h')
    const res = await emu.send('POST', '/_emulator/api/callbacks/drain')
    expect(res.body.data).toEqual({ drained: true, in_flight: 0, queued: 0, due: 0 })
    expect(await view(emu, id)).toMatchObject({ status: 'delivered', attempt_count: 3 })
    expect((await view(emu, id)).attempts.map((a: { at: string }) => a.at)).toEqual([at(0), at(10_000), at(70_000)])
  })

  it.each([
    [{ timeout_ms: -1 }, 'timeout_ms'],
    [{ timeout_ms: 60_001 }, 'timeout_ms'],
    [{ wait: 5 }, 'wait'],
  ])('drain %j is a 400 naming the field', async (body, field) => {
    const emu = await testEmulator()
    const res = await emu.send('POST', '/_emulator/api/callbacks/drain', body)
    expect(res.status).toBe(400)
    expect(res.body.error.metadata.field).toBe(field)
  })

  it('caps the attempts one task gets, redeliveries included', async () => {
    const emu = await testEmulator()
    const sink = await startSink(() => 500)
    const id = enqueue(emu, `${sink.url}/hook`, { terminal: false, task: 'capped' })
    await emu.clock.runDue()
    await settle(emu)
    for (let n = 2; n <= 50; n++) expect((await emu.send('POST', `/_emulator/api/callbacks/${id}/redeliver`)).status).toBe(200)
    const refused = await emu.send('POST', `/_emulator/api/callbacks/${id}/redeliver`)
    expect(refused.status).toBe(429)
    expect(refused.body.error).toEqual({
      code: 429,
      message: 'Task capped has had 50 callback attempts, the most one task gets; create a new task to try its receiver again',
      metadata: { field: 'id', location: 'params', limit: 50 },
    })
    expect(sink.received).toHaveLength(50)
  })
})

describe('a callback URL that points at the emulator itself', () => {
  it('is refused at create time with a 400 naming callback_url, for every listener and spelling', async () => {
    const emu = await listeningEmulator({ euPort: 0 })
    const main = new URL(emu.url).port
    const eu = new URL(emu.euUrl!).port
    const create = (callback_url: string) =>
      emu.request({
        method: 'POST',
        url: '/router/v1/video/ent/v2/text2video',
        headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ model: 'videoq2', prompt: 'a loop', callback_url }),
      })
    const spellings = (port: string) => [
      `http://127.0.0.1:${port}/router/v1/video/ent/v2/text2video`,
      `http://localhost:${port}/hook`,
      `http://LOCALHOST:${port}/hook`,
      `http://[::1]:${port}/hook`,
      `http://0.0.0.0:${port}/hook`,
      `http://127.0.0.2:${port}/hook`,
      `http://2130706433:${port}/hook`,
      `http://[::ffff:127.0.0.1]:${port}/hook`,
      `https://127.0.0.1:${port}/hook`,
    ]
    for (const url of [...spellings(main), ...spellings(eu)]) {
      const res = await create(url)
      expect(res.status, url).toBe(400)
      expect(res.body).toEqual({
        code: 400,
        reason: 'FieldInvalid',
        message: 'invalid field: callback_url',
        metadata: { trace_id: expect.stringMatching(/^[0-9a-f]{32}$/) },
      })
      expect(res.headers['x-emulator-detail']).toMatch(/^callback_url must not point at the emulator itself \(.+\): give the address of your own receiver$/)
    }
    expect((await emu.get('/_emulator/api/video/tasks')).body.data).toEqual([])
    // Another port of this machine is someone else's receiver.
    const sink = await startSink()
    expect((await create(`${sink.url}/hook`)).status).toBe(200)
  })
})
