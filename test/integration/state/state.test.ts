// State export and import: a rich state survives export -> reset -> import unchanged, a bad document
// is a 400 naming the bad value and changes nothing, the atomic file export, older documents, and
// per-account reset for workspaces used in parallel.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { sha256Hex } from '../../../src/emulator/core/rng.ts'
import { describeSchema } from '../../../src/emulator/modules/state/state.service.ts'
import { testEmulator, type TestEmulator } from '../../helpers/emulator.ts'
import { startSink } from '../../helpers/sink.ts'

const ADMIN = '/_emulator/api'
const VIDEO = '/router/v1/video/ent/v2'
const MODEL = 'openai/text-embedding-3-small'
const SENDER = '0x52908400098527886E0F7030069857D2E4169EE7'

type Doc = { format: string; version: number; exported_at: string; schema_version: number; clock: unknown; tables: Record<string, Record<string, unknown>[]> }

const exportDoc = async (emu: TestEmulator): Promise<Doc> => {
  const res = await emu.get(`${ADMIN}/export`)
  expect(res.status).toBe(200)
  return res.body as Doc
}
const importDoc = (emu: TestEmulator, doc: unknown) => emu.send('POST', `${ADMIN}/import`, doc)
const withoutTime = ({ exported_at: _, ...rest }: Doc) => rest
/** The tables richState fills (tables added by later migrations may stay empty). */
const FILLED = [
  'meta',
  'sequences',
  'accounts',
  'members',
  'api_keys',
  'usage',
  'catalog_override',
  'guardrails',
  'guardrail_key_assignments',
  'guardrail_member_assignments',
  'charges',
  'video_tasks',
  'video_task_states',
  'callback_deliveries',
  'callback_attempts',
]
const clone = <T>(value: T): T => structuredClone(value)

/** Something in every table: guardrails and assignments, a confirmed charge, usage, a finished video task with callbacks, a second account, a catalog change. */
async function richState(emu: TestEmulator) {
  const mk = emu.keys.management
  const guardrail = (await emu.send('POST', '/api/v1/guardrails', { name: 'team', limit_usd: 5, description: 'shared budget' }, mk)).body.data
  expect(guardrail.id).toBeDefined()
  expect((await emu.send('POST', `/api/v1/guardrails/${guardrail.id}/assignments/keys`, { key_hashes: [sha256Hex(emu.keys.standard)] }, mk)).status).toBe(200)
  const account = (await emu.get(`${ADMIN}/accounts`)).body.data[0]
  const members = (await emu.get(`${ADMIN}/accounts/${account.id}`)).body.data.members
  expect((await emu.send('POST', `/api/v1/guardrails/${guardrail.id}/assignments/members`, { member_user_ids: [members[0].id] }, mk)).status).toBe(200)

  const charge = (await emu.send('POST', '/api/v1/credits/crypto', { amount: 10, sender: SENDER, chain_id: 8453 }, emu.keys.standard)).body.data
  expect((await emu.send('POST', `${ADMIN}/charges/${charge.id}/confirm`)).status).toBe(200)

  for (const input of ['hello', 'world', ['a', 'b']]) {
    expect((await emu.send('POST', '/api/v1/embeddings', { model: MODEL, input }, emu.keys.standard)).status).toBe(200)
  }

  const hook = `${(await startSink()).url}/hook`
  const created = await emu.request({
    method: 'POST',
    url: `${VIDEO}/text2video`,
    headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json', 'x-emulator-video-outcome': 'success' },
    payload: JSON.stringify({ model: 'videoq2', prompt: 'x', callback_url: hook }),
  })
  expect(created.status).toBe(200)
  const taskId = created.body.task_id as string
  await emu.clock.advance('1m')
  expect(await emu.drainCallbacks()).toBe(true)
  expect((await emu.get(`${VIDEO}/tasks/${taskId}/creations`, emu.keys.standard)).body.state).toBe('success')

  const second = (await emu.send('POST', `${ADMIN}/accounts`, { name: 'second', credits_usd: 3 })).body.data
  expect((await emu.send('POST', '/api/v1/embeddings', { model: MODEL, input: 'second' }, second.standard_key)).status).toBe(200)

  const catalog = (await emu.get(`${ADMIN}/catalog`)).body.data
  const model = {
    ...catalog.models[0],
    id: 'acme/extra-model',
    name: 'Acme: Extra',
    endpoints: catalog.models[0].endpoints.map((e: { id: string }) => ({ ...e, id: `${e.id}-extra` })),
  }
  expect((await emu.send('POST', `${ADMIN}/catalog/models`, { models: [model] })).status).toBe(200)

  return { guardrail, taskId, second, account }
}

/** What the API answers about the state, to compare before and after. */
async function answers(emu: TestEmulator, taskId: string, second: { id: string; management_key: string }) {
  const mk = emu.keys.management
  return {
    keys: (await emu.get('/api/v1/keys?include_disabled=true', mk)).body,
    credits: (await emu.get('/api/v1/credits', mk)).body,
    guardrails: (await emu.get('/api/v1/guardrails', mk)).body,
    keyAssignments: (await emu.get('/api/v1/guardrails/assignments/keys', mk)).body,
    task: (await emu.get(`${VIDEO}/tasks/${taskId}/creations`, emu.keys.standard)).body,
    secondKeys: (await emu.get('/api/v1/keys', second.management_key)).body,
    secondCredits: (await emu.get('/api/v1/credits', second.management_key)).body,
    model: (await emu.get('/api/v1/models/acme/extra-model/endpoints')).status,
    state: (await emu.get(`${ADMIN}/state`)).body,
  }
}

describe('GET /_emulator/api/export', () => {
  it('is one versioned document with every table of the state, as an attachment', async () => {
    const emu = await testEmulator()
    const res = await emu.get(`${ADMIN}/export`)
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    expect(res.headers['content-disposition']).toBe('attachment; filename="emulator-state.json"')
    const doc = res.body as Doc
    expect(doc).toMatchObject({
      format: 'model-gateway-emulator/state',
      version: 1,
      exported_at: '2026-03-04T10:00:00.000Z',
      schema_version: emu.ctx.db.pragma('user_version', { simple: true }),
      clock: { now: '2026-03-04T10:00:00.000Z', mode: 'manual' },
    })
    const tables = emu.ctx.db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all()
    // The clock's position describes the running emulator, not its state.
    expect(Object.keys(doc.tables).sort()).toEqual(
      tables
        .map((t) => t.name)
        .filter((name) => name !== 'clock_position')
        .sort(),
    )
    for (const name of FILLED) expect(doc.tables).toHaveProperty(name)
    // Tokens are in it: an import must restore working keys.
    expect(doc.tables.api_keys!.map((k) => k.token)).toContain(emu.keys.standard)
  })
})

describe('export -> reset -> import', () => {
  it('gives back an identical state, and the API answers as before', async () => {
    const emu = await testEmulator()
    const { taskId, second } = await richState(emu)
    const before = await answers(emu, taskId, second)
    const first = await exportDoc(emu)
    for (const name of FILLED) expect(first.tables[name]!.length, `rows of ${name}`).toBeGreaterThan(0)

    expect((await emu.send('POST', `${ADMIN}/reset`)).status).toBe(200)
    const afterReset = await exportDoc(emu)
    expect(withoutTime(afterReset)).not.toEqual(withoutTime(first))
    expect((await emu.get('/api/v1/keys', second.management_key)).status).toBe(401)
    expect((await emu.get('/api/v1/models/acme/extra-model/endpoints')).status).toBe(404)

    const events: unknown[] = []
    emu.ctx.events.on('state.reset', (e) => events.push(e))
    const res = await importDoc(emu, first)
    expect(res.status).toBe(200)
    expect(res.body.data.imported).toBe(true)
    expect(res.body.data.tables).toEqual(Object.fromEntries(Object.entries(first.tables).map(([name, rows]) => [name, rows.length])))
    expect(events).toEqual([{ at: emu.clock.nowIso() }])

    const again = await exportDoc(emu)
    expect(withoutTime(again)).toEqual(withoutTime(first))
    expect(await answers(emu, taskId, second)).toEqual(before)
    // The restored keys work for new calls, and ids keep counting from where they were.
    expect((await emu.send('POST', '/api/v1/embeddings', { model: MODEL, input: 'after' }, emu.keys.standard)).status).toBe(200)
    const third = (await emu.send('POST', `${ADMIN}/accounts`, {})).body.data
    expect([second.id, ...first.tables.accounts!.map((a) => a.id)]).not.toContain(third.id)
  })

  it('imports a document into a fresh emulator', async () => {
    const source = await testEmulator()
    await richState(source)
    const doc = await exportDoc(source)
    const target = await testEmulator({ seed: 7 })
    expect((await importDoc(target, doc)).status).toBe(200)
    // The clock is the target's own: an import does not move it.
    const imported = await exportDoc(target)
    expect(imported.clock).toEqual({ now: '2026-03-04T10:00:00.000Z', mode: 'manual' })
    expect(imported.tables).toEqual(doc.tables)
    expect((await target.get('/api/v1/credits', source.keys.management)).body).toEqual((await source.get('/api/v1/credits', source.keys.management)).body)
  })
})

describe('a bad document is a 400 naming the bad value, and nothing changes', () => {
  const accountIdOf = (doc: Doc) => doc.tables.accounts![0]!.id
  it.each<[string, (doc: Doc) => unknown, string, RegExp]>([
    ['a string in an INTEGER column', (d) => void (d.tables.api_keys![3]!.disabled = 'no'), 'tables.api_keys[3].disabled', /must be an integer/],
    ['a fraction in an INTEGER column', (d) => void (d.tables.accounts![0]!.credits_nanos = 1.5), 'tables.accounts[0].credits_nanos', /must be an integer/],
    ['a boolean in an INTEGER column', (d) => void (d.tables.api_keys![0]!.disabled = false), 'tables.api_keys[0].disabled', /must be an integer/],
    ['a number in a TEXT column', (d) => void (d.tables.members![1]!.email = 42), 'tables.members[1].email', /must be a string/],
    ['a NULL in a NOT NULL column', (d) => void (d.tables.accounts![0]!.name = null), 'tables.accounts[0].name', /must not be null/],
    ['a missing column', (d) => void delete d.tables.members![0]!.role, 'tables.members[0].role', /is required/],
    ['an unknown column', (d) => void (d.tables.accounts![0]!.colour = 'red'), 'tables.accounts[0].colour', /is not a known column of accounts/],
    ['an unknown table', (d) => void (d.tables.widgets = []), 'tables.widgets', /is not a known table/],
    ['a missing table', (d) => void delete d.tables.usage, 'tables.usage', /is required/],
    ['a table that is not an array', (d) => void (d.tables.usage = {} as never), 'tables.usage', /must be an array/],
    ['a row that is not an object', (d) => void (d.tables.members![2] = 'x' as never), 'tables.members[2]', /must be an object/],
    [
      'a foreign key to a missing account',
      (d) => void (d.tables.members![1]!.account_id = 'acct_missing'),
      'tables.members[1].account_id',
      /refers to a row of accounts/,
    ],
    [
      'a foreign key to a missing guardrail',
      (d) => void (d.tables.guardrails = []),
      'tables.guardrail_key_assignments[0].guardrail_id',
      /refers to a row of guardrails that the document does not have/,
    ],
    ['a value failing a CHECK', (d) => void (d.tables.api_keys![0]!.kind = 'root'), 'tables.api_keys[0].kind', /fails the check/],
    ['a duplicate primary key', (d) => void d.tables.accounts!.push({ ...d.tables.accounts![0]! }), 'tables.accounts[1].id', /must be unique/],
    ['a wrong format', (d) => void (d.format = 'something/else'), 'format', /must be "model-gateway-emulator\/state"/],
    ['a missing format', (d) => void delete (d as Partial<Doc>).format, 'format', /is required/],
    ['a newer format version', (d) => void (d.version = 2), 'version', /newer than the state format this emulator knows \(1\)/],
    ['a version that is not a number', (d) => void (d.version = 'one' as never), 'version', /must be an integer/],
    ['a newer schema', (d) => void (d.schema_version = 999), 'schema_version', /is 999, newer than this emulator's database schema/],
    ['no tables', (d) => void delete (d as Partial<Doc>).tables, 'tables', /is required/],
    [
      'an invalid catalog',
      (d) => void d.tables.catalog_override!.push({ id: 1, document: '{"version":1}', updated_at: 0 }),
      'tables.catalog_override[0].document',
      /is not a valid catalog/,
    ],
  ])('%s', async (_what, spoil, field, issue) => {
    const emu = await testEmulator()
    // Guardrail rows and assignments, so foreign keys between them can break.
    const g = (await emu.send('POST', '/api/v1/guardrails', { name: 'g' }, emu.keys.management)).body.data
    await emu.send('POST', `/api/v1/guardrails/${g.id}/assignments/keys`, { key_hashes: [sha256Hex(emu.keys.standard)] }, emu.keys.management)
    const before = await exportDoc(emu)
    expect(accountIdOf(before)).toBeDefined()
    const doc = clone(before)
    spoil(doc)
    const res = await importDoc(emu, doc)
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe(400)
    expect(res.body.error.metadata.field).toBe(field)
    expect(res.body.error.message).toContain(`\`${field}\``)
    expect(res.body.error.message).toMatch(issue)
    expect(withoutTime(await exportDoc(emu))).toEqual(withoutTime(before))
  })

  it('a body that is not a document', async () => {
    const emu = await testEmulator()
    const before = await exportDoc(emu)
    for (const body of [[], 'text', 5]) {
      const res = await importDoc(emu, body)
      expect(res.status).toBe(400)
    }
    expect(withoutTime(await exportDoc(emu))).toEqual(withoutTime(before))
  })

  it('a failed import leaves the running catalog as it was', async () => {
    const emu = await testEmulator()
    const doc = await exportDoc(emu)
    const models = (await emu.get('/api/v1/models/count')).body
    doc.tables.members![0]!.account_id = 'acct_missing'
    doc.tables.catalog_override = [{ id: 1, document: JSON.stringify({ version: 1, models: [] }), updated_at: 0 }]
    expect((await importDoc(emu, doc)).status).toBe(400)
    expect((await emu.get('/api/v1/models/count')).body).toEqual(models)
  })
})

describe('POST /_emulator/api/export (to a file)', () => {
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'emulator-state-'))
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
    return dir
  }
  /** An emulator whose database (and so its data directory) is in a fresh directory. */
  const withDataDir = async () => {
    const dir = tempDir()
    return { dir, emu: await testEmulator({ db: join(dir, 'emulator.db') }) }
  }

  it('writes the document atomically, leaving no temporary file, and replaces an existing file', async () => {
    const { dir, emu } = await withDataDir()
    const path = join(dir, 'state.json')
    const before = readdirSync(dir)
    const res = await emu.send('POST', `${ADMIN}/export`, { path })
    expect(res.status).toBe(200)
    const text = readFileSync(path, 'utf8')
    expect(res.body).toEqual({ data: { path, bytes: Buffer.byteLength(text) } })
    const doc = JSON.parse(text) as Doc
    expect(withoutTime(doc)).toEqual(withoutTime(await exportDoc(emu)))
    expect(readdirSync(dir).sort()).toEqual([...before, 'state.json'].sort())

    await emu.send('POST', `${ADMIN}/accounts`, { name: 'later' })
    expect((await emu.send('POST', `${ADMIN}/export`, { path: 'state.json' })).body).toEqual({ data: { path, bytes: expect.any(Number) } })
    expect((JSON.parse(readFileSync(path, 'utf8')) as Doc).tables.accounts!.map((a) => a.name)).toContain('later')
    expect(readdirSync(dir).sort()).toEqual([...before, 'state.json'].sort())
    // The file imports back.
    expect((await importDoc(emu, doc)).status).toBe(200)
  })

  it('writes nowhere outside the data directory: a 400 naming path, and no file', async () => {
    const { dir, emu } = await withDataDir()
    const outside = tempDir()
    mkdirSync(join(dir, 'sub'))
    symlinkSync(outside, join(dir, 'escape'))
    for (const path of [
      join(outside, 'state.json'),
      '../state.json',
      join(dir, 'sub', '..', '..', 'state.json'),
      'escape/state.json',
      join(dir, 'escape', 'state.json'),
      '/etc/profile.d/x.sh',
    ]) {
      const res = await emu.send('POST', `${ADMIN}/export`, { path })
      expect(res.status, path).toBe(400)
      expect(res.body.error.metadata).toMatchObject({ field: 'path', location: 'body' })
      expect(res.body.error.message).toMatch(/^Field `path` (must be inside the emulator's data directory|is in a directory that does not exist)/)
    }
    expect(readdirSync(outside)).toEqual([])
    // A subdirectory of it is inside.
    expect((await emu.send('POST', `${ADMIN}/export`, { path: 'sub/state.json' })).status).toBe(200)
  })

  it('has no data directory to write into when the database is in memory', async () => {
    const emu = await testEmulator()
    const res = await emu.send('POST', `${ADMIN}/export`, { path: join(tempDir(), 'state.json') })
    expect(res.status).toBe(400)
    expect(res.body.error).toMatchObject({
      metadata: { field: 'path' },
      message: expect.stringMatching(/keeps its database in memory, so it has no data directory/),
    })
  })

  it.each([
    [{ path: 'missing/state.json' }, 'path', /directory that does not exist/],
    [{}, 'path', /is required/],
  ])('%j is a 400 naming the field', async (body, field, issue) => {
    const { emu } = await withDataDir()
    const res = await emu.send('POST', `${ADMIN}/export`, body)
    expect(res.status).toBe(400)
    expect(res.body.error.metadata.field).toBe(field)
    expect(res.body.error.message).toMatch(issue)
  })

  it('refuses a path that is a directory', async () => {
    const { dir, emu } = await withDataDir()
    mkdirSync(join(dir, 'states'))
    const res = await emu.send('POST', `${ADMIN}/export`, { path: 'states' })
    expect(res.status).toBe(400)
    expect(res.body.error.message).toMatch(/is a directory/)
  })
})

describe('documents from an older schema', () => {
  it('import: missing columns take their default, missing tables start empty', async () => {
    const emu = await testEmulator()
    const account = (await emu.get(`${ADMIN}/accounts`)).body.data[0]
    await emu.send('PATCH', `${ADMIN}/accounts/${account.id}`, { zdr_only: true, ignored_providers: ['OpenAI'] })
    await emu.send('POST', '/api/v1/embeddings', { model: MODEL, input: 'spend' }, emu.keys.standard)
    const doc = await exportDoc(emu)
    expect(doc.tables.accounts![0]).toMatchObject({ zdr_only: 1, spent_nanos: expect.any(Number) })

    // As a document from before migrations 2 to 4: no preferences, no spend, none of their tables.
    const old = clone(doc)
    old.schema_version = 1
    for (const row of old.tables.accounts!) {
      delete row.zdr_only
      delete row.ignored_providers
      delete row.spent_nanos
    }
    for (const table of [
      'catalog_override',
      'guardrails',
      'guardrail_key_assignments',
      'guardrail_member_assignments',
      'charges',
      'video_tasks',
      'video_task_states',
      'callback_deliveries',
      'callback_attempts',
    ]) {
      delete old.tables[table]
    }
    const res = await importDoc(emu, old)
    expect(res.status).toBe(200)
    expect(res.body.data.tables).toMatchObject({ callback_attempts: 0, guardrails: 0, accounts: doc.tables.accounts!.length })
    const after = await exportDoc(emu)
    expect(after.schema_version).toBe(doc.schema_version)
    expect(after.tables.accounts![0]).toEqual({ ...doc.tables.accounts![0], zdr_only: 0, ignored_providers: '[]', spent_nanos: 0 })
    expect(after.tables.callback_attempts).toEqual([])
    expect(after.tables.usage).toEqual(doc.tables.usage)
    expect((await emu.get(`${ADMIN}/accounts/${account.id}`)).body.data).toMatchObject({ zdr_only: false, ignored_providers: [], spent_usd: 0 })
  })

  it('a column without a default is still required', async () => {
    const emu = await testEmulator()
    const doc = await exportDoc(emu)
    doc.schema_version = 1
    delete doc.tables.accounts![0]!.name
    const res = await importDoc(emu, doc)
    expect(res.status).toBe(400)
    expect(res.body.error.metadata.field).toBe('tables.accounts[0].name')
    expect(res.body.error.message).toMatch(/is required \(the column has no default\)/)
  })

  it('a newer schema_version is refused', async () => {
    const emu = await testEmulator()
    const doc = await exportDoc(emu)
    doc.schema_version += 1
    const res = await importDoc(emu, doc)
    expect(res.status).toBe(400)
    expect(res.body.error.message).toBe(
      `Field \`schema_version\` is ${doc.schema_version}, newer than this emulator's database schema (${doc.schema_version - 1}); import it with a newer emulator`,
    )
  })
})

describe('accounts as workspaces for parallel tests', () => {
  it('two accounts used in parallel stay isolated; resetting one leaves the other intact', async () => {
    const emu = await testEmulator()
    const [a, b] = await Promise.all([
      emu.send('POST', `${ADMIN}/accounts`, { name: 'a', credits_usd: 10 }).then((r) => r.body.data),
      emu.send('POST', `${ADMIN}/accounts`, { name: 'b', credits_usd: 10 }).then((r) => r.body.data),
    ])
    const work = async (ws: { management_key: string; standard_key: string }, n: number) => {
      const g = (await emu.send('POST', '/api/v1/guardrails', { name: 'g' }, ws.management_key)).body.data
      await emu.send('POST', `/api/v1/guardrails/${g.id}/assignments/keys`, { key_hashes: [sha256Hex(ws.standard_key)] }, ws.management_key)
      await emu.send('POST', '/api/v1/credits/crypto', { amount: 10, sender: SENDER, chain_id: 8453 }, ws.standard_key)
      await Promise.all(Array.from({ length: n }, (_, i) => emu.send('POST', '/api/v1/embeddings', { model: MODEL, input: `text ${i}` }, ws.standard_key)))
    }
    await Promise.all([work(a, 3), work(b, 5)])
    const usageOf = (id: string) => emu.ctx.db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM usage WHERE account_id = ?').get(id)!.n
    expect([usageOf(a.id), usageOf(b.id)]).toEqual([3, 5])

    const seeded = await exportDoc(emu)
    const bBefore = {
      account: (await emu.get(`${ADMIN}/accounts/${b.id}`)).body,
      keys: (await emu.get('/api/v1/keys', b.management_key)).body,
      guardrails: (await emu.get('/api/v1/guardrails', b.management_key)).body,
      credits: (await emu.get('/api/v1/credits', b.management_key)).body,
      charges: (await emu.get(`${ADMIN}/charges?account=${b.id}`)).body,
    }
    const aKeys = (await emu.get('/api/v1/keys', a.management_key)).body

    const res = await emu.send('POST', `${ADMIN}/accounts/${a.id}/reset`)
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ id: a.id, name: 'a', credits_usd: 10, spent_usd: 0, balance_usd: 10 })
    expect(usageOf(a.id)).toBe(0)
    expect((await emu.get('/api/v1/guardrails', a.management_key)).body).toMatchObject({ data: [], total_count: 0 })
    expect((await emu.get(`${ADMIN}/charges?account=${a.id}`)).body.data).toEqual([])
    expect((await emu.get('/api/v1/credits', a.management_key)).body.data).toMatchObject({ total_credits: 10, total_usage: 0 })
    // Its keys and members stay (their usage gone with the usage rows), and still work.
    const aKeysAfter = (await emu.get('/api/v1/keys', a.management_key)).body
    expect(aKeysAfter.data.map((k: { hash: string; name: string }) => [k.hash, k.name])).toEqual(
      aKeys.data.map((k: { hash: string; name: string }) => [k.hash, k.name]),
    )
    expect(aKeysAfter.data.every((k: { usage: number }) => k.usage === 0)).toBe(true)
    expect(aKeys.data.some((k: { usage: number }) => k.usage > 0)).toBe(true)
    expect((await emu.send('POST', '/api/v1/embeddings', { model: MODEL, input: 'again' }, a.standard_key)).status).toBe(200)

    // The other account, and the seeded one, are untouched.
    expect(usageOf(b.id)).toBe(5)
    expect({
      account: (await emu.get(`${ADMIN}/accounts/${b.id}`)).body,
      keys: (await emu.get('/api/v1/keys', b.management_key)).body,
      guardrails: (await emu.get('/api/v1/guardrails', b.management_key)).body,
      credits: (await emu.get('/api/v1/credits', b.management_key)).body,
      charges: (await emu.get(`${ADMIN}/charges?account=${b.id}`)).body,
    }).toEqual(bBefore)
    const after = await exportDoc(emu)
    const others = (doc: Doc) =>
      Object.fromEntries(Object.entries(doc.tables).map(([name, rows]) => [name, rows.filter((r) => r.account_id !== undefined && r.account_id !== a.id)]))
    expect(others(after)).toEqual(others(seeded))
  })

  it('404 for an unknown account', async () => {
    const emu = await testEmulator()
    const res = await emu.send('POST', `${ADMIN}/accounts/acct_nope/reset`)
    expect(res.status).toBe(404)
    expect(res.body.error.message).toBe('Account acct_nope not found')
  })
})

describe('describeSchema', () => {
  it('reads every table with its columns, defaults and order', async () => {
    const emu = await testEmulator()
    const schema = describeSchema(emu.ctx.db)
    const accounts = schema.find((t) => t.name === 'accounts')!
    expect(accounts.byName.get('spent_nanos')).toMatchObject({ kind: 'integer', notNull: true, hasDefault: true })
    expect(accounts.byName.get('name')).toMatchObject({ kind: 'text', notNull: true, hasDefault: false })
    expect(schema.find((t) => t.name === 'usage')!.byName.get('id')).toMatchObject({ rowidAlias: true })
    expect(schema.every((t) => t.order === 'ORDER BY rowid')).toBe(true)
  })
})

describe('an import is checked like the live API', () => {
  /** An emulator with one of each row the checks look into: a fault rule, a video task, a guardrail, a charge. */
  async function stocked() {
    const emu = await testEmulator()
    expect((await emu.send('POST', `${ADMIN}/faults`, { match: { operation: 'models.count' }, action: { status: 503 } })).status).toBe(201)
    expect((await emu.send('POST', `${VIDEO}/text2video`, { model: 'videoq2', prompt: 'a fox' }, emu.keys.standard)).status).toBe(200)
    expect((await emu.send('POST', '/api/v1/guardrails', { name: 'g', allowed_providers: ['openai'] }, emu.keys.management)).status).toBe(201)
    const charge = { amount: 10, sender: '0x9a85CB3bfd494Ea3a8C9E50aA6a3c1a7E8BACE11', chain_id: 8453 }
    expect((await emu.send('POST', '/api/v1/credits/crypto', charge, emu.keys.standard)).status).toBe(200)
    return emu
  }

  type Mutation = (doc: Doc) => void
  const cases: Array<[string, Mutation, string, RegExp]> = [
    [
      'a fault rule whose match has a wrong type',
      (d) => void (d.tables.fault_rules![0]!.match = '{"path":5}'),
      'tables.fault_rules[0].match',
      /holds JSON whose `path` must be a string/,
    ],
    [
      'a fault rule whose match is not JSON',
      (d) => void (d.tables.fault_rules![0]!.match = 'operation=models.count'),
      'tables.fault_rules[0].match',
      /must be JSON text/,
    ],
    [
      'a fault rule whose action has an unknown field',
      (d) => void (d.tables.fault_rules![0]!.action = '{"status":503,"explode":true}'),
      'tables.fault_rules[0].action',
      /holds JSON whose/,
    ],
    [
      'a fault rule whose action status is not an error',
      (d) => void (d.tables.fault_rules![0]!.action = '{"status":200}'),
      'tables.fault_rules[0].action',
      /`status` must be >= 400/,
    ],
    [
      'a video task with a stored request the engine cannot read',
      (d) => void (d.tables.video_tasks![0]!.request = '{"operation":"text2video"}'),
      'tables.video_tasks[0].request',
      /holds JSON whose/,
    ],
    [
      'a video task whose stored request is not JSON',
      (d) => void (d.tables.video_tasks![0]!.request = '{'),
      'tables.video_tasks[0].request',
      /must be JSON text/,
    ],
    [
      'a guardrail whose provider list is not a list',
      (d) => void (d.tables.guardrails![0]!.allowed_providers = '"openai"'),
      'tables.guardrails[0].allowed_providers',
      /holds JSON whose value must be an array/,
    ],
    [
      // The charge views serve every field of the call data: one missing would break each later read.
      'a charge whose payment intent lacks its call data',
      (d) => void (d.tables.charges![0]!.web3_data = '{"transfer_intent":{"call_data":{},"metadata":{}}}'),
      'tables.charges[0].web3_data',
      /holds JSON whose `transfer_intent.call_data.deadline` is required/,
    ],
    [
      'negative credits',
      (d) => void (d.tables.accounts![0]!.credits_nanos = -1),
      'tables.accounts[0].credits_nanos',
      /must be >= 0 \(got -1\): amounts never go negative/,
    ],
    [
      'no sequences while rows were created at run time',
      (d) => void (d.tables.sequences = []),
      'tables.sequences',
      /lacks the sequence "guardrail": guardrails already holds the id that guardrail #1 would mint/,
    ],
    [
      'a sequence behind its rows',
      (d) => void (d.tables.sequences!.find((r) => r.kind === 'video-task')!.value = 0),
      'tables.sequences',
      /must count video-task ids up to at least 1/,
    ],
    ['a wrong-typed column', (d) => void (d.tables.accounts![0]!.name = 5), 'tables.accounts[0].name', /must be a string/],
    ['an unknown column', (d) => void (d.tables.accounts![0]!.colour = 'red'), 'tables.accounts[0].colour', /is not a known column/],
    ['an unknown table', (d) => void (d.tables.widgets = []), 'tables.widgets', /is not a known table/],
  ]

  it.each(cases)('refuses %s with a 400 naming table, row and field, and changes nothing', async (_what, mutate, field, issue) => {
    const emu = await stocked()
    const before = await exportDoc(emu)
    const doc = clone(before)
    mutate(doc)
    const res = await importDoc(emu, doc)
    expect(res.status).toBe(400)
    expect(res.body.error.message).toMatch(issue)
    expect(res.body.error.metadata.field.startsWith(field)).toBe(true)
    expect(res.body.error.message.startsWith(`Field \`${res.body.error.metadata.field}\``)).toBe(true)
    expect(withoutTime(await exportDoc(emu))).toEqual(withoutTime(before))
    // Every list still reads, and the engine still moves.
    for (const url of [`${ADMIN}/faults`, `${ADMIN}/video/tasks`, `${ADMIN}/journal`, `${ADMIN}/accounts`, `${ADMIN}/charges`])
      expect((await emu.get(url)).status, url).toBe(200)
    expect((await emu.send('POST', `${ADMIN}/clock/advance`, { ms: 60_000 })).status).toBe(200)
  })

  it('names table, row and column in the metadata of a row problem', async () => {
    const emu = await stocked()
    const doc = await exportDoc(emu)
    doc.tables.fault_rules![0]!.match = '{"path":5}'
    expect((await importDoc(emu, doc)).body.error.metadata).toMatchObject({ table: 'fault_rules', row: 0, column: 'match', location: 'body' })
  })

  it('takes its own export back, with every list reading afterwards', async () => {
    const emu = await stocked()
    const doc = await exportDoc(emu)
    expect((await importDoc(emu, doc)).status).toBe(200)
    for (const url of [`${ADMIN}/faults`, `${ADMIN}/video/tasks`, `${ADMIN}/journal`, `${ADMIN}/charges`]) expect((await emu.get(url)).status, url).toBe(200)
    expect((await emu.send('POST', `${VIDEO}/text2video`, { model: 'videoq2', prompt: 'another fox' }, emu.keys.standard)).status).toBe(200)
  })
})

describe('credits never go negative through the admin API', () => {
  it('refuses a negative amount, or a balance that would need negative credits, naming the field', async () => {
    const emu = await testEmulator()
    const account = (await emu.get(`${ADMIN}/accounts`)).body.data[0]
    const put = (body: unknown) => emu.send('PUT', `${ADMIN}/accounts/${account.id}/credits`, body)
    const negative = await put({ credits_usd: -1 })
    expect(negative.status).toBe(400)
    expect(negative.body.error.metadata).toMatchObject({ field: 'credits_usd' })
    const balance = await put({ balance_usd: -1_000_000 })
    expect(balance.status).toBe(400)
    expect(balance.body.error).toMatchObject({
      message: expect.stringMatching(/^Field `balance_usd` must be >= -0 for this account: lower would need negative credits/),
      metadata: { field: 'balance_usd' },
    })
    expect((await emu.get(`${ADMIN}/accounts/${account.id}`)).body.data.credits_usd).toBe(account.credits_usd)
    expect((await emu.send('POST', `${ADMIN}/accounts`, { credits_usd: -5 })).body.error.metadata).toMatchObject({ field: 'credits_usd' })
    // A negative balance is fine while the credits bought stay >= 0.
    await emu.send('POST', '/api/v1/embeddings', { model: MODEL, input: 'spend a little' }, emu.keys.standard)
    const spent = (await emu.get(`${ADMIN}/accounts/${account.id}`)).body.data
    expect((await put({ balance_usd: 0 })).status).toBe(200)
    expect(spent.credits_usd).toBeGreaterThan(0)
  })
})
