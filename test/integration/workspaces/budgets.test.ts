// Workspace budgets: their API (per interval, the order rule, the workspace-wide BYOK flag) and their
// enforcement by the ledger: a key whose workspace spent a budget's limit in the current window is
// refused with a 402 before anything is billed, on every billed surface, until the window turns.
import { describe, expect, it } from 'vitest'
import { sha256Hex } from '../../../src/emulator/core/rng.ts'
import { recordUsage, testEmulator, TEST_START, type TestEmulator } from '../../helpers/emulator.ts'
import { ADMIN, chat, createWorkspace, embed, keyInWorkspace, ledgerState, seededAccount, UUID, WS } from './helpers.ts'

const put = (emu: TestEmulator, workspace: string, interval: string, body: unknown) =>
  emu.send('PUT', `${WS}/${workspace}/budgets/${interval}`, body, emu.keys.management)

/** What the standard key has spent so far, in USD (GET /key). */
async function spentUsd(emu: TestEmulator, key: string): Promise<number> {
  return (await emu.get('/api/v1/key', key)).body.data.usage as number
}

describe('the budgets API', () => {
  it('creates, changes, reads, lists (narrowest first) and deletes a budget per interval', async () => {
    const emu = await testEmulator()
    const account = await seededAccount(emu)
    expect((await emu.get(`${WS}/default/budgets`, emu.keys.management)).body).toEqual({ data: [], include_byok_in_budgets: false })

    const monthly = await put(emu, 'default', 'monthly', { limit_usd: 100 })
    expect(monthly.status).toBe(200)
    expect(monthly.body).toEqual({
      data: {
        id: expect.stringMatching(UUID),
        workspace_id: account.workspace_id,
        limit_usd: 100,
        reset_interval: 'monthly',
        created_at: TEST_START,
        updated_at: TEST_START,
      },
      include_byok_in_budgets: false,
    })
    await emu.send('POST', `${ADMIN}/clock/advance`, { by: '1h' })
    const changed = await put(emu, account.workspace_id, 'monthly', { limit_usd: 80 })
    expect(changed.body.data).toEqual({ ...monthly.body.data, limit_usd: 80, updated_at: '2026-03-04T11:00:00.000Z' })

    const lifetime = await put(emu, 'default', 'lifetime', { limit_usd: 1000 })
    expect(lifetime.body.data).toMatchObject({ reset_interval: null, limit_usd: 1000 })
    await put(emu, 'default', 'daily', { limit_usd: 5.5 })
    const list = await emu.get(`${WS}/default/budgets`, emu.keys.management)
    expect(list.body.data.map((b: { reset_interval: string | null; limit_usd: number }) => [b.reset_interval, b.limit_usd])).toEqual([
      ['daily', 5.5],
      ['monthly', 80],
      [null, 1000],
    ])
    expect((await emu.get(`${WS}/default/budgets/monthly`, emu.keys.management)).body).toEqual(changed.body)

    expect((await emu.send('DELETE', `${WS}/default/budgets/monthly`, undefined, emu.keys.management)).body).toEqual({ deleted: true })
    const gone = await emu.get(`${WS}/default/budgets/monthly`, emu.keys.management)
    expect(gone.status).toBe(404)
    expect(gone.body).toEqual({ error: { code: 404, message: 'Workspace default has no monthly budget' } })
    // As the real answer: "deleted (or did not exist)".
    expect((await emu.send('DELETE', `${WS}/default/budgets/monthly`, undefined, emu.keys.management)).body).toEqual({ deleted: true })
  })

  it('keeps include_byok_in_budgets workspace-wide: set by any interval, left alone when omitted', async () => {
    const emu = await testEmulator()
    await put(emu, 'default', 'monthly', { limit_usd: 10 })
    expect((await put(emu, 'default', 'daily', { limit_usd: 1, include_byok_in_budgets: true })).body.include_byok_in_budgets).toBe(true)
    expect((await put(emu, 'default', 'weekly', { limit_usd: 5 })).body.include_byok_in_budgets).toBe(true)
    expect((await emu.get(`${WS}/default/budgets/monthly`, emu.keys.management)).body.include_byok_in_budgets).toBe(true)
    expect((await emu.get(`${WS}/default`, emu.keys.management)).body.data.include_byok_in_budgets).toBe(true)
    expect((await put(emu, 'default', 'weekly', { limit_usd: 5, include_byok_in_budgets: false })).body.include_byok_in_budgets).toBe(false)
    expect((await emu.get(`${WS}/default/budgets`, emu.keys.management)).body.include_byok_in_budgets).toBe(false)
  })

  it('refuses limits that do not strictly decrease as the interval narrows, naming limit_usd', async () => {
    const emu = await testEmulator()
    await put(emu, 'default', 'monthly', { limit_usd: 100 })
    await put(emu, 'default', 'daily', { limit_usd: 10 })
    const rule = 'limits must strictly decrease as the interval narrows (lifetime > monthly > weekly > daily)'
    const cases: Array<[string, number, string]> = [
      ['weekly', 100, `must be less than the monthly budget ($100) for a weekly budget: ${rule}`],
      ['weekly', 10, `must be greater than the daily budget ($10) for a weekly budget: ${rule}`],
      ['lifetime', 50, `must be greater than the monthly budget ($100) for a lifetime budget: ${rule}`],
      ['daily', 100, `must be less than the monthly budget ($100) for a daily budget: ${rule}`],
    ]
    for (const [interval, limit, issue] of cases) {
      const res = await put(emu, 'default', interval, { limit_usd: limit })
      expect(res.body).toEqual({ error: { code: 400, message: `Field \`limit_usd\` ${issue}`, metadata: { field: 'limit_usd', location: 'body', issue } } })
    }
    expect((await emu.get(`${WS}/default/budgets`, emu.keys.management)).body.data.map((b: { limit_usd: number }) => b.limit_usd)).toEqual([10, 100])
  })

  it.each([
    ['a zero limit', { limit_usd: 0 }, 'limit_usd', 'must be > 0'],
    ['a negative limit', { limit_usd: -1 }, 'limit_usd', 'must be > 0'],
    ['a limit as a string', { limit_usd: '5' }, 'limit_usd', 'must be a number'],
    ['no limit', { include_byok_in_budgets: true }, 'limit_usd', 'is required'],
    ['an absurd limit', { limit_usd: 1e12 }, 'limit_usd', 'must be <= 1000000000'],
    [
      'a limit below one nano-dollar',
      { limit_usd: 1e-10 },
      'limit_usd',
      'must be at least 0.000000001 (one nano-dollar, the smallest amount the ledger counts)',
    ],
    ['a flag as a string', { limit_usd: 1, include_byok_in_budgets: 'yes' }, 'include_byok_in_budgets', 'must be a boolean'],
  ])('a body with %s is a 400', async (_name, body, field, issue) => {
    const emu = await testEmulator()
    const res = await put(emu, 'default', 'monthly', body)
    expect(res.body).toEqual({ error: { code: 400, message: `Field \`${field}\` ${issue}`, metadata: { field, location: 'body', issue } } })
    expect((await emu.get(`${WS}/default/budgets`, emu.keys.management)).body.data).toEqual([])
  })

  it('an interval the document does not name is a 400 on every budget operation', async () => {
    const emu = await testEmulator()
    const issue = 'must be one of daily, weekly, monthly, lifetime'
    const error = { error: { code: 400, message: `Path parameter \`interval\` ${issue}`, metadata: { field: 'interval', location: 'params', issue } } }
    expect((await emu.get(`${WS}/default/budgets/hourly`, emu.keys.management)).body).toEqual(error)
    expect((await put(emu, 'default', 'yearly', { limit_usd: 1 })).body).toEqual(error)
    expect((await emu.send('DELETE', `${WS}/default/budgets/total`, undefined, emu.keys.management)).body).toEqual(error)
  })
})

describe('budgets enforced by the ledger', () => {
  it('refuses embeddings and chat with a 402 once the monthly budget is spent, billing nothing', async () => {
    const emu = await testEmulator()
    const account = await seededAccount(emu)
    expect((await embed(emu, emu.keys.standard)).status).toBe(200)
    expect((await chat(emu, emu.keys.standard)).status).toBe(200)
    const spent = await spentUsd(emu, emu.keys.standard)
    expect(spent).toBeGreaterThan(0)

    // Spend reaches the limit exactly: the next request is over it.
    await put(emu, 'default', 'monthly', { limit_usd: spent })
    const before = ledgerState(emu)
    const credits = (await emu.get('/api/v1/credits', emu.keys.management)).body
    const expected = {
      error: {
        code: 402,
        message: `Workspace budget exceeded (monthly limit): workspace "Default Workspace" allows $${spent}`,
        metadata: { limit_source: 'workspace_budget', workspace_id: account.workspace_id, limit_usd: spent, reset_interval: 'monthly', usage_usd: spent },
      },
    }
    for (const call of [embed, chat]) {
      const res = await call(emu, emu.keys.standard)
      expect(res.status).toBe(402)
      expect(res.body).toEqual(expected)
    }
    // Every key of the workspace is refused, not only the one that spent.
    const other = (await emu.get('/api/v1/keys', emu.keys.management)).body.data.find((k: { name: string }) => k.name === 'CI pipeline').hash as string
    const otherToken = emu.ctx.services.keys.byHash(other)!.token!
    expect((await embed(emu, otherToken)).status).toBe(402)
    expect(ledgerState(emu)).toEqual(before)
    expect((await emu.get('/api/v1/credits', emu.keys.management)).body).toEqual(credits)

    // A higher limit, or none, lets requests through again.
    await put(emu, 'default', 'monthly', { limit_usd: spent * 10 })
    expect((await embed(emu, emu.keys.standard)).status).toBe(200)
    await put(emu, 'default', 'monthly', { limit_usd: spent })
    expect((await embed(emu, emu.keys.standard)).status).toBe(402)
    await emu.send('DELETE', `${WS}/default/budgets/monthly`, undefined, emu.keys.management)
    expect((await embed(emu, emu.keys.standard)).status).toBe(200)
  })

  it.each([
    ['daily', '2026-03-05T00:00:00.000Z'],
    ['weekly', '2026-03-09T00:00:00.000Z'],
    ['monthly', '2026-04-01T00:00:00.000Z'],
  ])('a %s budget opens again when its window turns on the virtual clock (at %s)', async (interval, next) => {
    const emu = await testEmulator()
    recordUsage(emu, sha256Hex(emu.keys.standard), 2, TEST_START)
    await put(emu, 'default', interval, { limit_usd: 2 })
    expect((await embed(emu, emu.keys.standard)).body.error.message).toBe(
      `Workspace budget exceeded (${interval} limit): workspace "Default Workspace" allows $2`,
    )
    // One minute before the boundary, still spent; at it, open.
    await emu.send('POST', `${ADMIN}/clock/advance`, { ms: Date.parse(next) - Date.parse(TEST_START) - 60_000 })
    expect((await embed(emu, emu.keys.standard)).status).toBe(402)
    await emu.send('POST', `${ADMIN}/clock/advance`, { by: '1m' })
    expect((await emu.get(`${ADMIN}/clock`)).body.data.now).toBe(next)
    expect((await embed(emu, emu.keys.standard)).status).toBe(200)
  })

  it('a lifetime budget never opens again', async () => {
    const emu = await testEmulator()
    recordUsage(emu, sha256Hex(emu.keys.standard), 3, TEST_START)
    await put(emu, 'default', 'lifetime', { limit_usd: 3 })
    await emu.send('POST', `${ADMIN}/clock/advance`, { by: '400d' })
    const res = await embed(emu, emu.keys.standard)
    expect(res.status).toBe(402)
    expect(res.body.error).toMatchObject({
      message: 'Workspace budget exceeded (lifetime limit): workspace "Default Workspace" allows $3',
      metadata: { reset_interval: null },
    })
  })

  it("counts only its own workspace's spend, and refuses only its own keys", async () => {
    const emu = await testEmulator()
    const account = await seededAccount(emu)
    const team = await createWorkspace(emu, { name: 'Team', slug: 'team' })
    const teamKey = keyInWorkspace(emu, account.id, team.id, account.members[0]!.id)
    // The default workspace spent a lot; the team nothing yet.
    recordUsage(emu, sha256Hex(emu.keys.standard), 50, TEST_START)
    await put(emu, 'team', 'monthly', { limit_usd: 1 })
    expect((await embed(emu, teamKey.token)).status).toBe(200)
    expect((await embed(emu, emu.keys.standard)).status).toBe(200)

    recordUsage(emu, teamKey.hash, 1, TEST_START)
    const refused = await embed(emu, teamKey.token)
    expect(refused.status).toBe(402)
    expect(refused.body.error.metadata).toMatchObject({ workspace_id: team.id, limit_usd: 1 })
    expect(refused.body.error.message).toBe('Workspace budget exceeded (monthly limit): workspace "Team" allows $1')
    expect((await embed(emu, emu.keys.standard)).status).toBe(200)

    // Usage rows record the workspace of their key.
    const rows = emu.ctx.db.prepare<[], { key_hash: string; workspace_id: string }>('SELECT key_hash, workspace_id FROM usage').all()
    expect(new Set(rows.filter((r) => r.key_hash === teamKey.hash).map((r) => r.workspace_id))).toEqual(new Set([team.id]))
    expect(new Set(rows.filter((r) => r.key_hash !== teamKey.hash).map((r) => r.workspace_id))).toEqual(new Set([account.workspace_id]))

    // The spend stays the team's once its key is gone.
    await emu.send('DELETE', `${ADMIN}/accounts/${account.id}/keys/${teamKey.hash}`)
    const another = keyInWorkspace(emu, account.id, team.id, account.members[0]!.id)
    expect((await embed(emu, another.token)).status).toBe(402)
  })

  it('counts BYOK spend only when include_byok_in_budgets says so', async () => {
    const emu = await testEmulator()
    recordUsage(emu, sha256Hex(emu.keys.standard), 2, TEST_START, true)
    await put(emu, 'default', 'monthly', { limit_usd: 1 })
    expect((await embed(emu, emu.keys.standard)).status).toBe(200)
    await put(emu, 'default', 'monthly', { limit_usd: 1, include_byok_in_budgets: true })
    const res = await embed(emu, emu.keys.standard)
    expect(res.status).toBe(402)
    expect(res.body.error.metadata.usage_usd).toBeGreaterThanOrEqual(2)
  })

  it('reports the narrowest spent budget first', async () => {
    const emu = await testEmulator()
    recordUsage(emu, sha256Hex(emu.keys.standard), 5, TEST_START)
    await put(emu, 'default', 'monthly', { limit_usd: 5 })
    await put(emu, 'default', 'daily', { limit_usd: 1 })
    expect((await embed(emu, emu.keys.standard)).body.error.metadata).toMatchObject({ reset_interval: 'daily', limit_usd: 1, usage_usd: 5 })
  })
})
