// GET /api/v1/key: the calling key as the real gateway describes it, for either kind of key, with usage
// and limit_remaining that move with what the key is billed and reset at the window boundaries.
import { describe, expect, it } from 'vitest'
import { sha256Hex } from '../../../src/emulator/core/rng.ts'
import { recordUsage, testEmulator, type TestEmulator } from '../../helpers/emulator.ts'

const MODEL = 'openai/text-embedding-3-small'

const current = (emu: TestEmulator, key: string) => emu.get('/api/v1/key', key)

/** Embeds through the API with the standard key and returns what it cost (USD). */
async function embed(emu: TestEmulator, input: string): Promise<number> {
  const res = await emu.send('POST', '/api/v1/embeddings', { model: MODEL, input }, emu.keys.standard)
  expect(res.status).toBe(200)
  return res.body.usage.cost as number
}

async function accountId(emu: TestEmulator): Promise<string> {
  return (await emu.get('/_emulator/api/accounts')).body.data[0].id
}

describe('GET /api/v1/key', () => {
  it('describes a standard key: every field of the real answer, not cacheable', async () => {
    const emu = await testEmulator()
    const res = await current(emu, emu.keys.standard)
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    expect(res.headers['cache-control']).toBe('private, no-store')
    const listed = (await emu.get('/api/v1/keys', emu.keys.management)).body.data.find((k: { hash: string }) => k.hash === sha256Hex(emu.keys.standard))
    expect(res.body).toEqual({
      data: {
        label: listed.label,
        is_management_key: false,
        is_provisioning_key: false,
        limit: null,
        limit_remaining: null,
        limit_reset: null,
        include_byok_in_limit: false,
        usage: 0,
        usage_daily: 0,
        usage_weekly: 0,
        usage_monthly: 0,
        byok_usage: 0,
        byok_usage_daily: 0,
        byok_usage_weekly: 0,
        byok_usage_monthly: 0,
        is_free_tier: false,
        expires_at: null,
        creator_user_id: listed.creator_user_id,
        organization_id: null,
        workspace_id: listed.workspace_id,
        allowed_data_regions: ['global'],
        free_model_daily_requests: { limit: 1000, remaining: 1000, used: 0 },
        rate_limit: { requests: -1, interval: '10s', note: 'This field is deprecated and safe to ignore.' },
      },
    })
    expect(res.body.data.label).toMatch(/^sk-gw-v1-[0-9a-f]{3}\.\.\.[0-9a-f]{3}$/)
  })

  it('describes a management key as one', async () => {
    const emu = await testEmulator()
    const res = await current(emu, emu.keys.management)
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ is_management_key: true, is_provisioning_key: true, usage: 0, limit: null })
    expect(res.body.data.label).not.toBe((await current(emu, emu.keys.standard)).body.data.label)
  })

  it('moves usage and limit_remaining with the embeddings the key is billed, and a daily limit resets at 00:00 UTC', async () => {
    const emu = await testEmulator()
    const hash = sha256Hex(emu.keys.standard)
    await emu.send('PATCH', `/api/v1/keys/${hash}`, { limit: 1, limit_reset: 'daily' }, emu.keys.management)
    const first = await embed(emu, 'the first text the key pays for')
    const second = await embed(emu, 'and a second, somewhat longer text that the same key pays for as well')
    expect(first).toBeGreaterThan(0)
    const spent = first + second
    const today = (await current(emu, emu.keys.standard)).body.data
    expect(today).toMatchObject({ limit: 1, limit_reset: 'daily' })
    for (const field of ['usage', 'usage_daily', 'usage_weekly', 'usage_monthly']) expect(today[field], field).toBeCloseTo(spent, 9)
    expect(today.limit_remaining).toBeCloseTo(1 - spent, 9)
    expect(today.byok_usage).toBe(0)
    // The same numbers as the keys API shows for the key.
    const listed = (await emu.get('/api/v1/keys', emu.keys.management)).body.data.find((k: { hash: string }) => k.hash === hash)
    expect(today).toMatchObject({ usage: listed.usage, usage_daily: listed.usage_daily, limit_remaining: listed.limit_remaining })
    // Spending by another key of the account is not this key's.
    const other = await emu.send('POST', `/_emulator/api/accounts/${await accountId(emu)}/keys`, {})
    await emu.send('POST', '/api/v1/embeddings', { model: MODEL, input: 'someone else' }, other.body.data.key)
    expect((await current(emu, emu.keys.standard)).body.data.usage).toBe(today.usage)

    // Thursday 00:00 UTC: a new day, the same week and month.
    await emu.clock.advanceTo(Date.parse('2026-03-05T00:00:00Z'))
    const tomorrow = (await current(emu, emu.keys.standard)).body.data
    expect(tomorrow).toMatchObject({ usage_daily: 0, usage: today.usage, usage_weekly: today.usage, usage_monthly: today.usage, limit_remaining: 1 })
    const third = await embed(emu, 'a text on the next day')
    expect((await current(emu, emu.keys.standard)).body.data.limit_remaining).toBeCloseTo(1 - third, 9)
  })

  it('weekly and monthly limits count their own windows; BYOK counts only with include_byok_in_limit', async () => {
    const emu = await testEmulator()
    const hash = sha256Hex(emu.keys.standard)
    await emu.send('PATCH', `/api/v1/keys/${hash}`, { limit: 20, limit_reset: 'weekly' }, emu.keys.management)
    recordUsage(emu, hash, 5, '2026-03-01T12:00:00Z') // Sunday: last week, this month
    recordUsage(emu, hash, 2, '2026-03-03T12:00:00Z') // Tuesday: this week
    recordUsage(emu, hash, 4, '2026-03-04T09:00:00Z', true) // today, BYOK
    expect((await current(emu, emu.keys.standard)).body.data).toMatchObject({
      usage: 7,
      usage_daily: 0,
      usage_weekly: 2,
      usage_monthly: 7,
      byok_usage: 4,
      byok_usage_daily: 4,
      byok_usage_weekly: 4,
      byok_usage_monthly: 4,
      limit_remaining: 18,
    })
    await emu.send('PATCH', `/api/v1/keys/${hash}`, { include_byok_in_limit: true }, emu.keys.management)
    expect((await current(emu, emu.keys.standard)).body.data).toMatchObject({ include_byok_in_limit: true, limit_remaining: 14 })
    await emu.send('PATCH', `/api/v1/keys/${hash}`, { limit_reset: 'monthly' }, emu.keys.management)
    expect((await current(emu, emu.keys.standard)).body.data.limit_remaining).toBe(9)
    // Monday 9 March: the week starts again, the month goes on.
    await emu.clock.advanceTo(Date.parse('2026-03-09T00:00:00Z'))
    expect((await current(emu, emu.keys.standard)).body.data).toMatchObject({ usage_weekly: 0, byok_usage_weekly: 0, usage_monthly: 7, limit_remaining: 9 })
    // 1 April: so does the month.
    await emu.clock.advanceTo(Date.parse('2026-04-01T00:00:00Z'))
    expect((await current(emu, emu.keys.standard)).body.data).toMatchObject({ usage_monthly: 0, byok_usage_monthly: 0, usage: 7, limit_remaining: 20 })
  })

  it('limit_remaining stops at 0, and a key with no reset counts all its usage', async () => {
    const emu = await testEmulator()
    const hash = sha256Hex(emu.keys.standard)
    await emu.send('PATCH', `/api/v1/keys/${hash}`, { limit: 3 }, emu.keys.management)
    recordUsage(emu, hash, 2, '2025-11-01T00:00:00Z')
    expect((await current(emu, emu.keys.standard)).body.data).toMatchObject({ limit: 3, limit_reset: null, limit_remaining: 1 })
    recordUsage(emu, hash, 2, '2026-03-04T00:00:00Z')
    expect((await current(emu, emu.keys.standard)).body.data.limit_remaining).toBe(0)
  })

  it('shows the expiry of a key that has one', async () => {
    const emu = await testEmulator()
    const created = await emu.send('POST', `/_emulator/api/accounts/${await accountId(emu)}/keys`, { expires_at: '2026-04-01T00:00:00Z', limit: 2.5 })
    const res = await current(emu, created.body.data.key)
    expect(res.body.data).toMatchObject({ expires_at: '2026-04-01T00:00:00.000Z', limit: 2.5, limit_remaining: 2.5, is_management_key: false })
  })

  it('is_free_tier and the free-model allowance follow the account: 50 a day without $10 of credits, 1000 with', async () => {
    const emu = await testEmulator()
    const broke = (await emu.send('POST', '/_emulator/api/accounts', {})).body.data
    expect((await current(emu, broke.standard_key)).body.data).toMatchObject({
      is_free_tier: true,
      free_model_daily_requests: { limit: 50, remaining: 50, used: 0 },
    })
    expect((await emu.send('PUT', `/_emulator/api/accounts/${broke.id}/credits`, { credits_usd: 5 })).status).toBe(200)
    expect((await current(emu, broke.standard_key)).body.data).toMatchObject({ is_free_tier: false, free_model_daily_requests: { limit: 50 } })
    expect((await emu.send('PUT', `/_emulator/api/accounts/${broke.id}/credits`, { credits_usd: 10 })).status).toBe(200)
    expect((await current(emu, broke.management_key)).body.data.free_model_daily_requests).toEqual({ limit: 1000, remaining: 1000, used: 0 })
  })

  it("counts the account's requests to :free models since 00:00 UTC, across its keys", async () => {
    const emu = await testEmulator()
    const free = 'meta-llama/llama-3.3-70b-instruct:free'
    const standard = sha256Hex(emu.keys.standard)
    const listed = (await emu.get('/api/v1/keys', emu.keys.management)).body.data
    const ci = listed.find((k: { name: string }) => k.name === 'CI pipeline').hash
    recordUsage(emu, standard, 0, '2026-03-03T23:59:59Z', false, free) // yesterday
    recordUsage(emu, standard, 0, '2026-03-04T00:00:00Z', false, free)
    recordUsage(emu, ci, 0, '2026-03-04T08:00:00Z', false, free)
    recordUsage(emu, standard, 0.5, '2026-03-04T09:00:00Z') // a paid model
    const expected = { limit: 1000, remaining: 998, used: 2 }
    expect((await current(emu, emu.keys.standard)).body.data.free_model_daily_requests).toEqual(expected)
    expect((await current(emu, emu.keys.management)).body.data.free_model_daily_requests).toEqual(expected)
    await emu.clock.advanceTo(Date.parse('2026-03-05T00:00:00Z'))
    expect((await current(emu, emu.keys.standard)).body.data.free_model_daily_requests).toEqual({ limit: 1000, remaining: 1000, used: 0 })
  })

  it("answers for the caller's own account only", async () => {
    const emu = await testEmulator()
    const other = (await emu.send('POST', '/_emulator/api/accounts', { credits_usd: 25 })).body.data
    recordUsage(emu, sha256Hex(emu.keys.standard), 1, '2026-03-04T09:00:00Z')
    const mine = (await current(emu, emu.keys.standard)).body.data
    const theirs = (await current(emu, other.standard_key)).body.data
    expect(mine.usage).toBe(1)
    expect(theirs.usage).toBe(0)
    expect(theirs.workspace_id).not.toBe(mine.workspace_id)
  })
})

describe('authentication on GET /api/v1/key', () => {
  it('401 without a key, with an unknown key and with a malformed header', async () => {
    const emu = await testEmulator()
    expect(await emu.get('/api/v1/key')).toMatchObject({ status: 401, body: { error: { code: 401, message: 'No auth credentials found' } } })
    expect(await current(emu, 'sk-gw-v1-nobody')).toMatchObject({ status: 401, body: { error: { code: 401, message: 'User not found.' } } })
    const malformed = await emu.request({ method: 'GET', url: '/api/v1/key', headers: { authorization: `Token ${emu.keys.standard}` } })
    expect(malformed.status).toBe(401)
  })

  it('401 for a disabled key, until it is enabled again', async () => {
    const emu = await testEmulator()
    const hash = sha256Hex(emu.keys.standard)
    await emu.send('PATCH', `/api/v1/keys/${hash}`, { disabled: true }, emu.keys.management)
    const res = await current(emu, emu.keys.standard)
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ error: { code: 401, message: 'This API key is disabled' } })
    await emu.send('PATCH', `/api/v1/keys/${hash}`, { disabled: false }, emu.keys.management)
    expect((await current(emu, emu.keys.standard)).status).toBe(200)
  })

  it('401 once a key has expired', async () => {
    const emu = await testEmulator()
    const created = await emu.send('POST', `/_emulator/api/accounts/${await accountId(emu)}/keys`, { expires_at: '2026-03-05T00:00:00Z' })
    expect((await current(emu, created.body.data.key)).status).toBe(200)
    await emu.clock.advanceTo(Date.parse('2026-03-05T00:00:00Z'))
    const res = await current(emu, created.body.data.key)
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ error: { code: 401, message: 'This API key expired at 2026-03-05T00:00:00.000Z' } })
  })

  it('401 for a revoked key, of either kind', async () => {
    const emu = await testEmulator()
    const account = await accountId(emu)
    for (const kind of ['standard', 'management']) {
      const created = await emu.send('POST', `/_emulator/api/accounts/${account}/keys`, { kind })
      expect((await current(emu, created.body.data.key)).body.data.is_management_key).toBe(kind === 'management')
      await emu.send('DELETE', `/_emulator/api/accounts/${account}/keys/${created.body.data.hash}`)
      expect(await current(emu, created.body.data.key)).toMatchObject({ status: 401, body: { error: { message: 'User not found.' } } })
    }
  })

  it('is in the journal as keys.current, and a fault rule can target it', async () => {
    const emu = await testEmulator()
    await emu.send('POST', '/_emulator/api/faults', { match: { operation: 'keys.current' }, action: { status: 500 }, remaining: 1 })
    expect((await current(emu, emu.keys.standard)).status).toBe(500)
    expect((await current(emu, emu.keys.standard)).status).toBe(200)
    const entries = (await emu.get('/_emulator/api/journal')).body.data
    expect(entries.map((e: { operation: string; status: number }) => [e.operation, e.status])).toEqual([
      ['keys.current', 200],
      ['keys.current', 500],
    ])
  })
})
