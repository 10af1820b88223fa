// Optional request limits on inference routes, per key and per account, per minute and per UTC day,
// on the virtual clock. Exercised through POST /api/v1/embeddings and the admin API.
import { describe, expect, it } from 'vitest'
import { sha256Hex } from '../../../src/emulator/core/rng.ts'
import { testEmulator, type TestEmulator } from '../../helpers/emulator.ts'

const MODEL = 'openai/text-embedding-3-small'
const NEXT_MINUTE = Date.parse('2026-03-04T10:01:00Z')
const NEXT_MIDNIGHT = Date.parse('2026-03-05T00:00:00Z')

const embed = (emu: TestEmulator, key = emu.keys.standard, input: unknown = 'some text') => emu.send('POST', '/api/v1/embeddings', { model: MODEL, input }, key)

async function statuses(emu: TestEmulator, n: number, key = emu.keys.standard): Promise<number[]> {
  const out: number[] = []
  for (let i = 0; i < n; i++) out.push((await embed(emu, key)).status)
  return out
}

/** The body of a 429 for `source`, as the limiter writes it. */
function limited(source: string, limit: number, label: string, reset: number) {
  return {
    error: {
      code: 429,
      message: `Rate limit exceeded: ${limit} ${label}. It resets at ${new Date(reset).toISOString()}`,
      metadata: {
        limit_source: source,
        headers: { 'X-RateLimit-Limit': String(limit), 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(reset) },
      },
    },
  }
}

const rateHeaders = (headers: Record<string, unknown>) => ({
  'x-ratelimit-limit': headers['x-ratelimit-limit'],
  'x-ratelimit-remaining': headers['x-ratelimit-remaining'],
  'x-ratelimit-reset': headers['x-ratelimit-reset'],
  'retry-after': headers['retry-after'],
})

async function anotherKey(emu: TestEmulator): Promise<string> {
  const account = (await emu.get('/_emulator/api/accounts')).body.data[0]
  const res = await emu.send('POST', `/_emulator/api/accounts/${account.id}/keys`, {})
  expect(res.status).toBe(201)
  return res.body.data.key
}

async function keyUsage(emu: TestEmulator, token: string): Promise<number> {
  const keys = (await emu.get('/api/v1/keys', emu.keys.management)).body.data as Array<{ hash: string; usage: number }>
  return keys.find((k) => k.hash === sha256Hex(token))!.usage
}

const spent = async (emu: TestEmulator): Promise<number> => (await emu.get('/_emulator/api/accounts')).body.data[0].spent_usd

describe('rate limits', () => {
  it('are off by default: 30 calls in a row all succeed', async () => {
    const emu = await testEmulator()
    expect(await statuses(emu, 30)).toEqual(Array(30).fill(200))
    expect((await emu.get('/_emulator/api/rate-limits')).body).toEqual({
      data: { keyPerMinute: null, keyPerDay: null, accountPerMinute: null, accountPerDay: null },
    })
  })

  it('per key and minute: the 4th call of the minute is a 429 with the rate-limit headers', async () => {
    const emu = await testEmulator({ rateLimitKeyPerMinute: 3 })
    expect(await statuses(emu, 3)).toEqual([200, 200, 200])
    const res = await embed(emu)
    expect(res.status).toBe(429)
    expect(res.body).toEqual(limited('keyPerMinute', 3, 'requests per minute for this key', NEXT_MINUTE))
    expect(res.body.error.message).toBe('Rate limit exceeded: 3 requests per minute for this key. It resets at 2026-03-04T10:01:00.000Z')
    expect(rateHeaders(res.headers)).toEqual({
      'x-ratelimit-limit': '3',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(NEXT_MINUTE),
      'retry-after': '60',
    })
  })

  it("on the video router: the vendor's 429 TooManyRequests, our reason in X-Emulator-Detail, the same headers", async () => {
    const emu = await testEmulator({ rateLimitKeyPerMinute: 1 })
    const create = () => emu.send('POST', '/router/v1/video/ent/v2/text2video', { model: 'videoq2', prompt: 'a fox' }, emu.keys.standard)
    expect((await create()).status).toBe(200)
    const res = await create()
    expect(res.status).toBe(429)
    expect(res.body).toEqual({
      code: 429,
      reason: 'TooManyRequests',
      message: 'too many requests',
      metadata: { trace_id: expect.stringMatching(/^[0-9a-f]{32}$/) },
    })
    expect(res.headers['x-emulator-detail']).toBe('Rate limit exceeded: 1 requests per minute for this key. It resets at 2026-03-04T10:01:00.000Z')
    expect(rateHeaders(res.headers)).toMatchObject({ 'x-ratelimit-limit': '1', 'x-ratelimit-remaining': '0' })
  })

  it('counts retry-after down with the clock, and lets calls through again after the minute boundary', async () => {
    const emu = await testEmulator({ rateLimitKeyPerMinute: 3 })
    expect(await statuses(emu, 3)).toEqual([200, 200, 200])
    await emu.clock.advance('20s')
    const res = await embed(emu)
    expect(res.status).toBe(429)
    expect(res.headers['x-ratelimit-reset']).toBe(String(NEXT_MINUTE))
    expect(res.headers['retry-after']).toBe('40')

    await emu.clock.advanceTo(NEXT_MINUTE - 1)
    const last = await embed(emu)
    expect(last.status).toBe(429)
    expect(last.headers['retry-after']).toBe('1')

    await emu.clock.advanceTo(NEXT_MINUTE)
    expect(await statuses(emu, 4)).toEqual([200, 200, 200, 429])
    expect((await embed(emu)).headers['x-ratelimit-reset']).toBe(String(Date.parse('2026-03-04T10:02:00Z')))
  })

  it('does not bill a rate-limited call', async () => {
    const emu = await testEmulator({ rateLimitKeyPerMinute: 1 })
    expect((await embed(emu)).status).toBe(200)
    const usage = await keyUsage(emu, emu.keys.standard)
    const spentBefore = await spent(emu)
    expect(usage).toBeGreaterThan(0)
    expect(spentBefore).toBeGreaterThan(0)

    expect((await embed(emu, emu.keys.standard, 'a longer text that would cost a little more than the first one')).status).toBe(429)
    expect(await keyUsage(emu, emu.keys.standard)).toBe(usage)
    expect(await spent(emu)).toBe(spentBefore)
  })

  it('counts each key of an account on its own', async () => {
    const emu = await testEmulator({ rateLimitKeyPerMinute: 3 })
    const other = await anotherKey(emu)
    expect(await statuses(emu, 4)).toEqual([200, 200, 200, 429])
    expect(await statuses(emu, 4, other)).toEqual([200, 200, 200, 429])
  })

  it('per key and day: the 3rd call of the day is a 429 until midnight UTC', async () => {
    const emu = await testEmulator({ rateLimitKeyPerDay: 2 })
    expect(await statuses(emu, 2)).toEqual([200, 200])
    const res = await embed(emu)
    expect(res.status).toBe(429)
    expect(res.body).toEqual(limited('keyPerDay', 2, 'requests per day for this key', NEXT_MIDNIGHT))
    expect(rateHeaders(res.headers)).toEqual({
      'x-ratelimit-limit': '2',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(NEXT_MIDNIGHT),
      'retry-after': String((NEXT_MIDNIGHT - Date.parse('2026-03-04T10:00:00Z')) / 1000), // 50400
    })

    await emu.clock.advanceTo(Date.parse('2026-03-04T23:59:59Z'))
    const late = await embed(emu)
    expect(late.status).toBe(429)
    expect(late.headers['retry-after']).toBe('1')

    await emu.clock.advanceTo(NEXT_MIDNIGHT)
    expect(await statuses(emu, 3)).toEqual([200, 200, 429])
  })

  it('per account and minute: the keys of the account share one count', async () => {
    const emu = await testEmulator({ rateLimitAccountPerMinute: 2 })
    const other = await anotherKey(emu)
    expect((await embed(emu)).status).toBe(200)
    expect((await embed(emu, other)).status).toBe(200)
    for (const key of [emu.keys.standard, other]) {
      const res = await embed(emu, key)
      expect(res.status).toBe(429)
      expect(res.body).toEqual(limited('accountPerMinute', 2, 'requests per minute for this account', NEXT_MINUTE))
      expect(rateHeaders(res.headers)).toEqual({
        'x-ratelimit-limit': '2',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(NEXT_MINUTE),
        'retry-after': '60',
      })
    }
  })

  it('another account is not limited by the first one', async () => {
    const emu = await testEmulator({ rateLimitAccountPerMinute: 2 })
    const created = await emu.send('POST', '/_emulator/api/accounts', { credits_usd: 10 })
    expect(created.status).toBe(201)
    expect(await statuses(emu, 3)).toEqual([200, 200, 429])
    expect(await statuses(emu, 3, created.body.data.standard_key)).toEqual([200, 200, 429])
  })

  it('a request that fails validation does not count', async () => {
    const emu = await testEmulator({ rateLimitKeyPerMinute: 1 })
    for (const body of [{ model: MODEL, input: '' }, { model: MODEL, input: [] }, { model: MODEL }]) {
      const res = await emu.send('POST', '/api/v1/embeddings', body, emu.keys.standard)
      expect(res.status).toBe(400)
      expect(res.body.error.metadata).toMatchObject({ field: 'input' })
    }
    const unknownModel = await emu.send('POST', '/api/v1/embeddings', { model: 'nope/nope', input: 'some text' }, emu.keys.standard)
    expect(unknownModel.status).toBe(400)
    expect(await statuses(emu, 2)).toEqual([200, 429])
  })
})

describe('rate limits through the admin API', () => {
  it('PUT /_emulator/api/rate-limits changes them at runtime, null turns one off', async () => {
    const emu = await testEmulator()
    const put = await emu.send('PUT', '/_emulator/api/rate-limits', { keyPerMinute: 1 })
    expect(put.status).toBe(200)
    const limits = { keyPerMinute: 1, keyPerDay: null, accountPerMinute: null, accountPerDay: null }
    expect(put.body).toEqual({ data: limits })
    expect((await emu.get('/_emulator/api/rate-limits')).body).toEqual({ data: limits })
    expect(await statuses(emu, 2)).toEqual([200, 429])
    const limitedCall = await embed(emu)
    expect(limitedCall.body).toEqual(limited('keyPerMinute', 1, 'requests per minute for this key', NEXT_MINUTE))

    const off = await emu.send('PUT', '/_emulator/api/rate-limits', { keyPerMinute: null })
    expect(off.status).toBe(200)
    expect(off.body).toEqual({ data: { ...limits, keyPerMinute: null } })
    expect(await statuses(emu, 5)).toEqual([200, 200, 200, 200, 200])
  })

  it('a partial PUT keeps the other limits', async () => {
    const emu = await testEmulator({ rateLimitKeyPerDay: 10 })
    const put = await emu.send('PUT', '/_emulator/api/rate-limits', { accountPerMinute: 5 })
    expect(put.body).toEqual({ data: { keyPerMinute: null, keyPerDay: 10, accountPerMinute: 5, accountPerDay: null } })
  })

  it.each([
    [{ keyPerMinute: 0 }, 'keyPerMinute', 'must be >= 1'],
    [{ keyPerMinute: 'x' }, 'keyPerMinute', 'must be an integer or null'],
    [{ keyPerMinute: 1.5 }, 'keyPerMinute', 'must be an integer or null'],
    [{ accountPerDay: -3 }, 'accountPerDay', 'must be >= 1'],
  ])('refuses %j with a 400 naming the field', async (body, field, issue) => {
    const emu = await testEmulator({ rateLimitKeyPerMinute: 7 })
    const res = await emu.send('PUT', '/_emulator/api/rate-limits', body)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error: { code: 400, message: `Field \`${field}\` ${issue}`, metadata: { field, location: 'body', issue } } })
    expect((await emu.get('/_emulator/api/rate-limits')).body.data).toEqual({ keyPerMinute: 7, keyPerDay: null, accountPerMinute: null, accountPerDay: null })
  })

  // Source bug (reported): RateLimitsBody (src/emulator/admin/admin.routes.ts) allows additional
  // properties and configure() (src/emulator/modules/ratelimit/ratelimit.service.ts) spreads the whole body
  // into the limits, so a misspelt name is accepted with a 200 and shows up in GET as if it were a limit,
  // while no limit applies. Expected: a 400 naming the field, or at least not echoed back.
  it('does not take an unknown name (a typo) for a limit', async () => {
    const emu = await testEmulator()
    const typo = await emu.send('PUT', '/_emulator/api/rate-limits', { keyPerMinte: 1 })
    expect(typo.status).toBe(400)
    expect(typo.body.error).toEqual({
      code: 400,
      message: 'Field `keyPerMinte` is not a known field',
      metadata: { field: 'keyPerMinte', location: 'body', issue: 'is not a known field' },
    })
    expect((await emu.get('/_emulator/api/rate-limits')).body).toEqual({
      data: { keyPerMinute: null, keyPerDay: null, accountPerMinute: null, accountPerDay: null },
    })
  })

  it('POST /_emulator/api/reset clears the counts', async () => {
    const emu = await testEmulator({ rateLimitKeyPerMinute: 2, rateLimitAccountPerDay: 3 })
    expect(await statuses(emu, 3)).toEqual([200, 200, 429])
    const reset = await emu.send('POST', '/_emulator/api/reset')
    expect(reset.status).toBe(200)
    expect(await statuses(emu, 3)).toEqual([200, 200, 429])
    // The account's daily count started afresh too: 2 calls since the reset, so one more is admitted.
    await emu.clock.advanceTo(NEXT_MINUTE)
    expect((await embed(emu)).status).toBe(200)
    const res = await embed(emu)
    expect(res.status).toBe(429)
    expect(res.body.error.metadata.limit_source).toBe('accountPerDay')
  })
})
