// The admin read of an account's workspaces (GET /_emulator/api/accounts/{id}/workspaces), which the
// inspector's Data view shows: every workspace, the default first, with its budgets and its member
// count (the default's are every member of the account), no key needed; an unknown account is a 404.
import { describe, expect, it } from 'vitest'
import { testEmulator } from '../../helpers/emulator.ts'
import { ADMIN, createWorkspace, seededAccount, WS } from './helpers.ts'

describe('GET /_emulator/api/accounts/{id}/workspaces', () => {
  it('lists every workspace with its budgets and member count', async () => {
    const emu = await testEmulator()
    const account = await seededAccount(emu)
    const team = await createWorkspace(emu, { name: 'Team', slug: 'team' })
    expect((await emu.send('POST', `${WS}/team/members/add`, { user_ids: [account.members[1]!.id] }, emu.keys.management)).status).toBe(200)
    expect((await emu.send('PUT', `${WS}/team/budgets/monthly`, { limit_usd: 50 }, emu.keys.management)).status).toBe(200)
    expect((await emu.send('PUT', `${WS}/team/budgets/daily`, { limit_usd: 2.5, include_byok_in_budgets: true }, emu.keys.management)).status).toBe(200)

    const res = await emu.get(`${ADMIN}/accounts/${account.id}/workspaces`)
    expect(res.status).toBe(200)
    expect(res.body.total_count).toBe(2)
    const [main, second] = res.body.data
    // The default workspace: the API's object, no budgets, every member of the account implicitly.
    const apiDefault = (await emu.get(`${WS}/default`, emu.keys.management)).body.data
    expect(main).toEqual({ ...apiDefault, budgets: [], member_count: account.members.length })
    // The creator joins the workspace it made, then the member added: the count the members API gives.
    const apiMembers = (await emu.get(`${WS}/team/members`, emu.keys.management)).body
    expect(apiMembers.total_count).toBe(2)
    expect(second).toMatchObject({ id: team.id, name: 'Team', slug: 'team', include_byok_in_budgets: true, member_count: apiMembers.total_count })
    // Its budgets as the budgets API lists them, narrowest interval first.
    const apiBudgets = (await emu.get(`${WS}/team/budgets`, emu.keys.management)).body.data
    expect(second.budgets).toEqual(apiBudgets)
    expect(second.budgets.map((b: { reset_interval: string; limit_usd: number }) => [b.reset_interval, b.limit_usd])).toEqual([
      ['daily', 2.5],
      ['monthly', 50],
    ])
  })

  it('answers 404 with the error envelope for an unknown account, and reads nothing through the gateway', async () => {
    const emu = await testEmulator()
    const res = await emu.get(`${ADMIN}/accounts/acct_nope/workspaces`)
    expect(res.status).toBe(404)
    expect(res.body).toMatchObject({ error: { code: 404, message: 'Account acct_nope not found' } })
  })
})
