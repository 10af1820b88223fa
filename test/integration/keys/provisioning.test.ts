// Key provisioning over the keys API: POST /keys answers the key once and only its hash afterwards,
// the key works at once, GET and DELETE by hash, and a deleted or expired key is refused on its next
// call; limits are the ledger's; every bad input is a 400 naming its field, and changes nothing.
import { describe, expect, it } from 'vitest'
import { sha256Hex } from '../../../src/emulator/core/rng.ts'
import { testEmulator, TEST_START, type TestEmulator } from '../../helpers/emulator.ts'

const EMBEDDINGS = { model: 'openai/text-embedding-3-small', input: 'hello' }
const TOKEN = /^sk-gw-v1-[0-9a-f]{64}$/

const create = (emu: TestEmulator, body: unknown, key = emu.keys.management) => emu.send('POST', '/api/v1/keys', body, key)
const embed = (emu: TestEmulator, key: string) => emu.send('POST', '/api/v1/embeddings', EMBEDDINGS, key)

async function defaultAccount(emu: TestEmulator): Promise<{ id: string; workspace_id: string }> {
  return (await emu.get('/_emulator/api/accounts')).body.data[0]
}

describe('POST /api/v1/keys', () => {
  it('answers 201 with the key object and the key itself, which works at once; afterwards only its hash is shown', async () => {
    const emu = await testEmulator()
    const account = await defaultAccount(emu)
    const res = await create(emu, {
      name: 'Customer 42',
      limit: 5,
      limit_reset: 'monthly',
      include_byok_in_limit: true,
      expires_at: '2027-01-01T00:00:00Z',
    })
    expect(res.status).toBe(201)
    expect(res.body.key).toMatch(TOKEN)
    const management = emu.ctx.services.keys.byHash(sha256Hex(emu.keys.management))!
    expect(res.body.data).toEqual({
      hash: sha256Hex(res.body.key),
      name: 'Customer 42',
      label: `${res.body.key.slice(0, 12)}...${res.body.key.slice(-3)}`,
      disabled: false,
      limit: 5,
      limit_remaining: 5,
      limit_reset: 'monthly',
      include_byok_in_limit: true,
      usage: 0,
      usage_daily: 0,
      usage_weekly: 0,
      usage_monthly: 0,
      byok_usage: 0,
      byok_usage_daily: 0,
      byok_usage_weekly: 0,
      byok_usage_monthly: 0,
      created_at: TEST_START,
      updated_at: null,
      expires_at: '2027-01-01T00:00:00.000Z',
      creator_user_id: management.creator_user_id,
      workspace_id: account.workspace_id,
      external_user: null,
    })

    const used = await embed(emu, res.body.key)
    expect(used.status).toBe(200)
    const got = await emu.get(`/api/v1/keys/${res.body.data.hash}`, emu.keys.management)
    expect(got.status).toBe(200)
    expect(got.body.data).toMatchObject({ hash: res.body.data.hash, name: 'Customer 42', usage: used.body.usage.cost })
    expect(got.body.data.limit_remaining).toBeCloseTo(5 - used.body.usage.cost, 9)
    expect(JSON.stringify(got.body)).not.toContain(res.body.key)
    const list = await emu.get('/api/v1/keys', emu.keys.management)
    expect(list.body.data.map((k: { name: string }) => k.name)).toContain('Customer 42')
    expect(JSON.stringify(list.body)).not.toContain(res.body.key)
    // The journal keeps the answer with the key redacted.
    const journal = (await emu.get('/_emulator/api/journal?operation=keys.create')).body.data
    expect(JSON.stringify(journal)).not.toContain(res.body.key)
  })

  it('gives the same keys for the same seed and calls, and a different key each time', async () => {
    const make = async () => {
      const emu = await testEmulator()
      return [(await create(emu, { name: 'a' })).body.key, (await create(emu, { name: 'b' })).body.key]
    }
    const [first, second] = [await make(), await make()]
    expect(first).toEqual(second)
    expect(first[0]).not.toBe(first[1])
  })

  it('takes the defaults: no limit, no reset, no expiry, BYOK not counted, the caller key creator, the default workspace', async () => {
    const emu = await testEmulator()
    const res = await create(emu, { name: 'plain' })
    expect(res.status).toBe(201)
    expect(res.body.data).toMatchObject({ limit: null, limit_remaining: null, limit_reset: null, include_byok_in_limit: false, expires_at: null })
    expect(res.body.data.workspace_id).toBe((await defaultAccount(emu)).workspace_id)
  })

  it('takes a creator that is a member of the account, nulls as absent, and a UTC expiry written +00:00', async () => {
    const emu = await testEmulator()
    const members = (await emu.get(`/_emulator/api/accounts/${(await defaultAccount(emu)).id}`)).body.data.members as Array<{ id: string }>
    const member = members.at(-1)!.id
    const res = await create(emu, { name: 'x', creator_user_id: member, limit: null, limit_reset: null, expires_at: '2026-12-01T08:00:00+00:00' })
    expect(res.status).toBe(201)
    expect(res.body.data).toMatchObject({ creator_user_id: member, limit: null, expires_at: '2026-12-01T08:00:00.000Z' })
    const nulls = await create(emu, { name: 'y', creator_user_id: null, expires_at: null })
    expect(nulls.status).toBe(201)
    expect(nulls.body.data.expires_at).toBeNull()
  })

  it('puts the key in a workspace of the account, and lists it only with that workspace', async () => {
    const emu = await testEmulator()
    const workspace = await emu.send('POST', '/api/v1/workspaces', { name: 'Team', slug: 'team' }, emu.keys.management)
    expect(workspace.status, JSON.stringify(workspace.body)).toBe(201)
    const id = workspace.body.data.id as string
    const res = await create(emu, { name: 'in team', workspace_id: id })
    expect(res.status).toBe(201)
    expect(res.body.data.workspace_id).toBe(id)
    const names = async (query: string) => (await emu.get(`/api/v1/keys${query}`, emu.keys.management)).body.data.map((k: { name: string }) => k.name)
    expect(await names('')).not.toContain('in team')
    expect(await names(`?workspace_id=${id}`)).toEqual(['in team'])
    expect(await names(`?workspace_id=${(await defaultAccount(emu)).workspace_id}`)).toContain('Default key')
    // The key's own view (GET /key) names its workspace too.
    expect((await emu.get('/api/v1/key', res.body.key)).body.data.workspace_id).toBe(id)
  })

  it.each([
    [{}, 'name', 'is required'],
    [{ name: '' }, 'name', 'must not be empty'],
    [{ name: 'x'.repeat(201) }, 'name', 'must be at most 200 characters'],
    [{ name: 7 }, 'name', 'must be a string'],
    [{ name: 'x', limit: -1 }, 'limit', 'must be >= 0'],
    [{ name: 'x', limit: '5' }, 'limit', 'must be a number or null'],
    [{ name: 'x', limit: 2e9 }, 'limit', 'must be <= 1000000000'],
    [{ name: 'x', limit_reset: 'yearly' }, 'limit_reset', 'must be one of daily, weekly, monthly, null'],
    [{ name: 'x', include_byok_in_limit: 'yes' }, 'include_byok_in_limit', 'must be a boolean'],
    [{ name: 'x', expires_at: 'tomorrow' }, 'expires_at', 'is not valid (must match format "date-time")'],
    [{ name: 'x', expires_at: '2027-01-01T00:00:00+02:00' }, 'expires_at', 'must be a UTC time (ending in Z or +00:00): other time zones are rejected'],
    [{ name: 'x', expires_at: '2026-03-04T09:59:59Z' }, 'expires_at', 'must be in the future (the clock says 2026-03-04T10:00:00.000Z)'],
    [{ name: 'x', expires_at: '2026-03-04T10:00:00Z' }, 'expires_at', 'must be in the future (the clock says 2026-03-04T10:00:00.000Z)'],
    [{ name: 'x', creator_user_id: '' }, 'creator_user_id', 'must not be empty'],
    [{ name: 'x', creator_user_id: 'user_nobody' }, 'creator_user_id', 'is not a member of this account'],
    [{ name: 'x', workspace_id: 'abc' }, 'workspace_id', 'is not valid (must match format "uuid")'],
    [{ name: 'x', workspace_id: '00000000-0000-4000-8000-000000000000' }, 'workspace_id', 'is not a workspace of this account'],
  ])('refuses %j with a 400 naming the field, and makes no key', async (body, field, issue) => {
    const emu = await testEmulator()
    const before = emu.ctx.services.keys.forAccount((await defaultAccount(emu)).id).length
    const res = await create(emu, body)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error: { code: 400, message: `Field \`${field}\` ${issue}`, metadata: { field, location: 'body', issue } } })
    expect(emu.ctx.services.keys.forAccount((await defaultAccount(emu)).id)).toHaveLength(before)
    // A refused request takes no number from the key sequence: the next key is the one a fresh emulator makes first.
    const next = (await create(emu, { name: 'after' })).body.key
    expect(next).toBe((await create(await testEmulator(), { name: 'after' })).body.key)
  })

  it("refuses another account's workspace", async () => {
    const emu = await testEmulator()
    const other = (await emu.send('POST', '/_emulator/api/accounts', { name: 'other' })).body.data
    const res = await create(emu, { name: 'x', workspace_id: other.workspace_id })
    expect(res.status).toBe(400)
    expect(res.body.error.metadata).toMatchObject({ field: 'workspace_id' })
  })

  it('refuses a body that is not JSON, or not an object', async () => {
    const emu = await testEmulator()
    const broken = await emu.request({
      method: 'POST',
      url: '/api/v1/keys',
      headers: { authorization: `Bearer ${emu.keys.management}`, 'content-type': 'application/json' },
      payload: '{"name": ',
    })
    expect(broken.status).toBe(400)
    expect(broken.body.error.code).toBe(400)
    const array = await create(emu, [{ name: 'x' }])
    expect(array.status).toBe(400)
    expect(array.body.error.message).toBe('Request body must be an object')
  })

  it('refuses a body over 1 MB with a 413', async () => {
    const emu = await testEmulator()
    const res = await create(emu, { name: 'x', padding: 'p'.repeat(1024 * 1024) })
    expect(res.status).toBe(413)
    expect(res.body).toEqual({
      error: { code: 413, message: 'Request payload too large: this route takes bodies up to 1 MB', metadata: { limit_bytes: 1024 * 1024 } },
    })
  })

  it('needs a management key', async () => {
    const emu = await testEmulator()
    const standard = await create(emu, { name: 'x' }, emu.keys.standard)
    expect(standard.status).toBe(401)
    expect(standard.body).toEqual({ error: { code: 401, message: 'Only management keys can perform this operation' } })
    const none = await emu.send('POST', '/api/v1/keys', { name: 'x' })
    expect(none.body).toEqual({ error: { code: 401, message: 'No auth credentials found' } })
  })
})

describe('GET and DELETE /api/v1/keys/:hash', () => {
  it('a deleted key answers 401 on its next call, and is gone from GET, the list and a second DELETE', async () => {
    const emu = await testEmulator()
    const { key, data } = (await create(emu, { name: 'leaving customer' })).body
    expect((await embed(emu, key)).status).toBe(200)
    const deleted = await emu.send('DELETE', `/api/v1/keys/${data.hash}`, undefined, emu.keys.management)
    expect(deleted.status).toBe(200)
    expect(deleted.body).toEqual({ deleted: true })

    const refused = await embed(emu, key)
    expect(refused.status).toBe(401)
    expect(refused.body).toEqual({ error: { code: 401, message: 'User not found.' } })
    const notFound = { error: { code: 404, message: `API key ${data.hash} not found` } }
    expect(await emu.get(`/api/v1/keys/${data.hash}`, emu.keys.management)).toMatchObject({ status: 404, body: notFound })
    expect(await emu.send('DELETE', `/api/v1/keys/${data.hash}`, undefined, emu.keys.management)).toMatchObject({ status: 404, body: notFound })
    const list = await emu.get('/api/v1/keys?include_disabled=true', emu.keys.management)
    expect(list.body.data.some((k: { hash: string }) => k.hash === data.hash)).toBe(false)
    // What it spent stays the account's.
    expect((await emu.get('/api/v1/credits', emu.keys.management)).body.data.total_usage).toBeGreaterThan(0)
  })

  it('an expired key answers 401 once the virtual clock passes its expiry', async () => {
    const emu = await testEmulator()
    const { key } = (await create(emu, { name: 'trial', expires_at: '2026-03-04T11:00:00Z' })).body
    expect((await embed(emu, key)).status).toBe(200)
    await emu.clock.advance('59m')
    expect((await embed(emu, key)).status).toBe(200)
    await emu.clock.advance('1m')
    const refused = await embed(emu, key)
    expect(refused.status).toBe(401)
    expect(refused.body).toEqual({ error: { code: 401, message: 'This API key expired at 2026-03-04T11:00:00.000Z' } })
    // The key is still there for its owner to see.
    expect((await emu.get(`/api/v1/keys/${sha256Hex(key)}`, emu.keys.management)).body.data.expires_at).toBe('2026-03-04T11:00:00.000Z')
  })

  it("enforces the key's limit on inference, and its daily reset", async () => {
    const emu = await testEmulator()
    const { key, data } = (await create(emu, { name: 'tiny', limit: 1e-9, limit_reset: 'daily' })).body
    expect((await embed(emu, key)).status).toBe(200)
    const refused = await embed(emu, key)
    expect(refused.status).toBe(402)
    expect(refused.body.error).toMatchObject({ code: 402, message: 'Key limit exceeded (daily limit)', metadata: { limit_source: 'openrouter_key_limit' } })
    expect((await emu.get(`/api/v1/keys/${data.hash}`, emu.keys.management)).body.data.limit_remaining).toBe(0)
    await emu.clock.advance('14h')
    expect((await embed(emu, key)).status).toBe(200)
  })

  it("404s for an unknown hash, a management key's and another account's", async () => {
    const emu = await testEmulator()
    const other = (await emu.send('POST', '/_emulator/api/accounts', { name: 'other' })).body.data
    for (const hash of ['0'.repeat(64), sha256Hex(emu.keys.management), sha256Hex(other.standard_key)]) {
      const notFound = { status: 404, body: { error: { code: 404, message: `API key ${hash} not found` } } }
      expect(await emu.get(`/api/v1/keys/${hash}`, emu.keys.management)).toMatchObject(notFound)
      expect(await emu.send('DELETE', `/api/v1/keys/${hash}`, undefined, emu.keys.management)).toMatchObject(notFound)
    }
    // Nothing was deleted: the other account's key still works.
    expect((await embed(emu, other.standard_key)).status).not.toBe(401)
  })

  it('need a management key', async () => {
    const emu = await testEmulator()
    const hash = sha256Hex(emu.keys.standard)
    for (const res of [
      await emu.get(`/api/v1/keys/${hash}`, emu.keys.standard),
      await emu.send('DELETE', `/api/v1/keys/${hash}`, undefined, emu.keys.standard),
    ]) {
      expect(res.status).toBe(401)
      expect(res.body.error.message).toBe('Only management keys can perform this operation')
    }
    expect((await embed(emu, emu.keys.standard)).status).toBe(200)
  })
})

describe('keys made over the API and the state', () => {
  it('round-trip through export and import, go on reset, and stay on an account reset', async () => {
    const emu = await testEmulator()
    const { key, data } = (await create(emu, { name: 'kept', limit: 3 })).body
    const exported = (await emu.get('/_emulator/api/export')).body
    const row = exported.tables.api_keys.find((k: { hash: string }) => k.hash === data.hash)
    expect(row).toMatchObject({ name: 'kept', workspace_id: data.workspace_id })

    const account = await defaultAccount(emu)
    expect((await emu.send('POST', `/_emulator/api/accounts/${account.id}/reset`)).status).toBe(200)
    expect((await embed(emu, key)).status).toBe(200)

    expect((await emu.send('POST', '/_emulator/api/reset')).status).toBe(200)
    expect((await embed(emu, key)).status).toBe(401)
    expect((await emu.send('POST', '/_emulator/api/import', exported)).status).toBe(200)
    expect((await emu.get(`/api/v1/keys/${data.hash}`, emu.keys.management)).body.data).toMatchObject({ name: 'kept', limit: 3 })
    expect((await embed(emu, key)).status).toBe(200)
  })

  it('imports a key row from before workspaces (no workspace_id) into the default workspace', async () => {
    const emu = await testEmulator()
    const { data } = (await create(emu, { name: 'old' })).body
    const exported = (await emu.get('/_emulator/api/export')).body
    for (const row of exported.tables.api_keys) delete row.workspace_id
    exported.schema_version -= 1
    expect((await emu.send('POST', '/_emulator/api/import', exported)).status).toBe(200)
    expect((await emu.get(`/api/v1/keys/${data.hash}`, emu.keys.management)).body.data.workspace_id).toBe((await defaultAccount(emu)).workspace_id)
  })
})
