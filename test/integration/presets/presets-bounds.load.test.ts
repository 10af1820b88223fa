// What presets hold together is bounded, per account and over every account: presets, versions, and
// bytes of system prompts and settings. The attack of issue 35 (one management key making versions of
// 100,000 characters by the thousand) stops at the account's bytes, beside a heartbeat; every bound is a
// 400 naming its limit that changes nothing, and an imported document is held to the same bounds.
import { describe, expect, it } from 'vitest'
import {
  MAX_ACCOUNT_PRESET_BYTES,
  MAX_ACCOUNT_VERSIONS,
  MAX_PRESETS,
  MAX_TOTAL_PRESETS,
  MAX_TOTAL_VERSIONS,
} from '../../../src/emulator/modules/presets/presets.schemas.ts'
import { listeningEmulator, testEmulator, type TestEmulator } from '../../helpers/emulator.ts'
import { withHeartbeat } from '../../helpers/heartbeat.ts'

const ADMIN = '/_emulator/api'
const MODEL = 'openai/gpt-4o-mini'
type Doc = { tables: Record<string, Array<Record<string, unknown>>> } & Record<string, unknown>

const create = (emu: TestEmulator, slug: string, system: string, key = emu.keys.management) =>
  emu.send('POST', `/api/v1/presets/${slug}/chat/completions`, { model: MODEL, messages: [{ role: 'system', content: system }] }, key)

const exportDoc = async (emu: TestEmulator): Promise<Doc> => (await emu.get(`${ADMIN}/export`)).body as Doc
const tablesOf = async (emu: TestEmulator) => {
  const { tables } = await exportDoc(emu)
  return { presets: tables['presets'], preset_versions: tables['preset_versions'], sequences: tables['sequences'] }
}

const uuid = (kind: number, n: number) => `00000000-0000-4000-8${kind.toString(16).padStart(3, '0')}-${n.toString(16).padStart(12, '0')}`
const presetRow = (n: number, account: { id: string; workspace_id: string }) => ({
  id: uuid(1, n),
  account_id: account.id,
  workspace_id: account.workspace_id,
  slug: `p${n}`,
  name: `p${n}`,
  description: null,
  status: 'active',
  creator_user_id: null,
  created_at: 0,
  updated_at: 0,
  status_updated_at: null,
})
const versionRow = (n: number, presetId: string, version: number, system_prompt: string | null = null) => ({
  id: uuid(2, n),
  preset_id: presetId,
  version,
  creator_id: 'user_imported',
  system_prompt,
  config: '{}',
  created_at: 0,
  updated_at: 0,
})

/** What the in-memory database holds, in bytes: what the emulator keeps, without the garbage a run leaves for the collector. */
const dbBytes = (emu: TestEmulator): number =>
  (emu.ctx.db.pragma('page_count', { simple: true }) as number) * (emu.ctx.db.pragma('page_size', { simple: true }) as number)

async function seededAccount(emu: TestEmulator): Promise<{ id: string; workspace_id: string }> {
  return (await emu.get(`${ADMIN}/accounts`)).body.data[0]
}

/** The emulator's state with these preset rows laid in (through the import, as a user would). */
async function withPresets(emu: TestEmulator, presets: unknown[], versions: unknown[]): Promise<void> {
  const doc = await exportDoc(emu)
  const res = await emu.send('POST', `${ADMIN}/import`, { ...doc, tables: { ...doc.tables, presets, preset_versions: versions } })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
}

describe('the attack: versions of 100,000 characters from one management key', () => {
  it("stops at the account's bytes with a 400 naming the limit, beside a heartbeat that never waits, and keeps what it took", async () => {
    const emu = await listeningEmulator()
    const prompt = 'p'.repeat(100_000)
    const versionBytes = prompt.length + JSON.stringify({ model: MODEL }).length
    const fits = Math.floor(MAX_ACCOUNT_PRESET_BYTES / versionBytes)
    const body = JSON.stringify({ model: MODEL, messages: [{ role: 'system', content: prompt }] })
    const post = (i: number) =>
      fetch(`${emu.url}/api/v1/presets/attack-${i % 3}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${emu.keys.management}`, 'content-type': 'application/json' },
        body,
      }).then(async (res) => ({ status: res.status, body: res.status === 200 ? null : ((await res.json()) as any) }))

    // Warm (a first request loads what the presets routes use): the heartbeat measures the attack, not that.
    const other = (await emu.send('POST', `${ADMIN}/accounts`, {})).body.data
    expect((await create(emu, 'warm', 'Be brief.', other.management_key)).status).toBe(200)
    const dbBefore = dbBytes(emu)
    const { result, heartbeat } = await withHeartbeat(emu.url, async () => {
      const answers: Array<{ status: number; body: any }> = []
      // Four at a time, 300 in all: past the bound by far.
      for (let i = 0; i < 300; i += 4) answers.push(...(await Promise.all(Array.from({ length: 4 }, (_, j) => post(i + j)))))
      return answers
    })
    expect(heartbeat.failures).toEqual([])
    expect(heartbeat.slowestMs).toBeLessThan(500)
    // What stays is the account's bound and the journal's copies of a few bodies (it keeps each one cut short).
    expect(dbBytes(emu) - dbBefore).toBeLessThan(MAX_ACCOUNT_PRESET_BYTES + 4 * 1024 * 1024)

    expect(result.filter((r) => r.status === 200)).toHaveLength(fits)
    const refused = result.filter((r) => r.status !== 200)
    expect(refused).toHaveLength(300 - fits)
    const used = fits * versionBytes
    expect(refused[0]).toEqual({
      status: 400,
      body: {
        error: {
          code: 400,
          message: `An account keeps at most 8 MiB of preset system prompts and settings; they hold ${used} bytes, and this version's ${versionBytes} more would pass it: reset the account (POST /_emulator/api/accounts/{id}/reset) to make room`,
          metadata: { field: 'body', location: 'body', used_bytes: used, version_bytes: versionBytes, limit_bytes: MAX_ACCOUNT_PRESET_BYTES },
        },
      },
    })
    const listed = await emu.get('/api/v1/presets', emu.keys.management)
    expect(listed.body.total_count).toBe(3)
    const versions = await Promise.all(
      [0, 1, 2].map(async (i) => (await emu.get(`/api/v1/presets/attack-${i}/versions`, emu.keys.management)).body.total_count),
    )
    expect(versions.reduce((a: number, b: number) => a + b, 0)).toBe(fits)
    // Another account is not held back by this one.
    expect((await create(emu, 'mine', 'Be brief.', other.management_key)).status).toBe(200)
  })
})

describe('each bound', () => {
  it(`versions of one account: the ${MAX_ACCOUNT_VERSIONS + 1}th is refused, changing nothing`, async () => {
    const emu = await testEmulator()
    const account = await seededAccount(emu)
    // 500 versions in each of 10 presets: no preset is at its own bound.
    const presets = Array.from({ length: MAX_ACCOUNT_VERSIONS / 500 }, (_, i) => presetRow(i, account))
    await withPresets(
      emu,
      presets,
      Array.from({ length: MAX_ACCOUNT_VERSIONS }, (_, n) => versionRow(n, presets[Math.floor(n / 500)]!.id, (n % 500) + 1)),
    )
    const before = await tablesOf(emu)
    for (const slug of ['p0', 'a-new-one']) {
      const res = await create(emu, slug, 'One more.')
      expect(res.status).toBe(400)
      expect(res.body).toEqual({
        error: {
          code: 400,
          message: `An account keeps at most ${MAX_ACCOUNT_VERSIONS} preset versions: reset the account (POST /_emulator/api/accounts/{id}/reset) to make room`,
          metadata: { field: 'slug', location: 'params', limit: MAX_ACCOUNT_VERSIONS },
        },
      })
    }
    expect(await tablesOf(emu)).toEqual(before)
  })

  it(`presets of every account together: past ${MAX_TOTAL_PRESETS}, a new one is refused; a version of one that exists is not`, async () => {
    const emu = await testEmulator()
    const accounts: Array<{ id: string; workspace_id: string; management_key: string }> = []
    for (let i = 0; i < MAX_TOTAL_PRESETS / MAX_PRESETS; i++) accounts.push((await emu.send('POST', `${ADMIN}/accounts`, {})).body.data)
    const presets = Array.from({ length: MAX_TOTAL_PRESETS }, (_, n) => presetRow(n, accounts[Math.floor(n / MAX_PRESETS)]!))
    await withPresets(emu, presets, [])
    const before = await tablesOf(emu)
    const refused = await create(emu, 'one-too-many', 'Hello.')
    expect(refused.status).toBe(400)
    expect(refused.body).toEqual({
      error: {
        code: 400,
        message: `The emulator (all accounts together) keeps at most ${MAX_TOTAL_PRESETS} presets: add versions to an existing one instead, or reset or delete an account to make room`,
        metadata: { field: 'slug', location: 'params', limit: MAX_TOTAL_PRESETS },
      },
    })
    expect(await tablesOf(emu)).toEqual(before)
    expect((await create(emu, 'p0', 'Hello.', accounts[0]!.management_key)).status).toBe(200)
  })

  it(`versions of every account together: past ${MAX_TOTAL_VERSIONS}, refused for everyone`, async () => {
    const emu = await testEmulator()
    const accounts: Array<{ id: string; workspace_id: string; management_key: string }> = []
    for (let i = 0; i < MAX_TOTAL_VERSIONS / MAX_ACCOUNT_VERSIONS; i++) accounts.push((await emu.send('POST', `${ADMIN}/accounts`, {})).body.data)
    const presets = Array.from({ length: MAX_TOTAL_VERSIONS / 1000 }, (_, i) => presetRow(i, accounts[Math.floor((i * 1000) / MAX_ACCOUNT_VERSIONS)]!))
    await withPresets(
      emu,
      presets,
      Array.from({ length: MAX_TOTAL_VERSIONS }, (_, n) => versionRow(n, presets[Math.floor(n / 1000)]!.id, (n % 1000) + 1)),
    )
    const res = await create(emu, 'fresh', 'Hello.')
    expect(res.status).toBe(400)
    expect(res.body.error).toEqual({
      code: 400,
      message: `The emulator (all accounts together) keeps at most ${MAX_TOTAL_VERSIONS} preset versions: reset or delete an account to make room`,
      metadata: { field: 'slug', location: 'params', limit: MAX_TOTAL_VERSIONS },
    })
  })
})

describe('an imported document is held to the same bounds', () => {
  const refusal = (field: string, issue: string) => ({
    error: { code: 400, message: `Field \`${field}\` ${issue}`, metadata: expect.objectContaining({ field, location: 'body', issue }) },
  })

  it('refuses, naming the row, an account of too many presets, versions or bytes, and changes nothing', async () => {
    const emu = await testEmulator()
    const account = await seededAccount(emu)
    const doc = await exportDoc(emu)
    const importWith = (presets: unknown[], versions: unknown[]) =>
      emu.send('POST', `${ADMIN}/import`, { ...doc, tables: { ...doc.tables, presets, preset_versions: versions } })
    const before = await tablesOf(emu)

    const tooManyPresets = Array.from({ length: MAX_PRESETS + 1 }, (_, n) => presetRow(n, account))
    expect((await importWith(tooManyPresets, [])).body).toEqual(
      refusal(`tables.presets[${MAX_PRESETS}].account_id`, `is past the ${MAX_PRESETS} presets one account keeps`),
    )

    const one = presetRow(0, account)
    const big = 'b'.repeat(100_000)
    const fits = Math.floor(MAX_ACCOUNT_PRESET_BYTES / (big.length + 2))
    const versions = Array.from({ length: fits + 1 }, (_, n) => versionRow(n, one.id, n + 1, big))
    expect((await importWith([one], versions)).body).toEqual(
      refusal(`tables.preset_versions[${fits}]`, `is past the ${MAX_ACCOUNT_PRESET_BYTES} bytes of preset system prompts and settings one account keeps`),
    )
    expect(await tablesOf(emu)).toEqual(before)
    // One version fewer is taken.
    expect((await importWith([one], versions.slice(0, fits))).status).toBe(200)
  })
})
