// The guardrails API over HTTP: CRUD, every validation rule, assignments and their semantics, and the
// guardrail filter on the caller's model list.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { sha256Hex } from '../../../src/emulator/core/rng.ts'
import type { CatalogDocument } from '../../../src/emulator/modules/catalog/catalog.schemas.ts'
import { listeningEmulator, testEmulator, TEST_START, type TestEmulator } from '../../helpers/emulator.ts'

const FIXTURE: CatalogDocument = JSON.parse(readFileSync(join(import.meta.dirname, '../../../fixtures/catalog/catalog.json'), 'utf8'))
const textModels = FIXTURE.models.filter((m) => m.architecture.output_modalities.includes('text'))
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

async function create(emu: TestEmulator, body: Record<string, unknown>) {
  return emu.send('POST', '/api/v1/guardrails', body, emu.keys.management)
}

async function seededKeys(emu: TestEmulator) {
  return (await emu.get('/api/v1/keys?include_disabled=true', emu.keys.management)).body.data as Array<{ hash: string; name: string; creator_user_id: string }>
}

describe('guardrail CRUD', () => {
  it('creates with 201, defaults for what was left out, and every field echoed', async () => {
    const emu = await testEmulator()
    const minimal = await create(emu, { name: 'Minimal' })
    expect(minimal.status).toBe(201)
    expect(minimal.body.data).toEqual({
      id: expect.stringMatching(UUID),
      name: 'Minimal',
      description: null,
      limit_usd: null,
      reset_interval: null,
      allowed_providers: null,
      ignored_providers: null,
      allowed_models: null,
      enforce_zdr: null,
      include_byok_in_budgets: false,
      workspace_id: expect.stringMatching(UUID),
      created_at: TEST_START,
      updated_at: null,
    })
    const full = await create(emu, {
      name: 'Production',
      description: 'Only the big three',
      limit_usd: 100,
      reset_interval: 'monthly',
      allowed_providers: ['openai', 'anthropic'],
      ignored_providers: ['azure'],
      allowed_models: ['openai/gpt-4.1'],
      enforce_zdr: true,
      include_byok_in_budgets: true,
      content_filters: [{ pattern: 'secret', action: 'block' }],
      id: 'ignored',
    })
    expect(full.body.data).toMatchObject({
      name: 'Production',
      description: 'Only the big three',
      limit_usd: 100,
      reset_interval: 'monthly',
      allowed_providers: ['openai', 'anthropic'],
      ignored_providers: ['azure'],
      allowed_models: ['openai/gpt-4.1'],
      enforce_zdr: true,
      include_byok_in_budgets: true,
      content_filters: [{ pattern: 'secret', action: 'block' }],
    })
    expect(full.body.data.id).not.toBe('ignored')
  })

  it.each([
    [{}, 'name', 'is required'],
    [{ name: '' }, 'name', 'must not be empty'],
    [{ name: 'x'.repeat(201) }, 'name', 'must be at most 200 characters'],
    [{ name: 7 }, 'name', 'must be a string'],
    [{ name: 'g', description: 'd'.repeat(1001) }, 'description', 'must be at most 1000 characters'],
    [{ name: 'g', description: 5 }, 'description', 'must be a string or null'],
    [{ name: 'g', limit_usd: -0.01 }, 'limit_usd', 'must be >= 0'],
    [{ name: 'g', limit_usd: '10' }, 'limit_usd', 'must be a number or null'],
    [{ name: 'g', reset_interval: 'hourly' }, 'reset_interval', 'must be one of daily, weekly, monthly, null'],
    [{ name: 'g', allowed_providers: 'openai' }, 'allowed_providers', 'must be an array or null'],
    [{ name: 'g', allowed_providers: ['openai', 3] }, 'allowed_providers[1]', 'must be a string'],
    [{ name: 'g', ignored_providers: {} }, 'ignored_providers', 'must be an array or null'],
    [{ name: 'g', allowed_models: [null] }, 'allowed_models[0]', 'must be a string'],
    [{ name: 'g', enforce_zdr: 'yes' }, 'enforce_zdr', 'must be a boolean or null'],
    // The real schema's minItems: 1 (an empty allow-list would block every model).
    [{ name: 'g', allowed_providers: [] }, 'allowed_providers', 'must not be empty'],
    [{ name: 'g', ignored_providers: [] }, 'ignored_providers', 'must not be empty'],
    [{ name: 'g', allowed_models: [] }, 'allowed_models', 'must not be empty'],
  ])('POST %j is a 400 naming the field', async (body, field, issue) => {
    const emu = await testEmulator()
    const res = await create(emu, body)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error: { code: 400, message: `Field \`${field}\` ${issue}`, metadata: { field, location: 'body', issue } } })
    expect((await emu.get('/api/v1/guardrails', emu.keys.management)).body.total_count).toBe(0)
  })

  it('gets, lists with total_count and paging, updates with replace semantics, and deletes', async () => {
    const emu = await testEmulator()
    const ids: string[] = []
    for (const name of ['a', 'b', 'c']) ids.push((await create(emu, { name, allowed_providers: ['openai', 'google'] })).body.data.id)
    const page = await emu.get('/api/v1/guardrails?offset=1&limit=1', emu.keys.management)
    expect(page.body).toMatchObject({ total_count: 3, data: [{ name: 'b' }] })
    expect((await emu.get(`/api/v1/guardrails/${ids[0]}`, emu.keys.management)).body.data.name).toBe('a')

    await emu.clock.advance('1h')
    const patched = await emu.send(
      'PATCH',
      `/api/v1/guardrails/${ids[0]}`,
      { allowed_providers: ['anthropic'], limit_usd: 5, reset_interval: 'daily' },
      emu.keys.management,
    )
    expect(patched.status).toBe(200)
    expect(patched.body.data).toMatchObject({
      name: 'a',
      allowed_providers: ['anthropic'],
      limit_usd: 5,
      reset_interval: 'daily',
      updated_at: '2026-03-04T11:00:00.000Z',
    })
    const cleared = await emu.send('PATCH', `/api/v1/guardrails/${ids[0]}`, { allowed_providers: null, limit_usd: null }, emu.keys.management)
    expect(cleared.body.data).toMatchObject({ allowed_providers: null, limit_usd: null, reset_interval: 'daily' })
    const badPatch = await emu.send('PATCH', `/api/v1/guardrails/${ids[0]}`, { name: '' }, emu.keys.management)
    expect(badPatch.status).toBe(400)
    expect(badPatch.body.error.message).toBe('Field `name` must not be empty')

    const deleted = await emu.send('DELETE', `/api/v1/guardrails/${ids[0]}`, undefined, emu.keys.management)
    expect(deleted.status).toBe(200)
    expect(deleted.body).toEqual({ deleted: true })
    expect((await emu.get(`/api/v1/guardrails/${ids[0]}`, emu.keys.management)).status).toBe(404)
    expect((await emu.get('/api/v1/guardrails', emu.keys.management)).body.total_count).toBe(2)
  })

  it.each([
    ['GET', ''],
    ['PATCH', ''],
    ['DELETE', ''],
    ['GET', '/assignments/keys'],
    ['POST', '/assignments/keys'],
    ['POST', '/assignments/keys/remove'],
    ['POST', '/assignments/members'],
    ['POST', '/assignments/members/remove'],
  ] as const)('%s an unknown or malformed id%s is a 404', async (method, suffix) => {
    const emu = await testEmulator()
    const body = suffix.includes('keys') ? { key_hashes: ['x'] } : suffix.includes('members') ? { member_user_ids: ['x'] } : method === 'PATCH' ? {} : undefined
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const res = await emu.send(method as 'POST', `/api/v1/guardrails/${id}${suffix}`, body, emu.keys.management)
      expect(res.status, id).toBe(404)
      expect(res.body).toEqual({ error: { code: 404, message: `Guardrail ${id} not found` } })
    }
  })

  it("another account's guardrail is as unknown as a missing one", async () => {
    const emu = await testEmulator()
    const other = (await emu.send('POST', '/_emulator/api/accounts', {})).body.data
    const theirs = (await emu.send('POST', '/api/v1/guardrails', { name: 'theirs' }, other.management_key)).body.data
    expect((await emu.get(`/api/v1/guardrails/${theirs.id}`, emu.keys.management)).status).toBe(404)
    expect((await emu.get('/api/v1/guardrails', emu.keys.management)).body.total_count).toBe(0)
  })

  it('needs a management key: 401 otherwise', async () => {
    const emu = await testEmulator()
    const res = await emu.send('POST', '/api/v1/guardrails', { name: 'x' }, emu.keys.standard)
    expect(res.status).toBe(401)
    expect(res.body.error.message).toBe('Only management keys can perform this operation')
    expect((await emu.get('/api/v1/guardrails')).status).toBe(401)
  })
})

describe('assignments', () => {
  it.each([
    ['keys', {}, 'key_hashes', 'is required'],
    ['keys', { key_hashes: [] }, 'key_hashes', 'must not be empty'],
    ['keys', { key_hashes: 'abc' }, 'key_hashes', 'must be an array'],
    ['keys', { key_hashes: [''] }, 'key_hashes[0]', 'must not be empty'],
    ['keys', { key_hashes: [1] }, 'key_hashes[0]', 'must be a string'],
    ['members', {}, 'member_user_ids', 'is required'],
    ['members', { member_user_ids: [] }, 'member_user_ids', 'must not be empty'],
    ['members/remove', { member_user_ids: [false] }, 'member_user_ids[0]', 'must be a string'],
    ['keys/remove', { key_hashes: null }, 'key_hashes', 'must be an array'],
  ])('/assignments/%s with %j is a 400 naming the field', async (path, body, field, issue) => {
    const emu = await testEmulator()
    const id = (await create(emu, { name: 'g' })).body.data.id
    const res = await emu.send('POST', `/api/v1/guardrails/${id}/assignments/${path}`, body, emu.keys.management)
    expect(res.status).toBe(400)
    expect(res.body.error).toEqual({ code: 400, message: `Field \`${field}\` ${issue}`, metadata: { field, location: 'body', issue } })
  })

  it('counts only what changed: repeats count 0, a key moves between guardrails, foreign keys are skipped', async () => {
    const emu = await testEmulator()
    const [a, b] = [(await create(emu, { name: 'a' })).body.data.id, (await create(emu, { name: 'b' })).body.data.id]
    const keys = await seededKeys(emu)
    const hashes = keys.slice(0, 3).map((k) => k.hash)
    const other = (await emu.send('POST', '/_emulator/api/accounts', {})).body.data
    const assign = (id: string, key_hashes: string[]) => emu.send('POST', `/api/v1/guardrails/${id}/assignments/keys`, { key_hashes }, emu.keys.management)

    expect((await assign(a, [...hashes, hashes[0]!, sha256Hex(other.standard_key), 'f'.repeat(64)])).body).toEqual({ assigned_count: 3 })
    expect((await assign(a, hashes)).body).toEqual({ assigned_count: 0 })
    expect((await assign(b, [hashes[0]!])).body).toEqual({ assigned_count: 1 })
    const underA = (await emu.get(`/api/v1/guardrails/${a}/assignments/keys`, emu.keys.management)).body
    expect(underA.total_count).toBe(2)
    expect(underA.data[0]).toMatchObject({ key_hash: hashes[1], guardrail_id: a, key_name: keys[1]!.name, key_label: expect.stringMatching(/^sk-gw-v1-/) })
    expect((await emu.get(`/api/v1/guardrails/${b}/assignments/keys`, emu.keys.management)).body.data.map((x: { key_hash: string }) => x.key_hash)).toEqual([
      hashes[0],
    ])

    const remove = await emu.send('POST', `/api/v1/guardrails/${a}/assignments/keys/remove`, { key_hashes: [hashes[0]!, hashes[1]!] }, emu.keys.management)
    expect(remove.body).toEqual({ unassigned_count: 1 })
    const again = await emu.send('POST', `/api/v1/guardrails/${a}/assignments/keys/remove`, { key_hashes: [hashes[1]!] }, emu.keys.management)
    expect(again.body).toEqual({ unassigned_count: 0 })
    const all = (await emu.get('/api/v1/guardrails/assignments/keys', emu.keys.management)).body
    expect(all.total_count).toBe(2)
  })

  it('assigns members of the account only, and deleting a guardrail removes its assignments', async () => {
    const emu = await testEmulator()
    const id = (await create(emu, { name: 'team' })).body.data.id
    const account = (await emu.get(`/_emulator/api/accounts/${(await emu.get('/_emulator/api/accounts')).body.data[0].id}`)).body.data
    const members = account.members.map((m: { id: string }) => m.id)
    const other = (await emu.send('POST', '/_emulator/api/accounts', {})).body.data
    const res = await emu.send(
      'POST',
      `/api/v1/guardrails/${id}/assignments/members`,
      { member_user_ids: [...members, other.members[0].id, 'user_nobody'] },
      emu.keys.management,
    )
    expect(res.body).toEqual({ assigned_count: members.length })
    const listed = (await emu.get(`/api/v1/guardrails/${id}/assignments/members`, emu.keys.management)).body
    expect(listed.data.map((m: { user_id: string }) => m.user_id)).toEqual(members)
    expect(listed.data[0]).toMatchObject({ guardrail_id: id, organization_id: account.id })
    expect(
      (await emu.send('POST', `/api/v1/guardrails/${id}/assignments/members/remove`, { member_user_ids: [members[0]] }, emu.keys.management)).body,
    ).toEqual({ unassigned_count: 1 })

    await emu.send('DELETE', `/api/v1/guardrails/${id}`, undefined, emu.keys.management)
    expect((await emu.get('/api/v1/guardrails/assignments/members', emu.keys.management)).body.total_count).toBe(0)
  })

  it('200 concurrent assignment requests leave consistent counts and no errors', async () => {
    const emu = await listeningEmulator()
    const guardrails: string[] = []
    for (const name of ['a', 'b', 'c', 'd']) guardrails.push((await create(emu, { name })).body.data.id)
    const hashes = (await seededKeys(emu)).map((k) => k.hash)
    const auth = { authorization: `Bearer ${emu.keys.management}`, 'content-type': 'application/json' }
    const responses = await Promise.all(
      Array.from({ length: 200 }, async (_, i) => {
        const target = guardrails[i % guardrails.length]!
        const remove = i % 5 === 4
        const res = await fetch(`${emu.url}/api/v1/guardrails/${target}/assignments/keys${remove ? '/remove' : ''}`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({ key_hashes: [hashes[i % hashes.length]!, hashes[(i + 1) % hashes.length]!] }),
        })
        return { status: res.status, body: (await res.json()) as Record<string, number> }
      }),
    )
    expect(responses.every((r) => r.status === 200)).toBe(true)
    // Every key is under at most one guardrail, and the listings agree with each other.
    const all = (await emu.get('/api/v1/guardrails/assignments/keys', emu.keys.management)).body.data as Array<{ key_hash: string; guardrail_id: string }>
    expect(new Set(all.map((a) => a.key_hash)).size).toBe(all.length)
    let listed = 0
    for (const id of guardrails) listed += (await emu.get(`/api/v1/guardrails/${id}/assignments/keys`, emu.keys.management)).body.total_count
    expect(listed).toBe(all.length)
    // What was assigned minus what was unassigned is what remains.
    const assigned = responses.reduce((n, r) => n + (r.body.assigned_count ?? 0), 0)
    const unassigned = responses.reduce((n, r) => n + (r.body.unassigned_count ?? 0), 0)
    const moves = assigned - unassigned - all.length
    expect(moves).toBeGreaterThanOrEqual(0)
  })
})

describe("guardrails narrow the caller's models", () => {
  const userModels = async (emu: TestEmulator, key: string) => ((await emu.get('/api/v1/models/user', key)).body.data as Array<{ id: string }>).map((m) => m.id)

  it('allowed_models, by id or canonical slug, for a key assigned directly', async () => {
    const emu = await testEmulator()
    const versioned = textModels.find((m) => m.canonical_slug !== m.id)!
    const id = (await create(emu, { name: 'two models', allowed_models: ['openai/gpt-4.1-mini', versioned.canonical_slug] })).body.data.id
    const hash = sha256Hex(emu.keys.standard)
    expect(await userModels(emu, emu.keys.standard)).toHaveLength(textModels.length)
    await emu.send('POST', `/api/v1/guardrails/${id}/assignments/keys`, { key_hashes: [hash] }, emu.keys.management)
    expect(await userModels(emu, emu.keys.standard)).toEqual(['openai/gpt-4.1-mini', versioned.id].sort())
    // Other keys are not affected.
    const keys = await seededKeys(emu)
    const ci = (await emu.get('/_emulator/api/accounts/' + (await emu.get('/_emulator/api/accounts')).body.data[0].id + '/keys')).body.data.find(
      (k: { hash: string }) => k.hash === keys[1]!.hash,
    )
    expect(await userModels(emu, ci.key)).toHaveLength(textModels.length)
  })

  it('allowed_providers, ignored_providers and enforce_zdr through the key member', async () => {
    const emu = await testEmulator()
    const member = (await seededKeys(emu)).find((k) => k.hash === sha256Hex(emu.keys.standard))!.creator_user_id
    const id = (await create(emu, { name: 'zdr', enforce_zdr: true, ignored_providers: ['OpenAI'] })).body.data.id
    await emu.send('POST', `/api/v1/guardrails/${id}/assignments/members`, { member_user_ids: [member] }, emu.keys.management)
    const expected = textModels.filter((m) => m.endpoints.some((e) => e.zdr && e.provider_name !== 'OpenAI')).map((m) => m.id)
    expect(await userModels(emu, emu.keys.standard)).toEqual(expected)

    await emu.send('PATCH', `/api/v1/guardrails/${id}`, { enforce_zdr: false, ignored_providers: null, allowed_providers: ['anthropic'] }, emu.keys.management)
    expect(await userModels(emu, emu.keys.standard)).toEqual(textModels.filter((m) => m.endpoints.some((e) => e.provider === 'anthropic')).map((m) => m.id))
  })
})

describe('GET /_emulator/api/accounts/:id/guardrails', () => {
  it("lists the account's guardrails with their assigned keys and members, as the gateway shows them", async () => {
    const emu = await testEmulator()
    const account = (await emu.get('/_emulator/api/accounts')).body.data[0]
    expect((await emu.get(`/_emulator/api/accounts/${account.id}/guardrails`)).body).toEqual({ data: [], total_count: 0 })

    const guardrail = (await create(emu, { name: 'Budget', limit_usd: 5, allowed_models: ['openai/text-embedding-3-small'] })).body.data
    await create(emu, { name: 'Unassigned' })
    const [key] = await seededKeys(emu)
    await emu.send('POST', `/api/v1/guardrails/${guardrail.id}/assignments/keys`, { key_hashes: [key!.hash] }, emu.keys.management)
    await emu.send('POST', `/api/v1/guardrails/${guardrail.id}/assignments/members`, { member_user_ids: [key!.creator_user_id] }, emu.keys.management)

    const res = await emu.get(`/_emulator/api/accounts/${account.id}/guardrails`)
    expect(res.status).toBe(200)
    expect(res.body.total_count).toBe(2)
    const [first, second] = res.body.data
    const keys = (await emu.get(`/api/v1/guardrails/${guardrail.id}/assignments/keys`, emu.keys.management)).body.data
    const members = (await emu.get(`/api/v1/guardrails/${guardrail.id}/assignments/members`, emu.keys.management)).body.data
    expect(first).toEqual({ ...(await emu.get(`/api/v1/guardrails/${guardrail.id}`, emu.keys.management)).body.data, keys, members })
    expect(first.keys).toMatchObject([{ key_hash: key!.hash, key_name: key!.name }])
    expect(first.members).toMatchObject([{ user_id: key!.creator_user_id }])
    expect(second).toMatchObject({ name: 'Unassigned', keys: [], members: [] })

    // Another account sees none of them; an unknown one is a 404.
    const other = (await emu.send('POST', '/_emulator/api/accounts', {})).body.data
    expect((await emu.get(`/_emulator/api/accounts/${other.id}/guardrails`)).body.data).toEqual([])
    expect((await emu.get('/_emulator/api/accounts/nope/guardrails')).status).toBe(404)
  })
})
