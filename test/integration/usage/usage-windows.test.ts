import { describe, expect, it } from 'vitest'
import { sha256Hex } from '../../../src/emulator/core/rng.ts'
import { recordUsage, testEmulator } from '../../helpers/emulator.ts'

// The manual clock starts on Wednesday 2026-03-04 10:00 UTC.
async function keyNamed(emu: Awaited<ReturnType<typeof testEmulator>>, name: string) {
  const res = await emu.get('/api/v1/keys?include_disabled=true', emu.keys.management)
  return res.body.data.find((k: { name: string }) => k.name === name)
}

describe('usage fields derived from usage rows against the clock', () => {
  it('splits usage into all-time, UTC day, Monday week and calendar month, BYOK apart', async () => {
    const emu = await testEmulator()
    const hash = sha256Hex(emu.keys.standard)
    recordUsage(emu, hash, 1, '2026-02-27T12:00:00Z') // last month
    recordUsage(emu, hash, 2, '2026-03-01T23:59:59Z') // this month, Sunday: last week
    recordUsage(emu, hash, 4, '2026-03-02T00:00:00Z') // Monday 00:00: this week
    recordUsage(emu, hash, 8, '2026-03-04T00:00:00Z') // today
    recordUsage(emu, hash, 16, '2026-03-04T09:00:00Z', true) // today, BYOK
    const key = await keyNamed(emu, 'Default key')
    expect(key).toMatchObject({
      usage: 15,
      usage_monthly: 14,
      usage_weekly: 12,
      usage_daily: 8,
      byok_usage: 16,
      byok_usage_daily: 16,
      byok_usage_weekly: 16,
      byok_usage_monthly: 16,
    })
  })

  it('usage from yesterday does not count against a daily limit today', async () => {
    const emu = await testEmulator()
    const daily = await keyNamed(emu, 'Daily budget') // $5 daily
    recordUsage(emu, daily.hash, 3, '2026-03-04T08:00:00Z')
    expect(await keyNamed(emu, 'Daily budget')).toMatchObject({ usage_daily: 3, limit_remaining: 2 })
    await emu.clock.advanceTo(Date.parse('2026-03-04T23:59:59.999Z'))
    expect((await keyNamed(emu, 'Daily budget')).limit_remaining).toBe(2)
    await emu.clock.advance(1) // 00:00 UTC
    expect(await keyNamed(emu, 'Daily budget')).toMatchObject({ usage_daily: 0, usage: 3, limit_remaining: 5 })
  })

  it('a weekly window starts on Monday 00:00 UTC', async () => {
    const emu = await testEmulator()
    const weekly = await keyNamed(emu, 'Weekly team budget') // $25 weekly, BYOK included
    recordUsage(emu, weekly.hash, 10, '2026-03-02T00:00:00Z') // Monday
    recordUsage(emu, weekly.hash, 5, '2026-03-03T00:00:00Z', true) // Tuesday, BYOK counts toward this limit
    expect((await keyNamed(emu, 'Weekly team budget')).limit_remaining).toBe(10)
    await emu.clock.advanceTo(Date.parse('2026-03-08T23:59:59Z')) // Sunday night
    expect((await keyNamed(emu, 'Weekly team budget')).limit_remaining).toBe(10)
    await emu.clock.advanceTo(Date.parse('2026-03-09T00:00:00Z')) // Monday
    expect(await keyNamed(emu, 'Weekly team budget')).toMatchObject({ usage_weekly: 0, byok_usage_weekly: 0, limit_remaining: 25 })
  })

  it('a monthly window starts on the 1st, and BYOK is left out unless include_byok_in_limit', async () => {
    const emu = await testEmulator()
    const hash = sha256Hex(emu.keys.standard)
    await emu.send('PATCH', `/api/v1/keys/${hash}`, { limit: 10, limit_reset: 'monthly' }, emu.keys.management)
    recordUsage(emu, hash, 4, '2026-03-01T00:00:00Z')
    recordUsage(emu, hash, 3, '2026-03-02T00:00:00Z', true)
    expect((await keyNamed(emu, 'Default key')).limit_remaining).toBe(6)
    await emu.send('PATCH', `/api/v1/keys/${hash}`, { include_byok_in_limit: true }, emu.keys.management)
    expect((await keyNamed(emu, 'Default key')).limit_remaining).toBe(3)
    await emu.clock.advanceTo(Date.parse('2026-04-01T00:00:00Z'))
    expect(await keyNamed(emu, 'Default key')).toMatchObject({ usage_monthly: 0, usage: 4, limit_remaining: 10 })
  })

  it('limit_remaining never goes below 0, and with no reset counts all-time usage', async () => {
    const emu = await testEmulator()
    const hash = sha256Hex(emu.keys.standard)
    await emu.send('PATCH', `/api/v1/keys/${hash}`, { limit: 1 }, emu.keys.management)
    recordUsage(emu, hash, 0.75, '2025-06-01T00:00:00Z')
    recordUsage(emu, hash, 0.5, '2026-03-04T00:00:00Z')
    expect((await keyNamed(emu, 'Default key')).limit_remaining).toBe(0)
  })

  it('sums tiny costs exactly', async () => {
    const emu = await testEmulator()
    const hash = sha256Hex(emu.keys.standard)
    for (let i = 0; i < 10; i++) recordUsage(emu, hash, 0.1, '2026-03-04T01:00:00Z')
    recordUsage(emu, hash, 0.000002, '2026-03-04T01:00:00Z')
    expect((await keyNamed(emu, 'Default key')).usage_daily).toBe(1.000002)
  })
})
