// Observability destinations are bounded per account (over its workspaces) and over every account,
// beside the real service's five of a type per workspace: one more is a 409 naming the limit that
// changes nothing, and an imported document is held to every one of these (a 400 naming the row).
import { describe, expect, it } from 'vitest'
import { MAX_ACCOUNT_DESTINATIONS, MAX_PER_TYPE, MAX_TOTAL_DESTINATIONS } from '../../../src/emulator/modules/observability/observability.service.ts'
import { testEmulator, type TestEmulator } from '../../helpers/emulator.ts'
import { exportDoc, importDoc, laidId, layIn, moreAccounts, withTables, type StateRow } from '../../helpers/state-doc.ts'

const PATH = '/api/v1/observability/destinations'
const create = (emu: TestEmulator, key = emu.keys.management) =>
  emu.send('POST', PATH, { type: 'webhook', name: 'Hook', config: { url: 'https://hooks.example/traces' } }, key)

/**
 * `perAccount` webhooks in each account, five to a workspace (the real cap), in workspaces laid in for
 * them: the rows of both tables.
 */
async function destinations(
  emu: TestEmulator,
  accounts: Array<{ id: string }>,
  perAccount: number,
): Promise<{ workspaces: StateRow[]; observability_destinations: StateRow[] }> {
  expect((await create(emu)).status).toBe(201)
  const doc = await exportDoc(emu)
  const [made] = doc.tables['observability_destinations']!
  const [workspace] = doc.tables['workspaces']!
  const workspaces: StateRow[] = []
  const rows: StateRow[] = []
  accounts.forEach((account, a) => {
    for (let i = 0; i < perAccount; i++) {
      if (i % MAX_PER_TYPE === 0) workspaces.push({ ...workspace, id: laidId(0x100 + a, i), account_id: account.id, slug: `w${i}`, name: `W ${i}` })
      rows.push({ ...made, id: laidId(a, i), account_id: account.id, workspace_id: workspaces.at(-1)!['id'] })
    }
  })
  return { workspaces: [...doc.tables['workspaces']!, ...workspaces], observability_destinations: rows }
}

const seeded = async (emu: TestEmulator) => (await emu.get('/_emulator/api/accounts')).body.data[0] as { id: string }

describe('observability destinations are bounded', () => {
  it(`an account keeps ${MAX_ACCOUNT_DESTINATIONS} over its workspaces: one more is a 409 naming the limit, and nothing changes`, async () => {
    const emu = await testEmulator()
    await layIn(emu, await destinations(emu, [await seeded(emu)], MAX_ACCOUNT_DESTINATIONS))
    const before = (await exportDoc(emu)).tables
    const res = await create(emu)
    expect(res.status).toBe(409)
    expect(res.body).toEqual({
      error: {
        code: 409,
        message: `An account can have at most ${MAX_ACCOUNT_DESTINATIONS} observability destinations over its workspaces: delete one before adding another`,
        metadata: { limit: MAX_ACCOUNT_DESTINATIONS },
      },
    })
    expect((await exportDoc(emu)).tables).toEqual(before)
  })

  it(`the emulator keeps ${MAX_TOTAL_DESTINATIONS} over all accounts: one more is a 409 for any account`, async () => {
    const emu = await testEmulator()
    const accounts = await moreAccounts(emu, MAX_TOTAL_DESTINATIONS / MAX_ACCOUNT_DESTINATIONS)
    await layIn(emu, await destinations(emu, accounts, MAX_ACCOUNT_DESTINATIONS))
    const res = await create(emu)
    expect(res.status).toBe(409)
    expect(res.body.error).toEqual({
      code: 409,
      message: `The emulator keeps at most ${MAX_TOTAL_DESTINATIONS} observability destinations over all its accounts: delete one (or reset an account) before adding another`,
      metadata: { limit: MAX_TOTAL_DESTINATIONS },
    })
  })

  it('an imported document past a bound is a 400 naming the row: six of a type in a workspace, or too many in an account', async () => {
    const emu = await testEmulator()
    const laid = await destinations(emu, [await seeded(emu)], MAX_ACCOUNT_DESTINATIONS + 1)
    const doc = await exportDoc(emu)
    const refusal = (field: string, issue: string) => ({
      code: 400,
      message: `Field \`${field}\` ${issue}`,
      metadata: expect.objectContaining({ field, issue }),
    })

    // The sixth webhook of one workspace.
    const crowded = laid.observability_destinations.slice(0, 6).map((row) => ({ ...row, workspace_id: laid.observability_destinations[0]!['workspace_id'] }))
    const six = await importDoc(emu, withTables(doc, { workspaces: laid.workspaces, observability_destinations: crowded }))
    expect(six.status).toBe(400)
    expect(six.body.error).toEqual(
      refusal('tables.observability_destinations[5].type', `is past the ${MAX_PER_TYPE} destinations of one type a workspace keeps`),
    )

    const many = await importDoc(emu, withTables(doc, laid))
    expect(many.status).toBe(400)
    expect(many.body.error).toEqual(
      refusal(
        `tables.observability_destinations[${MAX_ACCOUNT_DESTINATIONS}].account_id`,
        `is past the ${MAX_ACCOUNT_DESTINATIONS} observability destinations one account keeps`,
      ),
    )
    expect((await exportDoc(emu)).tables).toEqual(doc.tables)
  })
})
