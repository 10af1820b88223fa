// The state lifecycle registry (core/lifecycle.ts), walked rather than listed: every table has one
// owner, every owned table and every run-time setting survives export -> reset -> import, and reset
// returns every setting to its default. Nothing here names a table or a setting by hand.
import { describe, expect, it } from 'vitest'
import { checkStateOwners, describeSchema } from '../../../src/emulator/modules/state/state.service.ts'
import { testEmulator, type TestEmulator } from '../../helpers/emulator.ts'
import { startSink } from '../../helpers/sink.ts'

const ADMIN = '/_emulator/api'

/** A value of the same shape that differs from `value` wherever a number or null can differ. */
function changed(value: unknown): unknown {
  if (value === null) return 7
  if (typeof value === 'number') return value === 0 ? 1 : value + 1
  if (Array.isArray(value) || typeof value !== 'object') return value
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, changed(v)]))
}

/** Something in every area: usage, a guardrail and its assignments, a charge, a video task with a callback, a fault rule, a changed catalog. */
async function richState(emu: TestEmulator): Promise<void> {
  const key = (await emu.get('/api/v1/keys', emu.keys.management)).body.data[0] as { hash: string; creator_user_id: string }
  const guardrail = (await emu.send('POST', '/api/v1/guardrails', { name: 'lifecycle', limit_usd: 100000 }, emu.keys.management)).body.data.id
  await emu.send('POST', `/api/v1/guardrails/${guardrail}/assignments/keys`, { key_hashes: [key.hash] }, emu.keys.management)
  await emu.send('POST', `/api/v1/guardrails/${guardrail}/assignments/members`, { member_user_ids: [key.creator_user_id] }, emu.keys.management)
  // A BYOK credential and an observability destination.
  await emu.send('POST', '/api/v1/byok', { provider: 'anthropic', key: 'sk-ant-lifecycle-0123456789' }, emu.keys.management)
  await emu.send(
    'POST',
    '/api/v1/observability/destinations',
    { type: 'webhook', name: 'lifecycle', config: { url: `${(await startSink()).url}/traces` } },
    emu.keys.management,
  )
  // An OAuth authorization code waiting for its exchange.
  await emu.send(
    'POST',
    '/api/v1/auth/keys/code',
    { callback_url: 'https://app.example/cb', code_challenge: 'v', code_challenge_method: 'plain' },
    emu.keys.management,
  )
  // A workspace (its creator is its first member) with a budget nothing reaches.
  await emu.send('POST', '/api/v1/workspaces', { name: 'Lifecycle', slug: 'lifecycle' }, emu.keys.management)
  await emu.send('PUT', '/api/v1/workspaces/lifecycle/budgets/monthly', { limit_usd: 100000 }, emu.keys.management)
  await emu.send('POST', '/api/v1/credits/crypto', { amount: 10, sender: '0x9a85CB3bfd494Ea3a8C9E50aA6a3c1a7E8BACE11', chain_id: 8453 }, emu.keys.standard)
  const task = await emu.send(
    'POST',
    '/router/v1/video/ent/v2/text2video',
    { model: 'videoq2', prompt: 'x', callback_url: `${(await startSink()).url}/hook` },
    emu.keys.standard,
  )
  expect(task.status, JSON.stringify(task.body)).toBe(200)
  expect((await emu.send('POST', '/api/v1/embeddings', { model: 'openai/text-embedding-3-small', input: 'x' }, emu.keys.standard)).status).toBe(200)
  const chat = await emu.send(
    'POST',
    '/api/v1/chat/completions',
    // A cache breakpoint: the prompt cache keeps its prefix.
    { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'x' }], cache_control: { type: 'ephemeral' } },
    emu.keys.standard,
  )
  expect(chat.status).toBe(200)
  // The chat's stored content, feedback on it, a SCIM group mapping and a file.
  await emu.send('POST', '/api/v1/generation/feedback', { generation_id: chat.body.id, category: 'other' }, emu.keys.management)
  const group = (await emu.get('/api/v1/scim/groups', emu.keys.management)).body.data[0].id
  const workspace = emu.ctx.services.accounts.get(emu.ctx.services.keys.byHash(key.hash)!.account_id)!.workspace_id
  await emu.send('POST', '/api/v1/scim/group-mappings', { scim_group_id: group, workspace_id: workspace, role: 'member' }, emu.keys.management)
  await emu.send('POST', `${ADMIN}/accounts/${emu.ctx.services.keys.byHash(key.hash)!.account_id}/files`, { filename: 'a.txt', content_base64: 'aGVsbG8=' })
  const preset = await emu.send(
    'POST',
    '/api/v1/presets/lifecycle/messages',
    { model: 'openai/gpt-4o-mini', messages: [], system: 'Be brief.' },
    emu.keys.management,
  )
  expect(preset.status, JSON.stringify(preset.body)).toBe(200)
  await emu.send('POST', `${ADMIN}/faults`, { match: { operation: 'models.count' }, action: { status: 503 } })
  const account = emu.ctx.services.keys.byHash(key.hash)!.account_id
  const fixture = await emu.send('POST', `${ADMIN}/accounts/${account}/chat-fixtures`, {
    match: { last_user_regex: '^hi' },
    answer: { content: 'Hello.' },
    times: 2,
  })
  expect(fixture.status, JSON.stringify(fixture.body)).toBe(201)
  const model = (await emu.get('/api/v1/models')).body.data.at(-1).id as string
  expect((await emu.send('DELETE', `${ADMIN}/catalog/models/${model}`)).status).toBe(200)
  await emu.send('POST', `${ADMIN}/clock/advance`, { ms: 60_000 })
  await emu.drainCallbacks()
}

describe('the state lifecycle registry', () => {
  it('owns every table of the schema, each once', async () => {
    const emu = await testEmulator()
    expect(() => checkStateOwners(emu.ctx)).not.toThrow()
    const owned = emu.ctx.state.tables()
    expect(new Set(owned).size).toBe(owned.length)
    expect(owned.sort()).toEqual(
      describeSchema(emu.ctx.db)
        .map((t) => t.name)
        .sort(),
    )
  })

  it('carries every owned table and every setting through export -> reset -> import, and reset restores every default', async () => {
    const emu = await testEmulator()
    await richState(emu)
    const settings = emu.ctx.state.settings()
    expect(settings.length).toBeGreaterThan(0)
    for (const [, s] of settings) {
      const next = changed(s.defaults())
      expect(next, 'a setting the generic change cannot change').not.toEqual(s.defaults())
      s.restore(next)
    }
    const before = (await emu.get(`${ADMIN}/export`)).body
    for (const table of emu.ctx.state.tables()) expect(before.tables, table).toHaveProperty(table)
    for (const [name, s] of settings) expect(before.settings[name], name).toEqual(s.current())
    // Every table this state touched has rows, so the round trip below proves something for each.
    const empty = Object.entries(before.tables as Record<string, unknown[]>)
      .filter(([, rows]) => rows.length === 0)
      .map(([name]) => name)
    expect(empty).toEqual([])

    expect((await emu.send('POST', `${ADMIN}/reset`)).status).toBe(200)
    for (const [name, s] of settings) expect(s.current(), `${name} after reset`).toEqual(s.defaults())
    // Every table as a fresh emulator has it.
    const afterReset = (await emu.get(`${ADMIN}/export`)).body
    const fresh = (await (await testEmulator({ clockStart: emu.clock.nowIso() })).get(`${ADMIN}/export`)).body
    for (const table of emu.ctx.state.tables()) expect(afterReset.tables[table], `${table} after reset`).toEqual(fresh.tables[table])

    expect((await emu.send('POST', `${ADMIN}/import`, before)).status).toBe(200)
    const after = (await emu.get(`${ADMIN}/export`)).body
    expect({ ...after, exported_at: null }).toEqual({ ...before, exported_at: null })
    for (const [name, s] of settings) expect(s.current(), `${name} after import`).toEqual(before.settings[name])
  })

  it('refuses a bad or unknown setting in an imported document, naming it, and changes nothing', async () => {
    const emu = await testEmulator()
    const doc = (await emu.get(`${ADMIN}/export`)).body
    const [name, s] = emu.ctx.state.settings()[0]!
    const first = Object.keys(s.defaults() as object)[0]!
    const bad = await emu.send('POST', `${ADMIN}/import`, { ...doc, settings: { ...doc.settings, [name]: { [first]: 'not a number' } } })
    expect(bad.status).toBe(400)
    expect(bad.body.error.metadata.field).toBe(`settings.${name}.${first}`)
    const unknown = await emu.send('POST', `${ADMIN}/import`, { ...doc, settings: { nothing: {} } })
    expect(unknown.status).toBe(400)
    expect(unknown.body.error.metadata.field).toBe('settings.nothing')
    expect(s.current()).toEqual(s.defaults())
  })

  it('gives a document without settings (an older export) the default settings', async () => {
    const emu = await testEmulator()
    const doc = (await emu.get(`${ADMIN}/export`)).body
    for (const [, s] of emu.ctx.state.settings()) s.restore(changed(s.defaults()))
    const { settings: _dropped, ...older } = doc
    expect((await emu.send('POST', `${ADMIN}/import`, older)).status).toBe(200)
    for (const [name, s] of emu.ctx.state.settings()) expect(s.current(), name).toEqual(s.defaults())
  })
})
