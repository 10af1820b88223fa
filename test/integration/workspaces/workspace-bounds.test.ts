// Workspaces an account adds to its default one are bounded, per account and over every account: one
// more is a 409 naming the limit that changes nothing; an account's default workspace is never counted
// (an account is always made with one), and an imported document is held to the same bounds.
import { describe, expect, it } from 'vitest'
import { MAX_ACCOUNT_WORKSPACES, MAX_TOTAL_WORKSPACES } from '../../../src/emulator/modules/workspaces/workspaces.schemas.ts'
import { testEmulator, type TestEmulator } from '../../helpers/emulator.ts'
import { exportDoc, importDoc, laidId, layIn, moreAccounts, withTables, type StateRow } from '../../helpers/state-doc.ts'

const create = (emu: TestEmulator, slug: string, key = emu.keys.management) => emu.send('POST', '/api/v1/workspaces', { name: slug, slug }, key)

/** The document's workspaces with `perAccount` more in each of these accounts. */
async function workspaces(emu: TestEmulator, accounts: Array<{ id: string }>, perAccount: number): Promise<StateRow[]> {
  const doc = await exportDoc(emu)
  const [template] = doc.tables['workspaces']!
  const added = accounts.flatMap((account, a) =>
    Array.from({ length: perAccount }, (_, i) => ({ ...template, id: laidId(a, i), account_id: account.id, slug: `laid-${i}`, name: `Laid ${i}` })),
  )
  return [...doc.tables['workspaces']!, ...added]
}

const seeded = async (emu: TestEmulator) => (await emu.get('/_emulator/api/accounts')).body.data[0] as { id: string }

describe('workspaces are bounded', () => {
  it(`an account adds ${MAX_ACCOUNT_WORKSPACES} to its default one: one more is a 409 naming the limit, and nothing changes`, async () => {
    const emu = await testEmulator()
    await layIn(emu, { workspaces: await workspaces(emu, [await seeded(emu)], MAX_ACCOUNT_WORKSPACES) })
    const before = (await exportDoc(emu)).tables
    const res = await create(emu, 'one-more')
    expect(res.status).toBe(409)
    expect(res.body).toEqual({
      error: {
        code: 409,
        message: `An account can have at most ${MAX_ACCOUNT_WORKSPACES} workspaces besides its default one: delete one before adding another`,
        metadata: { limit: MAX_ACCOUNT_WORKSPACES },
      },
    })
    expect((await exportDoc(emu)).tables).toEqual(before)
    // Another account is not held back, and a new account still gets its default workspace.
    const [other] = await moreAccounts(emu, 1)
    expect((await create(emu, 'theirs', other!.management_key)).status).toBe(201)
  })

  it(`the emulator keeps ${MAX_TOTAL_WORKSPACES} added over all accounts: one more is a 409 for any account`, async () => {
    const emu = await testEmulator()
    const accounts = await moreAccounts(emu, MAX_TOTAL_WORKSPACES / MAX_ACCOUNT_WORKSPACES)
    await layIn(emu, { workspaces: await workspaces(emu, accounts, MAX_ACCOUNT_WORKSPACES) })
    const res = await create(emu, 'one-more')
    expect(res.status).toBe(409)
    expect(res.body.error).toEqual({
      code: 409,
      message: `The emulator keeps at most ${MAX_TOTAL_WORKSPACES} workspaces besides the accounts' default ones: delete one (or reset an account) before adding another`,
      metadata: { limit: MAX_TOTAL_WORKSPACES },
    })
  })

  it('an imported document of too many in one account is a 400 naming the row, its default one not counted', async () => {
    const emu = await testEmulator()
    const doc = await exportDoc(emu)
    const rows = await workspaces(emu, [await seeded(emu)], MAX_ACCOUNT_WORKSPACES + 1)
    const res = await importDoc(emu, withTables(doc, { workspaces: rows }))
    // The default one is row 0: the 501st added is row 501.
    const field = `tables.workspaces[${MAX_ACCOUNT_WORKSPACES + 1}].account_id`
    const issue = `is past the ${MAX_ACCOUNT_WORKSPACES} workspaces one account adds to its default one`
    expect(res.status).toBe(400)
    expect(res.body.error).toMatchObject({ code: 400, message: `Field \`${field}\` ${issue}`, metadata: { field, issue } })
    expect((await exportDoc(emu)).tables).toEqual(doc.tables)
  })
})
