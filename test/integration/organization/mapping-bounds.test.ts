// SCIM group mappings are bounded per account and over every account: one more is a 409 naming the
// limit that changes nothing, and an imported document is held to the same bounds (a 400 naming the row).
import { describe, expect, it } from 'vitest'
import { MAX_ACCOUNT_MAPPINGS, MAX_TOTAL_MAPPINGS } from '../../../src/emulator/modules/organization/organization.schemas.ts'
import { testEmulator, type TestEmulator } from '../../helpers/emulator.ts'
import { exportDoc, importDoc, laidId, layIn, moreAccounts, withTables, type StateRow } from '../../helpers/state-doc.ts'

const seeded = async (emu: TestEmulator) => (await emu.get('/_emulator/api/accounts')).body.data[0] as { id: string; workspace_id: string }

/** The caller's first directory group mapped to its default workspace. */
async function mapFirstGroup(emu: TestEmulator) {
  const [group] = (await emu.get('/api/v1/scim/groups', emu.keys.management)).body.data
  return emu.send(
    'POST',
    '/api/v1/scim/group-mappings',
    { scim_group_id: group.id, workspace_id: (await seeded(emu)).workspace_id, role: 'member' },
    emu.keys.management,
  )
}

/** `perAccount` mappings in each of these accounts, of groups named for the rows (the import takes any group id). */
const mappings = (accounts: Array<{ id: string; workspace_id: string }>, perAccount: number): StateRow[] =>
  accounts.flatMap((account, a) =>
    Array.from({ length: perAccount }, (_, i) => ({
      id: laidId(a, i),
      account_id: account.id,
      scim_group_id: `laid-group-${i}`,
      workspace_id: account.workspace_id,
      role: 'member',
      created_at: 0,
      updated_at: 0,
    })),
  )

describe('SCIM group mappings are bounded', () => {
  it(`an account keeps ${MAX_ACCOUNT_MAPPINGS}: one more is a 409 naming the limit, and nothing changes`, async () => {
    const emu = await testEmulator()
    await layIn(emu, { scim_group_mappings: mappings([await seeded(emu)], MAX_ACCOUNT_MAPPINGS) })
    const before = (await exportDoc(emu)).tables
    const res = await mapFirstGroup(emu)
    expect(res.status).toBe(409)
    expect(res.body).toEqual({
      error: {
        code: 409,
        message: `An account can have at most ${MAX_ACCOUNT_MAPPINGS} SCIM group mappings: delete one before adding another`,
        metadata: { limit: MAX_ACCOUNT_MAPPINGS },
      },
    })
    expect((await exportDoc(emu)).tables).toEqual(before)
  })

  it(`the emulator keeps ${MAX_TOTAL_MAPPINGS} over all accounts: one more is a 409 for any account`, async () => {
    const emu = await testEmulator()
    const accounts = await moreAccounts(emu, MAX_TOTAL_MAPPINGS / MAX_ACCOUNT_MAPPINGS)
    await layIn(emu, { scim_group_mappings: mappings(accounts, MAX_ACCOUNT_MAPPINGS) })
    const res = await mapFirstGroup(emu)
    expect(res.status).toBe(409)
    expect(res.body.error).toEqual({
      code: 409,
      message: `The emulator keeps at most ${MAX_TOTAL_MAPPINGS} SCIM group mappings over all its accounts: delete one (or reset an account) before adding another`,
      metadata: { limit: MAX_TOTAL_MAPPINGS },
    })
  })

  it('an imported document of too many in one account is a 400 naming the row, and changes nothing', async () => {
    const emu = await testEmulator()
    const doc = await exportDoc(emu)
    const res = await importDoc(emu, withTables(doc, { scim_group_mappings: mappings([await seeded(emu)], MAX_ACCOUNT_MAPPINGS + 1) }))
    const field = `tables.scim_group_mappings[${MAX_ACCOUNT_MAPPINGS}].account_id`
    const issue = `is past the ${MAX_ACCOUNT_MAPPINGS} SCIM group mappings one account keeps`
    expect(res.status).toBe(400)
    expect(res.body.error).toMatchObject({ code: 400, message: `Field \`${field}\` ${issue}`, metadata: { field, issue } })
    expect((await exportDoc(emu)).tables).toEqual(doc.tables)
  })
})
