// The presets API over HTTP: a preset (and its next versions) made from a body of each text API,
// read back by slug, version and page; every refusal with its status and body, changing nothing; and
// another account's presets unseen.
import { describe, expect, it } from 'vitest'
import { testEmulator, TEST_START, type TestEmulator } from '../../helpers/emulator.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const ADMIN = '/_emulator/api'

const create = (emu: TestEmulator, slug: string, api: 'chat/completions' | 'messages' | 'responses', body: unknown, key = emu.keys.management) =>
  emu.send('POST', `/api/v1/presets/${slug}/${api}`, body, key)

async function accountOf(emu: TestEmulator): Promise<{ id: string; workspace_id: string }> {
  return (await emu.get(`${ADMIN}/accounts`)).body.data[0]
}

describe('creating a preset', () => {
  it('from a chat completions body keeps the preset fields, in chat names, and the system messages as the system prompt', async () => {
    const emu = await testEmulator()
    const account = await accountOf(emu)
    const res = await create(emu, 'pirate', 'chat/completions', {
      model: 'openai/gpt-4o-mini',
      messages: [
        { role: 'system', content: 'You are a pirate.' },
        { role: 'developer', content: [{ type: 'text', text: 'Say arr.' }] },
        { role: 'user', content: 'Hello!' },
      ],
      temperature: 0.7,
      top_k: 40,
      max_completion_tokens: 100,
      max_tokens: 5,
      stop: 'END',
      reasoning_effort: 'low',
      provider: { order: ['openai'] },
      stream: true,
      tools: [{ type: 'function', function: { name: 'ignored', parameters: { type: 'object' } } }],
      user: 'ignored',
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const data = res.body.data
    expect(data).toEqual({
      id: expect.stringMatching(UUID),
      creator_user_id: expect.stringMatching(/^user_/),
      workspace_id: account.workspace_id,
      name: 'pirate',
      slug: 'pirate',
      description: null,
      status: 'active',
      designated_version_id: data.designated_version.id,
      created_at: TEST_START,
      updated_at: TEST_START,
      status_updated_at: null,
      designated_version: {
        id: expect.stringMatching(UUID),
        preset_id: data.id,
        creator_id: data.creator_user_id,
        version: 1,
        system_prompt: 'You are a pirate.\n\nSay arr.',
        config: {
          model: 'openai/gpt-4o-mini',
          provider: { order: ['openai'] },
          temperature: 0.7,
          top_k: 40,
          max_tokens: 100,
          stop: ['END'],
          reasoning: { effort: 'low' },
        },
        created_at: TEST_START,
        updated_at: TEST_START,
      },
    })
  })

  it('from a Messages body: system (string or text blocks), max_tokens, stop_sequences, thinking as reasoning', async () => {
    const emu = await testEmulator()
    const res = await create(emu, 'terse', 'messages', {
      model: 'anthropic/claude-sonnet-4',
      max_tokens: 1024,
      system: [
        { type: 'text', text: 'Be terse.' },
        { type: 'text', text: 'No lists.' },
      ],
      messages: [{ role: 'user', content: 'Hello!' }],
      stop_sequences: ['###'],
      temperature: 0.2,
      thinking: { type: 'enabled', budget_tokens: 64 },
      metadata: { user_id: 'ignored' },
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.data.designated_version).toMatchObject({
      system_prompt: 'Be terse.\nNo lists.',
      config: { model: 'anthropic/claude-sonnet-4', max_tokens: 1024, stop: ['###'], temperature: 0.2, reasoning: { max_tokens: 64 } },
    })
    const disabled = await create(emu, 'plain', 'messages', {
      model: 'anthropic/claude-sonnet-4',
      messages: [],
      system: 'Plain.',
      thinking: { type: 'disabled' },
    })
    expect(disabled.body.data.designated_version).toMatchObject({
      system_prompt: 'Plain.',
      config: { model: 'anthropic/claude-sonnet-4', reasoning: { enabled: false } },
    })
  })

  it('from a Responses body: instructions as the system prompt, max_output_tokens as max_tokens, reasoning as given', async () => {
    const emu = await testEmulator()
    const res = await create(emu, 'thinker', 'responses', {
      model: 'openai/o4-mini',
      input: 'Hello!',
      instructions: 'Think first.',
      max_output_tokens: 300,
      reasoning: { effort: 'high', summary: 'auto' },
      top_p: 0.9,
      store: false,
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.data.designated_version).toMatchObject({
      system_prompt: 'Think first.',
      config: { model: 'openai/o4-mini', max_tokens: 300, reasoning: { effort: 'high', summary: 'auto' }, top_p: 0.9 },
    })
    // A body with nothing of a preset's still makes a version: an empty one.
    const empty = await create(emu, 'empty', 'responses', { input: 'x' })
    expect(empty.body.data.designated_version).toMatchObject({ version: 1, system_prompt: null, config: {} })
  })

  it('makes the next version on each create of the same slug, designates it, and keeps the earlier ones', async () => {
    const emu = await testEmulator()
    const first = (await create(emu, 'evolving', 'chat/completions', { model: 'openai/gpt-4o-mini', messages: [{ role: 'system', content: 'v1' }] })).body.data
    await emu.send('POST', `${ADMIN}/clock/advance`, { ms: 60_000 })
    const second = (await create(emu, 'evolving', 'responses', { model: 'openai/gpt-4o', instructions: 'v2' })).body.data
    expect(second.id).toBe(first.id)
    expect(second.created_at).toBe(TEST_START)
    expect(second.updated_at).toBe('2026-03-04T10:01:00.000Z')
    expect(second.designated_version).toMatchObject({ version: 2, system_prompt: 'v2', config: { model: 'openai/gpt-4o' } })
    expect(second.designated_version_id).toBe(second.designated_version.id)
    expect(second.designated_version_id).not.toBe(first.designated_version_id)

    const got = await emu.get('/api/v1/presets/evolving', emu.keys.management)
    expect(got.body).toEqual({ data: second })
    const versions = await emu.get('/api/v1/presets/evolving/versions', emu.keys.management)
    expect(versions.body).toEqual({ data: [first.designated_version, second.designated_version], total_count: 2 })
    expect((await emu.get('/api/v1/presets/evolving/versions?offset=1&limit=1', emu.keys.management)).body).toEqual({
      data: [second.designated_version],
      total_count: 2,
    })
    expect((await emu.get('/api/v1/presets/evolving/versions/1', emu.keys.management)).body).toEqual({ data: first.designated_version })
    expect((await emu.get('/api/v1/presets/evolving/versions/2', emu.keys.management)).body).toEqual({ data: second.designated_version })
  })

  it('lists the account presets, most recently updated first, by page, with the total count', async () => {
    const emu = await testEmulator()
    for (const slug of ['a', 'b', 'c']) {
      await create(emu, slug, 'responses', { model: 'openai/gpt-4o-mini' })
      await emu.send('POST', `${ADMIN}/clock/advance`, { ms: 1000 })
    }
    await create(emu, 'a', 'responses', { model: 'openai/gpt-4o' })
    const list = await emu.get('/api/v1/presets', emu.keys.management)
    expect(list.status).toBe(200)
    expect(list.body.data.map((p: { slug: string }) => p.slug)).toEqual(['a', 'c', 'b'])
    expect(list.body.total_count).toBe(3)
    expect(Object.keys(list.body.data[0]).sort()).toEqual(
      [
        'created_at',
        'creator_user_id',
        'description',
        'designated_version_id',
        'id',
        'name',
        'slug',
        'status',
        'status_updated_at',
        'updated_at',
        'workspace_id',
      ].sort(),
    )
    const page = await emu.get('/api/v1/presets?offset=1&limit=1', emu.keys.management)
    expect(page.body).toEqual({ data: [list.body.data[1]], total_count: 3 })
  })

  it('reads with a standard key too; only a management key creates', async () => {
    const emu = await testEmulator()
    await create(emu, 'shared', 'responses', { model: 'openai/gpt-4o-mini' })
    expect((await emu.get('/api/v1/presets', emu.keys.standard)).body.total_count).toBe(1)
    expect((await emu.get('/api/v1/presets/shared', emu.keys.standard)).status).toBe(200)
    expect((await emu.get('/api/v1/presets/shared/versions', emu.keys.standard)).status).toBe(200)
    expect((await emu.get('/api/v1/presets/shared/versions/1', emu.keys.standard)).status).toBe(200)
    const refused = await create(emu, 'mine', 'responses', { model: 'openai/gpt-4o-mini' }, emu.keys.standard)
    expect(refused.status).toBe(401)
    expect(refused.body).toEqual({ error: { code: 401, message: 'Only management keys can perform this operation' } })
    const noKey = await emu.get('/api/v1/presets')
    expect(noKey.status).toBe(401)
    expect(noKey.body.error.message).toBe('No auth credentials found')
  })
})

describe('refusals', () => {
  const chat = (body: Record<string, unknown>) => ({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'x' }], ...body })

  it.each([
    ['chat/completions', 'Bad-Slug', chat({}), 'slug', 'Path parameter `slug` is not valid (must match pattern "^[a-z0-9][a-z0-9_-]{0,63}$")'],
    ['chat/completions', 'x'.repeat(65), chat({}), 'slug', 'Path parameter `slug` must be at most 64 characters'],
    ['chat/completions', 'ok', { model: 'openai/gpt-4o-mini' }, 'messages', 'Field `messages` is required'],
    ['chat/completions', 'ok', chat({ temperature: 3 }), 'temperature', 'Field `temperature` must be <= 2'],
    ['chat/completions', 'ok', chat({ models: [] }), 'models', 'Field `models` must not be empty'],
    [
      'chat/completions',
      'ok',
      chat({ reasoning: { effort: 'huge' } }),
      'reasoning.effort',
      'Field `reasoning.effort` must be one of max, xhigh, high, medium, low, minimal, none, null',
    ],
    ['chat/completions', 'ok', chat({ model: '@preset/other' }), 'model', 'Field `model` must name a model: a preset cannot name another preset'],
    [
      'chat/completions',
      'ok',
      chat({ messages: [{ role: 'wizard', content: 'x' }] }),
      'messages[0].role',
      'Field `messages[0].role` must be one of system, developer, user, assistant, tool',
    ],
    [
      'chat/completions',
      'ok',
      chat({ messages: [{ role: 'system', content: 'p'.repeat(100_001) }] }),
      'messages',
      "Field `messages` must be at most 100000 characters for a preset's system prompt",
    ],
    ['messages', 'ok', { messages: [] }, 'model', 'Field `model` is required'],
    ['messages', 'ok', { model: 'anthropic/claude-sonnet-4', messages: [], system: 5 }, 'system', 'Field `system` must be a string or an array of text blocks'],
    [
      'messages',
      'ok',
      { model: 'anthropic/claude-sonnet-4', messages: [], thinking: { type: 'enabled' } },
      'thinking.budget_tokens',
      'Field `thinking.budget_tokens` must be an integer from 1 to 10000000',
    ],
    ['responses', 'ok', { max_output_tokens: 0 }, 'max_output_tokens', 'Field `max_output_tokens` must be >= 1'],
    ['responses', 'ok', { instructions: 'i'.repeat(100_001) }, 'instructions', 'Field `instructions` must be at most 100000 characters'],
  ])('POST /presets/%s/%s: %j is a 400 naming %s', async (api, slug, body, field, message) => {
    const emu = await testEmulator()
    const res = await emu.send('POST', `/api/v1/presets/${slug}/${api}`, body, emu.keys.management)
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe(400)
    expect(res.body.error.message).toBe(message)
    expect(res.body.error.metadata.field).toBe(field)
    // Nothing was made.
    expect((await emu.get('/api/v1/presets', emu.keys.management)).body).toEqual({ data: [], total_count: 0 })
  })

  it('a malformed body is a 400 and makes nothing', async () => {
    const emu = await testEmulator()
    const res = await emu.request({
      method: 'POST',
      url: '/api/v1/presets/ok/responses',
      headers: { authorization: `Bearer ${emu.keys.management}`, 'content-type': 'application/json' },
      payload: '{"model": ',
    })
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe(400)
    expect((await emu.get('/api/v1/presets', emu.keys.management)).body.total_count).toBe(0)
  })

  it('an unknown preset or version is a 404; a version that is no number, or a bad page, a 400', async () => {
    const emu = await testEmulator()
    expect(await emu.get('/api/v1/presets/nope', emu.keys.management)).toMatchObject({
      status: 404,
      body: { error: { code: 404, message: 'Preset nope not found' } },
    })
    expect((await emu.get('/api/v1/presets/nope/versions', emu.keys.management)).status).toBe(404)
    await create(emu, 'real', 'responses', { model: 'openai/gpt-4o-mini' })
    expect(await emu.get('/api/v1/presets/real/versions/2', emu.keys.management)).toMatchObject({
      status: 404,
      body: { error: { code: 404, message: 'Version 2 of preset real not found' } },
    })
    const notANumber = await emu.get('/api/v1/presets/real/versions/latest', emu.keys.management)
    expect(notANumber.status).toBe(400)
    expect(notANumber.body.error).toMatchObject({
      message: 'Path parameter `version` is not valid (must match pattern "^[1-9][0-9]{0,8}$")',
      metadata: { field: 'version' },
    })
    const page = await emu.get('/api/v1/presets?limit=101', emu.keys.management)
    expect(page.status).toBe(400)
    expect(page.body.error.message).toBe('Query parameter `limit` must be <= 100')
  })

  it("another account's presets are unseen, and its slugs are its own", async () => {
    const emu = await testEmulator()
    const other = (await emu.send('POST', `${ADMIN}/accounts`, {})).body.data as { management_key: string; standard_key: string }
    const theirs = await create(emu, 'secret', 'responses', { model: 'openai/gpt-4o', instructions: 'Theirs.' }, other.management_key)
    expect(theirs.status).toBe(200)
    expect((await emu.get('/api/v1/presets', emu.keys.management)).body.total_count).toBe(0)
    expect((await emu.get('/api/v1/presets/secret', emu.keys.standard)).status).toBe(404)
    expect((await emu.get('/api/v1/presets/secret/versions/1', emu.keys.standard)).status).toBe(404)
    // The same slug here is another preset, from version 1.
    const mine = await create(emu, 'secret', 'responses', { model: 'openai/gpt-4o-mini' })
    expect(mine.body.data.designated_version.version).toBe(1)
    expect(mine.body.data.id).not.toBe(theirs.body.data.id)
    expect((await emu.get('/api/v1/presets/secret', other.standard_key)).body.data.designated_version.system_prompt).toBe('Theirs.')
  })
})

describe('presets in the state', () => {
  it('are exported, gone after a reset, back after an import; an account reset deletes only its own; the admin API lists them with versions', async () => {
    const emu = await testEmulator()
    await create(emu, 'kept', 'chat/completions', { model: 'openai/gpt-4o-mini', messages: [{ role: 'system', content: 'Keep me.' }] })
    await create(emu, 'kept', 'responses', { model: 'openai/gpt-4o' })
    const other = (await emu.send('POST', `${ADMIN}/accounts`, {})).body.data as { id: string; management_key: string }
    await create(emu, 'theirs', 'responses', { model: 'openai/gpt-4o' }, other.management_key)

    const account = await accountOf(emu)
    const admin = await emu.get(`${ADMIN}/accounts/${account.id}/presets`)
    expect(admin.status).toBe(200)
    expect(admin.body.total_count).toBe(1)
    expect(admin.body.data[0]).toMatchObject({ slug: 'kept', versions: [{ version: 1, system_prompt: 'Keep me.' }, { version: 2 }] })

    const exported = (await emu.get(`${ADMIN}/export`)).body
    expect(exported.tables.presets).toHaveLength(2)
    expect(exported.tables.preset_versions).toHaveLength(3)
    expect((await emu.send('POST', `${ADMIN}/reset`)).status).toBe(200)
    expect((await emu.get('/api/v1/presets', emu.keys.management)).body.total_count).toBe(0)
    expect((await emu.send('POST', `${ADMIN}/import`, exported)).status).toBe(200)
    expect((await emu.get('/api/v1/presets/kept', emu.keys.management)).body.data.designated_version.version).toBe(2)
    // Ids minted after the import do not collide with imported ones.
    expect((await create(emu, 'new', 'responses', { model: 'openai/gpt-4o' })).status).toBe(200)

    expect((await emu.send('POST', `${ADMIN}/accounts/${other.id}/reset`)).status).toBe(200)
    expect((await emu.get('/api/v1/presets', other.management_key)).body.total_count).toBe(0)
    expect((await emu.get('/api/v1/presets', emu.keys.management)).body.total_count).toBe(2)
  })

  it('an imported version whose config a preset cannot hold is refused, naming it, and nothing changes', async () => {
    const emu = await testEmulator()
    await create(emu, 'kept', 'responses', { model: 'openai/gpt-4o' })
    const doc = (await emu.get(`${ADMIN}/export`)).body
    const bad = structuredClone(doc)
    bad.tables.preset_versions[0].config = JSON.stringify({ model: 'openai/gpt-4o', temperature: 9 })
    const res = await emu.send('POST', `${ADMIN}/import`, bad)
    expect(res.status).toBe(400)
    expect(res.body.error.metadata.field).toBe('tables.preset_versions[0].config')
    expect(res.body.error.message).toBe('Field `tables.preset_versions[0].config` holds JSON whose `temperature` must be <= 2')
    const badSlug = structuredClone(doc)
    badSlug.tables.presets[0].slug = 'Not A Slug'
    const slugRes = await emu.send('POST', `${ADMIN}/import`, badSlug)
    expect(slugRes.status).toBe(400)
    expect(slugRes.body.error.metadata.field).toBe('tables.presets[0].slug')
    expect((await emu.get('/api/v1/presets/kept', emu.keys.management)).status).toBe(200)
  })
})
