// npm run crash-test: a kill -9 under write load loses no acknowledged write. Each round runs the bundled
// CLI on a fresh database file, has eight clients write to it (keys, guardrails and assignments,
// embeddings, crypto charges and their confirmation, video tasks with callbacks, files of several parts),
// kills it with SIGKILL at a random moment, starts it again on the same file and checks that every write
// a client saw acknowledged is there (each file byte for byte), that the ledger balances, that every
// callback is still delivered, that no part of a file the kill cut off is left, and that the database
// passes integrity_check. CRASH_ROUNDS (default 20) and CRASH_SEED (default random) tune a run.
import type { ChildProcess } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { createIds } from '../src/emulator/core/ids.ts'
import { createRng, type Rng } from '../src/emulator/core/rng.ts'
import { FILE_PART_BYTES } from '../src/emulator/modules/files/files.schemas.ts'
import { ensureCliBundle } from './cli-bundle.mjs'
import { startCliProcess, type CliProcess } from './cli-process.ts'

const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 20)
const BASE_SEED = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 1_000_000))
const CLIENTS = 8
const KILL_AFTER_MS = { min: 300, max: 1500 }
const SETTLE_TIMEOUT_MS = 15_000
const REQUEST_TIMEOUT_MS = 10_000
/** One video credit in nano-USD, as set by --video-credit-usd below. */
const CREDIT_NANOS = 5_000_000

const SENDER = '0x9a85CB3bfd494Ea3a8C9E50aA6a3c1a7E8BACE11'
const TERMINAL = new Set(['success', 'failed'])

// ---- Processes and temp dirs: nothing outlives the script, whatever way it ends ------------------

const children = new Set<ChildProcess>()
const tempDirs = new Set<string>()

function cleanUp(): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true })
}
process.on('exit', cleanUp)
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130))

type Cli = CliProcess

function cliArgs(db: string, seed: number): string[] {
  return [
    '--port',
    '0',
    '--eu-port',
    'off',
    '--db',
    db,
    '--seed',
    String(seed),
    '--log-level',
    'warn',
    '--no-ui',
    '--video-created',
    '50ms',
    '--video-queueing',
    '100ms',
    '--video-processing',
    '200ms',
    '--video-failure-rate',
    '0.2',
    '--video-credit-usd',
    '0.005',
    '--callback-retry-delays',
    '100ms,200ms,500ms',
    '--callback-timeout',
    '2s',
  ]
}

/** Starts the CLI on `db`, tracked so that nothing outlives the script. */
async function startCli(db: string, seed: number): Promise<Cli> {
  const cli = await startCliProcess(cliArgs(db, seed))
  children.add(cli.child)
  void cli.exited.then(() => children.delete(cli.child))
  return cli
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

// ---- HTTP ----------------------------------------------------------------------------------------

interface Reply<T> {
  status: number
  body: T
}

/** One request, its body read to the end: only then does a 2xx count as acknowledged. Throws on a network error. */
async function call<T>(base: string, method: string, path: string, key: string | null, body?: unknown): Promise<Reply<T>> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(key !== null && { authorization: `Bearer ${key}` }), ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  })
  const text = await res.text()
  return { status: res.status, body: (text === '' ? null : JSON.parse(text)) as T }
}

// ---- The callback receiver: records the task states each round was told about ---------------------

interface Receiver {
  server: Server
  url: string
  /** round -> task id -> states received (a delivery cut by the kill may come twice). */
  states: Map<number, Map<string, Set<string>>>
  /** Deliveries received per round, and of those after the restart. */
  counts: Map<number, { total: number; afterRestart: number }>
  restarted: Set<number>
}

async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = { server: createServer(), url: '', states: new Map(), counts: new Map(), restarted: new Set() }
  receiver.server.on('request', (req, res) => {
    let body = ''
    req.on('error', () => undefined) // a delivery cut off by the kill is made again after the restart
    req.on('data', (chunk: Buffer) => (body += chunk.toString()))
    req.on('end', () => {
      const round = Number(req.url!.split('/').at(-1))
      const task = JSON.parse(body) as { id: string; state: string }
      const tasks = receiver.states.get(round) ?? new Map<string, Set<string>>()
      receiver.states.set(round, tasks)
      tasks.set(task.id, (tasks.get(task.id) ?? new Set()).add(task.state))
      const count = receiver.counts.get(round) ?? { total: 0, afterRestart: 0 }
      receiver.counts.set(round, { total: count.total + 1, afterRestart: count.afterRestart + (receiver.restarted.has(round) ? 1 : 0) })
      res.end('ok')
    })
  })
  await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve))
  receiver.url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}/callbacks`
  return receiver
}

// ---- Write load ----------------------------------------------------------------------------------

interface KeyWrite {
  name: string
  /** A rename whose answer the kill cut off: it may or may not have been applied. */
  unsureName: string | null
}

/** What the clients saw acknowledged (a 2xx read to the end), and anything else worth failing on. */
interface Acked {
  keys: Map<string, KeyWrite>
  patches: number
  guardrails: Map<string, string>
  /** key hash -> guardrail id */
  assignments: Map<string, string>
  /** Response id and cost of each embeddings call. */
  embeddings: { id: string; costNanos: number }[]
  charges: Map<string, { amountNanos: number; confirmed: boolean }>
  tasks: Set<string>
  /** Server-side files: id -> SHA-256 of their bytes. */
  files: Map<string, string>
  problems: string[]
}

interface Client {
  cli: Cli
  account: string
  rng: Rng
  acked: Acked
  callbackUrl: string
  killed: () => boolean
  /** What this client wrote: it only patches, assigns and confirms its own, so each outcome is unambiguous. */
  keys: string[]
  unassigned: string[]
  guardrails: string[]
  pendingCharges: string[]
  /** Numbers this client's names and texts. */
  serial: number
}

/** True for the expected 2xx; anything else is a problem, since every request sent is valid. */
function expectStatus(c: Client, what: string, reply: Reply<unknown>, status: number): boolean {
  if (reply.status === status) return true
  c.acked.problems.push(`${what} answered ${reply.status}: ${JSON.stringify(reply.body).slice(0, 200)}`)
  return false
}

type Op = (c: Client) => Promise<void>

const createKey: Op = async (c) => {
  const name = `crash key ${c.serial++}`
  const reply = await call<{ data: { hash: string } }>(c.cli.base, 'POST', `/_emulator/api/accounts/${c.account}/keys`, null, { name })
  if (!expectStatus(c, 'key create', reply, 201)) return
  c.acked.keys.set(reply.body.data.hash, { name, unsureName: null })
  c.keys.push(reply.body.data.hash)
  c.unassigned.push(reply.body.data.hash)
}

const patchKey: Op = async (c) => {
  if (c.keys.length === 0) return createKey(c)
  const hash = c.rng.pick(c.keys)
  const key = c.acked.keys.get(hash)!
  const name = `crash key ${c.serial++} (renamed)`
  key.unsureName = name
  const reply = await call(c.cli.base, 'PATCH', `/api/v1/keys/${hash}`, c.cli.management, { name, limit: c.rng.int(1, 100) })
  if (!expectStatus(c, 'key update', reply, 200)) return
  c.acked.keys.set(hash, { name, unsureName: null })
  c.acked.patches++
}

const createGuardrail: Op = async (c) => {
  const name = `crash guardrail ${c.serial++}`
  const body = { name, limit_usd: c.rng.int(1, 50), reset_interval: c.rng.pick(['daily', 'weekly', 'monthly']) }
  const reply = await call<{ data: { id: string } }>(c.cli.base, 'POST', '/api/v1/guardrails', c.cli.management, body)
  if (!expectStatus(c, 'guardrail create', reply, 201)) return
  c.acked.guardrails.set(reply.body.data.id, name)
  c.guardrails.push(reply.body.data.id)
}

const assignKeys: Op = async (c) => {
  if (c.guardrails.length === 0) return createGuardrail(c)
  if (c.unassigned.length === 0) return createKey(c)
  const guardrail = c.rng.pick(c.guardrails)
  // Each key is assigned once, so the guardrail it ends up with is the one acknowledged.
  const hashes = c.unassigned.splice(0, c.rng.int(1, 3))
  const reply = await call<{ assigned_count: number }>(c.cli.base, 'POST', `/api/v1/guardrails/${guardrail}/assignments/keys`, c.cli.management, {
    key_hashes: hashes,
  })
  if (!expectStatus(c, 'key assignment', reply, 200)) return
  if (reply.body.assigned_count !== hashes.length) c.acked.problems.push(`assigned_count ${reply.body.assigned_count} for ${hashes.length} new keys`)
  for (const hash of hashes) c.acked.assignments.set(hash, guardrail)
}

const embed: Op = async (c) => {
  const input = Array.from({ length: c.rng.int(1, 4) }, () => `crash test text ${c.serial++} ${c.rng.hex(8)}`)
  const body = { model: 'openai/text-embedding-3-small', input, dimensions: 16 }
  const reply = await call<{ id: string; usage: { cost: number } }>(c.cli.base, 'POST', '/api/v1/embeddings', c.cli.standard, body)
  if (!expectStatus(c, 'embeddings', reply, 200)) return
  c.acked.embeddings.push({ id: reply.body.id, costNanos: Math.round(reply.body.usage.cost * 1e9) })
}

const createCharge: Op = async (c) => {
  const cents = c.rng.int(100, 5000)
  const body = { amount: cents / 100, sender: SENDER, chain_id: c.rng.pick([1, 137, 8453]) }
  const reply = await call<{ data: { id: string } }>(c.cli.base, 'POST', '/api/v1/credits/crypto', c.cli.standard, body)
  if (!expectStatus(c, 'charge create', reply, 200)) return
  c.acked.charges.set(reply.body.data.id, { amountNanos: cents * 10_000_000, confirmed: false })
  c.pendingCharges.push(reply.body.data.id)
}

const confirmCharge: Op = async (c) => {
  if (c.pendingCharges.length === 0) return createCharge(c)
  const id = c.pendingCharges.splice(c.rng.int(0, c.pendingCharges.length - 1), 1)[0]!
  const reply = await call<{ data: { status: string; credited: boolean } }>(c.cli.base, 'POST', `/_emulator/api/charges/${id}/confirm`, null)
  if (!expectStatus(c, 'charge confirm', reply, 200)) return
  if (reply.body.data.status !== 'confirmed' || !reply.body.data.credited)
    c.acked.problems.push(`charge ${id}: confirm answered ${JSON.stringify(reply.body.data)}`)
  c.acked.charges.get(id)!.confirmed = true
}

const createTask: Op = async (c) => {
  const body = { model: 'videoq2', prompt: `crash test ${c.serial++}`, duration: c.rng.int(1, 4), resolution: '540p', callback_url: c.callbackUrl }
  const reply = await call<{ task_id: string }>(c.cli.base, 'POST', '/router/v1/video/ent/v2/text2video', c.cli.standard, body)
  if (!expectStatus(c, 'video task create', reply, 200)) return
  c.acked.tasks.add(reply.body.task_id)
}

/** A server-side file of up to two and a half parts (so most are kept a part per turn), over the admin API. */
const createFile: Op = async (c) => {
  const bytes = Buffer.alloc(c.rng.int(1, Math.floor(FILE_PART_BYTES * 2.5)))
  let state = c.rng.int(1, 2 ** 30)
  for (let i = 0; i < bytes.length; i++) {
    state = (Math.imul(state, 1103515245) + 12345) & 0x7fffffff
    bytes[i] = state >> 16
  }
  const body = { filename: `crash-${c.serial++}.bin`, content_base64: bytes.toString('base64') }
  const reply = await call<{ data: { id: string } }>(c.cli.base, 'POST', `/_emulator/api/accounts/${c.account}/files`, null, body)
  if (!expectStatus(c, 'file create', reply, 201)) return
  c.acked.files.set(reply.body.data.id, createHash('sha256').update(bytes).digest('hex'))
}

/** Operations, repeated by weight. */
const OPS: Op[] = [
  createKey,
  createKey,
  patchKey,
  createGuardrail,
  assignKeys,
  embed,
  embed,
  embed,
  createCharge,
  createCharge,
  confirmCharge,
  confirmCharge,
  createTask,
  createTask,
  createTask,
  createFile,
]

async function runClient(c: Client): Promise<void> {
  while (!c.killed()) {
    try {
      await c.rng.pick(OPS)(c)
    } catch (error) {
      // Expected once the emulator is gone: the request in flight is simply not acknowledged.
      if (!c.killed()) c.acked.problems.push(`request failed before the kill: ${(error as Error).message}`)
      return
    }
  }
}

// ---- Checks after the restart --------------------------------------------------------------------

/** Waits until every task has ended and every callback is delivered, the receiver included. */
async function settle(cli: Cli, acked: Acked, received: () => Map<string, Set<string>>): Promise<string[]> {
  const deadline = Date.now() + SETTLE_TIMEOUT_MS
  for (;;) {
    const pending = (await call<{ data: unknown[] }>(cli.base, 'GET', '/_emulator/api/callbacks?status=pending', null)).body.data.length
    let unfinished = 0
    for (const state of ['created', 'queueing', 'processing']) {
      unfinished += (await call<{ total_count: number }>(cli.base, 'GET', `/_emulator/api/video/tasks?state=${state}`, null)).body.total_count
    }
    const unheard = [...acked.tasks].filter((id) => ![...(received().get(id) ?? [])].some((s) => TERMINAL.has(s)))
    if (pending === 0 && unfinished === 0 && unheard.length === 0) return []
    if (Date.now() > deadline) {
      return [
        `after ${SETTLE_TIMEOUT_MS / 1000} s: ${pending} callbacks pending, ${unfinished} tasks unfinished, ${unheard.length} acknowledged tasks without a terminal callback (${unheard.slice(0, 3).join(', ')})`,
      ]
    }
    await sleep(100)
  }
}

/** Every acknowledged write, read back through the API. */
async function checkApi(cli: Cli, account: string, acked: Acked, received: Map<string, Set<string>>): Promise<string[]> {
  const problems: string[] = []
  const keys = await call<{ data: { hash: string; name: string }[] }>(cli.base, 'GET', '/api/v1/keys?include_disabled=true', cli.management)
  const names = new Map(keys.body.data.map((k) => [k.hash, k.name]))
  for (const [hash, key] of acked.keys) {
    const name = names.get(hash)
    if (name === undefined) problems.push(`key ${hash} lost`)
    else if (name !== key.name && name !== key.unsureName) problems.push(`key ${hash} is named "${name}", acknowledged "${key.name}"`)
  }

  for (const [id, name] of acked.guardrails) {
    const reply = await call<{ data: { name: string } }>(cli.base, 'GET', `/api/v1/guardrails/${id}`, cli.management)
    if (reply.status !== 200) problems.push(`guardrail ${id} lost (${reply.status})`)
    else if (reply.body.data.name !== name) problems.push(`guardrail ${id} is named "${reply.body.data.name}", acknowledged "${name}"`)
  }

  const assigned = await call<{ data: { key_hash: string; guardrail_id: string }[] }>(cli.base, 'GET', '/api/v1/guardrails/assignments/keys', cli.management)
  const guardrailOf = new Map(assigned.body.data.map((a) => [a.key_hash, a.guardrail_id]))
  for (const [hash, guardrail] of acked.assignments) {
    if (guardrailOf.get(hash) !== guardrail) problems.push(`assignment of key ${hash} to guardrail ${guardrail} lost (now ${guardrailOf.get(hash) ?? 'none'})`)
  }

  const charges = await call<{ data: { id: string; status: string; amount_usd: number }[] }>(cli.base, 'GET', `/_emulator/api/charges?account=${account}`, null)
  const chargeById = new Map(charges.body.data.map((ch) => [ch.id, ch]))
  for (const [id, charge] of acked.charges) {
    const found = chargeById.get(id)
    if (!found) problems.push(`charge ${id} lost`)
    else if (Math.round(found.amount_usd * 1e9) !== charge.amountNanos)
      problems.push(`charge ${id} is for $${found.amount_usd}, acknowledged ${charge.amountNanos} nanos`)
    else if (charge.confirmed && found.status !== 'confirmed') problems.push(`confirmation of charge ${id} lost (now ${found.status})`)
  }

  for (const [id, sha256] of acked.files) {
    const res = await fetch(`${cli.base}/api/v1/files/${id}/content`, {
      headers: { authorization: `Bearer ${cli.standard}` },
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    })
    const bytes = Buffer.from(await res.arrayBuffer())
    if (res.status !== 200) problems.push(`file ${id} lost (${res.status})`)
    else if (createHash('sha256').update(bytes).digest('hex') !== sha256) problems.push(`file ${id} reads back other bytes (${bytes.length})`)
  }

  for (const id of acked.tasks) {
    const reply = await call<{ state: string }>(cli.base, 'GET', `/router/v1/video/ent/v2/tasks/${id}/creations`, cli.standard)
    const heard = [...(received.get(id) ?? [])]
    if (reply.status !== 200) problems.push(`video task ${id} lost (${reply.status})`)
    else if (!heard.includes(reply.body.state) || heard.filter((s) => TERMINAL.has(s)).length !== 1) {
      problems.push(`video task ${id} ended ${reply.body.state}, callbacks said ${heard.join(', ') || 'nothing'}`)
    } else if (!heard.includes('processing')) problems.push(`video task ${id}: the processing callback never came`)
  }
  return problems
}

interface UsageRow {
  id: number
  cost_nanos: number
}

interface LedgerRow {
  id: string
  credits_nanos: number
  spent_nanos: number
  usage_nanos: number
  confirmed_nanos: number
}

/** What only the file shows: integrity, the ledger, refunds, the outbox, and each embeddings call's usage row. */
function checkDatabase(path: string, seed: number, startCredits: Map<string, number>, acked: Acked): { problems: string[]; refunds: number } {
  const problems: string[] = []
  const db = new Database(path, { readonly: true, fileMustExist: true })
  try {
    const integrity = db.pragma('integrity_check', { simple: true })
    if (integrity !== 'ok') problems.push(`integrity_check: ${integrity}`)
    const foreignKeys = db.pragma('foreign_key_check') as unknown[]
    if (foreignKeys.length > 0) problems.push(`foreign_key_check: ${foreignKeys.length} violations`)

    const ledger = db
      .prepare<[], LedgerRow>(
        `SELECT a.id, a.credits_nanos, a.spent_nanos,
           (SELECT COALESCE(SUM(cost_nanos), 0) FROM usage u WHERE u.account_id = a.id AND u.byok = 0) AS usage_nanos,
           (SELECT COALESCE(SUM(amount_nanos), 0) FROM charges c WHERE c.account_id = a.id AND c.status = 'confirmed') AS confirmed_nanos
         FROM accounts a`,
      )
      .all()
    for (const a of ledger) {
      const expected = (startCredits.get(a.id) ?? NaN) + a.confirmed_nanos
      if (a.credits_nanos !== expected) problems.push(`account ${a.id}: credits ${a.credits_nanos} nanos, but start + confirmed charges = ${expected}`)
      if (a.spent_nanos !== a.usage_nanos) problems.push(`account ${a.id}: spent ${a.spent_nanos} nanos, but its usage rows sum to ${a.usage_nanos}`)
      if (a.credits_nanos - a.spent_nanos < 0) problems.push(`account ${a.id}: negative balance ${a.credits_nanos - a.spent_nanos} nanos`)
    }

    // A failed task is refunded (its usage row costs nothing); a successful one costs its credits.
    const misbilled = db
      .prepare<[number], { id: string; state: string; cost_nanos: number; credits: number }>(
        `SELECT t.id, t.state, u.cost_nanos, t.credits FROM video_tasks t JOIN usage u ON u.id = t.usage_id
         WHERE (t.state = 'failed' AND (t.refunded = 0 OR u.cost_nanos <> 0)) OR (t.state = 'success' AND u.cost_nanos <> t.credits * ?)`,
      )
      .all(CREDIT_NANOS)
    for (const t of misbilled) problems.push(`video task ${t.id} ${t.state} for ${t.credits} credits costs ${t.cost_nanos} nanos`)
    const refunds = db.prepare<[], { n: number }>("SELECT COUNT(*) AS n FROM video_tasks WHERE state = 'failed' AND refunded = 1").get()!.n

    // A file is its row and all its parts; the parts of one the kill cut off are gone (the restart removed them).
    const orphans = db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM file_parts WHERE file_id NOT IN (SELECT id FROM files)').get()!.n
    if (orphans > 0) problems.push(`${orphans} file parts without their file`)
    const files = db
      .prepare<[], { id: string; size_bytes: number; parts: number }>(
        'SELECT f.id, f.size_bytes, COUNT(p.part) AS parts FROM files f LEFT JOIN file_parts p ON p.file_id = f.id GROUP BY f.id',
      )
      .all()
    for (const f of files) {
      if (f.parts !== Math.ceil(f.size_bytes / FILE_PART_BYTES)) problems.push(`file ${f.id} of ${f.size_bytes} bytes has ${f.parts} parts`)
    }

    const undelivered = db
      .prepare<[], { status: string; n: number }>("SELECT status, COUNT(*) AS n FROM callback_deliveries WHERE status <> 'delivered' GROUP BY status")
      .all()
    for (const u of undelivered) problems.push(`${u.n} callback deliveries left ${u.status}`)

    // An embeddings response id ends with a value derived from its usage row's id
    // (modules/embeddings/embeddings.service.ts), which ties each acknowledged call to its row.
    const ids = createIds(seed, () => 0)
    const usage = db.prepare<[], UsageRow>("SELECT id, cost_nanos FROM usage WHERE operation = 'embeddings.create'").all()
    const costByGeneration = new Map(usage.map((u) => [ids.generation(`emb:${u.id}`), u.cost_nanos]))
    for (const e of acked.embeddings) {
      const cost = costByGeneration.get(e.id.split('-').at(-1)!)
      if (cost === undefined) problems.push(`usage of embeddings call ${e.id} lost`)
      else if (cost !== e.costNanos) problems.push(`embeddings call ${e.id} cost ${e.costNanos} nanos, its usage row ${cost}`)
    }
    return { problems, refunds }
  } finally {
    db.close()
  }
}

// ---- A round -------------------------------------------------------------------------------------

interface RoundResult {
  ok: boolean
  line: string
  acked: Acked
  callbacks: { total: number; afterRestart: number }
  refunds: number
}

async function runRound(round: number, receiver: Receiver): Promise<RoundResult> {
  const seed = (BASE_SEED + round - 1) % 2 ** 31
  const rng = createRng(seed, 'crash-test')
  const killAfter = rng.int(KILL_AFTER_MS.min, KILL_AFTER_MS.max)
  const dir = mkdtempSync(join(tmpdir(), 'gw-crash-'))
  tempDirs.add(dir)
  const db = join(dir, 'gw.sqlite')
  const started = performance.now()
  const acked: Acked = {
    keys: new Map(),
    patches: 0,
    guardrails: new Map(),
    assignments: new Map(),
    embeddings: [],
    charges: new Map(),
    tasks: new Set(),
    files: new Map(),
    problems: [],
  }
  let refunds = 0
  const problems: string[] = []
  try {
    const first = await startCli(db, seed)
    const accounts = await call<{ data: { id: string; credits_usd: number }[] }>(first.base, 'GET', '/_emulator/api/accounts', null)
    const startCredits = new Map(accounts.body.data.map((a) => [a.id, Math.round(a.credits_usd * 1e9)]))
    const account = accounts.body.data[0]!.id

    let killed = false
    const clients = Array.from({ length: CLIENTS }, (_, i): Client => ({
      cli: first,
      account,
      rng: createRng(seed, `client:${i}`),
      acked,
      callbackUrl: `${receiver.url}/${round}`,
      killed: () => killed,
      keys: [],
      unassigned: [],
      guardrails: [],
      pendingCharges: [],
      serial: 0,
    }))
    const load = Promise.all(clients.map(runClient))
    await sleep(killAfter)
    killed = true
    first.child.kill('SIGKILL')
    await first.exited
    receiver.restarted.add(round)
    await load
    if (first.stderr() !== '') problems.push(`stderr before the kill: ${first.stderr().trim()}`)

    const second = await startCli(db, seed)
    const received = () => receiver.states.get(round) ?? new Map<string, Set<string>>()
    problems.push(...acked.problems, ...(await settle(second, acked, received)))
    problems.push(...(await checkApi(second, account, acked, received())))
    second.child.kill('SIGTERM')
    const code = await Promise.race([second.exited, sleep(10_000).then(() => 'timeout')])
    if (code !== 0) problems.push(`SIGTERM after the restart: exit ${code}`)
    if (second.stderr() !== '') problems.push(`stderr after the restart: ${second.stderr().trim()}`)

    const checked = checkDatabase(db, seed, startCredits, acked)
    problems.push(...checked.problems)
    refunds = checked.refunds
  } catch (error) {
    problems.push(`round aborted: ${(error as Error).stack ?? String(error)}`)
  } finally {
    for (const child of children) child.kill('SIGKILL')
    rmSync(dir, { recursive: true, force: true })
    tempDirs.delete(dir)
  }

  const callbacks = receiver.counts.get(round) ?? { total: 0, afterRestart: 0 }
  const confirmed = [...acked.charges.values()].filter((ch) => ch.confirmed).length
  const counts =
    `${acked.keys.size} keys (${acked.patches} renamed), ${acked.guardrails.size} guardrails, ${acked.assignments.size} assigned, ` +
    `${acked.embeddings.length} embeddings, ${acked.charges.size} charges (${confirmed} confirmed), ${acked.tasks.size} tasks, ${acked.files.size} files`
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  const verdict =
    problems.length === 0 ? 'ok' : `FAIL\n    ${problems.slice(0, 20).join('\n    ')}${problems.length > 20 ? `\n    ... ${problems.length - 20} more` : ''}`
  const line =
    `round ${String(round).padStart(2)}  seed ${seed}  kill at ${killAfter} ms  acked: ${counts}  ` +
    `callbacks ${callbacks.total} (${callbacks.afterRestart} after restart), ${refunds} refunds  ${seconds} s  ${verdict}`
  return { ok: problems.length === 0, line, acked, callbacks, refunds }
}

// ---- Main ----------------------------------------------------------------------------------------

// Built up front when older than the sources, so no round counts the build.
ensureCliBundle()

console.log(`crash-test: ${ROUNDS} rounds, CRASH_SEED=${BASE_SEED} (round n uses seed CRASH_SEED + n - 1; CRASH_SEED=<seed> CRASH_ROUNDS=1 repeats one)`)
const receiver = await startReceiver()
const started = performance.now()
const results: RoundResult[] = []
for (let round = 1; round <= ROUNDS; round++) {
  const result = await runRound(round, receiver)
  console.log(result.line)
  results.push(result)
}
receiver.server.close()

const sum = (f: (r: RoundResult) => number) => results.reduce((n, r) => n + f(r), 0)
const passed = results.filter((r) => r.ok).length
console.log(
  `\n${passed}/${ROUNDS} rounds ok in ${Math.round((performance.now() - started) / 1000)} s. Acknowledged before the kills: ` +
    `${sum((r) => r.acked.keys.size)} keys (${sum((r) => r.acked.patches)} renames), ${sum((r) => r.acked.guardrails.size)} guardrails, ` +
    `${sum((r) => r.acked.assignments.size)} assignments, ${sum((r) => r.acked.embeddings.length)} embeddings, ${sum((r) => r.acked.charges.size)} charges ` +
    `(${sum((r) => [...r.acked.charges.values()].filter((ch) => ch.confirmed).length)} confirmed), ${sum((r) => r.acked.tasks.size)} video tasks, ` +
    `${sum((r) => r.acked.files.size)} files; ` +
    `${sum((r) => r.callbacks.total)} callbacks (${sum((r) => r.callbacks.afterRestart)} after a restart), ${sum((r) => r.refunds)} refunds.`,
)
process.exit(passed === ROUNDS ? 0 : 1)
