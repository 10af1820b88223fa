import { describe, expect, it } from 'vitest'
import { sha256Hex } from '../../../src/emulator/core/rng.ts'
import { testEmulator, TEST_START } from '../../helpers/emulator.ts'

const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

describe('GET /api/v1/keys', () => {
  it('lists the seeded standard keys of the caller account, disabled ones hidden by default, in a stable order', async () => {
    const emu = await testEmulator()
    const res = await emu.get('/api/v1/keys', emu.keys.management)
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    const names = res.body.data.map((k: { name: string }) => k.name)
    expect(names).toEqual(['Default key', 'CI pipeline', 'Daily budget', 'Weekly team budget', 'Contractor (expires in 30 days)'])
    const key = res.body.data[0]
    expect(key.hash).toBe(sha256Hex(emu.keys.standard))
    expect(key).toMatchObject({
      disabled: false,
      limit: null,
      limit_remaining: null,
      limit_reset: null,
      include_byok_in_limit: false,
      usage: 0,
      byok_usage_monthly: 0,
      created_at: TEST_START,
      updated_at: null,
      expires_at: null,
      external_user: null,
    })
    expect(key.creator_user_id).toMatch(/^user_[0-9A-Za-z]{27}$/)
    expect(key.workspace_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(key.label).toMatch(/^sk-gw-v1-[0-9a-f]{3}\.\.\.[0-9a-f]{3}$/)
    const contractor = res.body.data[4]
    expect(contractor.expires_at).toMatch(ISO_Z)
    expect(Date.parse(contractor.expires_at) - Date.parse(TEST_START)).toBe(30 * 86_400_000)
  })

  it('includes disabled keys with include_disabled=true, and pages with offset and limit', async () => {
    const emu = await testEmulator()
    const all = await emu.get('/api/v1/keys?include_disabled=true', emu.keys.management)
    expect(all.body.data).toHaveLength(6)
    expect(all.body.data.at(-1)).toMatchObject({ name: 'Retired key', disabled: true })
    const hidden = await emu.get('/api/v1/keys?include_disabled=false', emu.keys.management)
    expect(hidden.body.data).toHaveLength(5)
    const page = await emu.get('/api/v1/keys?include_disabled=true&offset=2&limit=2', emu.keys.management)
    expect(page.body.data.map((k: { name: string }) => k.name)).toEqual(['Daily budget', 'Weekly team budget'])
    const past = await emu.get('/api/v1/keys?offset=50', emu.keys.management)
    expect(past.body.data).toEqual([])
  })

  it('ignores unknown query keys', async () => {
    const emu = await testEmulator()
    const res = await emu.get('/api/v1/keys?sort=x&page=2', emu.keys.management)
    expect(res.status).toBe(200)
    expect(res.body.data).toHaveLength(5)
  })

  it("lists the default workspace's keys, or those of the workspace_id named, which must be the account's", async () => {
    const emu = await testEmulator()
    const account = (await emu.get('/_emulator/api/accounts')).body.data[0]
    const named = await emu.get(`/api/v1/keys?workspace_id=${account.workspace_id}`, emu.keys.management)
    expect(named.body.data).toHaveLength(5)
    for (const [value, issue] of [
      ['abc', 'is not valid (must match format "uuid")'],
      ['00000000-0000-4000-8000-000000000000', 'is not a workspace of this account'],
    ]) {
      const res = await emu.get(`/api/v1/keys?workspace_id=${value}`, emu.keys.management)
      expect(res.status).toBe(400)
      expect(res.body).toEqual({
        error: { code: 400, message: `Query parameter \`workspace_id\` ${issue}`, metadata: { field: 'workspace_id', location: 'querystring', issue } },
      })
    }
  })

  it.each([
    ['offset=-1', 'offset', 'must be >= 0'],
    ['offset=abc', 'offset', 'must be an integer'],
    ['limit=0', 'limit', 'must be >= 1'],
    ['include_disabled=maybe', 'include_disabled', 'must be a boolean'],
  ])('rejects ?%s with a 400 naming the parameter', async (query, field, issue) => {
    const emu = await testEmulator()
    const res = await emu.get(`/api/v1/keys?${query}`, emu.keys.management)
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe(400)
    expect(res.body.error.message).toBe(`Query parameter \`${field}\` ${issue}`)
    expect(res.body.error.metadata).toMatchObject({ field, location: 'querystring' })
  })
})

describe('PATCH /api/v1/keys/:hash', () => {
  it('updates each field and stamps updated_at', async () => {
    const emu = await testEmulator()
    const hash = sha256Hex(emu.keys.standard)
    await emu.clock.advance('1h')
    const res = await emu.send(
      'PATCH',
      `/api/v1/keys/${hash}`,
      { name: 'Renamed', disabled: true, limit: 12.5, limit_reset: 'weekly', include_byok_in_limit: true },
      emu.keys.management,
    )
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({
      hash,
      name: 'Renamed',
      disabled: true,
      limit: 12.5,
      limit_remaining: 12.5,
      limit_reset: 'weekly',
      include_byok_in_limit: true,
      updated_at: '2026-03-04T11:00:00.000Z',
    })
    // The change is persisted: the key is now hidden from the default listing.
    const list = await emu.get('/api/v1/keys', emu.keys.management)
    expect(list.body.data.some((k: { hash: string }) => k.hash === hash)).toBe(false)
  })

  it('clears limit and limit_reset with null, and leaves unsent fields alone', async () => {
    const emu = await testEmulator()
    const list = await emu.get('/api/v1/keys', emu.keys.management)
    const daily = list.body.data.find((k: { name: string }) => k.name === 'Daily budget')
    const res = await emu.send('PATCH', `/api/v1/keys/${daily.hash}`, { limit: null, limit_reset: null }, emu.keys.management)
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ name: 'Daily budget', limit: null, limit_remaining: null, limit_reset: null })
    const empty = await emu.send('PATCH', `/api/v1/keys/${daily.hash}`, {}, emu.keys.management)
    expect(empty.status).toBe(200)
    expect(empty.body.data.name).toBe('Daily budget')
  })

  it('a disabled key is refused with 401 until re-enabled', async () => {
    const emu = await testEmulator()
    const hash = sha256Hex(emu.keys.standard)
    await emu.send('PATCH', `/api/v1/keys/${hash}`, { disabled: true }, emu.keys.management)
    // The keys API needs a management key; re-enabling restores the standard key for its own paths.
    const res = await emu.send('PATCH', `/api/v1/keys/${hash}`, { disabled: false }, emu.keys.management)
    expect(res.body.data.disabled).toBe(false)
  })

  it('404s for an unknown hash, for a management key hash and for another account key', async () => {
    const emu = await testEmulator()
    const unknown = await emu.send('PATCH', `/api/v1/keys/${'0'.repeat(64)}`, { name: 'x' }, emu.keys.management)
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({ error: { code: 404, message: `API key ${'0'.repeat(64)} not found` } })
    const mgmt = await emu.send('PATCH', `/api/v1/keys/${sha256Hex(emu.keys.management)}`, { name: 'x' }, emu.keys.management)
    expect(mgmt.status).toBe(404)
    const other = await emu.send('POST', '/_emulator/api/accounts', { name: 'other' })
    const foreign = await emu.send('PATCH', `/api/v1/keys/${sha256Hex(other.body.data.standard_key)}`, { name: 'x' }, emu.keys.management)
    expect(foreign.status).toBe(404)
  })

  it.each([
    [{ name: '' }, 'name', 'must not be empty'],
    [{ name: 42 }, 'name', 'must be a string'],
    [{ name: 'x'.repeat(201) }, 'name', 'must be at most 200 characters'],
    [{ disabled: 'true' }, 'disabled', 'must be a boolean'],
    [{ disabled: 1 }, 'disabled', 'must be a boolean'],
    [{ limit: -1 }, 'limit', 'must be >= 0'],
    [{ limit: '5' }, 'limit', 'must be a number or null'],
    [{ limit_reset: 'yearly' }, 'limit_reset', 'must be one of daily, weekly, monthly, null'],
    [{ limit_reset: 7 }, 'limit_reset', 'must be a string or null'],
    [{ include_byok_in_limit: 'yes' }, 'include_byok_in_limit', 'must be a boolean'],
  ])('rejects %j with a 400 naming the field', async (body, field, issue) => {
    const emu = await testEmulator()
    const hash = sha256Hex(emu.keys.standard)
    const res = await emu.send('PATCH', `/api/v1/keys/${hash}`, body, emu.keys.management)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error: { code: 400, message: `Field \`${field}\` ${issue}`, metadata: { field, location: 'body', issue } } })
    // Nothing was written.
    const after = await emu.get('/api/v1/keys', emu.keys.management)
    expect(after.body.data[0]).toMatchObject({ name: 'Default key', updated_at: null })
  })

  it('rejects a body that is not an object', async () => {
    const emu = await testEmulator()
    const res = await emu.send('PATCH', `/api/v1/keys/${sha256Hex(emu.keys.standard)}`, [1, 2], emu.keys.management)
    expect(res.status).toBe(400)
    expect(res.body.error.message).toBe('Request body must be an object')
  })
})

describe('authentication on the keys API', () => {
  const paths = [
    ['GET', '/api/v1/keys'],
    ['PATCH', `/api/v1/keys/${'a'.repeat(64)}`],
  ] as const

  it.each(paths)('%s %s: 401 without a key', async (method, url) => {
    const emu = await testEmulator()
    const res = await emu.request({ method, url, ...(method === 'PATCH' && { payload: {} }) })
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ error: { code: 401, message: 'No auth credentials found' } })
  })

  it.each(paths)('%s %s: 401 with an unknown key', async (method, url) => {
    const emu = await testEmulator()
    const res = await emu.request({ method, url, headers: { authorization: 'Bearer sk-gw-v1-nope' }, ...(method === 'PATCH' && { payload: {} }) })
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ error: { code: 401, message: 'User not found.' } })
  })

  it.each(paths)('%s %s: 401 with a standard key', async (method, url) => {
    const emu = await testEmulator()
    const res = await emu.request({ method, url, headers: { authorization: `Bearer ${emu.keys.standard}` }, ...(method === 'PATCH' && { payload: {} }) })
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ error: { code: 401, message: 'Only management keys can perform this operation' } })
  })

  it('401 for a malformed Authorization header', async () => {
    const emu = await testEmulator()
    const res = await emu.request({ method: 'GET', url: '/api/v1/keys', headers: { authorization: `Token ${emu.keys.management}` } })
    expect(res.status).toBe(401)
    expect(res.body.error.message).toBe('Malformed Authorization header: expected "Bearer <API key>"')
  })

  it('401 for a disabled management key and for an expired one', async () => {
    const emu = await testEmulator()
    const account = (await emu.get('/_emulator/api/accounts')).body.data[0]
    const disabled = await emu.send('POST', `/_emulator/api/accounts/${account.id}/keys`, { kind: 'management', disabled: true })
    const res = await emu.get('/api/v1/keys', disabled.body.data.key)
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ error: { code: 401, message: 'This API key is disabled' } })

    const expiring = await emu.send('POST', `/_emulator/api/accounts/${account.id}/keys`, { kind: 'management', expires_at: '2026-03-05T00:00:00Z' })
    expect((await emu.get('/api/v1/keys', expiring.body.data.key)).status).toBe(200)
    await emu.clock.advance('14h')
    const expired = await emu.get('/api/v1/keys', expiring.body.data.key)
    expect(expired.status).toBe(401)
    expect(expired.body).toEqual({ error: { code: 401, message: 'This API key expired at 2026-03-05T00:00:00.000Z' } })
  })

  it('a revoked key is unknown', async () => {
    const emu = await testEmulator()
    const account = (await emu.get('/_emulator/api/accounts')).body.data[0]
    const created = await emu.send('POST', `/_emulator/api/accounts/${account.id}/keys`, { kind: 'management' })
    expect((await emu.get('/api/v1/keys', created.body.data.key)).status).toBe(200)
    const revoked = await emu.send('DELETE', `/_emulator/api/accounts/${account.id}/keys/${created.body.data.hash}`)
    expect(revoked.body).toEqual({ data: { deleted: true } })
    expect((await emu.get('/api/v1/keys', created.body.data.key)).status).toBe(401)
  })
})
