// Fuzzing every gateway, router and admin operation: valid requests mutated into bad ones (wrong
// types, missing and extra fields, huge and empty strings, unicode and control characters, deep
// nesting, malformed JSON, wrong content types, absurd numbers, bad path segments and queries, other
// spellings of the path: repeated slashes, encoded characters, dot segments).
// Every answer must be a success or a 4xx in the right envelope: never a 5xx, a crash or a hang.
import fc from 'fast-check'
import { request as httpRequest } from 'node:http'
import { startEmulator, type RunningEmulator } from '../../../src/emulator/index.ts'

interface Operation {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'
  path: string
  key?: 'management' | 'standard'
  body?: Record<string, unknown>
}

const IMG = 'https://example.com/frame.png'

/** A valid request of each operation, which the fuzzer then mutates. */
const OPERATIONS: Operation[] = [
  { method: 'GET', path: '/api/v1/keys?include_disabled=true&offset=0', key: 'management' },
  {
    method: 'PATCH',
    path: '/api/v1/keys/{hash}',
    key: 'management',
    body: { name: 'n', disabled: false, limit: 5, limit_reset: 'daily', include_byok_in_limit: true },
  },
  { method: 'GET', path: '/api/v1/models?output_modalities=text&category=programming&supported_parameters=tools&limit=5&offset=1' },
  { method: 'GET', path: '/api/v1/models?use_rss=true' },
  { method: 'GET', path: '/api/v1/models/user?region=eu', key: 'standard' },
  { method: 'GET', path: '/api/v1/models/openai/gpt-4.1/endpoints' },
  { method: 'GET', path: '/api/v1/endpoints/zdr' },
  {
    method: 'POST',
    path: '/api/v1/guardrails',
    key: 'management',
    body: {
      name: 'g',
      description: 'd',
      limit_usd: 1,
      reset_interval: 'weekly',
      allowed_providers: ['openai'],
      allowed_models: ['openai/gpt-4.1'],
      enforce_zdr: false,
    },
  },
  { method: 'PATCH', path: '/api/v1/guardrails/{guardrail}', key: 'management', body: { name: 'h', ignored_providers: ['azure'] } },
  { method: 'POST', path: '/api/v1/guardrails/{guardrail}/assignments/keys', key: 'management', body: { key_hashes: ['{hash}'] } },
  { method: 'POST', path: '/api/v1/guardrails/{guardrail}/assignments/members/remove', key: 'management', body: { member_user_ids: ['user_x'] } },
  {
    method: 'POST',
    path: '/api/v1/credits/crypto',
    key: 'standard',
    body: { amount: 10, sender: '0x9a85CB3bfd494Ea3a8C9E50aA6a3c1a7E8BACE11', chain_id: 8453 },
  },
  { method: 'GET', path: '/api/v1/credits', key: 'standard' },
  {
    method: 'POST',
    path: '/api/v1/embeddings',
    key: 'standard',
    body: { model: 'openai/text-embedding-3-small', input: ['a', 'b'], dimensions: 8, encoding_format: 'base64', provider: { order: ['openai'] } },
  },
  { method: 'GET', path: '/api/v1/activity?date=2026-01-01', key: 'management' },
  {
    method: 'POST',
    path: '/router/v1/video/ent/v2/text2video',
    key: 'standard',
    body: { model: 'videoq2', prompt: 'p', duration: 5, resolution: '720p', seed: '3', callback_url: 'http://127.0.0.1:9/x' },
  },
  { method: 'POST', path: '/router/v1/video/ent/v2/img2video', key: 'standard', body: { model: 'videoq2-pro', images: [IMG], movement_amplitude: 'auto' } },
  {
    method: 'POST',
    path: '/router/v1/video/ent/v2/multiframe',
    key: 'standard',
    body: { model: 'videoq2-pro', start_image: IMG, image_settings: [{ key_image: IMG, duration: 3 }, { key_image: IMG }] },
  },
  { method: 'POST', path: '/router/v1/video/ent/v2/start-end2video', key: 'standard', body: { model: 'videoq2-pro', images: [IMG, IMG] } },
  { method: 'POST', path: '/router/v1/video/ent/v2/reference2video', key: 'standard', body: { model: 'videoq2', images: [IMG], prompt: 'p' } },
  { method: 'POST', path: '/router/v1/video/ent/v2/template2video', key: 'standard', body: { template: 'hug', images: [IMG], prompt: 'p', seed: 1 } },
  { method: 'GET', path: '/router/v1/video/ent/v2/tasks?states=success&pager.pagesz=5', key: 'standard' },
  { method: 'GET', path: '/router/v1/video/ent/v2/tasks/123/creations', key: 'standard' },
  { method: 'POST', path: '/router/v1/video/ent/v2/tasks/123/cancel', key: 'standard', body: {} },
  { method: 'POST', path: '/_emulator/api/accounts', body: { name: 'a', credits_usd: 5 } },
  { method: 'PATCH', path: '/_emulator/api/accounts/{account}', body: { ignored_providers: ['openai'], zdr_only: false } },
  { method: 'PUT', path: '/_emulator/api/accounts/{account}/credits', body: { balance_usd: 50 } },
  { method: 'POST', path: '/_emulator/api/accounts/{account}/keys', body: { kind: 'standard', limit: 1, expires_at: '2030-01-01T00:00:00Z' } },
  { method: 'POST', path: '/_emulator/api/clock/advance', body: { ms: 1000 } },
  { method: 'POST', path: '/_emulator/api/clock/set', body: { to: '2026-06-01T00:00:00Z' } },
  { method: 'POST', path: '/_emulator/api/faults', body: { match: { operation: 'models.count' }, action: { status: 503 }, remaining: 1, probability: 0.5 } },
  { method: 'PUT', path: '/_emulator/api/rate-limits', body: { keyPerMinute: 100 } },
  { method: 'PUT', path: '/_emulator/api/video/settings', body: { failure_rate: 0.1, queueing_ms: 10 } },
  { method: 'GET', path: '/_emulator/api/journal?status=200&limit=5&since=2026-01-01T00:00:00Z' },
  { method: 'POST', path: '/_emulator/api/catalog/models', body: { models: [] } },
  { method: 'POST', path: '/_emulator/api/import', body: { format: 'model-gateway-emulator/state', version: 1, tables: {} } },
  { method: 'POST', path: '/_emulator/api/fixtures/seed', body: { preset: 'empty' } },
]

const weird = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.constantFrom(Number.MAX_SAFE_INTEGER, -1, 0, 1e308, -1e308, 0.5),
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom('', ' ', '\u0000', '\u202e', '💥'.repeat(50), 'x'.repeat(5000), '../../etc/passwd', '%00', '{"a":'),
  fc.array(fc.anything({ maxDepth: 2 }), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.anything({ maxDepth: 2 }), { maxKeys: 4 }),
  fc.letrec((tie) => ({ deep: fc.oneof({ depthSize: 'small' }, fc.constant(1), fc.array(tie('deep'), { maxLength: 1 })) })).deep,
)

/** One mutation of a request. */
const mutation = fc.oneof(
  fc.record({ kind: fc.constant('replace' as const), value: weird, pick: fc.nat() }),
  fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('extra' as const), name: fc.string({ maxLength: 12 }), value: weird }),
  fc.record({ kind: fc.constant('body' as const), value: weird }),
  fc.record({ kind: fc.constant('raw' as const), text: fc.constantFrom('{', '[1,2', 'null', '"text"', '{"a":1}}', '\u0000', '<xml/>', '') }),
  fc.record({
    kind: fc.constant('type' as const),
    type: fc.constantFrom(
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/json; charset=latin1',
      'image/png',
    ),
  }),
  fc.record({ kind: fc.constant('segment' as const), value: fc.constantFrom('%', '%zz', '..', '%2e%2e', 'x'.repeat(600), '💥', '%00', ' ', '{}') }),
  fc.record({
    kind: fc.constant('spelling' as const),
    how: fc.constantFrom('double', 'encode', 'dot', 'dotdot', 'slash', 'backslash'),
    pick: fc.nat(),
    lower: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('nest' as const), depth: fc.constantFrom(10, 63, 64, 65, 200, 5_000, 50_000), pick: fc.nat(), brace: fc.boolean() }),
  fc.record({
    kind: fc.constant('query' as const),
    value: fc.constantFrom('limit=-1', 'limit=abc', 'offset=1e400', 'date=%', 'a[b]=c', '&&&', 'region=', 'states=zzz', '%%%', 'include_disabled=2'),
  }),
)

export interface FuzzResult {
  requests: number
  byStatus: Record<string, number>
  failures: string[]
}

/** Another spelling of the same path, which a lenient router could fold into it. */
function respell(url: string, how: string, pick: number, lower: boolean): string {
  const query = url.indexOf('?')
  const path = query === -1 ? url : url.slice(0, query)
  const rest = query === -1 ? '' : url.slice(query)
  const slashes = [...path.matchAll(/\//g)].map((m) => m.index)
  const at = slashes[pick % slashes.length]!
  const inner = slashes.length > 1 ? slashes[1 + (pick % (slashes.length - 1))]! : at
  let spelt = path
  if (how === 'double') spelt = `${path.slice(0, at)}/${path.slice(at)}`
  else if (how === 'dot') spelt = `${path.slice(0, at)}/.${path.slice(at)}`
  else if (how === 'dotdot') spelt = `${path.slice(0, at)}/x/..${path.slice(at)}`
  else if (how === 'slash') spelt = `${path.slice(0, inner)}%2${lower ? 'f' : 'F'}${path.slice(inner + 1)}`
  else if (how === 'backslash') spelt = `${path.slice(0, inner)}\\${path.slice(inner + 1)}`
  else {
    const plain = [...path.matchAll(/[A-Za-z0-9_.~-]/g)].map((m) => m.index)
    if (plain.length === 0) return url
    const i = plain[pick % plain.length]!
    const hex = path.charCodeAt(i).toString(16)
    spelt = `${path.slice(0, i)}%${lower ? hex : hex.toUpperCase()}${path.slice(i + 1)}`
  }
  return spelt + rest
}

/** `body` as JSON text with one field (or the whole body) nested `depth` levels deep. */
function nestedText(body: unknown, depth: number, pick: number, brace: boolean): string {
  const deep = brace ? `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}` : `${'['.repeat(depth)}${']'.repeat(depth)}`
  const keys = body && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : []
  if (keys.length === 0) return deep
  const key = keys[pick % keys.length]!
  return JSON.stringify({ ...(body as Record<string, unknown>), [key]: '\u0000deep' }).replace('"\\u0000deep"', deep)
}

interface Answer {
  statusCode: number
  body: string
  headers: Record<string, string | string[] | number | undefined>
  json(): unknown
}

/** One request over a real socket, its path exactly as given. */
function overSocket(emu: RunningEmulator, method: string, path: string, headers: Record<string, string>, payload: string | undefined): Promise<Answer> {
  return new Promise((resolve, reject) => {
    // A socket's request line carries no space or non-ASCII character: those go percent-encoded, as a client sends them.
    const line = path.replace(/[^\x21-\x7e]/gu, (c) => encodeURIComponent(c))
    const req = httpRequest({ host: '127.0.0.1', port: emu.port, method, path: line, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8')
        resolve({ statusCode: res.statusCode ?? 0, body, headers: res.headers, json: () => JSON.parse(body) })
      })
    })
    req.on('error', reject)
    req.end(payload)
  })
}

function substitute(path: string, ids: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => ids[name] ?? name)
}

export async function fuzz(runs: number, seed: number): Promise<FuzzResult> {
  // Listening (on loopback), so respelt paths go over a real socket: an injected request would have
  // its dot segments resolved on the way in.
  const emu: RunningEmulator = await startEmulator({
    db: ':memory:',
    clock: 'manual',
    seed: 1,
    callbackTimeoutMs: 50,
    host: '127.0.0.1',
    port: 0,
    logLevel: 'silent',
  })
  const account = emu.ctx.repos.accounts.list()[0]!.id
  const hash = (await emu.app.inject({ url: '/api/v1/keys', headers: { authorization: `Bearer ${emu.keys.management}` } })).json().data[0].hash as string
  const guardrail = (
    await emu.app.inject({ method: 'POST', url: '/api/v1/guardrails', headers: { authorization: `Bearer ${emu.keys.management}` }, payload: { name: 'fuzz' } })
  ).json().data.id as string
  const ids = { account, hash, guardrail }
  const result: FuzzResult = { requests: 0, byStatus: {}, failures: [] }

  await fc
    .assert(
      fc.asyncProperty(fc.nat(OPERATIONS.length - 1), fc.array(mutation, { minLength: 1, maxLength: 3 }), async (index, mutations) => {
        const op = OPERATIONS[index]!
        let path = substitute(op.path, ids)
        let body: unknown = op.body === undefined ? undefined : JSON.parse(substitute(JSON.stringify(op.body), ids))
        let raw: string | undefined
        let contentType = 'application/json'
        for (const m of mutations) {
          const keys = body && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : []
          if (m.kind === 'replace' && keys.length > 0) (body as Record<string, unknown>)[keys[m.pick % keys.length]!] = m.value
          else if (m.kind === 'remove' && keys.length > 0) delete (body as Record<string, unknown>)[keys[m.pick % keys.length]!]
          else if (m.kind === 'extra' && body && typeof body === 'object' && !Array.isArray(body)) (body as Record<string, unknown>)[m.name] = m.value
          else if (m.kind === 'body') body = m.value
          else if (m.kind === 'raw') raw = m.text
          else if (m.kind === 'type') contentType = m.type
          else if (m.kind === 'segment') path = path.replace(/\/[^/?]+(\?|$)/, `/${m.value}$1`)
          else if (m.kind === 'spelling') path = respell(path, m.how, m.pick, m.lower)
          else if (m.kind === 'nest') raw = nestedText(body, m.depth, m.pick, m.brace)
          else if (m.kind === 'query') path = `${path}${path.includes('?') ? '&' : '?'}${m.value}`
        }
        const headers: Record<string, string> = { ...(op.key && { authorization: `Bearer ${emu.keys[op.key]}` }) }
        const payload = raw ?? (body === undefined ? undefined : JSON.stringify(body))
        if (payload !== undefined) headers['content-type'] = contentType
        const spelt = mutations.some((m) => m.kind === 'spelling')
        const res = spelt
          ? await overSocket(emu, op.method, path, headers, payload)
          : await emu.app.inject({ method: op.method, url: path, headers, ...(payload !== undefined && { payload }) })
        result.requests++
        result.byStatus[res.statusCode] = (result.byStatus[res.statusCode] ?? 0) + 1
        const where = `${op.method} ${path} ${payload?.slice(0, 200) ?? ''} -> ${res.statusCode} ${res.body.slice(0, 200)}`
        // A 5xx that a fault rule asked for (the fuzzer creates some) is the emulator doing its job.
        // (The gateway's body names the rule; the router's keeps the vendor's words, so the header does.)
        const injected = res.body.includes('"emulator_fault"') || String(res.headers['x-emulator-detail'] ?? '').startsWith('answered by fault rule')
        if (res.statusCode >= 500 && !injected) {
          result.failures.push(where)
          return false
        }
        // Another spelling of a path never reaches a route: a 400 (or a 404), in either envelope.
        const respelt = path.split('?')[0] !== substitute(op.path, ids).split('?')[0] && mutations.some((m) => m.kind === 'spelling')
        if (respelt && mutations.every((m) => m.kind !== 'segment') && res.statusCode !== 400 && res.statusCode !== 404) {
          result.failures.push(`respelt path served: ${where}`)
          return false
        }
        if (res.statusCode >= 400) {
          const parsed = res.json() as Record<string, unknown>
          const router = typeof parsed.code === 'number' && typeof parsed.reason === 'string' && typeof parsed.message === 'string'
          const main =
            typeof (parsed.error as { code?: unknown } | undefined)?.code === 'number' && typeof (parsed.error as { message?: unknown }).message === 'string'
          const ok = respelt ? router || main : path.startsWith('/router/') ? router : main
          if (!ok) {
            result.failures.push(`bad envelope: ${where}`)
            return false
          }
        }
        return true
      }),
      { numRuns: runs, seed, endOnFailure: true },
    )
    .catch((error: unknown) => {
      if (result.failures.length === 0) result.failures.push(`fuzzer stopped: ${String(error).slice(0, 1500)}`)
    })

  const integrity = emu.ctx.db.pragma('integrity_check', { simple: true })
  if (integrity !== 'ok') result.failures.push(`integrity_check: ${String(integrity)}`)
  await emu.close()
  return result
}
