// Workspaces in the state lifecycle: export and import carry them, a reset goes back to each account's
// default workspace, an account reset takes one account back to its default workspace as created
// (its keys moved there), a document from before workspaces gets a default for every account, and a
// deleted account takes its workspaces with it.
import { describe, expect, it } from 'vitest'
import { testEmulator, type TestEmulator } from '../../helpers/emulator.ts'
import { ADMIN, createWorkspace, embed, keyInWorkspace, seededAccount, WS } from './helpers.ts'

type Doc = { schema_version: number; tables: Record<string, Array<Record<string, unknown>>> }
const exportDoc = async (emu: TestEmulator): Promise<Doc> => (await emu.get(`${ADMIN}/export`)).body

/** A second workspace with a member and a budget, and the default one changed, in the seeded account. */
async function busyAccount(emu: TestEmulator) {
  const account = await seededAccount(emu)
  const team = await createWorkspace(emu, { name: 'Team', slug: 'team', description: 'd' })
  await emu.send('POST', `${WS}/team/members/add`, { user_ids: [account.members[1]!.id] }, emu.keys.management)
  await emu.send('PUT', `${WS}/team/budgets/weekly`, { limit_usd: 3, include_byok_in_budgets: true }, emu.keys.management)
  await emu.send('PUT', `${WS}/default/budgets/monthly`, { limit_usd: 50 }, emu.keys.management)
  await emu.send('PATCH', `${WS}/default`, { name: 'Main', default_text_model: 'openai/gpt-4o' }, emu.keys.management)
  const key = keyInWorkspace(emu, account.id, team.id, account.members[1]!.id)
  expect((await embed(emu, key.token)).status).toBe(200)
  return { account, team, key }
}

describe('workspaces in the state', () => {
  it('survive export -> reset -> import, and reset leaves only the default workspace', async () => {
    const emu = await testEmulator()
    await busyAccount(emu)
    const before = await exportDoc(emu)
    expect(before.tables.workspaces).toHaveLength(2)
    expect(before.tables.workspace_budgets).toHaveLength(2)
    expect(before.tables.workspace_members).toHaveLength(2)
    const listed = (await emu.get(WS, emu.keys.management)).body

    expect((await emu.send('POST', `${ADMIN}/reset`)).status).toBe(200)
    const reset = (await emu.get(WS, emu.keys.management)).body
    expect(reset.total_count).toBe(1)
    expect(reset.data[0]).toMatchObject({ name: 'Default Workspace', slug: 'default', default_text_model: null })

    expect((await emu.send('POST', `${ADMIN}/import`, before)).status).toBe(200)
    expect((await emu.get(WS, emu.keys.management)).body).toEqual(listed)
    expect((await exportDoc(emu)).tables).toEqual(before.tables)
  })

  it('an account reset: the default workspace as created, the others gone, their keys moved to the default', async () => {
    const emu = await testEmulator()
    const fresh = (await emu.get(WS, emu.keys.management)).body
    const other = (await emu.send('POST', `${ADMIN}/accounts`, { name: 'Other' })).body.data
    await createWorkspace(emu, { name: 'Theirs', slug: 'theirs' }, other.management_key)
    const theirs = (await emu.get(WS, other.management_key)).body
    const { account, key } = await busyAccount(emu)

    expect((await emu.send('POST', `${ADMIN}/accounts/${account.id}/reset`)).status).toBe(200)
    expect((await emu.get(WS, emu.keys.management)).body).toEqual(fresh)
    expect((await emu.get(`${WS}/default/budgets`, emu.keys.management)).body).toEqual({ data: [], include_byok_in_budgets: false })
    expect(emu.ctx.services.keys.byHash(key.hash)!.workspace_id).toBe(account.workspace_id)
    expect((await embed(emu, key.token)).status).toBe(200)
    // The other account is untouched.
    expect((await emu.get(WS, other.management_key)).body).toEqual(theirs)
  })

  it('a document from before workspaces imports, and every account gets its default workspace', async () => {
    const emu = await testEmulator()
    const other = (await emu.send('POST', `${ADMIN}/accounts`, { name: 'Other' })).body.data
    const doc = await exportDoc(emu)
    const listed = (await emu.get(WS, emu.keys.management)).body
    const old = structuredClone(doc)
    old.schema_version = 9
    for (const table of ['workspaces', 'workspace_budgets', 'workspace_members']) delete old.tables[table]
    for (const row of old.tables.usage!) delete row.workspace_id
    expect((await emu.send('POST', `${ADMIN}/import`, old)).status).toBe(200)
    expect((await emu.get(WS, emu.keys.management)).body).toEqual(listed)
    expect((await emu.get(WS, other.management_key)).body.data[0]).toMatchObject({ id: other.workspace_id, slug: 'default' })
    // Budgets work on them at once.
    await emu.send('PUT', `${WS}/default/budgets/daily`, { limit_usd: 1e-9 }, emu.keys.management)
    expect((await embed(emu, emu.keys.standard)).status).toBe(200)
    expect((await embed(emu, emu.keys.standard)).status).toBe(402)
  })

  it('refuses an imported workspace row that breaks its rules, naming it', async () => {
    const emu = await testEmulator()
    const doc = await exportDoc(emu)
    doc.tables.workspaces![0]!.io_logging_api_key_ids = '["a"]'
    const res = await emu.send('POST', `${ADMIN}/import`, doc)
    expect(res.status).toBe(400)
    expect(res.body.error.metadata.field).toBe('tables.workspaces[0].io_logging_api_key_ids')
  })

  it('a deleted account takes its workspaces, budgets and members with it', async () => {
    const emu = await testEmulator()
    const other = (await emu.send('POST', `${ADMIN}/accounts`, { name: 'Other' })).body.data
    const theirs = await createWorkspace(emu, { name: 'Theirs', slug: 'theirs' }, other.management_key)
    await emu.send('PUT', `${WS}/theirs/budgets/daily`, { limit_usd: 1 }, other.management_key)
    keyInWorkspace(emu, other.id, theirs.id, other.members[0].id)
    expect((await emu.send('DELETE', `${ADMIN}/accounts/${other.id}`)).status).toBe(200)
    const tables = (await exportDoc(emu)).tables
    expect(tables.workspaces!.map((w) => w.account_id)).toEqual([(await seededAccount(emu)).id])
    expect(tables.workspace_budgets).toEqual([])
    expect(tables.workspace_members).toEqual([])
  })
})
