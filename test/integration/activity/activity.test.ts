// GET /api/v1/activity: usage per UTC date and endpoint over the last 30 completed UTC days, for a
// management key. Usage comes from real embeddings calls (billed through the ledger), and from the
// demo preset's 30 days of history.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { sha256Hex } from '../../../src/emulator/core/rng.ts'
import { recordUsage, testEmulator, type TestEmulator } from '../../helpers/emulator.ts'

const MODEL = 'openai/text-embedding-3-small'
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

const catalog = JSON.parse(readFileSync(new URL('../../../fixtures/catalog/catalog.json', import.meta.url), 'utf8')) as {
  models: Array<{ id: string; canonical_slug: string }>
}
const PERMASLUG = catalog.models.find((m) => m.id === MODEL)!.canonical_slug

async function embed(emu: TestEmulator, input: string, key = emu.keys.standard) {
  const res = await emu.send('POST', '/api/v1/embeddings', { model: MODEL, input }, key)
  expect(res.status).toBe(200)
  return res.body as { provider: string; usage: { prompt_tokens: number; cost: number } }
}

const activity = async (emu: TestEmulator, query = '') => {
  const res = await emu.get(`/api/v1/activity${query}`, emu.keys.management)
  expect(res.status).toBe(200)
  return res.body.data as Array<Record<string, any>>
}

const firstAccount = async (emu: TestEmulator) => (await emu.get('/_emulator/api/accounts')).body.data[0]

describe('GET /api/v1/activity: authentication', () => {
  it('answers 403 to a standard key, with the exact body', async () => {
    const emu = await testEmulator()
    const res = await emu.get('/api/v1/activity', emu.keys.standard)
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ error: { code: 403, message: 'Only management keys can fetch activity for an account' } })
  })

  it('answers 401 without a key', async () => {
    const emu = await testEmulator()
    const res = await emu.get('/api/v1/activity')
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ error: { code: 401, message: 'No auth credentials found' } })
  })

  it('answers 200 with no data to a management key on a fresh account', async () => {
    const emu = await testEmulator()
    const res = await emu.get('/api/v1/activity', emu.keys.management)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ data: [] })
  })
})

describe('GET /api/v1/activity: grouped usage of completed days', () => {
  it('shows nothing for today, then yesterday grouped by date and endpoint once the day is over', async () => {
    const emu = await testEmulator()
    const calls = [await embed(emu, 'some text'), await embed(emu, 'another, somewhat longer piece of text'), await embed(emu, 'a third one')]
    expect(await activity(emu)).toEqual([])

    await emu.clock.advanceTo(Date.parse('2026-03-05T00:00:00Z'))
    const data = await activity(emu)
    expect(data).toHaveLength(1)
    const item = data[0]!
    expect(Object.keys(item).sort()).toEqual(
      [
        'date',
        'model',
        'model_permaslug',
        'endpoint_id',
        'provider_name',
        'usage',
        'byok_usage_inference',
        'requests',
        'prompt_tokens',
        'completion_tokens',
        'reasoning_tokens',
      ].sort(),
    )
    expect(item).toMatchObject({
      date: '2026-03-04',
      model: MODEL,
      model_permaslug: PERMASLUG,
      provider_name: calls[0]!.provider,
      byok_usage_inference: 0,
      requests: 3,
      prompt_tokens: calls.reduce((n, c) => n + c.usage.prompt_tokens, 0),
      completion_tokens: 0,
      reasoning_tokens: 0,
    })
    expect(item.endpoint_id).toMatch(UUID)
    expect(item.usage).toBeGreaterThan(0)
    expect(item.usage).toBeCloseTo(
      calls.reduce((n, c) => n + c.usage.cost, 0),
      12,
    )
  })

  it('shows calls made on the new day only the day after', async () => {
    const emu = await testEmulator()
    await embed(emu, 'some text')
    await emu.clock.advanceTo(Date.parse('2026-03-05T00:00:00Z'))
    await embed(emu, 'made on the fifth')
    await embed(emu, 'also made on the fifth')
    const onTheFifth = await activity(emu)
    expect(onTheFifth.map((i) => [i.date, i.requests])).toEqual([['2026-03-04', 1]])

    await emu.clock.advanceTo(Date.parse('2026-03-06T00:00:00Z'))
    const onTheSixth = await activity(emu)
    expect(onTheSixth.map((i) => [i.date, i.requests])).toEqual([
      ['2026-03-05', 2],
      ['2026-03-04', 1],
    ])
  })

  it('filters by ?date= and by api_key_hash', async () => {
    const emu = await testEmulator()
    await embed(emu, 'some text')
    await embed(emu, 'more text')
    await emu.clock.advanceTo(Date.parse('2026-03-05T00:00:00Z'))
    const all = await activity(emu)
    expect(all).toHaveLength(1)

    expect(await activity(emu, '?date=2026-03-04')).toEqual(all)
    expect(await activity(emu, '?date=2026-03-03')).toEqual([])
    expect(await emu.get('/api/v1/activity?date=2026-03-03', emu.keys.management).then((r) => r.body)).toEqual({ data: [] })

    expect(await activity(emu, `?api_key_hash=${sha256Hex(emu.keys.standard)}`)).toEqual(all)
    const account = await firstAccount(emu)
    const other = (await emu.get(`/_emulator/api/accounts/${account.id}/keys`)).body.data.find((k: { name: string }) => k.name === 'CI pipeline')
    expect(other.hash).not.toBe(sha256Hex(emu.keys.standard))
    expect(await activity(emu, `?api_key_hash=${other.hash}`)).toEqual([])
    expect(await activity(emu, `?date=2026-03-04&api_key_hash=${other.hash}`)).toEqual([])
  })
})

describe('GET /api/v1/activity: the date parameter', () => {
  const RANGE = 'must be one of the last 30 completed UTC days, 2026-02-02 to 2026-03-03'

  async function dateError(emu: TestEmulator, date: string) {
    const res = await emu.get(`/api/v1/activity?date=${encodeURIComponent(date)}`, emu.keys.management)
    expect(res.status, date).toBe(400)
    return res.body
  }

  it.each(['2026-3-4', '20260304', 'yesterday', '2026-02-30'])('refuses the malformed date %s', async (date) => {
    const emu = await testEmulator()
    expect(await dateError(emu, date)).toEqual({
      error: {
        code: 400,
        message: 'Query parameter `date` must be a date as YYYY-MM-DD',
        metadata: { field: 'date', location: 'querystring', issue: 'must be a date as YYYY-MM-DD' },
      },
    })
  })

  it.each([
    ['today', '2026-03-04'],
    ['a future date', '2026-03-05'],
    ['a date far in the future', '2027-01-01'],
    ['a date older than 30 completed days', '2026-02-01'],
    ['a date long ago', '2025-03-03'],
  ])('refuses %s (%s)', async (_what, date) => {
    const emu = await testEmulator()
    expect(await dateError(emu, date)).toEqual({
      error: { code: 400, message: `Query parameter \`date\` ${RANGE}`, metadata: { field: 'date', location: 'querystring', issue: RANGE } },
    })
  })

  it.each(['2026-02-02', '2026-02-15', '2026-03-03'])('accepts %s, inside the window', async (date) => {
    const emu = await testEmulator()
    const res = await emu.get(`/api/v1/activity?date=${date}`, emu.keys.management)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ data: [] })
  })

  it('moves the window with the clock', async () => {
    const emu = await testEmulator()
    await emu.clock.advanceTo(Date.parse('2026-03-05T00:00:00Z'))
    expect((await emu.get('/api/v1/activity?date=2026-03-04', emu.keys.management)).status).toBe(200)
    expect((await emu.get('/api/v1/activity?date=2026-02-03', emu.keys.management)).status).toBe(200)
    const res = await emu.get('/api/v1/activity?date=2026-02-02', emu.keys.management)
    expect(res.status).toBe(400)
    expect(res.body.error.message).toBe('Query parameter `date` must be one of the last 30 completed UTC days, 2026-02-03 to 2026-03-04')
  })
})

describe('demo data', () => {
  it('fills 30 days of activity across models and providers, key usage and the account spend', async () => {
    const emu = await testEmulator({ demo: true })
    const data = await activity(emu)
    const dates = new Set(data.map((i) => i.date))
    expect(dates.size).toBeGreaterThanOrEqual(20)
    for (const date of dates) expect(date >= '2026-02-02' && date <= '2026-03-03', date).toBe(true)
    expect(new Set(data.map((i) => i.model)).size).toBeGreaterThanOrEqual(3)
    expect(new Set(data.map((i) => i.provider_name)).size).toBeGreaterThanOrEqual(2)
    for (const item of data) {
      expect(item.requests).toBeGreaterThan(0)
      expect(item.endpoint_id).toMatch(UUID)
      expect(typeof item.model_permaslug).toBe('string')
    }
    // Newest first.
    expect(data.map((i) => i.date)).toEqual(
      data
        .map((i) => i.date)
        .sort()
        .reverse(),
    )

    const keys = (await emu.get('/api/v1/keys', emu.keys.management)).body.data as Array<{ usage: number }>
    expect(keys.some((k) => k.usage > 0)).toBe(true)

    const account = await firstAccount(emu)
    expect(account.spent_usd).toBeGreaterThan(0)
    expect(account.balance_usd).toBeCloseTo(account.credits_usd - account.spent_usd, 9)
  })

  it('is the same for the same seed, and differs for another seed', async () => {
    const a = await testEmulator({ demo: true })
    const b = await testEmulator({ demo: true })
    const c = await testEmulator({ demo: true, seed: 2 })
    const first = await activity(a)
    expect(first.length).toBeGreaterThan(0)
    expect(await activity(b)).toEqual(first)
    expect(await activity(c)).not.toEqual(first)
  })

  it('POST /_emulator/api/fixtures/seed with "demo" fills the activity of a default emulator', async () => {
    const emu = await testEmulator()
    expect(await activity(emu)).toEqual([])
    const res = await emu.send('POST', '/_emulator/api/fixtures/seed', { preset: 'demo' })
    expect(res.status).toBe(200)
    expect(res.body.data.preset).toBe('demo')
    const data = await activity(emu)
    expect(data.length).toBeGreaterThan(0)
    // The same history as an emulator started with demo: true (same seed, same clock).
    const demo = await testEmulator({ demo: true })
    expect(data).toEqual(await activity(demo))
  })

  it('POST /_emulator/api/fixtures/seed with "empty" leaves one empty account', async () => {
    const emu = await testEmulator({ demo: true })
    expect((await activity(emu)).length).toBeGreaterThan(0)
    const res = await emu.send('POST', '/_emulator/api/fixtures/seed', { preset: 'empty' })
    expect(res.status).toBe(200)
    const accounts = (await emu.get('/_emulator/api/accounts')).body.data
    expect(accounts).toHaveLength(1)
    expect(accounts[0]).toMatchObject({ name: 'Empty workspace', spent_usd: 0 })
    expect(await activity(emu)).toEqual([])
  })

  it('POST /_emulator/api/fixtures/seed with an unknown preset is a 400 naming `preset`', async () => {
    const emu = await testEmulator()
    const res = await emu.send('POST', '/_emulator/api/fixtures/seed', { preset: 'nope' })
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe(400)
    expect(res.body.error.message).toMatch(/`preset`/)
    expect(res.body.error.metadata).toMatchObject({ field: 'preset', location: 'body' })
  })

  it('POST /_emulator/api/reset on a demo emulator restores the demo history', async () => {
    const emu = await testEmulator({ demo: true })
    const before = await activity(emu)
    const spentBefore = (await firstAccount(emu)).spent_usd

    await embed(emu, 'an extra call')
    await embed(emu, 'another extra call')
    recordUsage(emu, sha256Hex(emu.keys.standard), 0.5, '2026-03-03T12:00:00Z')
    expect(await activity(emu)).not.toEqual(before)
    expect((await firstAccount(emu)).spent_usd).toBeGreaterThan(spentBefore)

    const res = await emu.send('POST', '/_emulator/api/reset')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ data: { reset: true } })
    expect(await activity(emu)).toEqual(before)
    expect((await firstAccount(emu)).spent_usd).toBe(spentBefore)
  })
})

describe('GET /_emulator/api/accounts/:id/activity', () => {
  it('answers what the gateway answers, without a key, and leaves no journal entry', async () => {
    const emu = await testEmulator()
    const account = await firstAccount(emu)
    await embed(emu, 'some text')
    await embed(emu, 'another piece of text')
    await emu.clock.advanceTo(Date.parse('2026-03-05T00:00:00Z'))
    const before = (await emu.get('/_emulator/api/journal')).body.total_count as number

    const admin = await emu.get(`/_emulator/api/accounts/${account.id}/activity`)
    expect(admin.status).toBe(200)
    expect(admin.body.data).toHaveLength(1)
    expect(admin.body.data[0]).toMatchObject({ date: '2026-03-04', model: MODEL, model_permaslug: PERMASLUG, requests: 2 })
    expect((await emu.get('/_emulator/api/journal')).body.total_count).toBe(before)
    expect(admin.body).toEqual({ data: await activity(emu) })

    // The same filters, checked the same way.
    const day = await emu.get(`/_emulator/api/accounts/${account.id}/activity?date=2026-03-04`)
    expect(day.body).toEqual({ data: await activity(emu, '?date=2026-03-04') })
    const bad = await emu.get(`/_emulator/api/accounts/${account.id}/activity?date=2026-03-05`)
    expect(bad.status).toBe(400)
    expect(bad.body.error.message).toMatch(/date/)
  })

  it('reads any account, each its own, and a fault rule does not touch it; an unknown account is a 404', async () => {
    const emu = await testEmulator()
    const other = (await emu.send('POST', '/_emulator/api/accounts', { credits_usd: 5 })).body.data
    await embed(emu, 'text of the other account', other.standard_key)
    await emu.clock.advanceTo(Date.parse('2026-03-05T00:00:00Z'))
    await emu.send('POST', '/_emulator/api/faults', { action: { status: 503 } })

    expect((await emu.get(`/_emulator/api/accounts/${other.id}/activity`)).body.data).toMatchObject([{ requests: 1 }])
    expect((await emu.get(`/_emulator/api/accounts/${(await firstAccount(emu)).id}/activity`)).body).toEqual({ data: [] })
    const missing = await emu.get('/_emulator/api/accounts/nope/activity')
    expect(missing.status).toBe(404)
    expect(missing.body.error.message).toBe('Account nope not found')
  })
})
