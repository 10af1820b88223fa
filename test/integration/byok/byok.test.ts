// BYOK provider credentials over HTTP: CRUD, the provider key never shown again (answers, journal,
// HAR, state export), every bad input with its status and body, and billing: a call routed to a
// provider with a credential moves the key's byok usage, not its usage or the account's credits, and
// counts toward the key's limit only when include_byok_in_limit says so.
import { describe, expect, it } from 'vitest'
import { sha256Hex } from '../../../src/emulator/core/rng.ts'
import { testEmulator, TEST_START, type TestEmulator } from '../../helpers/emulator.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const SECRET = 'sk-proj-VERYsecretProviderKey-0123456789-AbCd'
const ADMIN = '/_emulator/api'
const EMBEDDINGS = { model: 'openai/text-embedding-3-small', input: 'a few words to embed', provider: { order: ['openai'], allow_fallbacks: false } }
const CHAT = { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }], provider: { order: ['openai'], allow_fallbacks: false } }

const create = (emu: TestEmulator, body: Record<string, unknown>, key = emu.keys.management) => emu.send('POST', '/api/v1/byok', body, key)
const keyOf = async (emu: TestEmulator, hash: string) =>
  ((await emu.get('/api/v1/keys?include_disabled=true', emu.keys.management)).body.data as Array<Record<string, any>>).find((k) => k.hash === hash)!
const credits = async (emu: TestEmulator) => (await emu.get('/api/v1/credits', emu.keys.standard)).body.data as { total_credits: number; total_usage: number }
const fieldError = (field: string, issue: string, location = 'body') => ({
  error: { code: 400, message: `${location === 'querystring' ? 'Query parameter' : 'Field'} \`${field}\` ${issue}`, metadata: { field, location, issue } },
})

describe('BYOK credentials', () => {
  it('creates with 201, the key kept only as its label, and defaults for what was left out', async () => {
    const emu = await testEmulator()
    const res = await create(emu, { provider: 'openai', key: SECRET, name: 'Production OpenAI Key' })
    expect(res.status).toBe(201)
    expect(res.body.data).toEqual({
      id: expect.stringMatching(UUID),
      provider: 'openai',
      workspace_id: emu.ctx.services.workspaces.defaultFor(emu.ctx.services.keys.byHash(sha256Hex(emu.keys.management))!.account_id),
      label: 'sk-...AbCd',
      name: 'Production OpenAI Key',
      disabled: false,
      is_fallback: false,
      is_byok_only: false,
      is_required: false,
      declared_zdr: null,
      allowed_models: null,
      allowed_api_key_hashes: null,
      allowed_user_ids: null,
      sort_order: 0,
      created_at: TEST_START,
    })
    // A second one of the same provider comes after it; a short key shows nothing of itself.
    const second = await create(emu, { provider: 'openai', key: 'short', is_fallback: true })
    expect(second.body.data).toMatchObject({ sort_order: 1, label: '********', is_fallback: true, name: null })
    expect((await create(emu, { provider: 'anthropic', key: SECRET })).body.data.sort_order).toBe(0)
  })

  it('reads, lists (paged, by provider), updates, rotates the key and deletes', async () => {
    const emu = await testEmulator()
    const id = (await create(emu, { provider: 'openai', key: SECRET })).body.data.id as string
    await create(emu, { provider: 'anthropic', key: 'sk-ant-0123456789-WxYz' })
    await create(emu, { provider: 'openai', key: 'sk-other-0123456789-QrSt', disabled: true })

    expect((await emu.get(`/api/v1/byok/${id}`, emu.keys.management)).body.data).toMatchObject({ id, provider: 'openai', label: 'sk-...AbCd' })
    const all = await emu.get('/api/v1/byok', emu.keys.management)
    expect(all.body.total_count).toBe(3)
    expect(all.body.data.map((c: { provider: string }) => c.provider)).toEqual(['openai', 'anthropic', 'openai'])
    const page = await emu.get('/api/v1/byok?offset=1&limit=1', emu.keys.management)
    expect(page.body).toMatchObject({ total_count: 3, data: [{ provider: 'anthropic' }] })
    const openai = await emu.get('/api/v1/byok?provider=openai', emu.keys.management)
    expect(openai.body.total_count).toBe(2)
    expect(openai.body.data.map((c: { disabled: boolean }) => c.disabled)).toEqual([false, true])

    const hash = sha256Hex(emu.keys.standard)
    const updated = await emu.send(
      'PATCH',
      `/api/v1/byok/${id}`,
      { name: 'Renamed', disabled: true, allowed_models: ['openai/gpt-4o-mini'], allowed_api_key_hashes: [hash], key: 'sk-rotated-0123456789-NeWk' },
      emu.keys.management,
    )
    expect(updated.status).toBe(200)
    expect(updated.body.data).toMatchObject({
      id,
      name: 'Renamed',
      disabled: true,
      label: 'sk-...NeWk',
      allowed_models: ['openai/gpt-4o-mini'],
      allowed_api_key_hashes: [hash],
      sort_order: 0,
    })
    // Left out keeps its value; null clears a list.
    const cleared = await emu.send('PATCH', `/api/v1/byok/${id}`, { allowed_models: null }, emu.keys.management)
    expect(cleared.body.data).toMatchObject({ name: 'Renamed', disabled: true, allowed_models: null, allowed_api_key_hashes: [hash] })

    expect((await emu.send('DELETE', `/api/v1/byok/${id}`, undefined, emu.keys.management)).body).toEqual({ deleted: true })
    const gone = await emu.get(`/api/v1/byok/${id}`, emu.keys.management)
    expect(gone.status).toBe(404)
    expect(gone.body).toEqual({ error: { code: 404, message: `BYOK credential ${id} not found` } })
    expect((await emu.send('DELETE', `/api/v1/byok/${id}`, undefined, emu.keys.management)).status).toBe(404)
    expect((await emu.get('/api/v1/byok', emu.keys.management)).body.total_count).toBe(2)
  })

  it("keeps each account's credentials to itself", async () => {
    const emu = await testEmulator()
    const id = (await create(emu, { provider: 'openai', key: SECRET })).body.data.id as string
    const other = (await emu.send('POST', `${ADMIN}/accounts`, {})).body.data as { management_key: string }
    expect((await emu.get(`/api/v1/byok/${id}`, other.management_key)).status).toBe(404)
    expect((await emu.send('PATCH', `/api/v1/byok/${id}`, { name: 'x' }, other.management_key)).status).toBe(404)
    expect((await emu.send('DELETE', `/api/v1/byok/${id}`, undefined, other.management_key)).status).toBe(404)
    expect((await emu.get('/api/v1/byok', other.management_key)).body).toEqual({ data: [], total_count: 0 })
  })

  it('never shows the key again: not in answers, the journal, its HAR or the state export', async () => {
    const emu = await testEmulator()
    const id = (await create(emu, { provider: 'openai', key: SECRET })).body.data.id as string
    await emu.send('PATCH', `/api/v1/byok/${id}`, { key: `${SECRET}-rotated` }, emu.keys.management)
    // Refused requests carry it too: a bad provider, a malformed body, a standard key.
    expect((await create(emu, { provider: 'nobody', key: SECRET })).status).toBe(400)
    const malformed = await emu.request({
      method: 'POST',
      url: '/api/v1/byok',
      headers: { authorization: `Bearer ${emu.keys.management}`, 'content-type': 'application/json' },
      payload: `{"provider":"openai","key":"${SECRET}"`,
    })
    expect(malformed.status).toBe(400)
    expect((await create(emu, { provider: 'openai', key: SECRET }, emu.keys.standard)).status).toBe(401)

    const journal = await emu.get(`${ADMIN}/journal?limit=100`)
    const requests = journal.body.data.filter((e: { path: string }) => e.path.startsWith('/api/v1/byok'))
    expect(requests).toHaveLength(5)
    const created = requests.find((e: { status: number }) => e.status === 201)
    expect(JSON.parse(created.request.body)).toEqual({ provider: 'openai', key: '[redacted]' })
    const everything = [
      JSON.stringify(journal.body),
      JSON.stringify((await emu.get(`${ADMIN}/journal/har`)).body),
      JSON.stringify((await emu.get(`${ADMIN}/export`)).body),
      JSON.stringify((await emu.get('/api/v1/byok', emu.keys.management)).body),
      JSON.stringify((await emu.get(`${ADMIN}/accounts/${emu.ctx.services.keys.byHash(sha256Hex(emu.keys.standard))!.account_id}/byok`)).body),
    ].join('\n')
    expect(everything).not.toContain('VERYsecret')
    expect(everything).toContain('sk-...ated')
  })
})

describe('BYOK refusals', () => {
  const cases: Array<[string, Record<string, unknown>, unknown]> = [
    ['no provider', { key: SECRET }, fieldError('provider', 'is required')],
    ['no key', { provider: 'openai' }, fieldError('key', 'is required')],
    ['an empty key', { provider: 'openai', key: '' }, fieldError('key', 'must not be empty')],
    [
      'an unknown provider',
      { provider: 'nobody', key: SECRET },
      fieldError('provider', 'must be a provider slug of the document or of the catalog, such as openai, anthropic or amazon-bedrock'),
    ],
    ['a name too long', { provider: 'openai', key: SECRET, name: 'n'.repeat(256) }, fieldError('name', 'must be at most 255 characters')],
    ['an empty hash list', { provider: 'openai', key: SECRET, allowed_api_key_hashes: [] }, fieldError('allowed_api_key_hashes', 'must not be empty')],
    [
      'a hash that is no hash',
      { provider: 'openai', key: SECRET, allowed_api_key_hashes: ['abc'] },
      fieldError('allowed_api_key_hashes[0]', 'is not valid (must match pattern "^[a-f0-9]{64}$")'),
    ],
    [
      "another account's key",
      { provider: 'openai', key: SECRET, allowed_api_key_hashes: ['0'.repeat(64)] },
      fieldError('allowed_api_key_hashes[0]', 'is not the hash of an API key of this account'),
    ],
    [
      'a workspace_id that is no uuid',
      { provider: 'openai', key: SECRET, workspace_id: 'w' },
      fieldError('workspace_id', 'is not valid (must match format "uuid")'),
    ],
    ['disabled as a string', { provider: 'openai', key: SECRET, disabled: 'yes' }, fieldError('disabled', 'must be a boolean')],
  ]
  it.each(cases)('refuses %s with a 400 naming the field, creating nothing', async (_name, body, expected) => {
    const emu = await testEmulator()
    const res = await create(emu, body)
    expect(res.status).toBe(400)
    expect(res.body).toEqual(expected)
    expect((await emu.get('/api/v1/byok', emu.keys.management)).body.total_count).toBe(0)
  })

  it("answers a workspace that is not the account's with a 404 naming workspace_id", async () => {
    const emu = await testEmulator()
    const unknown = '00000000-0000-4000-8000-000000000000'
    const res = await create(emu, { provider: 'openai', key: SECRET, workspace_id: unknown })
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ error: { code: 404, message: `Workspace ${unknown} not found`, metadata: { field: 'workspace_id', location: 'body' } } })
    const list = await emu.get(`/api/v1/byok?workspace_id=${unknown}`, emu.keys.management)
    expect(list.body).toEqual({ error: { code: 404, message: `Workspace ${unknown} not found`, metadata: { field: 'workspace_id', location: 'querystring' } } })
  })

  it('refuses a bad list query, a bad update and the wrong key kind', async () => {
    const emu = await testEmulator()
    expect((await emu.get('/api/v1/byok?limit=101', emu.keys.management)).body).toEqual(fieldError('limit', 'must be <= 100', 'querystring'))
    expect((await emu.get('/api/v1/byok?provider=nobody', emu.keys.management)).body).toEqual(
      fieldError('provider', 'must be a provider slug of the document or of the catalog, such as openai, anthropic or amazon-bedrock', 'querystring'),
    )
    const id = (await create(emu, { provider: 'openai', key: SECRET })).body.data.id as string
    const bad = await emu.send('PATCH', `/api/v1/byok/${id}`, { key: '', name: 'kept?' }, emu.keys.management)
    expect(bad.body).toEqual(fieldError('key', 'must not be empty'))
    expect((await emu.get(`/api/v1/byok/${id}`, emu.keys.management)).body.data).toMatchObject({ name: null, label: 'sk-...AbCd' })
    const standard = await emu.get('/api/v1/byok', emu.keys.standard)
    expect(standard.status).toBe(401)
    expect((await emu.send('PATCH', '/api/v1/byok/not-an-id', { name: 'x' }, emu.keys.management)).status).toBe(404)
  })
})

describe('BYOK billing', () => {
  it('bills a call routed to a provider with a credential as BYOK: byok usage moves, usage and credits do not', async () => {
    const emu = await testEmulator()
    const hash = sha256Hex(emu.keys.standard)
    const before = await credits(emu)
    await create(emu, { provider: 'openai', key: SECRET })

    const embedded = await emu.send('POST', '/api/v1/embeddings', EMBEDDINGS, emu.keys.standard)
    expect(embedded.status).toBe(200)
    const chat = await emu.send('POST', '/api/v1/chat/completions', CHAT, emu.keys.standard)
    expect(chat.status).toBe(200)
    const cost = embedded.body.usage.cost + chat.body.usage.cost
    expect(cost).toBeGreaterThan(0)

    const key = await keyOf(emu, hash)
    expect(key).toMatchObject({ usage: 0, usage_daily: 0, usage_monthly: 0 })
    expect(key.byok_usage).toBeCloseTo(cost, 12)
    expect(key.byok_usage_daily).toBeCloseTo(cost, 12)
    expect(await credits(emu)).toEqual(before)
    // The generation says so, and so does every text surface's answer.
    expect((await emu.get(`/api/v1/generation?id=${chat.body.id}`, emu.keys.standard)).body.data.is_byok).toBe(true)
    expect(chat.body.usage.is_byok).toBe(true)
    const responses = await emu.send('POST', '/api/v1/responses', { model: CHAT.model, input: 'Hello' }, emu.keys.standard)
    expect(responses.body.usage.is_byok).toBe(true)
    const messages = await emu.send(
      'POST',
      '/api/v1/messages',
      { model: CHAT.model, max_tokens: 64, messages: [{ role: 'user', content: 'Hello' }] },
      emu.keys.standard,
    )
    expect(messages.body.usage.is_byok).toBe(true)
  })

  it('answers is_byok false for a call paid from credits', async () => {
    const emu = await testEmulator()
    const chat = await emu.send('POST', '/api/v1/chat/completions', CHAT, emu.keys.standard)
    expect(chat.body.usage.is_byok).toBe(false)
  })

  it('bills as usual where the credential does not apply: another provider, disabled, another key, another model', async () => {
    const emu = await testEmulator()
    const hash = sha256Hex(emu.keys.standard)
    const expectCredits = async () => {
      const res = await emu.send('POST', '/api/v1/embeddings', EMBEDDINGS, emu.keys.standard)
      expect(res.status).toBe(200)
      const key = await keyOf(emu, hash)
      expect(key.byok_usage).toBe(0)
      expect(key.usage).toBeGreaterThan(0)
    }
    await create(emu, { provider: 'azure', key: SECRET })
    await expectCredits()
    const id = (await create(emu, { provider: 'openai', key: SECRET, disabled: true })).body.data.id as string
    await expectCredits()
    const management = sha256Hex(emu.keys.management)
    await emu.send('PATCH', `/api/v1/byok/${id}`, { disabled: false, allowed_api_key_hashes: [management] }, emu.keys.management)
    await expectCredits()
    await emu.send('PATCH', `/api/v1/byok/${id}`, { allowed_api_key_hashes: null, allowed_models: ['openai/gpt-4o-mini'] }, emu.keys.management)
    await expectCredits()
    // Allowed at last: this call is BYOK.
    await emu.send('PATCH', `/api/v1/byok/${id}`, { allowed_models: ['openai/text-embedding-3-small'] }, emu.keys.management)
    expect((await emu.send('POST', '/api/v1/embeddings', EMBEDDINGS, emu.keys.standard)).status).toBe(200)
    expect((await keyOf(emu, hash)).byok_usage).toBeGreaterThan(0)
  })

  it('lets an account without credits call a provider it brings its own key for', async () => {
    const emu = await testEmulator()
    const broke = (await emu.send('POST', `${ADMIN}/accounts`, {})).body.data as { management_key: string; standard_key: string }
    const refused = await emu.send('POST', '/api/v1/embeddings', EMBEDDINGS, broke.standard_key)
    expect(refused.status).toBe(402)
    await create(emu, { provider: 'openai', key: SECRET }, broke.management_key)
    expect((await emu.send('POST', '/api/v1/embeddings', EMBEDDINGS, broke.standard_key)).status).toBe(200)
  })

  it("counts BYOK spend toward the key's limit only when include_byok_in_limit says so", async () => {
    const emu = await testEmulator()
    const hash = sha256Hex(emu.keys.standard)
    await create(emu, { provider: 'openai', key: SECRET })
    // A limit of one nano-dollar: spent by the first call, whatever it costs.
    expect((await emu.send('PATCH', `/api/v1/keys/${hash}`, { limit: 1e-9, include_byok_in_limit: false }, emu.keys.management)).status).toBe(200)
    for (let i = 0; i < 3; i++) expect((await emu.send('POST', '/api/v1/embeddings', EMBEDDINGS, emu.keys.standard)).status).toBe(200)
    expect((await keyOf(emu, hash)).limit_remaining).toBe(1e-9)

    await emu.send('PATCH', `/api/v1/keys/${hash}`, { include_byok_in_limit: true }, emu.keys.management)
    expect((await keyOf(emu, hash)).limit_remaining).toBe(0)
    const over = await emu.send('POST', '/api/v1/embeddings', EMBEDDINGS, emu.keys.standard)
    expect(over.status).toBe(402)
    expect(over.body.error.message).toMatch(/limit/i)
  })
})
