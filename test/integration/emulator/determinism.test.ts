// Every draw comes from the seed (core/rng): the same seed and the same calls give the same accounts,
// members, video tasks (ids, drawn seeds, outcomes, creations) and charges; another seed gives others.
import { describe, expect, it } from 'vitest'
import { testEmulator, type TestEmulator } from '../../helpers/emulator.ts'

const ROUTER = '/router/v1/video/ent/v2'

/** A run of calls through the HTTP APIs, and what it drew. */
async function drawn(emu: TestEmulator) {
  const accounts = []
  for (const name of ['a', 'b']) accounts.push((await emu.send('POST', '/_emulator/api/accounts', { name, credits_usd: 5 })).body.data)
  const tasks = []
  for (const prompt of ['one', 'two', 'three', 'four', 'five', 'six']) {
    tasks.push((await emu.send('POST', `${ROUTER}/text2video`, { model: 'videoq2', prompt }, emu.keys.standard)).body.task_id as string)
  }
  await emu.clock.advance('1m')
  const charge = (await emu.send('POST', '/api/v1/credits/crypto', { amount: 3, sender: `0x${'12'.repeat(20)}`, chain_id: 1 }, emu.keys.standard)).body.data
  return {
    accounts: accounts.map((a) => ({ id: a.id, keys: [a.management_key, a.standard_key], members: a.members })),
    tasks: await Promise.all(
      tasks.map(async (id) => {
        const admin = (await emu.get(`/_emulator/api/video/tasks/${id}`)).body.data
        const view = (await emu.get(`${ROUTER}/tasks/${id}/creations`, emu.keys.standard)).body
        return { id, seed: admin.request.seed, state: view.state, creations: view.creations.map((c: { id: string }) => c.id) }
      }),
    ),
    charge: { id: charge.id, call_data: charge.web3_data.transfer_intent.call_data },
  }
}

describe('seeded draws', () => {
  it('the same seed and calls give the same accounts, members, tasks and charges; another seed others', async () => {
    const first = await drawn(await testEmulator({ videoFailureRate: 0.5 }))
    expect(first.accounts[0]!.members).toHaveLength(3)
    for (const member of first.accounts[0]!.members)
      expect(member).toMatchObject({ name: expect.stringMatching(/\S \S/), email: expect.stringMatching(/@example\.com$/) })
    // The rate is drawn per task: with six tasks at 0.5, both outcomes show (fixed by seed 1).
    expect(new Set(first.tasks.map((t) => t.state))).toEqual(new Set(['success', 'failed']))
    for (const task of first.tasks) expect(task.creations).toHaveLength(task.state === 'success' ? 1 : 0)

    expect(await drawn(await testEmulator({ videoFailureRate: 0.5 }))).toEqual(first)

    const other = await drawn(await testEmulator({ videoFailureRate: 0.5, seed: 2 }))
    expect(other.accounts.map((a) => a.members)).not.toEqual(first.accounts.map((a) => a.members))
    expect(other.tasks.map((t) => [t.id, t.seed])).not.toEqual(first.tasks.map((t) => [t.id, t.seed]))
    expect(other.charge).not.toEqual(first.charge)
  })

  it("an account's members do not depend on what was generated before it", async () => {
    const alone = await testEmulator()
    const after = await testEmulator({ demo: true })
    // Same label (the first created account of each), different history of draws before it.
    const a = (await alone.send('POST', '/_emulator/api/accounts', { name: 'x' })).body.data
    const b = (await after.send('POST', '/_emulator/api/accounts', { name: 'x' })).body.data
    expect(b.members.map((m: { name: string; email: string }) => [m.name, m.email])).toEqual(
      a.members.map((m: { name: string; email: string }) => [m.name, m.email]),
    )
  })
})
