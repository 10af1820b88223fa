// Concurrency: clients of one account over real HTTP, whose requests overlap one another's.
//
// Fifty clients share one account, each running its own seeded sequence of reads and writes (keys and
// their limits, guardrails and their assignments, embeddings, video tasks, crypto charges) while the
// clock is moved under them across a day, a week and a month boundary. Each client keeps what it was
// told; afterwards every figure the API shows must be what those acknowledgements add up to. A client
// alone patches, deletes and assigns its own keys, guardrails and member, so "the last acknowledged
// write" is well defined; the setup's keys (with a daily limit, under a budget guardrail, under a model
// allow list...) are used by all of them at once, which is where a race would show. (A key revoked
// while its own request is on the way: test/integration/keys/concurrency.test.ts.)
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestEmulator, type TestEmulator } from '../../../src/emulator/testing.ts'
import { CONCURRENCY_START, workspace, type Workspace } from '../../helpers/concurrency.ts'

let emu: TestEmulator
beforeAll(async () => {
  emu = await startTestEmulator({ clockStart: CONCURRENCY_START, seed: 7 })
})
afterAll(async () => {
  await emu?.close()
})

// ---- The workload ------------------------------------------------------------------------------------

const CLIENTS = 50
const OPS_PER_CLIENT = 30
const SEED = 20260329
/** The clock starts in the first and is moved to each next one mid-run, while requests are in flight. */
const PHASES = [
  CONCURRENCY_START, // Sunday
  '2026-03-30T12:00:00.000Z', // Monday: a new day and a new week
  '2026-03-31T12:00:00.000Z', // Tuesday: a new day
  '2026-04-01T12:00:00.000Z', // Wednesday: a new day and a new month
] as const
// Windows as of the end (Wednesday 2026-04-01, after the last tasks settle).
const END_DAY = Date.parse('2026-04-01T00:00:00Z')
const END_WEEK = Date.parse('2026-03-30T00:00:00Z')
const END_MONTH = Date.parse('2026-04-01T00:00:00Z')

const INITIAL_CREDITS_USD = 0.5
const EMBEDDING_MODELS = ['openai/text-embedding-3-small', 'cohere/embed-v4.0', 'baai/bge-m3'] as const
const NARROW_MODEL = 'openai/text-embedding-3-small'
const VIDEO_PRICE = (
  JSON.parse(readFileSync(new URL('../../../fixtures/video/pricing.json', import.meta.url), 'utf8')) as {
    models: Record<string, Record<string, [number, number]>>
  }
).models.videoq2!['540p']!
const WORDS = 'river stone lantern orbit copper meadow signal harbor velvet quartz ember glacier cedar pixel thunder saffron'.split(' ')

type Reset = 'daily' | 'weekly' | 'monthly'
type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE'

const nanos = (usd: number): number => Math.round(usd * 1e9)
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex')

/** mulberry32: small, seeded, the same sequence everywhere. */
class Dice {
  private state: number
  constructor(seed: number) {
    this.state = seed >>> 0
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0
    let t = this.state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  int(n: number): number {
    return Math.floor(this.next() * n)
  }
  chance(p: number): boolean {
    return this.next() < p
  }
  pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)]!
  }
  sample<T>(list: readonly T[], count: number): T[] {
    const pool = [...list]
    const out: T[] = []
    while (out.length < count && pool.length > 0) out.push(pool.splice(this.int(pool.length), 1)[0]!)
    return out
  }
  weighted<T extends string>(weights: Record<T, number>): T {
    const entries = Object.entries(weights) as Array<[T, number]>
    let at = this.next() * entries.reduce((sum, [, w]) => sum + w, 0)
    for (const [name, w] of entries) {
      at -= w
      if (at < 0) return name
    }
    return entries[entries.length - 1]![0]
  }
  hex(chars: number): string {
    return Array.from({ length: chars }, () => '0123456789abcdef'[this.int(16)]).join('')
  }
}

interface Reply {
  path: string
  status: number
  body: any
  contentType: string
}

interface KeyModel {
  hash: string
  token: string
  /** The client that alone patches, deletes and assigns it; null for the setup's shared keys. */
  owner: number | null
  name: string
  limit: number | null
  limitReset: Reset | null
  disabled: boolean
  deleted: boolean
  guardrail: string | null
  /** Used by every client, revoked by its owner mid-run. */
  revocable: boolean
}

interface GuardrailModel {
  id: string
  owner: number | null
  name: string
  description: string | null
  allowedModels: string[] | null
  limitUsd: number | null
  deleted: boolean
}

interface Spend {
  key: string
  nanos: number
  at: number
}

interface TaskModel {
  id: string
  key: string
  planned: 'success' | 'failed'
  cancelled: boolean
  credits: number
  nanos: number
}

interface ChargeModel {
  id: string
  amountNanos: number
  credited: boolean
  settled: boolean
}

/** Everything the clients were told, as one model of the account. */
class World {
  readonly problems: string[] = []
  readonly outcomes = new Map<string, number>()
  readonly keys = new Map<string, KeyModel>()
  readonly guardrails = new Map<string, GuardrailModel>()
  readonly memberGuardrail = new Map<string, string | null>()
  readonly spends: Spend[] = []
  readonly tasks: TaskModel[] = []
  readonly charges: ChargeModel[] = []
  requests = 0
  completedOps = 0
  private readonly progress: Array<{ ops: number; resolve: () => void }> = []
  readonly base: string
  readonly ws: Workspace
  readonly creditUsd: number
  constructor(base: string, ws: Workspace, creditUsd: number) {
    this.base = base
    this.ws = ws
    this.creditUsd = creditUsd
  }

  problem(message: string): void {
    this.problems.push(message)
  }

  /** One client operation is done; wakes whoever waits for this many. */
  opDone(): void {
    this.completedOps++
    for (const waiter of this.progress.filter((w) => w.ops <= this.completedOps)) {
      this.progress.splice(this.progress.indexOf(waiter), 1)
      waiter.resolve()
    }
  }

  /** Resolves once `ops` client operations are done. */
  reached(ops: number): Promise<void> {
    if (this.completedOps >= ops) return Promise.resolve()
    return new Promise((resolve) => this.progress.push({ ops, resolve }))
  }

  async call(op: string, method: Method, path: string, options: { key?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Reply> {
    const headers: Record<string, string> = { ...options.headers }
    if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`
    if (options.body !== undefined) headers['content-type'] = 'application/json'
    const res = await fetch(`${this.base}${path}`, { method, headers, ...(options.body !== undefined && { body: JSON.stringify(options.body) }) })
    const text = await res.text()
    this.requests++
    let body: any = null
    try {
      body = JSON.parse(text)
    } catch {
      this.problem(`${op}: ${method} ${path} answered ${res.status} with a body that is not JSON: ${text.slice(0, 200)}`)
    }
    const reply: Reply = { path, status: res.status, body, contentType: res.headers.get('content-type') ?? '' }
    // Counted with what ran out, where a denial says.
    const source = reply.body?.metadata?.limit_source ?? reply.body?.error?.metadata?.limit_source
    const counted = `${op} ${outcomeOf(reply)}${source && reply.status !== 402 ? ` (${source})` : ''}`
    this.outcomes.set(counted, (this.outcomes.get(counted) ?? 0) + 1)
    const wrong = envelopeProblem(reply)
    if (wrong) this.problem(`${op}: ${method} ${path}: ${wrong}: ${text.slice(0, 300)}`)
    return reply
  }

  /** True when the reply is one of `allowed` (outcomes as outcomeOf names them); records a problem otherwise. */
  expect(op: string, reply: Reply, allowed: readonly string[]): boolean {
    const outcome = outcomeOf(reply)
    if (allowed.includes(outcome)) return true
    this.problem(`${op}: got ${outcome} (${JSON.stringify(reply.body).slice(0, 300)}), expected one of ${allowed.join(', ')}`)
    return false
  }

  check(condition: boolean, message: string): void {
    if (!condition) this.problem(message)
  }
}

/** `ok`, `402:<limit_source>` for the main API's payment denials, `<status>:<reason>` for the router, else the status. */
function outcomeOf(reply: Reply): string {
  if (reply.status >= 200 && reply.status < 300) return 'ok'
  if (reply.path.startsWith('/router/')) return `${reply.status}:${reply.body?.reason}`
  if (reply.status === 402) return `402:${reply.body?.error?.metadata?.limit_source}`
  return String(reply.status)
}

/** Every answer is JSON; every failure a 4xx in the envelope of the API called. */
function envelopeProblem(reply: Reply): string | null {
  if (!reply.contentType.startsWith('application/json')) return `content-type ${reply.contentType}`
  if (reply.status >= 500) return `a ${reply.status}`
  if (reply.status < 400) return null
  const body = reply.body
  if (reply.path.startsWith('/router/')) {
    const ok =
      body?.code === reply.status &&
      typeof body.reason === 'string' &&
      typeof body.message === 'string' &&
      /^[0-9a-f]{32}$/.test(String(body.metadata?.trace_id))
    return ok ? null : 'not the router envelope'
  }
  const ok = body?.error?.code === reply.status && typeof body.error.message === 'string' && Object.keys(body).length === 1
  return ok ? null : 'not the error envelope'
}

/** A key's usage in nano-USD from the model: embeddings acknowledged, video tasks at what they cost now. */
function spentOn(world: World, hash: string, since = -Infinity, taskTimes?: Map<string, number>): number {
  let sum = 0
  for (const s of world.spends) if (s.key === hash && s.at >= since) sum += s.nanos
  for (const t of world.tasks) if (t.key === hash && (taskTimes?.get(t.id) ?? Infinity) >= since) sum += t.nanos
  return sum
}

function setupKey(
  world: World,
  data: { hash: string; key: string; name: string; limit: number | null; limit_reset: Reset | null },
  owner: number | null,
  revocable = false,
): KeyModel {
  const key: KeyModel = {
    hash: data.hash,
    token: data.key,
    owner,
    name: data.name,
    limit: data.limit,
    limitReset: data.limit_reset,
    disabled: false,
    deleted: false,
    guardrail: null,
    revocable,
  }
  world.keys.set(key.hash, key)
  return key
}

async function must(world: World, op: string, method: Method, path: string, options: { key?: string; body?: unknown } = {}): Promise<any> {
  const reply = await world.call(op, method, path, options)
  if (reply.status >= 300) throw new Error(`setup: ${method} ${path} answered ${reply.status}: ${JSON.stringify(reply.body)}`)
  return reply.body
}

interface Shared {
  standard: KeyModel
  daily: KeyModel
  budget: KeyModel
  narrow: KeyModel
  video: KeyModel
  revocable: KeyModel[]
  open: GuardrailModel
  narrowGuardrail: GuardrailModel
  budgetGuardrail: GuardrailModel
}

async function setUp(world: World): Promise<Shared> {
  const { ws } = world
  const newKey = async (name: string, limit: number | null = null, limit_reset: Reset | null = null, owner: number | null = null, revocable = false) => {
    const { data } = await must(world, 'setup.key', 'POST', `/_emulator/api/accounts/${ws.id}/keys`, { body: { name, limit, limit_reset } })
    return setupKey(world, data, owner, revocable)
  }
  const newGuardrail = async (body: { name: string; allowed_models?: string[]; limit_usd?: number; reset_interval?: Reset }) => {
    const { data } = await must(world, 'setup.guardrail', 'POST', '/api/v1/guardrails', { key: ws.management, body })
    const g: GuardrailModel = {
      id: data.id,
      owner: null,
      name: body.name,
      description: null,
      allowedModels: body.allowed_models ?? null,
      limitUsd: body.limit_usd ?? null,
      deleted: false,
    }
    world.guardrails.set(g.id, g)
    return g
  }
  const standard = setupKey(world, { hash: sha256(ws.standard), key: ws.standard, name: 'Default key', limit: null, limit_reset: null }, null)
  const daily = await newKey('shared: $0.00001 a day', 0.00001, 'daily')
  const budget = await newKey('shared: under a $0.00001 daily guardrail budget')
  const narrow = await newKey('shared: under a one-model guardrail')
  const video = await newKey('shared: video, $0.40 a week', 0.4, 'weekly')
  const revocable: KeyModel[] = []
  for (let i = 0; i < 10; i++) revocable.push(await newKey(`shared: revoked mid-run by client ${i}`, null, null, i, true))
  const open = await newGuardrail({ name: 'open' })
  const narrowGuardrail = await newGuardrail({ name: 'narrow', allowed_models: [NARROW_MODEL] })
  const budgetGuardrail = await newGuardrail({ name: 'budget', limit_usd: 0.00001, reset_interval: 'daily' })
  for (const [key, g] of [
    [narrow, narrowGuardrail],
    [budget, budgetGuardrail],
  ] as const) {
    const body = await must(world, 'setup.assign', 'POST', `/api/v1/guardrails/${g.id}/assignments/keys`, {
      key: ws.management,
      body: { key_hashes: [key.hash] },
    })
    if (body.assigned_count !== 1) throw new Error(`setup: assigned_count ${body.assigned_count}`)
    key.guardrail = g.id
  }
  for (const member of ws.members) world.memberGuardrail.set(member, null)
  return { standard, daily, budget, narrow, video, revocable, open, narrowGuardrail, budgetGuardrail }
}

/** One client: a seeded sequence of operations, each checked against what the client knows. */
async function runClient(world: World, shared: Shared, c: number): Promise<void> {
  const dice = new Dice(SEED * 97 + c)
  const { ws } = world
  const management = ws.management
  const own = { keys: [] as KeyModel[], guardrails: [] as GuardrailModel[], charges: [] as ChargeModel[], tasks: [] as TaskModel[] }
  const member = c < ws.members.length ? ws.members[c]! : null
  let credited = 0
  let serial = 0
  const liveKeys = () => own.keys.filter((k) => !k.deleted)
  const liveGuardrails = () => own.guardrails.filter((g) => !g.deleted)
  const label = (what: string) => `c${c}-${what}${serial++}`
  const guardrailOf = (key: KeyModel) => (key.guardrail === null ? null : world.guardrails.get(key.guardrail)!)

  /** What an embeddings call with this key and model may answer, as far as this client can know. */
  const embeddingOutcomes = (key: KeyModel, model: string): string[] => {
    // Its own keys and the setup's fixed ones this client knows; a revocable key of another may be gone.
    const known = key.owner === c || !key.revocable
    if (known && (key.deleted || key.disabled)) return ['401']
    const g = guardrailOf(key)
    const outcomes =
      g?.allowedModels && !g.allowedModels.includes(model)
        ? ['404']
        : [
            'ok',
            '402:openrouter_credits',
            ...(key.limit !== null ? ['402:openrouter_key_limit'] : []),
            ...(g?.limitUsd !== null && g?.limitUsd !== undefined ? ['402:guardrail_budget'] : []),
          ]
    return known ? outcomes : [...outcomes, '401']
  }

  const videoOutcomes = (key: KeyModel): string[] => {
    if (key.deleted || key.disabled) return ['401:Unauthorized']
    if (guardrailOf(key)?.allowedModels) return ['403:Forbidden'] // no allow list here names a video model
    return ['ok', '400:CreditInsufficient']
  }

  const ops = {
    async createKey() {
      const limited = dice.chance(0.5)
      const body = {
        name: label('k'),
        limit: limited ? dice.pick([0.000002, 0.000005, 0.00002]) : null,
        limit_reset: limited ? dice.pick<Reset | null>(['daily', 'weekly', 'monthly', null]) : null,
      }
      const r = await world.call('keys.create', 'POST', `/_emulator/api/accounts/${ws.id}/keys`, { body })
      if (!world.expect('keys.create', r, ['ok'])) return
      const d = r.body.data
      world.check(
        d.name === body.name && d.limit === body.limit && d.limit_reset === body.limit_reset && d.usage === 0 && d.disabled === false,
        `keys.create: ${JSON.stringify(d)}`,
      )
      own.keys.push(setupKey(world, d, c))
    },

    async patchKey() {
      const key = dice.pick(liveKeys())
      const body: Record<string, unknown> = {}
      if (dice.chance(0.6)) body.name = label(`${key.name.split('~')[0]}~`)
      if (dice.chance(0.5)) body.limit = dice.pick([null, 0.000003, 0.00001, 0.001])
      if (dice.chance(0.4)) body.limit_reset = dice.pick([null, 'daily', 'weekly', 'monthly'])
      if (dice.chance(0.2)) body.disabled = !key.disabled
      if (Object.keys(body).length === 0) body.disabled = false
      const r = await world.call('keys.update', 'PATCH', `/api/v1/keys/${key.hash}`, { key: management, body })
      if (!world.expect('keys.update', r, ['ok'])) return
      if (body.name !== undefined) key.name = body.name as string
      if (body.limit !== undefined) key.limit = body.limit as number | null
      if (body.limit_reset !== undefined) key.limitReset = body.limit_reset as Reset | null
      if (body.disabled !== undefined) key.disabled = body.disabled as boolean
      const d = r.body.data
      world.check(
        d.hash === key.hash && d.name === key.name && d.limit === key.limit && d.limit_reset === key.limitReset && d.disabled === key.disabled,
        `keys.update answered ${JSON.stringify(d)} for ${JSON.stringify(body)}`,
      )
    },

    async deleteKey() {
      if (liveKeys().length < 2) return ops.createKey()
      const key = dice.pick(liveKeys())
      const r = await world.call('keys.revoke', 'DELETE', `/_emulator/api/accounts/${ws.id}/keys/${key.hash}`)
      if (!world.expect('keys.revoke', r, ['ok'])) return
      key.deleted = true
      key.guardrail = null
    },

    /** On a shared key, a volley of up to three at once: the same limit checked by concurrent requests. */
    async embed() {
      const dead = own.keys.filter((k) => k.deleted || k.disabled)
      const choice = dice.weighted({ own: 4, dead: dead.length > 0 ? 1 : 0, standard: 2, daily: 2, budget: 2, narrow: 1, revocable: 2 })
      const key =
        choice === 'own'
          ? dice.pick(own.keys.filter((k) => !k.deleted))
          : choice === 'dead'
            ? dice.pick(dead)
            : choice === 'revocable'
              ? dice.pick(shared.revocable)
              : shared[choice]
      const volley = choice === 'daily' || choice === 'budget' || choice === 'standard' ? 1 + dice.int(3) : 1
      const requests = Array.from({ length: volley }, () => ({
        model: dice.pick(EMBEDDING_MODELS),
        input: Array.from({ length: 1 + dice.int(3) }, () => dice.sample(WORDS, 2 + dice.int(5)).join(' ')),
      }))
      await Promise.all(
        requests.map(async ({ model, input }) => {
          const allowed = embeddingOutcomes(key, model)
          const r = await world.call('embeddings', 'POST', '/api/v1/embeddings', { key: key.token, body: { model, input, dimensions: 8 } })
          if (!world.expect(`embeddings with ${choice} key`, r, allowed) || r.status !== 200) return
          const id = /^gen-emb-(\d+)-[0-9A-Za-z]{20}$/.exec(String(r.body.id))
          const cost = r.body.usage?.cost
          world.check(
            id !== null && typeof cost === 'number' && r.body.data?.length === input.length,
            `embeddings answered ${JSON.stringify(r.body).slice(0, 300)}`,
          )
          if (id && typeof cost === 'number') world.spends.push({ key: key.hash, nanos: nanos(cost), at: Number(id[1]) * 1000 })
        }),
      )
    },

    async video() {
      const live = own.keys.filter((k) => !k.deleted)
      const choice = dice.weighted({
        video: 3,
        standard: 1,
        narrow: 0.5,
        own: live.length > 0 ? 2 : 0,
        dead: own.keys.some((k) => k.deleted || k.disabled) ? 0.5 : 0,
      })
      const key = choice === 'own' ? dice.pick(live) : choice === 'dead' ? dice.pick(own.keys.filter((k) => k.deleted || k.disabled)) : shared[choice]
      const duration = 1 + dice.int(8)
      const planned = dice.chance(0.25) ? 'failed' : 'success'
      const r = await world.call('video.text2video', 'POST', '/router/v1/video/ent/v2/text2video', {
        key: key.token,
        body: { model: 'videoq2', prompt: `client ${c} asks for ${dice.pick(WORDS)}`, duration, resolution: '540p' },
        headers: { 'x-emulator-video-outcome': planned },
      })
      if (!world.expect(`video with ${choice} key`, r, videoOutcomes(key)) || r.status !== 200) return
      const id = String(r.body.task_id)
      world.check(
        /^\d{18}$/.test(id) && r.body.state === 'created' && r.body.duration === duration && r.body.resolution === '540p',
        `text2video answered ${JSON.stringify(r.body)}`,
      )
      const credits = VIDEO_PRICE[0] + VIDEO_PRICE[1] * duration
      const task: TaskModel = { id, key: key.hash, planned, cancelled: false, credits, nanos: nanos(credits * world.creditUsd) }
      if (planned === 'failed') task.nanos = 0 // refunded once it fails; until then somewhere in between
      world.tasks.push(task)
      own.tasks.push(task)
      // Fetch V2 right away: the price, unless the clock has already carried a failing task to its end.
      const f = await world.call('video.tasks.get', 'GET', `/router/v1/video/ent/v2/tasks/${id}/creations`, { key: shared.standard.token })
      if (world.expect('video.tasks.get', f, ['ok'])) {
        world.check(f.body.credits === credits || (planned === 'failed' && f.body.credits === 0), `task ${id} costs ${f.body.credits} credits, not ${credits}`)
      }
      if (dice.chance(0.15)) {
        const cancel = await world.call('video.tasks.cancel', 'POST', `/router/v1/video/ent/v2/tasks/${id}/cancel`, { key: shared.standard.token })
        // Too late once the clock has moved it to processing.
        if (world.expect('video.tasks.cancel', cancel, ['ok', '400:BadRequest']) && cancel.status === 200) {
          task.cancelled = true
          task.nanos = 0
        }
      }
    },

    async createCharge() {
      const amount = (5 + dice.int(26)) / 100
      const chain = dice.pick([1, 137, 8453] as const)
      const sender = `0x${dice.hex(40)}`
      const key = dice.chance(0.5) ? management : shared.standard.token
      const r = await world.call('credits.crypto', 'POST', '/api/v1/credits/crypto', { key, body: { amount, sender, chain_id: chain } })
      if (!world.expect('credits.crypto', r, ['ok'])) return
      const meta = r.body.data?.web3_data?.transfer_intent?.metadata
      world.check(meta?.chain_id === chain && meta?.sender === sender, `credits.crypto answered ${JSON.stringify(r.body).slice(0, 300)}`)
      const charge: ChargeModel = { id: r.body.data.id, amountNanos: nanos(amount), credited: false, settled: false }
      world.charges.push(charge)
      own.charges.push(charge)
    },

    async settleCharge() {
      const open = own.charges.filter((ch) => !ch.settled)
      if (open.length === 0) return ops.createCharge()
      const charge = dice.pick(open)
      charge.settled = true
      if (dice.chance(0.8)) {
        const r = await world.call('charges.confirm', 'POST', `/_emulator/api/charges/${charge.id}/confirm`)
        // A 409 when a clock move has let it expire first.
        if (!world.expect('charges.confirm', r, ['ok', '409'])) return
        if (r.status === 200) {
          world.check(
            r.body.data.credited === true && r.body.data.status === 'confirmed' && nanos(r.body.data.amount_usd) === charge.amountNanos,
            `confirm: ${JSON.stringify(r.body)}`,
          )
          charge.credited = r.body.data.credited === true
          if (charge.credited) credited += charge.amountNanos
        } else {
          world.check(r.body.error.metadata?.status === 'expired', `confirm 409: ${JSON.stringify(r.body)}`)
        }
        if (dice.chance(0.3)) {
          // Confirming again credits nothing more.
          const again = await world.call('charges.confirm', 'POST', `/_emulator/api/charges/${charge.id}/confirm`)
          if (world.expect('charges.confirm again', again, [charge.credited ? 'ok' : '409']) && again.status === 200) {
            world.check(again.body.data.credited === false, `a second confirm credited again: ${JSON.stringify(again.body)}`)
          }
        }
      } else {
        const r = await world.call('charges.expire', 'POST', `/_emulator/api/charges/${charge.id}/expire`)
        if (world.expect('charges.expire', r, ['ok'])) world.check(r.body.data.status === 'expired', `expire: ${JSON.stringify(r.body)}`)
        const late = await world.call('charges.confirm', 'POST', `/_emulator/api/charges/${charge.id}/confirm`)
        world.expect('charges.confirm after expire', late, ['409'])
      }
    },

    async createGuardrail() {
      const body: Record<string, unknown> = { name: label('g'), description: `client ${c}` }
      if (dice.chance(0.4)) body.allowed_models = [NARROW_MODEL]
      if (dice.chance(0.3)) Object.assign(body, { limit_usd: 0.000004, reset_interval: dice.pick(['daily', 'weekly', 'monthly']) })
      const r = await world.call('guardrails.create', 'POST', '/api/v1/guardrails', { key: management, body })
      if (!world.expect('guardrails.create', r, ['ok'])) return
      const d = r.body.data
      world.check(
        d.name === body.name && JSON.stringify(d.allowed_models) === JSON.stringify(body.allowed_models ?? null),
        `guardrails.create: ${JSON.stringify(d)}`,
      )
      const g: GuardrailModel = {
        id: d.id,
        owner: c,
        name: d.name,
        description: d.description,
        allowedModels: (body.allowed_models as string[] | undefined) ?? null,
        limitUsd: (body.limit_usd as number | undefined) ?? null,
        deleted: false,
      }
      world.guardrails.set(g.id, g)
      own.guardrails.push(g)
    },

    async patchGuardrail() {
      if (liveGuardrails().length === 0) return ops.createGuardrail()
      const g = dice.pick(liveGuardrails())
      const body = { name: label(`${g.name.split('~')[0]}~`), description: dice.chance(0.3) ? null : `client ${c}, revision ${serial}` }
      const r = await world.call('guardrails.update', 'PATCH', `/api/v1/guardrails/${g.id}`, { key: management, body })
      if (!world.expect('guardrails.update', r, ['ok'])) return
      g.name = body.name
      g.description = body.description
      world.check(r.body.data.name === g.name && r.body.data.description === g.description, `guardrails.update: ${JSON.stringify(r.body.data)}`)
    },

    async deleteGuardrail() {
      if (liveGuardrails().length === 0) return ops.createGuardrail()
      const g = dice.pick(liveGuardrails())
      const r = await world.call('guardrails.delete', 'DELETE', `/api/v1/guardrails/${g.id}`, { key: management })
      if (!world.expect('guardrails.delete', r, ['ok'])) return
      world.check(r.body.deleted === true, `guardrails.delete: ${JSON.stringify(r.body)}`)
      g.deleted = true
      // Its assignments go with it: only this client's keys and member can be under it.
      for (const key of own.keys) if (key.guardrail === g.id) key.guardrail = null
      if (member && world.memberGuardrail.get(member) === g.id) world.memberGuardrail.set(member, null)
    },

    async assignKeys() {
      const target = dice.pick([shared.open, shared.narrowGuardrail, ...liveGuardrails()])
      const chosen = dice.sample(liveKeys(), 1 + dice.int(3))
      const hashes = chosen.map((k) => k.hash)
      const deleted = own.keys.filter((k) => k.deleted)
      if (deleted.length > 0 && dice.chance(0.3)) hashes.push(dice.pick(deleted).hash)
      if (dice.chance(0.3)) hashes.push(sha256(emu.keys.standard)) // another account's key: skipped
      if (chosen.length > 0 && dice.chance(0.2)) hashes.push(chosen[0]!.hash) // a repeat counts once
      const expected = chosen.filter((k) => k.guardrail !== target.id).length
      const r = await world.call('assignments.keys.assign', 'POST', `/api/v1/guardrails/${target.id}/assignments/keys`, {
        key: management,
        body: { key_hashes: hashes },
      })
      if (!world.expect('assignments.keys.assign', r, ['ok'])) return
      world.check(r.body.assigned_count === expected, `assigned_count ${r.body.assigned_count}, expected ${expected} (${target.name})`)
      for (const key of chosen) key.guardrail = target.id
    },

    async unassignKeys() {
      const target = dice.pick([shared.open, shared.narrowGuardrail, ...liveGuardrails()])
      const chosen = dice.sample(liveKeys(), 1 + dice.int(3))
      if (chosen.length === 0) return ops.createKey()
      const expected = chosen.filter((k) => k.guardrail === target.id).length
      const r = await world.call('assignments.keys.unassign', 'POST', `/api/v1/guardrails/${target.id}/assignments/keys/remove`, {
        key: management,
        body: { key_hashes: chosen.map((k) => k.hash) },
      })
      if (!world.expect('assignments.keys.unassign', r, ['ok'])) return
      world.check(r.body.unassigned_count === expected, `unassigned_count ${r.body.unassigned_count}, expected ${expected}`)
      for (const key of chosen) if (key.guardrail === target.id) key.guardrail = null
    },

    /** Only clients 0-2 own a member; member 0 creates every key, so it only goes under the open guardrail. */
    async memberAssignment() {
      if (member === null) return ops.readAssignments()
      const targets = c === 0 ? [shared.open] : [shared.open, shared.narrowGuardrail, shared.budgetGuardrail, ...liveGuardrails()]
      const target = dice.pick(targets)
      const current = world.memberGuardrail.get(member) ?? null
      const ids = dice.chance(0.3) ? [member, 'user_not_in_this_account'] : [member]
      if (dice.chance(0.6)) {
        const r = await world.call('assignments.members.assign', 'POST', `/api/v1/guardrails/${target.id}/assignments/members`, {
          key: management,
          body: { member_user_ids: ids },
        })
        if (!world.expect('assignments.members.assign', r, ['ok'])) return
        world.check(r.body.assigned_count === (current === target.id ? 0 : 1), `member assigned_count ${r.body.assigned_count}`)
        world.memberGuardrail.set(member, target.id)
      } else {
        const r = await world.call('assignments.members.unassign', 'POST', `/api/v1/guardrails/${target.id}/assignments/members/remove`, {
          key: management,
          body: { member_user_ids: ids },
        })
        if (!world.expect('assignments.members.unassign', r, ['ok'])) return
        world.check(r.body.unassigned_count === (current === target.id ? 1 : 0), `member unassigned_count ${r.body.unassigned_count}`)
        if (current === target.id) world.memberGuardrail.set(member, null)
      }
    },

    async readKeys() {
      const all = dice.chance(0.7)
      const r = await world.call('keys.list', 'GET', `/api/v1/keys${all ? '?include_disabled=true' : ''}`, { key: management })
      if (!world.expect('keys.list', r, ['ok'])) return
      const list = r.body.data as Array<Record<string, any>>
      const byHash = new Map(list.map((k) => [k.hash as string, k]))
      world.check(byHash.size === list.length, 'keys.list lists a key twice')
      for (const k of list) {
        const [usage, day, week, month] = [k.usage, k.usage_daily, k.usage_weekly, k.usage_monthly].map(nanos) as [number, number, number, number]
        world.check(
          day <= week &&
            day <= month &&
            week <= usage &&
            month <= usage &&
            (k.limit === null) === (k.limit_remaining === null) &&
            (k.limit_remaining ?? 0) >= 0,
          `keys.list: inconsistent ${JSON.stringify(k)}`,
        )
        world.check(all || k.disabled === false, 'keys.list without include_disabled lists a disabled key')
      }
      for (const key of own.keys) {
        const seen = byHash.get(key.hash)
        if (key.deleted || (!all && key.disabled)) {
          world.check(seen === undefined, `keys.list still lists ${key.deleted ? 'deleted' : 'disabled'} key ${key.name}`)
          continue
        }
        if (!seen) {
          world.problem(`keys.list lost key ${key.name}`)
          continue
        }
        world.check(
          seen.name === key.name && seen.limit === key.limit && seen.limit_reset === key.limitReset && seen.disabled === key.disabled,
          `keys.list shows ${JSON.stringify(seen)} for ${JSON.stringify(key)}`,
        )
        // Only this client spends with its keys: their all-time usage is known, but for failing tasks not yet failed.
        const mine = own.tasks.filter((t) => t.key === key.hash)
        const low = spentOn(world, key.hash)
        const high = low + mine.filter((t) => t.planned === 'failed' && !t.cancelled).reduce((sum, t) => sum + nanos(t.credits * world.creditUsd), 0)
        world.check(
          nanos(seen.usage) >= low && nanos(seen.usage) <= high,
          `key ${key.name} usage ${seen.usage}, expected between ${low / 1e9} and ${high / 1e9}`,
        )
      }
    },

    async readCredits() {
      const r = await world.call('credits.get', 'GET', '/api/v1/credits', { key: dice.chance(0.5) ? management : shared.standard.token })
      if (!world.expect('credits.get', r, ['ok'])) return
      const total = nanos(r.body.data.total_credits)
      const usage = nanos(r.body.data.total_usage)
      world.check(total >= nanos(INITIAL_CREDITS_USD) + credited, `credits ${total / 1e9} below what this client saw credited`)
      world.check(total - usage >= 0, `negative balance: ${JSON.stringify(r.body.data)}`)
    },

    async readGuardrails() {
      const r = await world.call('guardrails.list', 'GET', '/api/v1/guardrails?limit=100', { key: management })
      if (!world.expect('guardrails.list', r, ['ok'])) return
      const list = r.body.data as Array<Record<string, any>>
      const byId = new Map(list.map((g) => [g.id as string, g]))
      world.check(byId.size === list.length && r.body.total_count >= list.length, 'guardrails.list: duplicates or a short total_count')
      if (r.body.total_count > 100) return
      for (const g of own.guardrails) {
        const seen = byId.get(g.id)
        if (g.deleted) world.check(seen === undefined, `guardrails.list still lists deleted ${g.name}`)
        else world.check(seen?.name === g.name && seen?.description === g.description, `guardrails.list shows ${JSON.stringify(seen)} for ${g.name}`)
      }
    },

    async readAssignments() {
      if (dice.chance(0.5)) {
        const target = dice.pick([shared.open, shared.narrowGuardrail, shared.budgetGuardrail, ...liveGuardrails()])
        const r = await world.call('assignments.keys.list', 'GET', `/api/v1/guardrails/${target.id}/assignments/keys`, { key: management })
        if (!world.expect('assignments.keys.list', r, ['ok'])) return
        const listed = (r.body.data as Array<{ key_hash: string; guardrail_id: string }>).map((a) => a.key_hash)
        world.check(new Set(listed).size === listed.length && r.body.total_count === listed.length, `${target.name}: a key listed twice`)
        world.check(
          (r.body.data as Array<{ guardrail_id: string }>).every((a) => a.guardrail_id === target.id),
          `${target.name}: another guardrail's assignment`,
        )
        const mineListed = listed.filter((h) => world.keys.get(h)?.owner === c && !world.keys.get(h)!.revocable).sort()
        const mineExpected = own.keys
          .filter((k) => k.guardrail === target.id)
          .map((k) => k.hash)
          .sort()
        world.check(
          JSON.stringify(mineListed) === JSON.stringify(mineExpected),
          `${target.name}: lists ${mineListed.length} of this client's keys, expected ${mineExpected.length}`,
        )
        if (target === shared.narrowGuardrail) world.check(listed.includes(shared.narrow.hash), 'the narrow guardrail lost its shared key')
        if (target === shared.budgetGuardrail)
          world.check(JSON.stringify(listed) === JSON.stringify([shared.budget.hash]), 'the budget guardrail has keys it was never given')
      } else {
        const r = await world.call('assignments.keys.listAll', 'GET', '/api/v1/guardrails/assignments/keys', { key: management })
        if (!world.expect('assignments.keys.listAll', r, ['ok'])) return
        const rows = r.body.data as Array<{ key_hash: string; guardrail_id: string }>
        const byKey = new Map(rows.map((a) => [a.key_hash, a.guardrail_id]))
        world.check(byKey.size === rows.length, 'a key is under two guardrails at once')
        for (const key of own.keys)
          world.check((byKey.get(key.hash) ?? null) === key.guardrail, `key ${key.name} is under ${byKey.get(key.hash)}, expected ${key.guardrail}`)
        if (member !== null) {
          const m = await world.call('assignments.members.listAll', 'GET', '/api/v1/guardrails/assignments/members', { key: management })
          if (!world.expect('assignments.members.listAll', m, ['ok'])) return
          const mine = (m.body.data as Array<{ user_id: string; guardrail_id: string }>).filter((a) => a.user_id === member)
          world.check(
            mine.length <= 1 && (mine[0]?.guardrail_id ?? null) === world.memberGuardrail.get(member),
            `member ${member} is under ${JSON.stringify(mine)}`,
          )
        }
      }
    },

    async readActivity() {
      const r = await world.call('activity', 'GET', '/api/v1/activity', { key: management })
      if (!world.expect('activity', r, ['ok'])) return
      for (const item of r.body.data as Array<Record<string, any>>) {
        world.check(
          /^\d{4}-\d{2}-\d{2}$/.test(item.date) && Number.isInteger(item.requests) && item.requests > 0 && item.usage >= 0,
          `activity item ${JSON.stringify(item)}`,
        )
      }
    },

    async readModels() {
      const r = await world.call('models', 'GET', '/api/v1/models?output_modalities=embeddings')
      if (!world.expect('models', r, ['ok'])) return
      const ids = new Set((r.body.data as Array<{ id: string }>).map((m) => m.id))
      world.check(
        EMBEDDING_MODELS.every((m) => ids.has(m)),
        'models: an embeddings model is missing',
      )
    },

    async readTask() {
      if (own.tasks.length === 0) return ops.readModels()
      const task = dice.pick(own.tasks)
      const r = await world.call('video.tasks.get', 'GET', `/router/v1/video/ent/v2/tasks/${task.id}/creations`, { key: shared.standard.token })
      if (!world.expect('video.tasks.get', r, ['ok'])) return
      const b = r.body
      if (task.cancelled) world.check(b.state === 'failed' && b.err_code === 'UserCancelled' && b.credits === 0, `cancelled task ${JSON.stringify(b)}`)
      else if (task.planned === 'success') world.check(b.state !== 'failed' && b.credits === task.credits, `task ${JSON.stringify(b)}`)
      else world.check(b.state !== 'success' && (b.state === 'failed') === (b.credits === 0), `failing task ${JSON.stringify(b)}`)
    },

    /** Requests the API must turn down with a documented 4xx, changing nothing. */
    async invalid() {
      const key = liveKeys()[0]
      const cases: Array<[string, Method, string, { key?: string; body?: unknown }, string]> = [
        ['invalid: negative limit', 'PATCH', `/api/v1/keys/${key?.hash ?? 'none'}`, { key: management, body: { limit: -1 } }, '400'],
        ['invalid: unknown model', 'POST', '/api/v1/embeddings', { key: shared.standard.token, body: { model: 'nobody/no-model', input: 'x' } }, '400'],
        ['invalid: bad sender', 'POST', '/api/v1/credits/crypto', { key: management, body: { amount: 1, sender: 'nobody', chain_id: 1 } }, '400'],
        ['invalid: empty guardrail name', 'POST', '/api/v1/guardrails', { key: management, body: { name: '' } }, '400'],
        ['invalid: another account key', 'PATCH', `/api/v1/keys/${sha256(emu.keys.standard)}`, { key: management, body: { name: 'taken' } }, '404'],
        [
          'invalid: unknown guardrail',
          'GET',
          `/api/v1/guardrails/${own.guardrails.find((g) => g.deleted)?.id ?? '00000000-0000-4000-8000-000000000000'}`,
          { key: management },
          '404',
        ],
        ['invalid: activity with a standard key', 'GET', '/api/v1/activity', { key: shared.standard.token }, '403'],
        ['invalid: keys with a standard key', 'GET', '/api/v1/keys', { key: shared.standard.token }, '401'],
        [
          'invalid: empty prompt',
          'POST',
          '/router/v1/video/ent/v2/text2video',
          { key: shared.standard.token, body: { model: 'videoq2', prompt: '' } },
          '400:FieldLacking',
        ],
      ]
      const [op, method, path, options, expected] = dice.pick(cases)
      world.expect(op, await world.call(op, method, path, options), [expected])
    },
  }

  const weights: Record<keyof typeof ops, number> = {
    createKey: 2,
    patchKey: 3,
    deleteKey: 1,
    embed: 9,
    video: 3,
    createCharge: 2,
    settleCharge: 2,
    createGuardrail: 1,
    patchGuardrail: 1,
    deleteGuardrail: 0.5,
    assignKeys: 2,
    unassignKeys: 1,
    memberAssignment: member === null ? 0 : 6,
    readKeys: 3,
    readCredits: 2,
    readGuardrails: 1,
    readAssignments: 2,
    readActivity: 1,
    readModels: 0.5,
    readTask: 1,
    invalid: 1,
  }

  const run = async (name: keyof typeof ops) => {
    try {
      await ops[name]()
    } catch (error) {
      world.problem(`client ${c}, ${name}: ${(error as Error).stack}`)
    }
  }
  await run('createKey') // every client starts with a key of its own
  const revocable = shared.revocable.find((k) => k.owner === c)
  for (let i = 0; i < OPS_PER_CLIENT; i++) {
    if (revocable && i === 10 + c) {
      // Revokes a key every client is using.
      const r = await world.call('keys.revoke shared', 'DELETE', `/_emulator/api/accounts/${ws.id}/keys/${revocable.hash}`)
      if (world.expect('keys.revoke shared', r, ['ok'])) revocable.deleted = true
    }
    const name = dice.weighted(weights)
    await run(liveKeys().length === 0 && name !== 'createKey' ? 'createKey' : name)
    world.opDone()
  }
}

/** Moves the clock to each next phase once that share of all operations is done, with requests in flight. */
async function moveClock(world: World, clientsDone: Promise<unknown>): Promise<void> {
  for (let p = 1; p < PHASES.length; p++) {
    // Or once the clients have stopped (a client that threw), so the run ends with its error.
    await Promise.race([world.reached((CLIENTS * OPS_PER_CLIENT * p) / PHASES.length), clientsDone.catch(() => undefined)])
    const r = await world.call('clock.advance', 'POST', '/_emulator/api/clock/advance', { body: { to: PHASES[p] } })
    if (world.expect('clock.advance', r, ['ok'])) world.check(r.body.data.now === PHASES[p], `clock at ${r.body.data.now}`)
  }
}

describe('fifty clients at once on one account', () => {
  it('leaves every count, balance, usage window, limit and assignment as the acknowledgements add up', async () => {
    const started = performance.now()
    const world = new World(emu.url, await workspace(emu, INITIAL_CREDITS_USD), emu.config.videoCreditUsd)
    const { ws } = world
    const shared = await setUp(world)

    const clients = Promise.all(Array.from({ length: CLIENTS }, (_, c) => runClient(world, shared, c)))
    await Promise.all([clients, moveClock(world, clients)])
    // Let the last phase's video tasks reach their end (same day: the windows stay where they are).
    expect((await world.call('clock.advance', 'POST', '/_emulator/api/clock/advance', { body: { by: '1h' } })).status).toBe(200)
    if (process.env.CONCURRENCY_REPORT) {
      console.log(`${world.requests} requests in ${Math.round(performance.now() - started)} ms`, Object.fromEntries([...world.outcomes].sort()))
    }

    // Every answer was a success or a documented 4xx in its envelope, and what each client knew held.
    expect(world.problems.slice(0, 20)).toEqual([])
    expect([...world.outcomes.keys()].filter((o) => /\s5\d\d/.test(o))).toEqual([])
    // The workload reached what it is meant to exercise.
    const seen = (outcome: string) => [...world.outcomes].some(([name, n]) => name.includes(outcome) && n > 0)
    for (const outcome of ['402:openrouter_key_limit', '402:guardrail_budget', ' 404', ' 401', '400:CreditInsufficient', '403:Forbidden'])
      expect(seen(outcome), outcome).toBe(true)
    expect(world.charges.some((ch) => ch.credited)).toBe(true)

    const get = async (path: string, key = ws.management) => {
      const r = await world.call('final', 'GET', path, { key })
      expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBe(200)
      return r.body
    }

    // Video tasks: one per acknowledged creation, each at its end, costing its price unless it failed.
    const tasks = (await emu.admin.call<{ data: Array<Record<string, any>> }>('GET', `/video/tasks?account=${ws.id}&limit=1000`)).data
    expect(tasks).toHaveLength(world.tasks.length)
    const taskTimes = new Map(tasks.map((t) => [t.id as string, Date.parse(t.created_at)]))
    const taskById = new Map(tasks.map((t) => [t.id as string, t]))
    for (const model of world.tasks) {
      const task = taskById.get(model.id)!
      const succeeds = model.planned === 'success' && !model.cancelled
      expect({ state: task.state, credits: task.credits, key: task.key_hash }).toEqual({
        state: succeeds ? 'success' : 'failed',
        credits: succeeds ? model.credits : 0,
        key: model.key,
      })
      if (model.cancelled) expect(task.err_code).toBe('UserCancelled')
    }

    // Keys: the setup's and every created one not deleted, each with its last acknowledged patch.
    const live = [...world.keys.values()].filter((k) => !k.deleted)
    const listed = (await get('/api/v1/keys?include_disabled=true')).data as Array<Record<string, any>>
    expect(listed.map((k) => k.hash).sort()).toEqual(live.map((k) => k.hash).sort())
    const enabled = (await get('/api/v1/keys')).data as Array<{ hash: string }>
    expect(enabled.map((k) => k.hash).sort()).toEqual(
      live
        .filter((k) => !k.disabled)
        .map((k) => k.hash)
        .sort(),
    )
    const adminKeys = (await emu.admin.call<{ data: Array<{ kind: string }> }>('GET', `/accounts/${ws.id}/keys`)).data
    expect(adminKeys.filter((k) => k.kind === 'management')).toHaveLength(1)
    expect(adminKeys).toHaveLength(live.length + 1)

    // Usage of every key, in every window, is the sum of what was acknowledged on it.
    const byHash = new Map(listed.map((k) => [k.hash as string, k]))
    let keyUsageSum = 0
    for (const key of live) {
      const view = byHash.get(key.hash)!
      expect({ name: view.name, limit: view.limit, limit_reset: view.limit_reset, disabled: view.disabled }).toEqual({
        name: key.name,
        limit: key.limit,
        limit_reset: key.limitReset,
        disabled: key.disabled,
      })
      const windows = {
        usage: spentOn(world, key.hash, -Infinity, taskTimes),
        usage_daily: spentOn(world, key.hash, END_DAY, taskTimes),
        usage_weekly: spentOn(world, key.hash, END_WEEK, taskTimes),
        usage_monthly: spentOn(world, key.hash, END_MONTH, taskTimes),
      }
      expect(
        { usage: nanos(view.usage), usage_daily: nanos(view.usage_daily), usage_weekly: nanos(view.usage_weekly), usage_monthly: nanos(view.usage_monthly) },
        key.name,
      ).toEqual(windows)
      expect([view.byok_usage, view.byok_usage_daily, view.byok_usage_weekly, view.byok_usage_monthly]).toEqual([0, 0, 0, 0])
      // limit_remaining: what is left of the limit in the window of limit_reset, never below 0.
      const inWindow =
        key.limitReset === 'daily'
          ? windows.usage_daily
          : key.limitReset === 'weekly'
            ? windows.usage_weekly
            : key.limitReset === 'monthly'
              ? windows.usage_monthly
              : windows.usage
      expect(view.limit_remaining === null ? null : nanos(view.limit_remaining), key.name).toBe(
        key.limit === null ? null : Math.max(0, nanos(key.limit) - inWindow),
      )
      keyUsageSum += nanos(view.usage)
    }

    // A limit shared by fifty clients is passed by at most the one request that found it not yet spent.
    const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10)
    const weekOf = (ms: number) => (ms < END_WEEK ? 'before' : 'after')
    const overshoot = (key: KeyModel, limit: number, bucket: (ms: number) => string) => {
      const hash = key.hash
      const buckets = new Map<string, { sum: number; max: number }>()
      const add = (at: number, n: number) => {
        const b = buckets.get(bucket(at)) ?? { sum: 0, max: 0 }
        buckets.set(bucket(at), { sum: b.sum + n, max: Math.max(b.max, n) })
      }
      for (const s of world.spends) if (s.key === hash) add(s.at, s.nanos)
      for (const t of world.tasks) if (t.key === hash) add(taskTimes.get(t.id)!, t.nanos)
      for (const [when, b] of buckets) expect(b.sum - b.max, `${key.name}: spent in ${when} (nano-USD), less its dearest request`).toBeLessThan(nanos(limit))
      return buckets.size
    }
    expect(overshoot(shared.daily, shared.daily.limit!, dayOf)).toBe(PHASES.length)
    expect(overshoot(shared.budget, shared.budgetGuardrail.limitUsd!, dayOf)).toBe(PHASES.length)
    expect(overshoot(shared.video, shared.video.limit!, weekOf)).toBeGreaterThan(0)

    // Balances: credits are the seed plus each confirmation acknowledged once; usage is every
    // acknowledged cost, the live keys' usage plus what the deleted keys had spent; never below zero.
    const credited = world.charges.filter((ch) => ch.credited).reduce((sum, ch) => sum + ch.amountNanos, 0)
    const totalSpent = world.spends.reduce((sum, s) => sum + s.nanos, 0) + world.tasks.reduce((sum, t) => sum + t.nanos, 0)
    const deletedSpent = [...world.keys.values()].filter((k) => k.deleted).reduce((sum, k) => sum + spentOn(world, k.hash), 0)
    const credits = (await get('/api/v1/credits')).data
    expect({ total_credits: nanos(credits.total_credits), total_usage: nanos(credits.total_usage) }).toEqual({
      total_credits: nanos(INITIAL_CREDITS_USD) + credited,
      total_usage: totalSpent,
    })
    expect(keyUsageSum + deletedSpent).toBe(totalSpent)
    const account = (await emu.admin.call<{ data: Record<string, number> }>('GET', `/accounts/${ws.id}`)).data
    expect(nanos(account.balance_usd!)).toBe(nanos(INITIAL_CREDITS_USD) + credited - totalSpent)
    expect(account.balance_usd).toBeGreaterThanOrEqual(0)
    const charges = (await emu.admin.call<{ data: Array<{ id: string; status: string; amount_usd: number }> }>('GET', `/charges?account=${ws.id}`)).data
    expect(charges).toHaveLength(world.charges.length)
    const chargeById = new Map(charges.map((ch) => [ch.id, ch]))
    for (const model of world.charges) {
      const charge = chargeById.get(model.id)!
      expect(nanos(charge.amount_usd)).toBe(model.amountNanos)
      if (model.credited) expect(charge.status).toBe('confirmed')
      else expect(['pending', 'expired']).toContain(charge.status)
    }

    // No lost assignment: each guardrail lists exactly the keys and members last assigned to it, once.
    const liveGuardrails = [...world.guardrails.values()].filter((g) => !g.deleted)
    const listedGuardrails: Array<Record<string, any>> = []
    for (let offset = 0; ; offset += 100) {
      const page = await get(`/api/v1/guardrails?limit=100&offset=${offset}`)
      listedGuardrails.push(...page.data)
      expect(page.total_count).toBe(liveGuardrails.length)
      if (page.data.length < 100) break
    }
    expect(listedGuardrails.map((g) => g.id).sort()).toEqual(liveGuardrails.map((g) => g.id).sort())
    const guardrailById = new Map(listedGuardrails.map((g) => [g.id as string, g]))
    let keyAssignments = 0
    let memberAssignments = 0
    for (const g of liveGuardrails) {
      expect({ name: guardrailById.get(g.id)!.name, description: guardrailById.get(g.id)!.description }).toEqual({ name: g.name, description: g.description })
      const keys = await get(`/api/v1/guardrails/${g.id}/assignments/keys`)
      const keyHashes = (keys.data as Array<{ key_hash: string }>).map((a) => a.key_hash).sort()
      expect(keyHashes, g.name).toEqual(
        live
          .filter((k) => k.guardrail === g.id)
          .map((k) => k.hash)
          .sort(),
      )
      expect(keys.total_count).toBe(keyHashes.length)
      const members = await get(`/api/v1/guardrails/${g.id}/assignments/members`)
      const memberIds = (members.data as Array<{ user_id: string }>).map((a) => a.user_id).sort()
      expect(memberIds, g.name).toEqual(ws.members.filter((m) => world.memberGuardrail.get(m) === g.id).sort())
      keyAssignments += keyHashes.length
      memberAssignments += memberIds.length
    }
    for (const g of world.guardrails.values())
      if (g.deleted) expect((await world.call('final', 'GET', `/api/v1/guardrails/${g.id}`, { key: ws.management })).status).toBe(404)
    const allKeys = await get('/api/v1/guardrails/assignments/keys')
    expect(new Set((allKeys.data as Array<{ key_hash: string }>).map((a) => a.key_hash)).size).toBe(keyAssignments) // a key under one guardrail at most
    expect(allKeys.total_count).toBe(keyAssignments)
    const allMembers = await get('/api/v1/guardrails/assignments/members')
    expect(new Set((allMembers.data as Array<{ user_id: string }>).map((a) => a.user_id)).size).toBe(memberAssignments)

    // Nothing denied was billed: one usage row per acknowledged embedding and video task, and the
    // database is whole.
    const rows = emu.ctx.db.prepare('SELECT COUNT(*) AS n, COALESCE(SUM(cost_nanos), 0) AS cost FROM usage WHERE account_id = ?').get(ws.id) as {
      n: number
      cost: number
    }
    expect(rows).toEqual({ n: world.spends.length + world.tasks.length, cost: totalSpent })
    expect(emu.ctx.db.pragma('integrity_check', { simple: true })).toBe('ok')
    expect(emu.ctx.db.pragma('foreign_key_check')).toEqual([])

    // Activity, once the last day is complete, tells the same story day by day.
    expect((await world.call('clock.advance', 'POST', '/_emulator/api/clock/advance', { body: { to: '2026-04-02T00:00:00.000Z' } })).status).toBe(200)
    const activity = (await get('/api/v1/activity')).data as Array<{ date: string; usage: number; requests: number }>
    const perDay = new Map<string, { requests: number; usage: number }>()
    const addDay = (date: string, requests: number, usage: number) => {
      const d = perDay.get(date) ?? { requests: 0, usage: 0 }
      perDay.set(date, { requests: d.requests + requests, usage: d.usage + usage })
    }
    for (const item of activity) addDay(item.date, item.requests, nanos(item.usage))
    const expectedPerDay = new Map<string, { requests: number; usage: number }>()
    for (const s of world.spends) {
      const d = expectedPerDay.get(dayOf(s.at)) ?? { requests: 0, usage: 0 }
      expectedPerDay.set(dayOf(s.at), { requests: d.requests + 1, usage: d.usage + s.nanos })
    }
    for (const t of world.tasks) {
      const d = expectedPerDay.get(dayOf(taskTimes.get(t.id)!)) ?? { requests: 0, usage: 0 }
      expectedPerDay.set(dayOf(taskTimes.get(t.id)!), { requests: d.requests + 1, usage: d.usage + t.nanos })
    }
    expect(Object.fromEntries([...perDay].sort())).toEqual(Object.fromEntries([...expectedPerDay].sort()))
  }, 60_000) // about 3 s alone; the margin is for a machine busy with the rest of the suite
})
