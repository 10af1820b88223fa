// Fuzzing every gateway, router and admin operation: valid requests mutated into bad ones (wrong
// types, missing and extra fields, huge and empty strings, unicode and control characters, deep
// nesting, malformed JSON, wrong content types, absurd numbers, bad path segments and queries, other
// spellings of the path: repeated slashes, encoded characters, dot segments), and for chat: hostile
// JSON Schemas (huge bounds, patterns, enums, cycles) in structured outputs and tools, every `n` as
// JSON and as a stream, and fixture rules with pathological regular expressions; for the media and
// multipart surfaces (files, transcriptions, videos, the video router, images): forms broken every way
// (parts missing, doubled, oversized, named like Object's properties, cut short, declared longer than
// their route takes) and inline media replaced (bad data URIs and base64, escapes, past their bound).
// Every answer must be a success or a 4xx in the right envelope: never a 5xx, a crash or a hang; a
// heartbeat (GET /_emulator/api/health over a socket) runs beside the whole run and must always
// answer within a second.
//
// The operations live beside each area's tests (test/integration/<area>/*.fuzz.ts, kit.ts says what
// they export) and are collected here from the folders: a new area's file needs no line here.
import fc from 'fast-check'
import { readdirSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { startEmulator, type RunningEmulator } from '../../../src/emulator/index.ts'
import { PNG_BASE64, type FilePart, type FuzzOperation } from './kit.ts'

const AREAS = join(import.meta.dirname, '..')

/** A valid request of each operation, which the fuzzer then mutates: every area's, in their places. */
const OPERATIONS: FuzzOperation[] = await (async () => {
  const files = readdirSync(AREAS, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((folder) =>
      readdirSync(join(AREAS, folder.name))
        .filter((name) => name.endsWith('.fuzz.ts'))
        .map((name) => join(AREAS, folder.name, name)),
    )
  const loaded = await Promise.all(files.map(async (file) => ((await import(pathToFileURL(file).href)) as { operations: FuzzOperation[] }).operations))
  const operations = loaded.flat().sort((a, b) => a.place - b.place)
  operations.forEach((op, i) => {
    if (op.place !== i) throw new Error(`fuzz operations: place ${i} is ${op.place < i ? 'taken twice' : 'missing'} (${op.method} ${op.path})`)
  })
  return operations
})()

/** Numbers that break naive bounds. */
const hugeCount = fc.constantFrom(0, 1, 3, 1e3, 1e4, 1e7, 1e9, 1e15, 2 ** 53, -1, 0.5)

/** Patterns of every cost: nested counted repetitions, backtracking traps, what RE2 or ECMA-262 refuse. */
const hostilePattern = fc.constantFrom(
  '^((a{1000}){1000}){1000}$',
  '^(a+)+$',
  '(a|aa)*b',
  '(x+x+)+y',
  '(a)\\1',
  '(?=a)b',
  '(?<=a)b',
  '[',
  '(',
  'a{0,100000000}',
  '\\p{L}{5000}',
  '.{0,1000}.{0,1000}.{0,1000}',
  '(?i)HELLO',
  '',
)

const bigEnum = Array.from({ length: 60_000 }, (_, i) => `v${i}`)

/** JSON Schemas meant to stall or overflow a generator: huge bounds, enums, cycles, contradictions. */
const hostileSchema: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  schema: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({ type: fc.constant('string'), minLength: hugeCount, maxLength: hugeCount }, { requiredKeys: ['type'] }),
    fc.record({ type: fc.constant('string'), pattern: hostilePattern }),
    fc.record(
      { type: fc.constant('array'), minItems: hugeCount, maxItems: hugeCount, uniqueItems: fc.boolean(), items: tie('schema') },
      { requiredKeys: ['type'] },
    ),
    fc.record(
      {
        type: fc.constant('object'),
        minProperties: hugeCount,
        maxProperties: hugeCount,
        additionalProperties: fc.oneof(fc.boolean(), tie('schema')),
        properties: fc.dictionary(fc.constantFrom('a', 'b', 'c', 'enum', 'required'), tie('schema'), { maxKeys: 3 }),
        required: fc.array(fc.constantFrom('a', 'b', 'x'), { maxLength: 3 }),
      },
      { requiredKeys: ['type'] },
    ),
    fc.record({
      enum: fc.oneof(fc.constant([]), fc.constant(bigEnum), fc.constant(['a '.repeat(300_000)]), fc.array(fc.anything({ maxDepth: 1 }), { maxLength: 3 })),
    }),
    fc.record({
      $ref: fc.constantFrom('#', '#/$defs/n', '#/nowhere', 'http://127.0.0.1:9/x.json'),
      $defs: fc.constant({ n: { type: 'object', required: ['next'], properties: { next: { $ref: '#/$defs/n' } } } }),
    }),
    fc.record({ anyOf: fc.array(tie('schema'), { minLength: 1, maxLength: 3 }) }),
    fc.record({ allOf: fc.array(tie('schema'), { minLength: 1, maxLength: 3 }) }),
    fc.constantFrom(true, false, {}, { not: {} }, { type: 'integer', minimum: 5, maximum: 1 }, { const: 'x'.repeat(100_000) }),
  ),
})).schema

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

/** What chat requests and fixture rules are given: hostile schemas and regexes, every `n`, streams. */
const chatMutation = fc.oneof(
  fc.record({ kind: fc.constant('schema' as const), schema: hostileSchema, where: fc.constantFrom('format' as const, 'tool' as const) }),
  fc.record({
    kind: fc.constant('regex' as const),
    pattern: hostilePattern,
    field: fc.constantFrom('last_user_regex', 'system_regex'),
    text: fc.constantFrom(`${'a'.repeat(30)}!`, 'x'.repeat(100_000)),
  }),
  fc.record({
    kind: fc.constant('choices' as const),
    n: fc.integer({ min: 1, max: 8 }),
    stream: fc.boolean(),
    maxTokens: fc.constantFrom(undefined, 1, 50, 100_000),
  }),
)

/**
 * Inline media past every media field's bound (an image's 50 MB is 67 MB of base64): a placeholder in the
 * body, whose characters are sent from one shared buffer rather than made into a JSON string each time.
 */
const OVERSIZE = '\u0000oversize'
const OVERSIZE_CHARS = 72 * 1024 * 1024
let oversize: Buffer | undefined

/** What a media field is given instead of its inline file. */
const mediaValue = fc.constantFrom(
  '',
  'data:',
  'data:image/png;base64,',
  `data:image/gif;base64,${PNG_BASE64}`,
  `data:image/png;base64,${PNG_BASE64.slice(0, 21)}`,
  `data:image/png;base64,${PNG_BASE64}!!`,
  `data:${'a'.repeat(5000)}/png;base64,AAAA`,
  `data:image/png;base64,${'\u00e9'.repeat(20_000)}`,
  '💥'.repeat(20_000),
  'A'.repeat(3 * 1024 * 1024),
  'https://example.com/a.png',
  'http://[::1',
  OVERSIZE,
)

/** How a form is broken. */
const formBreakage = fc.constantFrom(
  'no file',
  'two files',
  'file as a field',
  'field over 64 KB',
  'too many fields',
  'field named constructor',
  'empty file',
  'binary file',
  'file name',
  'cut short',
  'other boundary',
  'declared 1 GiB',
  'file over 25 MB',
)

/** A form's bytes from its fields and files, broken as `how` says. */
function formBody(
  form: { fields: Record<string, unknown>; files: FilePart[] },
  how: string | undefined,
  pick: number,
): { payload: Buffer; contentType: string; declared?: number } {
  const boundary = 'fuzz-form-boundary'
  const fields: Array<[string, string]> = Object.entries(form.fields).map(([name, value]) => [
    name,
    typeof value === 'string' ? value : (JSON.stringify(value) ?? ''),
  ])
  let files = form.files
  if (how === 'no file') files = []
  else if (how === 'two files') files = [...files, ...files]
  else if (how === 'file as a field') {
    fields.push(...files.map((f): [string, string] => [f.field, f.bytes.toString('latin1')]))
    files = []
  } else if (how === 'field over 64 KB') fields.push(['language', 'x'.repeat(65 * 1024)])
  else if (how === 'too many fields') fields.push(...Array.from({ length: 40 }, (_, i): [string, string] => [`f${i}`, 'x']))
  else if (how === 'field named constructor') fields.push(['constructor', 'x'])
  else if (how === 'empty file') files = files.map((f) => ({ ...f, bytes: Buffer.alloc(0) }))
  else if (how === 'binary file') files = files.map((f) => ({ ...f, name: 'a.bin', bytes: Buffer.from([0, 1, 2, 0xff, 0xfe, 0, 0x80]) }))
  else if (how === 'file name') files = files.map((f) => ({ ...f, name: ['../../etc/passwd', 'x'.repeat(300), 'é💥\u202e.txt', '', 'a"b;c.txt'][pick % 5]! }))
  else if (how === 'file over 25 MB') files = files.map((f) => ({ ...f, bytes: Buffer.alloc(25 * 1024 * 1024 + 1, 0x61) }))
  const parts = [
    ...fields.map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)),
    ...files.flatMap((f) => [
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; filename="${f.name}"\r\nContent-Type: ${f.type}\r\n\r\n`),
      f.bytes,
      Buffer.from('\r\n'),
    ]),
    Buffer.from(`--${boundary}--\r\n`),
  ]
  let payload = Buffer.concat(parts)
  if (how === 'cut short') payload = payload.subarray(0, pick % payload.length)
  const contentType = `multipart/form-data; boundary=${how === 'other boundary' ? 'another' : boundary}`
  return { payload, contentType, ...(how === 'declared 1 GiB' && { declared: 1024 * 1024 * 1024 }) }
}

/** Sets the value at `path` in `body`, where the path leads somewhere. */
function setAt(body: unknown, path: ReadonlyArray<string | number>, value: unknown): void {
  let at = body as Record<string | number, unknown> | undefined
  for (const segment of path.slice(0, -1)) {
    const next = at?.[segment]
    if (next === null || typeof next !== 'object') return
    at = next as Record<string | number, unknown>
  }
  if (at && typeof at === 'object') at[path.at(-1)!] = value
}

/** One mutation of a request. */
const mutation = fc.oneof(
  chatMutation,
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
  fc.record({ kind: fc.constant('media' as const), value: mediaValue, pick: fc.nat() }),
  fc.record({ kind: fc.constant('form' as const), how: formBreakage, pick: fc.nat() }),
)

/** Any operation, or (as often) one of chat's, which has the most ways to cost time and memory, or one that takes media or a form. */
const CHAT_OPERATIONS = OPERATIONS.flatMap((op, i) => (op.path.includes('completions') || op.path.includes('chat-fixtures') ? [i] : []))
const MEDIA_OPERATIONS = OPERATIONS.flatMap((op, i) => (op.form || op.media ? [i] : []))
const operationIndex = fc.oneof(fc.nat(OPERATIONS.length - 1), fc.constantFrom(...CHAT_OPERATIONS), fc.constantFrom(...MEDIA_OPERATIONS))

/** The longest a heartbeat may wait. */
const HEARTBEAT_MS = 1000

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

/**
 * One request over a real socket, its path exactly as given. A body of several pieces is written one
 * after the other; a body the server answers before it has read all of it is still sent whole.
 */
function overSocket(
  emu: RunningEmulator,
  method: string,
  path: string,
  headers: Record<string, string>,
  payload: string | Buffer | Buffer[] | undefined,
): Promise<Answer> {
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
    if (Array.isArray(payload)) {
      for (const piece of payload) req.write(piece)
      req.end()
    } else req.end(payload)
  })
}

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value)

type ChatMutation =
  | { kind: 'schema'; schema: unknown; where: 'format' | 'tool' }
  | { kind: 'regex'; pattern: string; field: string; text: string }
  | { kind: 'choices'; n: number; stream: boolean; maxTokens: number | undefined }

/** A chat body (or a fixture rule) given a hostile schema, regex, `n` or stream. */
function applyChatMutation(body: Record<string, unknown>, m: ChatMutation): void {
  if (m.kind === 'schema') {
    if (m.where === 'format') body.response_format = { type: 'json_schema', json_schema: { name: 's', schema: m.schema } }
    else body.tools = [{ type: 'function', function: { name: 'get_weather', parameters: m.schema } }]
  } else if (m.kind === 'regex') {
    // A rule with the pattern, or a request whose messages meet one.
    if (isRecord(body.match)) body.match = { [m.field]: m.pattern }
    if (Array.isArray(body.messages))
      body.messages = [
        { role: 'system', content: m.text },
        { role: 'user', content: m.text },
      ]
  } else if ('messages' in body || 'prompt' in body) {
    body.n = m.n
    body.stream = m.stream
    if (m.maxTokens === undefined) delete body.max_tokens
    else body.max_tokens = m.maxTokens
  }
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
  const account = emu.ctx.services.accounts.list()[0]!.id
  const hash = (await emu.app.inject({ url: '/api/v1/keys', headers: { authorization: `Bearer ${emu.keys.management}` } })).json().data[0].hash as string
  const guardrail = (
    await emu.app.inject({ method: 'POST', url: '/api/v1/guardrails', headers: { authorization: `Bearer ${emu.keys.management}` }, payload: { name: 'fuzz' } })
  ).json().data.id as string
  const ids = { account, hash, guardrail }
  const result: FuzzResult = { requests: 0, byStatus: {}, failures: [] }

  // The heartbeat beside every attack: a request that waits more than a second means a stall, named by
  // the fuzzed requests that were under way meanwhile.
  let fuzzing = true
  let underWay = ''
  const heartbeat = (async () => {
    while (fuzzing) {
      const started = performance.now()
      const during = new Set([underWay])
      const res = await overSocket(emu, 'GET', '/_emulator/api/health', {}, undefined).catch((error: unknown) => ({ statusCode: 0, body: String(error) }))
      during.add(underWay)
      const ms = performance.now() - started
      if (res.statusCode !== 200 || ms > HEARTBEAT_MS)
        result.failures.push(`heartbeat: ${res.statusCode} after ${Math.round(ms)} ms (a stall) during ${[...during].join(' | ')}`)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  })()

  await fc
    .assert(
      fc.asyncProperty(operationIndex, fc.array(fc.oneof(mutation, chatMutation), { minLength: 1, maxLength: 3 }), async (index, mutations) => {
        const op = OPERATIONS[index]!
        let path = substitute(op.path, ids)
        // A form's text fields are its body to the mutations.
        let body: unknown = op.form ? { ...op.form.fields } : op.body === undefined ? undefined : JSON.parse(substitute(JSON.stringify(op.body), ids))
        let raw: string | undefined
        let contentType = 'application/json'
        let breakage: { how: string; pick: number } | undefined
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
          else if ((m.kind === 'schema' || m.kind === 'regex' || m.kind === 'choices') && isRecord(body)) applyChatMutation(body, m)
          else if (m.kind === 'media' && op.media && !op.form) setAt(body, op.media[m.pick % op.media.length]!, m.value)
          else if (m.kind === 'form' && op.form) breakage = { how: m.how, pick: m.pick }
        }
        const headers: Record<string, string> = { ...(op.key && { authorization: `Bearer ${emu.keys[op.key]}` }) }
        let payload: string | Buffer | Buffer[] | undefined = raw ?? (body === undefined ? undefined : JSON.stringify(body))
        let overSocketOnly = false
        if (op.form && raw === undefined && isRecord(body)) {
          // The form as a client sends it, unless another content type was asked for (then the form's bytes go under it).
          const form = formBody({ fields: body, files: op.form.files }, breakage?.how, breakage?.pick ?? 0)
          payload = form.payload
          if (!mutations.some((m) => m.kind === 'type')) contentType = form.contentType
          if (form.declared !== undefined) {
            // Declared longer than sent: the connection is not reused for another request after the answer.
            headers['content-length'] = String(form.declared)
            headers.connection = 'close'
            overSocketOnly = true
          }
        } else if (typeof payload === 'string' && payload.includes(JSON.stringify(OVERSIZE).slice(1, -1))) {
          // Past every media bound: the placeholder's characters come from one shared buffer.
          oversize ??= Buffer.alloc(OVERSIZE_CHARS, 0x41)
          const [before, after] = payload.split(JSON.stringify(OVERSIZE).slice(1, -1), 2) as [string, string]
          payload = [Buffer.from(`${before}data:image/png;base64,`), oversize, Buffer.from(after)]
          headers['content-length'] = String(payload.reduce((n, piece) => n + piece.length, 0))
          overSocketOnly = true
        }
        if (payload !== undefined) headers['content-type'] = contentType
        underWay = `${op.method} ${path} ${mutations.map((m) => m.kind + ('how' in m ? ` ${String(m.how)}` : '')).join(', ')}`
        const spelt = mutations.some((m) => m.kind === 'spelling')
        const res =
          spelt || overSocketOnly
            ? await overSocket(emu, op.method, path, headers, payload)
            : await emu.app.inject({ method: op.method, url: path, headers, ...(payload !== undefined && { payload: payload as string | Buffer }) })
        result.requests++
        result.byStatus[res.statusCode] = (result.byStatus[res.statusCode] ?? 0) + 1
        const shown = payload === undefined ? '' : Array.isArray(payload) ? payload[0]!.toString('latin1') : payload.toString('latin1')
        const where = `${op.method} ${path} ${shown.slice(0, 200)} -> ${res.statusCode} ${res.body.slice(0, 200)}`
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
          // The Messages API answers in Anthropic's envelope.
          const anthropic =
            parsed.type === 'error' &&
            typeof (parsed.error as { type?: unknown } | undefined)?.type === 'string' &&
            typeof (parsed.error as { message?: unknown }).message === 'string'
          const ok = respelt ? router || main || anthropic : path.startsWith('/router/') ? router : path.startsWith('/api/v1/messages') ? anthropic : main
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

  fuzzing = false
  await heartbeat
  const integrity = emu.ctx.db.pragma('integrity_check', { simple: true })
  if (integrity !== 'ok') result.failures.push(`integrity_check: ${String(integrity)}`)
  await emu.close()
  return result
}
