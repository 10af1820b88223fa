// The workspaces API over HTTP: CRUD by id or slug, the default workspace's rules, every validation
// rule (status and body), members, and another account's workspace as a 404 that changes nothing.
import { describe, expect, it } from 'vitest'
import { testEmulator, TEST_START } from '../../helpers/emulator.ts'
import { ADMIN, createWorkspace, keyInWorkspace, seededAccount, UUID, WS } from './helpers.ts'

describe('workspace CRUD', () => {
  it('lists the default workspace with every field the document declares', async () => {
    const emu = await testEmulator()
    const account = await seededAccount(emu)
    const res = await emu.get(WS, emu.keys.management)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      data: [
        {
          id: account.workspace_id,
          name: 'Default Workspace',
          slug: 'default',
          description: null,
          default_guardrail_id: expect.stringMatching(UUID),
          default_text_model: null,
          default_image_model: null,
          default_provider_sort: null,
          include_byok_in_budgets: false,
          io_logging_api_key_ids: null,
          io_logging_sampling_rate: 1,
          is_data_discount_logging_enabled: true,
          is_observability_broadcast_enabled: false,
          is_observability_io_logging_enabled: false,
          created_at: TEST_START,
          updated_at: null,
          created_by: account.members[0]!.id,
        },
      ],
      total_count: 1,
    })
  })

  it('creates (201), reads by id and by slug, updates, lists in pages and deletes', async () => {
    const emu = await testEmulator()
    const account = await seededAccount(emu)
    const created = await emu.send(
      'POST',
      WS,
      {
        name: 'Production',
        slug: 'production',
        description: 'Production environment workspace',
        default_text_model: 'openai/gpt-4o',
        default_image_model: 'openai/dall-e-3',
        default_provider_sort: 'price',
        io_logging_api_key_ids: [1, 2],
        io_logging_sampling_rate: 0.5,
        is_data_discount_logging_enabled: false,
        is_observability_broadcast_enabled: true,
        is_observability_io_logging_enabled: true,
      },
      emu.keys.management,
    )
    expect(created.status).toBe(201)
    const workspace = created.body.data
    expect(workspace).toEqual({
      id: expect.stringMatching(UUID),
      name: 'Production',
      slug: 'production',
      description: 'Production environment workspace',
      default_guardrail_id: expect.stringMatching(UUID),
      default_text_model: 'openai/gpt-4o',
      default_image_model: 'openai/dall-e-3',
      default_provider_sort: 'price',
      include_byok_in_budgets: false,
      io_logging_api_key_ids: [1, 2],
      io_logging_sampling_rate: 0.5,
      is_data_discount_logging_enabled: false,
      is_observability_broadcast_enabled: true,
      is_observability_io_logging_enabled: true,
      created_at: TEST_START,
      updated_at: null,
      created_by: account.members[0]!.id,
    })
    expect(workspace.id).not.toBe(account.workspace_id)
    expect(workspace.default_guardrail_id).not.toBe(workspace.id)

    expect((await emu.get(`${WS}/${workspace.id}`, emu.keys.management)).body).toEqual({ data: workspace })
    expect((await emu.get(`${WS}/production`, emu.keys.management)).body).toEqual({ data: workspace })
    expect((await emu.get(`${WS}/${workspace.id.toUpperCase()}`, emu.keys.management)).body).toEqual({ data: workspace })

    await emu.send('POST', `${ADMIN}/clock/advance`, { by: '1h' })
    const updated = await emu.send(
      'PATCH',
      `${WS}/production`,
      { name: 'Prod', slug: 'prod', description: null, io_logging_api_key_ids: null, default_provider_sort: null },
      emu.keys.management,
    )
    expect(updated.status).toBe(200)
    expect(updated.body.data).toEqual({
      ...workspace,
      name: 'Prod',
      slug: 'prod',
      description: null,
      io_logging_api_key_ids: null,
      default_provider_sort: null,
      updated_at: '2026-03-04T11:00:00.000Z',
    })
    expect((await emu.get(`${WS}/production`, emu.keys.management)).status).toBe(404)
    // An empty patch changes nothing but the time it was last updated.
    expect((await emu.send('PATCH', `${WS}/prod`, {}, emu.keys.management)).body.data).toEqual(updated.body.data)

    await createWorkspace(emu, { name: 'Staging', slug: 'staging' })
    const page = await emu.get(`${WS}?offset=1&limit=1`, emu.keys.management)
    expect(page.body.total_count).toBe(3)
    expect(page.body.data.map((w: { slug: string }) => w.slug)).toEqual(['prod'])

    expect((await emu.send('DELETE', `${WS}/${workspace.id}`, undefined, emu.keys.management)).body).toEqual({ deleted: true })
    const gone = await emu.get(`${WS}/${workspace.id}`, emu.keys.management)
    expect(gone.status).toBe(404)
    expect(gone.body).toEqual({ error: { code: 404, message: `Workspace ${workspace.id} not found` } })
    expect((await emu.get(WS, emu.keys.management)).body.data.map((w: { slug: string }) => w.slug)).toEqual(['default', 'staging'])
  })

  it('gives the same ids for the same seed and calls', async () => {
    const ids = async () => {
      const emu = await testEmulator()
      return [(await createWorkspace(emu, { name: 'A', slug: 'a' })).id, (await emu.get(WS, emu.keys.management)).body.data[0].default_guardrail_id]
    }
    expect(await ids()).toEqual(await ids())
  })

  it('takes a management key: a standard key and no key get 401', async () => {
    const emu = await testEmulator()
    expect(await emu.get(WS, emu.keys.standard)).toMatchObject({
      status: 401,
      body: { error: { code: 401, message: 'Only management keys can perform this operation' } },
    })
    expect((await emu.get(WS)).status).toBe(401)
  })
})

describe('the default workspace', () => {
  it('is the account workspace_id, cannot be deleted (403), and can be renamed', async () => {
    const emu = await testEmulator()
    const account = await seededAccount(emu)
    const refused = await emu.send('DELETE', `${WS}/${account.workspace_id}`, undefined, emu.keys.management)
    expect(refused.status).toBe(403)
    expect(refused.body).toEqual({
      error: { code: 403, message: "The default workspace cannot be deleted: it is where the account's keys and settings go when no workspace is named" },
    })
    // The client's confirmation flag changes nothing here.
    expect((await emu.send('DELETE', `${WS}/default?confirm_default_workspace_deletion=true`, undefined, emu.keys.management)).status).toBe(403)
    const renamed = await emu.send('PATCH', `${WS}/default`, { name: 'Main', slug: 'main' }, emu.keys.management)
    expect(renamed.body.data).toMatchObject({ id: account.workspace_id, name: 'Main', slug: 'main' })
    expect((await emu.get(`${WS}/${account.workspace_id}`, emu.keys.management)).body.data.slug).toBe('main')
  })

  it('exists for every new account, with its own id', async () => {
    const emu = await testEmulator()
    const created = (await emu.send('POST', `${ADMIN}/accounts`, { name: 'Other' })).body.data
    const list = await emu.get(WS, created.management_key)
    expect(list.body.total_count).toBe(1)
    expect(list.body.data[0]).toMatchObject({ id: created.workspace_id, slug: 'default', created_by: created.members[0].id })
    expect(created.workspace_id).not.toBe((await seededAccount(emu)).workspace_id)
  })

  it('refuses to delete a workspace that still holds BYOK credentials or presets, naming them, and changes nothing', async () => {
    const emu = await testEmulator()
    const workspace = await createWorkspace(emu, { name: 'Team', slug: 'team' })
    const byok = await emu.send(
      'POST',
      '/api/v1/byok',
      { provider: 'anthropic', key: 'sk-ant-team-0123456789', workspace_id: workspace.id },
      emu.keys.management,
    )
    expect(byok.status).toBe(201)
    const refused = await emu.send('DELETE', `${WS}/team`, undefined, emu.keys.management)
    expect(refused.status).toBe(400)
    expect(refused.body.error.message).toBe('Workspace team still holds 1 BYOK credentials: delete or move them first')
    expect((await emu.get(`${WS}/team`, emu.keys.management)).status).toBe(200)
    expect((await emu.send('DELETE', `/api/v1/byok/${byok.body.data.id}`, undefined, emu.keys.management)).status).toBe(200)
    expect((await emu.send('DELETE', `${WS}/team`, undefined, emu.keys.management)).status).toBe(200)
  })

  it('refuses to delete a workspace that holds keys (400), then deletes it once they are gone', async () => {
    const emu = await testEmulator()
    const account = await seededAccount(emu)
    const workspace = await createWorkspace(emu, { name: 'Team', slug: 'team' })
    const key = keyInWorkspace(emu, account.id, workspace.id, account.members[1]!.id)
    const refused = await emu.send('DELETE', `${WS}/team`, undefined, emu.keys.management)
    expect(refused.status).toBe(400)
    expect(refused.body).toEqual({
      error: {
        code: 400,
        message: 'Workspace team has 1 API key: workspaces with API keys cannot be deleted; delete the keys first',
        metadata: { workspace: 'team', api_keys: 1 },
      },
    })
    expect((await emu.get(`${WS}/team`, emu.keys.management)).status).toBe(200)
    expect((await emu.send('DELETE', `${ADMIN}/accounts/${account.id}/keys/${key.hash}`)).status).toBe(200)
    expect((await emu.send('DELETE', `${WS}/team`, undefined, emu.keys.management)).body).toEqual({ deleted: true })
  })
})

describe('bad input: a 400 naming the field, and nothing stored', () => {
  const field = (name: string, issue: string) => ({ code: 400, message: `Field \`${name}\` ${issue}`, metadata: { field: name, location: 'body', issue } })
  const cases: Array<[string, Record<string, unknown>, ReturnType<typeof field>]> = [
    ['no name', { slug: 'x' }, field('name', 'is required')],
    ['no slug', { name: 'x' }, field('slug', 'is required')],
    ['an empty name', { name: '', slug: 'x' }, field('name', 'must not be empty')],
    ['a name over 100 characters', { name: 'n'.repeat(101), slug: 'x' }, field('name', 'must be at most 100 characters')],
    ['a slug with capitals', { name: 'x', slug: 'Prod' }, field('slug', 'is not valid (must match pattern "^[a-z0-9]+(?:-[a-z0-9]+)*$")')],
    ['a slug with a trailing hyphen', { name: 'x', slug: 'prod-' }, field('slug', 'is not valid (must match pattern "^[a-z0-9]+(?:-[a-z0-9]+)*$")')],
    ['a slug over 50 characters', { name: 'x', slug: 's'.repeat(51) }, field('slug', 'must be at most 50 characters')],
    ['a description over 500 characters', { name: 'x', slug: 'x', description: 'd'.repeat(501) }, field('description', 'must be at most 500 characters')],
    ['a sampling rate of 0', { name: 'x', slug: 'x', io_logging_sampling_rate: 0 }, field('io_logging_sampling_rate', 'must be >= 0.0001')],
    ['a sampling rate over 1', { name: 'x', slug: 'x', io_logging_sampling_rate: 1.5 }, field('io_logging_sampling_rate', 'must be <= 1')],
    ['a key id that is no integer', { name: 'x', slug: 'x', io_logging_api_key_ids: ['a'] }, field('io_logging_api_key_ids[0]', 'must be an integer')],
    [
      'an unknown provider sort',
      { name: 'x', slug: 'x', default_provider_sort: 'cheapest' },
      field('default_provider_sort', 'must be one of price, throughput, latency, exacto, null'),
    ],
    [
      'a flag as a string',
      { name: 'x', slug: 'x', is_observability_broadcast_enabled: 'yes' },
      field('is_observability_broadcast_enabled', 'must be a boolean'),
    ],
    [
      'a text model the catalog lacks',
      { name: 'x', slug: 'x', default_text_model: 'acme/nothing' },
      field('default_text_model', 'must name a model of the catalog: acme/nothing is not a valid model ID'),
    ],
    [
      'an image model that draws nothing',
      { name: 'x', slug: 'x', default_image_model: 'openai/gpt-4o-mini' },
      field('default_image_model', 'must name a model that outputs images: openai/gpt-4o-mini is not a valid model ID'),
    ],
    [
      'a text model that writes no text',
      { name: 'x', slug: 'x', default_text_model: 'openai/text-embedding-3-small' },
      field('default_text_model', 'must name a model that outputs text: openai/text-embedding-3-small is not a valid model ID'),
    ],
    ['the slug of the default workspace', { name: 'x', slug: 'default' }, field('slug', 'is already the slug of another workspace of this account (default)')],
  ]

  it.each(cases)('create with %s', async (_name, body, error) => {
    const emu = await testEmulator()
    const res = await emu.send('POST', WS, body, emu.keys.management)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error })
    expect((await emu.get(WS, emu.keys.management)).body.total_count).toBe(1)
  })

  it('update with a taken slug, or a bad value, changes nothing', async () => {
    const emu = await testEmulator()
    await createWorkspace(emu, { name: 'A', slug: 'a' })
    const taken = await emu.send('PATCH', `${WS}/a`, { name: 'renamed', slug: 'default' }, emu.keys.management)
    expect(taken.status).toBe(400)
    expect(taken.body.error.message).toBe('Field `slug` is already the slug of another workspace of this account (default)')
    const bad = await emu.send('PATCH', `${WS}/a`, { name: 'renamed', io_logging_sampling_rate: 2 }, emu.keys.management)
    expect(bad.body.error.metadata.field).toBe('io_logging_sampling_rate')
    expect((await emu.get(`${WS}/a`, emu.keys.management)).body.data).toMatchObject({ name: 'A', slug: 'a', updated_at: null })
    // A workspace keeps its own slug.
    expect((await emu.send('PATCH', `${WS}/a`, { slug: 'a' }, emu.keys.management)).status).toBe(200)
  })

  it('a malformed body, and bad paging', async () => {
    const emu = await testEmulator()
    const malformed = await emu.request({
      method: 'POST',
      url: WS,
      headers: { authorization: `Bearer ${emu.keys.management}`, 'content-type': 'application/json' },
      payload: '{"name": ',
    })
    expect(malformed.status).toBe(400)
    expect(malformed.body.error.message).toMatch(/^Malformed JSON body/)
    const limit = await emu.get(`${WS}?limit=101`, emu.keys.management)
    expect(limit.body).toEqual({
      error: { code: 400, message: 'Query parameter `limit` must be <= 100', metadata: { field: 'limit', location: 'querystring', issue: 'must be <= 100' } },
    })
    expect((await emu.get(`${WS}?offset=-1`, emu.keys.management)).body.error.message).toBe('Query parameter `offset` must be >= 0')
  })
})

describe("another account's workspace", () => {
  it('is a 404 for every operation, and changes nothing', async () => {
    const emu = await testEmulator()
    const other = (await emu.send('POST', `${ADMIN}/accounts`, { name: 'Other' })).body.data
    const theirs = await createWorkspace(emu, { name: 'Theirs', slug: 'theirs' }, other.management_key)
    const before = (await emu.get(`${ADMIN}/export`)).body.tables
    const paths = [theirs.id, other.workspace_id]
    for (const id of paths) {
      const calls: Array<[method: 'GET' | 'PATCH' | 'DELETE' | 'PUT' | 'POST', url: string, body?: unknown]> = [
        ['GET', `${WS}/${id}`],
        ['PATCH', `${WS}/${id}`, { name: 'mine' }],
        ['DELETE', `${WS}/${id}`],
        ['GET', `${WS}/${id}/budgets`],
        ['GET', `${WS}/${id}/budgets/monthly`],
        ['PUT', `${WS}/${id}/budgets/monthly`, { limit_usd: 1 }],
        ['DELETE', `${WS}/${id}/budgets/monthly`],
        ['GET', `${WS}/${id}/members`],
        ['POST', `${WS}/${id}/members/add`, { user_ids: [other.members[0].id] }],
        ['POST', `${WS}/${id}/members/remove`, { user_ids: [other.members[0].id] }],
      ]
      for (const [method, url, body] of calls) {
        const res = method === 'GET' ? await emu.get(url, emu.keys.management) : await emu.send(method, url, body, emu.keys.management)
        expect([method, url, res.status, res.body]).toEqual([method, url, 404, { error: { code: 404, message: `Workspace ${id} not found` } }])
      }
    }
    // Their slug names nothing in this account.
    expect((await emu.get(`${WS}/theirs`, emu.keys.management)).status).toBe(404)
    expect((await emu.get(`${ADMIN}/export`)).body.tables).toEqual(before)
  })
})

describe('members', () => {
  it("of the default workspace are every member of the account, with the account's roles", async () => {
    const emu = await testEmulator()
    const account = await seededAccount(emu)
    const res = await emu.get(`${WS}/default/members`, emu.keys.management)
    expect(res.status).toBe(200)
    expect(res.body.total_count).toBe(3)
    expect(res.body.data).toEqual(
      account.members.map((m) => ({
        id: expect.stringMatching(UUID),
        workspace_id: account.workspace_id,
        user_id: m.id,
        role: m.role,
        created_at: TEST_START,
      })),
    )
    const page = await emu.get(`${WS}/default/members?offset=2&limit=2`, emu.keys.management)
    expect(page.body).toEqual({ data: [res.body.data[2]], total_count: 3 })
    // Adding changes nothing (they are all in it); removing is refused.
    expect((await emu.send('POST', `${WS}/default/members/add`, { user_ids: [account.members[1]!.id] }, emu.keys.management)).body).toEqual({
      data: [],
      added_count: 0,
    })
    const remove = await emu.send('POST', `${WS}/default/members/remove`, { user_ids: [account.members[1]!.id] }, emu.keys.management)
    expect(remove.status).toBe(400)
    expect(remove.body.error).toEqual({
      code: 400,
      message: "Field `user_ids` cannot be removed from the default workspace: its members are all of the account's members",
      metadata: { field: 'user_ids', location: 'body', issue: "cannot be removed from the default workspace: its members are all of the account's members" },
    })
  })

  it('of another workspace: its creator, then those added; a repeat adds none; removal counts what it removed', async () => {
    const emu = await testEmulator()
    const account = await seededAccount(emu)
    const [admin, lukas, mei] = [0, 1, 2].map((i) => ({ id: account.members[i]!.id })) as [{ id: string }, { id: string }, { id: string }]
    const workspace = await createWorkspace(emu, { name: 'Team', slug: 'team' })
    const initial = await emu.get(`${WS}/team/members`, emu.keys.management)
    expect(initial.body).toEqual({
      data: [{ id: expect.stringMatching(UUID), workspace_id: workspace.id, user_id: admin.id, role: 'admin', created_at: TEST_START }],
      total_count: 1,
    })

    await emu.send('POST', `${ADMIN}/clock/advance`, { by: '1m' })
    const added = await emu.send('POST', `${WS}/team/members/add`, { user_ids: [lukas.id, mei.id, lukas.id, admin.id] }, emu.keys.management)
    expect(added.status).toBe(200)
    expect(added.body).toEqual({
      added_count: 2,
      data: [lukas, mei].map((m) => ({
        id: expect.stringMatching(UUID),
        workspace_id: workspace.id,
        user_id: m.id,
        role: 'member',
        created_at: '2026-03-04T10:01:00.000Z',
      })),
    })
    expect((await emu.send('POST', `${WS}/${workspace.id}/members/add`, { user_ids: [mei.id] }, emu.keys.management)).body).toEqual({
      data: [],
      added_count: 0,
    })
    const listed = await emu.get(`${WS}/team/members?limit=2`, emu.keys.management)
    expect(listed.body.total_count).toBe(3)
    expect(listed.body.data.map((m: { user_id: string }) => m.user_id)).toEqual([admin.id, lukas.id])

    const removed = await emu.send('POST', `${WS}/team/members/remove`, { user_ids: [lukas.id, 'user_nobody', lukas.id] }, emu.keys.management)
    expect(removed.body).toEqual({ removed_count: 1 })
    expect((await emu.get(`${WS}/team/members`, emu.keys.management)).body.data.map((m: { user_id: string }) => m.user_id)).toEqual([admin.id, mei.id])
  })

  it('refuses a user who is no member of the account, naming the item, and adds none of the list', async () => {
    const emu = await testEmulator()
    const account = await seededAccount(emu)
    const other = (await emu.send('POST', `${ADMIN}/accounts`, { name: 'Other' })).body.data
    await createWorkspace(emu, { name: 'Team', slug: 'team' })
    for (const [stranger, index] of [
      ['user_nobody', 1],
      [other.members[0].id, 1],
    ] as const) {
      const res = await emu.send('POST', `${WS}/team/members/add`, { user_ids: [account.members[1]!.id, stranger] }, emu.keys.management)
      const issue = `is not a member of this account (${stranger})`
      expect(res.status).toBe(400)
      expect(res.body).toEqual({
        error: { code: 400, message: `Field \`user_ids[${index}]\` ${issue}`, metadata: { field: `user_ids[${index}]`, location: 'body', issue } },
      })
    }
    expect((await emu.get(`${WS}/team/members`, emu.keys.management)).body.total_count).toBe(1)
  })

  it('refuses to remove a member who has keys in the workspace', async () => {
    const emu = await testEmulator()
    const account = await seededAccount(emu)
    const workspace = await createWorkspace(emu, { name: 'Team', slug: 'team' })
    const lukas = account.members[1]!.id
    await emu.send('POST', `${WS}/team/members/add`, { user_ids: [lukas] }, emu.keys.management)
    keyInWorkspace(emu, account.id, workspace.id, lukas)
    const res = await emu.send('POST', `${WS}/team/members/remove`, { user_ids: [lukas] }, emu.keys.management)
    const issue = `has 1 API key in this workspace (${lukas}): members with API keys in a workspace cannot be removed from it`
    expect(res.body).toEqual({ error: { code: 400, message: `Field \`user_ids[0]\` ${issue}`, metadata: { field: 'user_ids[0]', location: 'body', issue } } })
    expect((await emu.get(`${WS}/team/members`, emu.keys.management)).body.total_count).toBe(2)
  })

  it.each([
    ['an empty list', { user_ids: [] }, 'user_ids', 'must not be empty'],
    ['more than 100 ids', { user_ids: Array.from({ length: 101 }, (_, i) => `user_${i}`) }, 'user_ids', 'must have at most 100 items'],
    ['no list', {}, 'user_ids', 'is required'],
    ['an empty id', { user_ids: [''] }, 'user_ids[0]', 'must not be empty'],
    ['an id that is no string', { user_ids: [7] }, 'user_ids[0]', 'must be a string'],
  ])('a body with %s is a 400', async (_name, body, fieldName, issue) => {
    const emu = await testEmulator()
    await createWorkspace(emu, { name: 'Team', slug: 'team' })
    for (const action of ['add', 'remove']) {
      const res = await emu.send('POST', `${WS}/team/members/${action}`, body, emu.keys.management)
      expect(res.body).toEqual({ error: { code: 400, message: `Field \`${fieldName}\` ${issue}`, metadata: { field: fieldName, location: 'body', issue } } })
    }
  })
})
