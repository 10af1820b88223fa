import { describe, expect, it } from 'vitest'
import { sha256Hex } from '../../../src/emulator/core/rng.ts'
import pkg from '../../../package.json' with { type: 'json' }
import { testEmulator } from '../../helpers/emulator.ts'

describe('admin API: health, accounts, reset', () => {
  it('health reports ok and the package version', async () => {
    const emu = await testEmulator()
    const res = await emu.get('/_emulator/api/health')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ status: 'ok', version: pkg.version })
  })

  it('creates an account with {} and with a name and credits', async () => {
    const emu = await testEmulator()
    const bare = await emu.send('POST', '/_emulator/api/accounts', {})
    expect(bare.status).toBe(201)
    expect(bare.body.data).toMatchObject({ id: expect.stringMatching(/^acct_/), credits_usd: 0, name: expect.any(String) })
    const named = await emu.send('POST', '/_emulator/api/accounts', { name: 'contract', credits_usd: 25 })
    expect(named.status).toBe(201)
    expect(named.body.data).toMatchObject({ name: 'contract', credits_usd: 25 })
    expect(named.body.data.management_key).toMatch(/^sk-gw-v1-[0-9a-f]{64}$/)
    expect(named.body.data.standard_key).toMatch(/^sk-gw-v1-[0-9a-f]{64}$/)
    expect(named.body.data.members).toHaveLength(3)
    const noBody = await emu.request({ method: 'POST', url: '/_emulator/api/accounts' })
    expect(noBody.status).toBe(201)
  })

  it('rejects bad account fields with a 400 naming them', async () => {
    const emu = await testEmulator()
    const res = await emu.send('POST', '/_emulator/api/accounts', { credits_usd: -5 })
    expect(res.status).toBe(400)
    expect(res.body.error).toMatchObject({ code: 400, message: 'Field `credits_usd` must be >= 0' })
  })

  it('two accounts see nothing of each other', async () => {
    const emu = await testEmulator()
    const a = (await emu.send('POST', '/_emulator/api/accounts', { name: 'a' })).body.data
    const b = (await emu.send('POST', '/_emulator/api/accounts', { name: 'b' })).body.data
    const listA = await emu.get('/api/v1/keys', a.management_key)
    const listB = await emu.get('/api/v1/keys', b.management_key)
    expect(listA.body.data.map((k: { hash: string }) => k.hash)).toEqual([sha256Hex(a.standard_key)])
    expect(listB.body.data.map((k: { hash: string }) => k.hash)).toEqual([sha256Hex(b.standard_key)])
    // Keys carry a member of their own account.
    expect(a.members.map((m: { id: string }) => m.id)).toContain(listA.body.data[0].creator_user_id)
    expect(b.members.map((m: { id: string }) => m.id)).not.toContain(listA.body.data[0].creator_user_id)
    // Neither can touch the other's key, nor does the seeded account see them.
    const cross = await emu.send('PATCH', `/api/v1/keys/${sha256Hex(b.standard_key)}`, { name: 'mine' }, a.management_key)
    expect(cross.status).toBe(404)
    const seeded = await emu.get('/api/v1/keys?include_disabled=true', emu.keys.management)
    expect(seeded.body.data.map((k: { hash: string }) => k.hash)).not.toContain(sha256Hex(a.standard_key))
  })

  it('deleting an account removes its keys', async () => {
    const emu = await testEmulator()
    const a = (await emu.send('POST', '/_emulator/api/accounts', {})).body.data
    expect((await emu.send('DELETE', `/_emulator/api/accounts/${a.id}`)).body).toEqual({ data: { deleted: true } })
    expect((await emu.get('/api/v1/keys', a.management_key)).status).toBe(401)
    expect((await emu.get(`/_emulator/api/accounts/${a.id}`)).status).toBe(404)
  })

  it('creates keys for an account with limits and an owner, and refuses a foreign member', async () => {
    const emu = await testEmulator()
    const a = (await emu.send('POST', '/_emulator/api/accounts', {})).body.data
    const created = await emu.send('POST', `/_emulator/api/accounts/${a.id}/keys`, {
      name: 'Budgeted',
      limit: 3,
      limit_reset: 'daily',
      creator_user_id: a.members[1].id,
    })
    expect(created.status).toBe(201)
    expect(created.body.data).toMatchObject({ name: 'Budgeted', kind: 'standard', limit: 3, limit_reset: 'daily', creator_user_id: a.members[1].id })
    expect(created.body.data.hash).toBe(sha256Hex(created.body.data.key))
    const foreign = await emu.send('POST', `/_emulator/api/accounts/${a.id}/keys`, { creator_user_id: 'user_nobody' })
    expect(foreign.status).toBe(400)
    expect(foreign.body.error.message).toContain('creator_user_id')
    const unknown = await emu.send('POST', '/_emulator/api/accounts/acct_nope/keys', {})
    expect(unknown.status).toBe(404)
  })

  it('reset forgets created accounts and restores the seed with the same keys', async () => {
    const emu = await testEmulator()
    const before = emu.keys
    const a = (await emu.send('POST', '/_emulator/api/accounts', {})).body.data
    await emu.send('PATCH', `/api/v1/keys/${sha256Hex(emu.keys.standard)}`, { name: 'changed' }, emu.keys.management)
    const res = await emu.send('POST', '/_emulator/api/reset')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ data: { reset: true } })
    expect((await emu.get('/api/v1/keys', a.management_key)).status).toBe(401)
    const list = await emu.get('/api/v1/keys', before.management)
    expect(list.body.data[0].name).toBe('Default key')
    // Ids made after a reset repeat those made after the first start: the sequences reset too.
    const again = (await emu.send('POST', '/_emulator/api/accounts', {})).body.data
    expect(again.id).toBe(a.id)
    expect(again.standard_key).toBe(a.standard_key)
  })

  it('state lists accounts with balances and the clock', async () => {
    const emu = await testEmulator()
    const res = await emu.get('/_emulator/api/state')
    expect(res.body.data).toMatchObject({ seed: 1, clock: { mode: 'manual' }, accounts: [{ name: 'Northwind Labs', credits_usd: 100, balance_usd: 100 }] })
  })

  it('sets an account balance', async () => {
    const emu = await testEmulator()
    const a = (await emu.send('POST', '/_emulator/api/accounts', {})).body.data
    const res = await emu.send('PUT', `/_emulator/api/accounts/${a.id}/credits`, { credits_usd: 42.5 })
    expect(res.body.data).toMatchObject({ credits_usd: 42.5, balance_usd: 42.5 })
  })
})

describe('admin API: clock', () => {
  it('reports mode and an ISO time in UTC', async () => {
    const emu = await testEmulator()
    const res = await emu.get('/_emulator/api/clock')
    expect(res.body).toEqual({ data: { now: '2026-03-04T10:00:00.000Z', mode: 'manual' } })
  })

  it('advances by ms, by a duration and to a time', async () => {
    const emu = await testEmulator()
    expect((await emu.send('POST', '/_emulator/api/clock/advance', { ms: 3_600_000 })).body.data.now).toBe('2026-03-04T11:00:00.000Z')
    expect((await emu.send('POST', '/_emulator/api/clock/advance', { by: '1d2h' })).body.data.now).toBe('2026-03-05T13:00:00.000Z')
    expect((await emu.send('POST', '/_emulator/api/clock/advance', { to: '2031-01-01T00:00:00Z' })).body.data.now).toBe('2031-01-01T00:00:00.000Z')
  })

  it.each([
    [{}, 'Send exactly one of'],
    [{ ms: 1, by: '1d' }, 'Send exactly one of'],
    [{ ms: -1 }, 'Field `ms` must be >= 0'],
    [{ by: 'soon' }, 'Field `by`: duration "soon" is not of the form'],
    [{ to: 'tomorrow' }, 'Field `to` is not valid'],
    [{ to: '2020-01-01T00:00:00Z' }, "is before the emulator's now"],
  ])('rejects %j', async (body, message) => {
    const emu = await testEmulator()
    const res = await emu.send('POST', '/_emulator/api/clock/advance', body)
    expect(res.status).toBe(400)
    expect(res.body.error.message).toContain(message)
    expect((await emu.get('/_emulator/api/clock')).body.data.now).toBe('2026-03-04T10:00:00.000Z')
  })

  it('sets, freezes and resumes', async () => {
    const emu = await testEmulator({ clock: 'system' })
    expect((await emu.get('/_emulator/api/clock')).body.data.mode).toBe('system')
    const frozen = await emu.send('POST', '/_emulator/api/clock/freeze')
    expect(frozen.body.data.mode).toBe('manual')
    // Once real time has moved on since the freeze, the clock has not followed it.
    const frozenAt = Date.now()
    await expect.poll(() => Date.now()).toBeGreaterThan(frozenAt)
    expect((await emu.get('/_emulator/api/clock')).body.data.now).toBe(frozen.body.data.now)
    const set = await emu.send('POST', '/_emulator/api/clock/set', { to: '2020-05-05T05:05:05Z' })
    expect(set.body.data).toEqual({ now: '2020-05-05T05:05:05.000Z', mode: 'manual' })
    const resumed = await emu.send('POST', '/_emulator/api/clock/resume')
    expect(resumed.body.data.mode).toBe('system')
    // Resumed, it runs on from where it was set, with real time.
    const now = async () => Date.parse((await emu.get('/_emulator/api/clock')).body.data.now)
    await expect.poll(now).toBeGreaterThan(Date.parse('2020-05-05T05:05:05Z'))
    expect(await now()).toBeLessThan(Date.parse('2020-05-05T05:06:05Z'))
  })
})
