// BYOK credentials are bounded per account and over every account: one more is a 409 naming the limit
// that changes nothing, and an imported document is held to the same bounds (a 400 naming the row).
import { describe, expect, it } from 'vitest'
import { MAX_ACCOUNT_CREDENTIALS, MAX_TOTAL_CREDENTIALS } from '../../../src/emulator/modules/byok/byok.schemas.ts'
import { testEmulator, type TestEmulator } from '../../helpers/emulator.ts'
import { exportDoc, importDoc, laidId, layIn, moreAccounts, withTables, type StateRow } from '../../helpers/state-doc.ts'

const create = (emu: TestEmulator, key = emu.keys.management) =>
  emu.send('POST', '/api/v1/byok', { provider: 'openai', key: 'sk-provider-key-0123456789' }, key)

/** `n` copies of one credential the API made, in these accounts (`perAccount` each). */
async function credentials(emu: TestEmulator, accounts: Array<{ id: string; workspace_id: string }>, perAccount: number): Promise<StateRow[]> {
  expect((await create(emu)).status).toBe(201)
  const [made] = (await exportDoc(emu)).tables['byok_credentials']!
  return accounts.flatMap((account, a) =>
    Array.from({ length: perAccount }, (_, i) => ({ ...made, id: laidId(a, i), account_id: account.id, workspace_id: account.workspace_id, sort_order: i })),
  )
}

const seeded = async (emu: TestEmulator) => (await emu.get('/_emulator/api/accounts')).body.data[0] as { id: string; workspace_id: string }

describe('BYOK credentials are bounded', () => {
  it(`an account keeps ${MAX_ACCOUNT_CREDENTIALS}: one more is a 409 naming the limit, and nothing changes`, async () => {
    const emu = await testEmulator()
    await layIn(emu, { byok_credentials: await credentials(emu, [await seeded(emu)], MAX_ACCOUNT_CREDENTIALS) })
    const before = (await exportDoc(emu)).tables
    const res = await create(emu)
    expect(res.status).toBe(409)
    expect(res.body).toEqual({
      error: {
        code: 409,
        message: `An account can have at most ${MAX_ACCOUNT_CREDENTIALS} BYOK credentials: delete one before adding another`,
        metadata: { limit: MAX_ACCOUNT_CREDENTIALS },
      },
    })
    expect((await exportDoc(emu)).tables).toEqual(before)
    // Room again once one is deleted.
    const id = (await emu.get('/api/v1/byok?limit=1', emu.keys.management)).body.data[0].id
    expect((await emu.send('DELETE', `/api/v1/byok/${id}`, undefined, emu.keys.management)).status).toBe(200)
    expect((await create(emu)).status).toBe(201)
  })

  it(`the emulator keeps ${MAX_TOTAL_CREDENTIALS} over all accounts: one more is a 409 for any account`, async () => {
    const emu = await testEmulator()
    const accounts = await moreAccounts(emu, MAX_TOTAL_CREDENTIALS / MAX_ACCOUNT_CREDENTIALS)
    await layIn(emu, { byok_credentials: await credentials(emu, accounts, MAX_ACCOUNT_CREDENTIALS) })
    const res = await create(emu)
    expect(res.status).toBe(409)
    expect(res.body.error).toEqual({
      code: 409,
      message: `The emulator keeps at most ${MAX_TOTAL_CREDENTIALS} BYOK credentials over all its accounts: delete one (or reset an account) before adding another`,
      metadata: { limit: MAX_TOTAL_CREDENTIALS },
    })
  })

  it('an imported document of too many in one account is a 400 naming the row, and changes nothing', async () => {
    const emu = await testEmulator()
    const rows = await credentials(emu, [await seeded(emu)], MAX_ACCOUNT_CREDENTIALS + 1)
    const doc = await exportDoc(emu)
    const res = await importDoc(emu, withTables(doc, { byok_credentials: rows }))
    const field = `tables.byok_credentials[${MAX_ACCOUNT_CREDENTIALS}].account_id`
    const issue = `is past the ${MAX_ACCOUNT_CREDENTIALS} BYOK credentials one account keeps`
    expect(res.status).toBe(400)
    expect(res.body.error).toMatchObject({ code: 400, message: `Field \`${field}\` ${issue}`, metadata: { field, issue } })
    expect((await exportDoc(emu)).tables).toEqual(doc.tables)
  })
})
