// The organization's directory over HTTP: its members, its SCIM groups (deterministic per seed and
// account) and SCIM group mappings (CRUD, every validation rule with status and body, another
// account's mapping or workspace as a 404 that changes nothing), and the mappings' place in the state
// (export, import, reset, account reset).
import { describe, expect, it } from 'vitest'
import { testEmulator, TEST_START, type TestEmulator } from '../../helpers/emulator.ts'

const ADMIN = '/_emulator/api'
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const NOBODY = '00000000-0000-4000-8000-000000000000'

interface Account {
  id: string
  workspace_id: string
  members: Array<{ id: string; name: string; email: string; role: string }>
}

async function seededAccount(emu: TestEmulator): Promise<Account> {
  const id = (await emu.get(`${ADMIN}/accounts`)).body.data[0].id as string
  return (await emu.get(`${ADMIN}/accounts/${id}`)).body.data as Account
}

async function groups(emu: TestEmulator, key = emu.keys.management): Promise<Array<{ id: string; display_name: string }>> {
  return (await emu.get('/api/v1/scim/groups?limit=100', key)).body.data
}

async function createMapping(emu: TestEmulator, body: Record<string, unknown>, key = emu.keys.management) {
  return emu.send('POST', '/api/v1/scim/group-mappings', body, key)
}

async function firstMapping(emu: TestEmulator): Promise<{ id: string; scim_group_id: string; workspace_id: string }> {
  const account = await seededAccount(emu)
  const [group] = await groups(emu)
  const res = await createMapping(emu, { scim_group_id: group!.id, workspace_id: account.workspace_id, role: 'member' })
  expect(res.status).toBe(201)
  return res.body.data
}

const fieldError = (field: string, location: string, message: string | RegExp) => ({
  error: { code: 400, message: typeof message === 'string' ? message : expect.stringMatching(message), metadata: expect.objectContaining({ field, location }) },
})

describe('organization members', () => {
  it("lists the account's members with first and last names, org roles and the total", async () => {
    const emu = await testEmulator()
    const account = await seededAccount(emu)
    const res = await emu.get('/api/v1/organization/members', emu.keys.management)
    expect(res.status).toBe(200)
    expect(res.body.total_count).toBe(account.members.length)
    expect(res.body.data).toHaveLength(account.members.length)
    res.body.data.forEach((member: Record<string, unknown>, i: number) => {
      const seeded = account.members[i]!
      const [first, ...rest] = seeded.name.split(' ')
      expect(member).toEqual({
        id: seeded.id,
        first_name: first,
        last_name: rest.length > 0 ? rest.join(' ') : null,
        email: seeded.email,
        role: seeded.role === 'admin' ? 'org:admin' : 'org:member',
      })
    })
    expect(res.body.data[0].role).toBe('org:admin')
  })

  it('pages with offset and limit; the total stays whole', async () => {
    const emu = await testEmulator()
    const all = (await emu.get('/api/v1/organization/members', emu.keys.management)).body
    const page = (await emu.get('/api/v1/organization/members?offset=1&limit=1', emu.keys.management)).body
    expect(page).toEqual({ data: [all.data[1]], total_count: all.total_count })
  })

  it('refuses a bad page and any key but a management key, naming what is wrong', async () => {
    const emu = await testEmulator()
    const over = await emu.get('/api/v1/organization/members?limit=101', emu.keys.management)
    expect(over.status).toBe(400)
    expect(over.body).toEqual(fieldError('limit', 'querystring', 'Query parameter `limit` must be <= 100'))
    const negative = await emu.get('/api/v1/organization/members?offset=-1', emu.keys.management)
    expect(negative.status).toBe(400)
    expect(negative.body).toEqual(fieldError('offset', 'querystring', /^Query parameter `offset` /))
    const standard = await emu.get('/api/v1/organization/members', emu.keys.standard)
    expect(standard.status).toBe(401)
    expect(standard.body).toEqual({ error: { code: 401, message: 'Only management keys can perform this operation' } })
    const none = await emu.get('/api/v1/organization/members')
    expect(none.status).toBe(401)
    expect(none.body).toEqual({ error: { code: 401, message: 'No auth credentials found' } })
  })
})

describe('SCIM groups', () => {
  it('are a directory of the account: the same for the same seed, another for another seed or account', async () => {
    const emu = await testEmulator()
    const account = await seededAccount(emu)
    const res = await emu.get('/api/v1/scim/groups', emu.keys.management)
    expect(res.status).toBe(200)
    expect(res.body.total_count).toBeGreaterThanOrEqual(4)
    expect(res.body.total_count).toBeLessThanOrEqual(9)
    for (const group of res.body.data) {
      expect(group).toEqual({
        id: expect.stringMatching(UUID),
        organization_id: account.id,
        external_id: group.external_id === null ? null : expect.stringMatching(/^00g[0-9A-Za-z]{17}$/),
        display_name: expect.any(String),
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      })
      expect(Date.parse(group.created_at)).toBeLessThan(Date.parse(TEST_START))
      expect(Date.parse(group.updated_at)).toBeGreaterThanOrEqual(Date.parse(group.created_at))
    }
    expect(new Set(res.body.data.map((g: { display_name: string }) => g.display_name)).size).toBe(res.body.total_count)
    const created = res.body.data.map((g: { created_at: string }) => g.created_at)
    expect([...created].sort()).toEqual(created)

    const again = await testEmulator()
    expect((await again.get('/api/v1/scim/groups', again.keys.management)).body).toEqual(res.body)
    const otherSeed = await testEmulator({ seed: 2 })
    expect((await otherSeed.get('/api/v1/scim/groups', otherSeed.keys.management)).body.data[0].id).not.toBe(res.body.data[0].id)
    const other = (await emu.send('POST', `${ADMIN}/accounts`, {})).body.data
    const theirs = await groups(emu, other.management_key)
    expect(theirs.map((g) => g.id)).not.toContain(res.body.data[0].id)
  })

  it('pages with offset and limit, and refuses a bad page', async () => {
    const emu = await testEmulator()
    const all = await groups(emu)
    const page = await emu.get('/api/v1/scim/groups?offset=2&limit=2', emu.keys.management)
    expect(page.body).toEqual({ data: all.slice(2, 4), total_count: all.length })
    const bad = await emu.get('/api/v1/scim/groups?limit=0', emu.keys.management)
    expect(bad.status).toBe(400)
    expect(bad.body).toEqual(fieldError('limit', 'querystring', 'Query parameter `limit` must be >= 1'))
    const standard = await emu.get('/api/v1/scim/groups', emu.keys.standard)
    expect(standard.status).toBe(401)
  })
})

describe('SCIM group mappings', () => {
  it('creates (201), reads, lists, changes the role and deletes a mapping', async () => {
    const emu = await testEmulator()
    const account = await seededAccount(emu)
    const [group, second] = await groups(emu)
    const created = await createMapping(emu, { scim_group_id: group!.id, workspace_id: account.workspace_id, role: 'member' })
    expect(created.status).toBe(201)
    const mapping = created.body.data
    expect(mapping).toEqual({
      id: expect.stringMatching(UUID),
      organization_id: account.id,
      scim_group_id: group!.id,
      workspace_id: account.workspace_id,
      role: 'member',
      created_at: TEST_START,
      updated_at: TEST_START,
    })
    expect((await emu.get(`/api/v1/scim/group-mappings/${mapping.id}`, emu.keys.management)).body).toEqual({ data: mapping })

    await emu.send('POST', `${ADMIN}/clock/advance`, { ms: 60_000 })
    const changed = await emu.send('PATCH', `/api/v1/scim/group-mappings/${mapping.id}`, { role: 'admin' }, emu.keys.management)
    expect(changed.status).toBe(200)
    expect(changed.body.data).toEqual({ ...mapping, role: 'admin', updated_at: '2026-03-04T10:01:00.000Z' })

    const workspace = (await emu.send('POST', '/api/v1/workspaces', { name: 'Research', slug: 'research' }, emu.keys.management)).body.data
    const elsewhere = (await createMapping(emu, { scim_group_id: second!.id, workspace_id: workspace.id, role: 'admin' })).body.data
    const list = await emu.get('/api/v1/scim/group-mappings', emu.keys.management)
    expect(list.body).toEqual({ data: [changed.body.data, elsewhere], total_count: 2 })
    expect((await emu.get('/api/v1/scim/group-mappings?offset=1&limit=1', emu.keys.management)).body).toEqual({ data: [elsewhere], total_count: 2 })

    const deleted = await emu.send('DELETE', `/api/v1/scim/group-mappings/${mapping.id}?keep_members=true`, undefined, emu.keys.management)
    expect(deleted.status).toBe(200)
    expect(deleted.body).toEqual({ deleted: true })
    const gone = await emu.get(`/api/v1/scim/group-mappings/${mapping.id}`, emu.keys.management)
    expect(gone.status).toBe(404)
    expect(gone.body).toEqual({ error: { code: 404, message: `SCIM group mapping ${mapping.id} not found` } })
    const again = await emu.send('DELETE', `/api/v1/scim/group-mappings/${mapping.id}?keep_members=false`, undefined, emu.keys.management)
    expect(again.status).toBe(404)
  })

  it('refuses each bad body with a 400 naming the field, and creates nothing', async () => {
    const emu = await testEmulator()
    const account = await seededAccount(emu)
    const [group] = await groups(emu)
    const valid = { scim_group_id: group!.id, workspace_id: account.workspace_id, role: 'member' }
    const cases: Array<[Record<string, unknown>, string, string | RegExp]> = [
      [{ ...valid, role: 'owner' }, 'role', /^Field `role` must be one of/],
      [{ ...valid, scim_group_id: 'not-a-uuid' }, 'scim_group_id', 'Field `scim_group_id` is not valid (must match format "uuid")'],
      [{ ...valid, workspace_id: 42 }, 'workspace_id', 'Field `workspace_id` must be a string'],
      [{ scim_group_id: group!.id, role: 'member' }, 'workspace_id', 'Field `workspace_id` is required'],
      [{ scim_group_id: group!.id, workspace_id: account.workspace_id }, 'role', 'Field `role` is required'],
    ]
    for (const [body, field, message] of cases) {
      const res = await createMapping(emu, body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body).toEqual(fieldError(field, 'body', message))
    }
    const malformed = await emu.request({
      method: 'POST',
      url: '/api/v1/scim/group-mappings',
      headers: { authorization: `Bearer ${emu.keys.management}`, 'content-type': 'application/json' },
      payload: '{"role": ',
    })
    expect(malformed.status).toBe(400)
    expect((await emu.get('/api/v1/scim/group-mappings', emu.keys.management)).body.total_count).toBe(0)
  })

  it('answers 404 for a group outside the directory and a workspace of another account, 409 for a pair mapped twice', async () => {
    const emu = await testEmulator()
    const account = await seededAccount(emu)
    const [group] = await groups(emu)
    const unknownGroup = await createMapping(emu, { scim_group_id: NOBODY, workspace_id: account.workspace_id, role: 'member' })
    expect(unknownGroup.status).toBe(404)
    expect(unknownGroup.body).toEqual({
      error: { code: 404, message: `SCIM group ${NOBODY} not found`, metadata: { field: 'scim_group_id', location: 'body' } },
    })

    const other = (await emu.send('POST', `${ADMIN}/accounts`, {})).body.data
    const theirWorkspace = await createMapping(emu, { scim_group_id: group!.id, workspace_id: other.workspace_id, role: 'member' })
    expect(theirWorkspace.status).toBe(404)
    expect(theirWorkspace.body).toEqual({
      error: { code: 404, message: `Workspace ${other.workspace_id} not found`, metadata: { field: 'workspace_id', location: 'body' } },
    })
    // Another account's group is as unknown as none.
    const theirGroup = (await groups(emu, other.management_key))[0]!
    expect((await createMapping(emu, { scim_group_id: theirGroup.id, workspace_id: account.workspace_id, role: 'member' })).status).toBe(404)

    const first = await createMapping(emu, { scim_group_id: group!.id, workspace_id: account.workspace_id, role: 'member' })
    const twice = await createMapping(emu, { scim_group_id: group!.id, workspace_id: account.workspace_id, role: 'admin' })
    expect(twice.status).toBe(409)
    expect(twice.body).toEqual({
      error: {
        code: 409,
        message: `SCIM group ${group!.id} is already mapped to workspace ${account.workspace_id} (mapping ${first.body.data.id}): change its role with PATCH instead`,
        metadata: { field: 'scim_group_id', location: 'body', mapping_id: first.body.data.id },
      },
    })
    expect((await emu.get('/api/v1/scim/group-mappings', emu.keys.management)).body.data).toEqual([first.body.data])
  })

  it("keeps another account's mappings out of reach: 404 on read, change and delete, and nothing changes", async () => {
    const emu = await testEmulator()
    const mapping = await firstMapping(emu)
    const other = (await emu.send('POST', `${ADMIN}/accounts`, {})).body.data
    const key = other.management_key
    expect((await emu.get(`/api/v1/scim/group-mappings/${mapping.id}`, key)).status).toBe(404)
    expect((await emu.send('PATCH', `/api/v1/scim/group-mappings/${mapping.id}`, { role: 'admin' }, key)).status).toBe(404)
    expect((await emu.send('DELETE', `/api/v1/scim/group-mappings/${mapping.id}?keep_members=true`, undefined, key)).status).toBe(404)
    expect((await emu.get('/api/v1/scim/group-mappings', key)).body).toEqual({ data: [], total_count: 0 })
    expect((await emu.get(`/api/v1/scim/group-mappings/${mapping.id}`, emu.keys.management)).body.data.role).toBe('member')
  })

  it('refuses a bad role change and a delete without keep_members (which has no default), naming the field', async () => {
    const emu = await testEmulator()
    const mapping = await firstMapping(emu)
    const badRole = await emu.send('PATCH', `/api/v1/scim/group-mappings/${mapping.id}`, { role: 'owner' }, emu.keys.management)
    expect(badRole.status).toBe(400)
    expect(badRole.body).toEqual(fieldError('role', 'body', /^Field `role` must be one of/))
    const noRole = await emu.send('PATCH', `/api/v1/scim/group-mappings/${mapping.id}`, {}, emu.keys.management)
    expect(noRole.status).toBe(400)
    expect(noRole.body).toEqual(fieldError('role', 'body', 'Field `role` is required'))

    const noKeep = await emu.send('DELETE', `/api/v1/scim/group-mappings/${mapping.id}`, undefined, emu.keys.management)
    expect(noKeep.status).toBe(400)
    expect(noKeep.body).toEqual(fieldError('keep_members', 'querystring', 'Query parameter `keep_members` is required'))
    const badKeep = await emu.send('DELETE', `/api/v1/scim/group-mappings/${mapping.id}?keep_members=maybe`, undefined, emu.keys.management)
    expect(badKeep.status).toBe(400)
    expect(badKeep.body).toEqual(fieldError('keep_members', 'querystring', 'Query parameter `keep_members` must be a boolean'))
    expect((await emu.get(`/api/v1/scim/group-mappings/${mapping.id}`, emu.keys.management)).status).toBe(200)
  })

  it('take a management key', async () => {
    const emu = await testEmulator()
    const res = await emu.get('/api/v1/scim/group-mappings', emu.keys.standard)
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ error: { code: 401, message: 'Only management keys can perform this operation' } })
  })
})

describe('mappings in the state', () => {
  it('round-trip through export and import, go on reset, and go with their account on an account reset', async () => {
    const emu = await testEmulator()
    const account = await seededAccount(emu)
    const mapping = await firstMapping(emu)
    const exported = (await emu.get(`${ADMIN}/export`)).body
    expect(exported.tables.scim_group_mappings).toHaveLength(1)

    await emu.send('POST', `${ADMIN}/reset`, {})
    expect((await emu.get('/api/v1/scim/group-mappings', emu.keys.management)).body.total_count).toBe(0)
    const imported = await emu.send('POST', `${ADMIN}/import`, exported)
    expect(imported.status).toBe(200)
    expect((await emu.get(`/api/v1/scim/group-mappings/${mapping.id}`, emu.keys.management)).body.data).toEqual(mapping)

    const reset = await emu.send('POST', `${ADMIN}/accounts/${account.id}/reset`, {})
    expect(reset.status).toBe(200)
    expect((await emu.get('/api/v1/scim/group-mappings', emu.keys.management)).body.total_count).toBe(0)
  })
})
