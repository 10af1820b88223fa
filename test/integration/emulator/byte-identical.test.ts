// The proof of "no behaviour change": one fixed sequence of requests over a real socket, across every
// surface (the text APIs plain, streamed, with tools, a schema, a fixture, a preset and their errors;
// embeddings, images, audio, rerank, both video APIs, files, keys, guardrails, credits, activity,
// generations; record and replay through a second and a third emulator), each answer's status, the
// headers that carry meaning and its exact bytes compared with byte-identical.golden.jsonl, then the
// journal, the state export and the OpenAPI document. `UPDATE_GOLDEN=1 npx vitest run <this file>`
// rewrites the golden file; without it the first difference fails the test with its name and a diff.
import { createHash } from 'node:crypto'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { listeningEmulator } from '../../helpers/emulator.ts'
import { tone, wav } from '../audio/audio-helpers.ts'

const GOLDEN = join(import.meta.dirname, 'byte-identical.golden.jsonl')
const UPDATE = process.env.UPDATE_GOLDEN === '1'
const ADMIN = '/_emulator/api'
const ROUTER = '/router/v1/video/ent/v2'
const CHAT_MODEL = 'openai/gpt-4o-mini'
const CLAUDE = 'anthropic/claude-3.5-haiku'

/** Headers worth comparing: what the body is, and what a client acts on (ids, limits, retries). */
const KEPT_HEADER = /^(content-type|content-disposition|location|cache-control|retry-after|x-.*|.*ratelimit.*)$/
/** Binary bodies above this are compared by their hash and length (the golden file stays readable). */
const INLINE_BINARY_BYTES = 4096

interface Entry {
  name: string
  method: string
  path: string
  status: number
  headers: Record<string, string>
  body?: string
  body_base64?: string
  body_sha256?: string
  body_bytes?: number
}

interface Call {
  method?: string
  key?: string
  json?: unknown
  form?: { fields?: Record<string, string>; files: Array<{ name: string; bytes: Uint8Array; type?: string }> }
  headers?: Record<string, string>
}

/** A fixed boundary: the one fetch's FormData draws is random, and the journal keeps the request's headers. */
const BOUNDARY = 'golden-boundary-7MA4YWxkTrZu0gW'

/** A multipart/form-data body as a browser writes it, with that boundary. */
function multipart(fields: Record<string, string>, files: Array<{ name: string; bytes: Uint8Array; type?: string }>): Buffer {
  const parts: Buffer[] = []
  for (const [name, value] of Object.entries(fields))
    parts.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`))
  for (const file of files) {
    const head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`
    parts.push(Buffer.from(head), Buffer.from(file.bytes), Buffer.from('\r\n'))
  }
  parts.push(Buffer.from(`--${BOUNDARY}--\r\n`))
  return Buffer.concat(parts)
}

const isText = (type: string) => /^(text\/|application\/(json|.*\+json|x-ndjson|javascript))/.test(type) || type.includes('charset=')

/**
 * Drives requests at emulators and keeps each answer as an entry. Every emulator's origin (a free port)
 * and the recordings folder (a temp path) become placeholders wherever they appear.
 */
class Session {
  readonly entries: Entry[] = []
  private readonly placeholders: Array<[string, string]> = []

  /** `actual` an origin (its host and port are replaced, wherever they appear) or a path. */
  placeholder(actual: string, name: string): void {
    this.placeholders.push([actual.startsWith('http') ? new URL(actual).host : actual, `{{${name}}}`])
    // Sorted longest first, so an origin is never half-replaced by a shorter one it contains.
    this.placeholders.sort((a, b) => b[0].length - a[0].length)
  }

  scrub(text: string): string {
    for (const [actual, name] of this.placeholders) text = text.split(actual).join(name)
    return text
  }

  /** One request; its answer kept under `name`, and returned parsed (JSON, or the text). */
  async call(name: string, base: string, path: string, options: Call = {}): Promise<any> {
    const headers: Record<string, string> = { ...options.headers }
    if (options.key) headers.authorization = `Bearer ${options.key}`
    let body: string | Uint8Array | undefined
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json'
      body = JSON.stringify(options.json)
    } else if (options.form) {
      headers['content-type'] = `multipart/form-data; boundary=${BOUNDARY}`
      body = new Uint8Array(multipart(options.form.fields ?? {}, options.form.files))
    }
    const method = options.method ?? (body === undefined ? 'GET' : 'POST')
    const res = await fetch(`${base}${path}`, { method, headers, ...(body !== undefined && { body }) })
    const bytes = Buffer.from(await res.arrayBuffer())
    this.keep(name, method, path, res, bytes)
    const type = res.headers.get('content-type') ?? ''
    if (type.startsWith('application/json')) return JSON.parse(bytes.toString('utf8'))
    return isText(type) ? bytes.toString('utf8') : bytes
  }

  /** A value that is no answer (files written, the journal's pages): kept as a JSON entry. */
  value(name: string, value: unknown): void {
    this.entries.push({ name, method: '-', path: '-', status: 0, headers: {}, body: this.scrub(JSON.stringify(value)) })
  }

  private keep(name: string, method: string, path: string, res: Response, bytes: Buffer): void {
    const headers: Record<string, string> = {}
    for (const [header, value] of [...res.headers].sort(([a], [b]) => a.localeCompare(b))) if (KEPT_HEADER.test(header)) headers[header] = this.scrub(value)
    const entry: Entry = { name, method, path: this.scrub(path), status: res.status, headers }
    const type = res.headers.get('content-type') ?? ''
    if (isText(type) || bytes.length === 0) entry.body = this.scrub(bytes.toString('utf8'))
    else if (bytes.length <= INLINE_BINARY_BYTES) entry.body_base64 = bytes.toString('base64')
    else Object.assign(entry, { body_sha256: createHash('sha256').update(bytes).digest('hex'), body_bytes: bytes.length })
    this.entries.push(entry)
  }
}

/** Where two serialized entries first differ, with about 200 characters of each around it. */
function difference(expected: string, actual: string): string {
  let at = 0
  while (at < expected.length && at < actual.length && expected[at] === actual[at]) at++
  const from = Math.max(0, at - 100)
  return `first difference at character ${at}\n  golden: …${expected.slice(from, at + 100)}…\n  now:    …${actual.slice(from, at + 100)}…`
}

function compareWithGolden(entries: Entry[]): void {
  const lines = entries.map((entry) => JSON.stringify(entry))
  if (UPDATE || !existsSync(GOLDEN)) {
    writeFileSync(GOLDEN, `${lines.join('\n')}\n`)
    if (!UPDATE) throw new Error(`${GOLDEN} did not exist: written now, check it in (UPDATE_GOLDEN=1 rewrites it)`)
    return
  }
  const golden = readFileSync(GOLDEN, 'utf8').trimEnd().split('\n')
  for (let i = 0; i < Math.max(golden.length, lines.length); i++) {
    if (golden[i] === lines[i]) continue
    const nameOf = (line: string) => (JSON.parse(line) as Entry).name
    if (golden[i] === undefined) throw new Error(`entry ${i} "${nameOf(lines[i]!)}" is new: the golden file ends before it`)
    if (lines[i] === undefined) throw new Error(`entry ${i} "${nameOf(golden[i]!)}" of the golden file was not made: the sequence ends before it`)
    const [was, now] = [nameOf(golden[i]!), nameOf(lines[i]!)]
    const names = was === now ? `"${now}"` : `"${now}" (the golden file has "${was}" here: a request added or removed?)`
    throw new Error(`entry ${i} ${names} differs from the golden file: ${difference(golden[i]!, lines[i]!)}`)
  }
}

/**
 * Fields that measure the machine, not the emulator: the journal's real time and durations, how long
 * the upstream took to answer a recording (all read from the wall clock, different on every run), and
 * the validators of a file served from the package (a video's cover: its mtime is the checkout's).
 */
const MEASURED = new Set(['wall_time', 'duration_ms', 'upstream_ms', 'latency_ms', 'last-modified', 'etag'])

const withoutMeasured = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(withoutMeasured)
    : value !== null && typeof value === 'object'
      ? Object.fromEntries(Object.entries(value).flatMap(([k, v]) => (MEASURED.has(k) ? [] : [[k, withoutMeasured(v)]])))
      : value

/** The journal's entries, every page, kept as one value without what measures the machine. */
async function journalOf(session: Session, label: string, base: string): Promise<void> {
  const entries: unknown[] = []
  const PAGE = 50
  for (let offset = 0; ; offset += PAGE) {
    const res = await fetch(`${base}${ADMIN}/journal?limit=${PAGE}&offset=${offset}`)
    expect(res.status).toBe(200)
    const page = (await res.json()) as { data: unknown[] }
    entries.push(...page.data)
    if (page.data.length < PAGE) break
  }
  session.value(`${label} journal`, withoutMeasured(entries))
}

describe('a fixed sequence of requests, byte for byte', () => {
  it('answers every surface as the golden file says', { timeout: 60_000 }, async () => {
    const session = new Session()
    const emu = await listeningEmulator()
    session.placeholder(emu.url, 'emulator')
    const base = emu.url
    const std = emu.keys.standard
    const mgmt = emu.keys.management
    const call = (name: string, path: string, options?: Call) => session.call(name, base, path, options)
    const account = (await call('admin accounts', `${ADMIN}/accounts`)).data[0].id as string
    const ask = (content: string) => [{ role: 'user', content }]

    // ---- Chat completions ----
    const chat = await call('chat plain', '/api/v1/chat/completions', { key: std, json: { model: CHAT_MODEL, messages: ask('Tell me about lighthouses') } })
    await call('chat streamed', '/api/v1/chat/completions', {
      key: std,
      json: { model: CHAT_MODEL, messages: ask('Tell me about lighthouses'), stream: true, stream_options: { include_usage: true } },
    })
    const weather = {
      type: 'function',
      function: {
        name: 'get_weather',
        description: 'The weather in a city',
        parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      },
    }
    await call('chat tools', '/api/v1/chat/completions', {
      key: std,
      json: { model: CHAT_MODEL, messages: ask('What is the weather in Paris?'), tools: [weather], tool_choice: 'required' },
    })
    await call('chat tools streamed', '/api/v1/chat/completions', {
      key: std,
      json: { model: CHAT_MODEL, messages: ask('What is the weather in Paris?'), tools: [weather], tool_choice: 'required', stream: true },
    })
    const schema = {
      type: 'json_schema',
      json_schema: {
        name: 'city',
        strict: true,
        schema: {
          type: 'object',
          properties: { name: { type: 'string' }, population: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } },
          required: ['name', 'population', 'tags'],
          additionalProperties: false,
        },
      },
    }
    await call('chat json_schema', '/api/v1/chat/completions', {
      key: std,
      json: { model: CHAT_MODEL, messages: ask('Describe a city'), response_format: schema },
    })
    await call('chat fixture add', `${ADMIN}/accounts/${account}/chat-fixtures`, {
      json: { match: { last_user: 'capital of france' }, answer: { content: 'Paris.' } },
    })
    await call('chat fixture match', '/api/v1/chat/completions', { key: std, json: { model: CHAT_MODEL, messages: ask('What is the capital of France?') } })
    await call('chat fixture match streamed', '/api/v1/chat/completions', {
      key: std,
      json: { model: CHAT_MODEL, messages: ask('What is the capital of France?'), stream: true },
    })
    await call('chat unknown model', '/api/v1/chat/completions', { key: std, json: { model: 'nobody/no-such-model', messages: ask('Hello') } })
    await call('chat invalid body', '/api/v1/chat/completions', { key: std, json: { model: CHAT_MODEL } })
    await call('chat no key', '/api/v1/chat/completions', { json: { model: CHAT_MODEL, messages: ask('Hello') } })
    const broke = (await call('admin account without credits', `${ADMIN}/accounts`, { json: { name: 'broke', credits_usd: 0 } })).data
    await call('chat without credits (402)', '/api/v1/chat/completions', { key: broke.standard_key, json: { model: CHAT_MODEL, messages: ask('Hello') } })
    for (const status of [402, 429, 503]) {
      await call(`fault ${status} add`, `${ADMIN}/faults`, { json: { match: { operation: 'chat.create' }, action: { status }, remaining: 1 } })
      await call(`chat fault ${status}`, '/api/v1/chat/completions', { key: std, json: { model: CHAT_MODEL, messages: ask('Hello') } })
    }
    await call('fault stream break add', `${ADMIN}/faults`, {
      json: { match: { operation: 'chat.create' }, action: { status: 502, stream: { after_chunks: 3 } }, remaining: 1 },
    })
    await call('chat stream broken by fault', '/api/v1/chat/completions', { key: std, json: { model: CHAT_MODEL, messages: ask('Hello'), stream: true } })
    await call('faults list', `${ADMIN}/faults`)

    // ---- Legacy completions ----
    await call('completions plain', '/api/v1/completions', { key: std, json: { model: CHAT_MODEL, prompt: 'Once upon a time', max_tokens: 30 } })
    await call('completions streamed', '/api/v1/completions', {
      key: std,
      json: { model: CHAT_MODEL, prompt: 'Once upon a time', max_tokens: 30, stream: true },
    })

    // ---- Responses and Messages ----
    await call('responses plain', '/api/v1/responses', { key: std, json: { model: CHAT_MODEL, input: 'Tell me about lighthouses' } })
    await call('responses streamed', '/api/v1/responses', { key: std, json: { model: CHAT_MODEL, input: 'Tell me about lighthouses', stream: true } })
    await call('responses unknown model', '/api/v1/responses', { key: std, json: { model: 'nobody/no-such-model', input: 'Hello' } })
    await call('messages plain', '/api/v1/messages', { key: std, json: { model: CLAUDE, max_tokens: 256, messages: ask('Tell me about lighthouses') } })
    await call('messages streamed', '/api/v1/messages', {
      key: std,
      json: { model: CLAUDE, max_tokens: 256, messages: ask('Tell me about lighthouses'), stream: true },
    })
    await call('messages unknown model', '/api/v1/messages', { key: std, json: { model: 'nobody/no-such-model', max_tokens: 16, messages: ask('Hello') } })

    // ---- Presets ----
    await call('preset create', '/api/v1/presets/pirate/chat/completions', {
      key: mgmt,
      json: { model: CLAUDE, messages: [{ role: 'system', content: 'You are a pirate.' }], max_tokens: 40 },
    })
    await call('preset get', '/api/v1/presets/pirate', { key: mgmt })
    await call('chat with preset', '/api/v1/chat/completions', { key: std, json: { model: '@preset/pirate', messages: ask('Where is the treasure?') } })
    await call('responses with preset', '/api/v1/responses', { key: std, json: { model: `${CHAT_MODEL}@preset/pirate`, input: 'Where is the treasure?' } })
    await call('chat unknown preset', '/api/v1/chat/completions', { key: std, json: { model: '@preset/nobody', messages: ask('Hello') } })

    // ---- Embeddings, images, audio, rerank ----
    await call('embeddings', '/api/v1/embeddings', {
      key: std,
      json: { model: 'openai/text-embedding-3-small', input: ['hello world', 'lighthouse'], dimensions: 8 },
    })
    await call('embeddings base64', '/api/v1/embeddings', {
      key: std,
      json: { model: 'openai/text-embedding-3-small', input: 'hello', dimensions: 4, encoding_format: 'base64' },
    })
    await call('images generation', '/api/v1/images/generations', {
      key: std,
      json: { model: 'black-forest-labs/flux.1-dev', prompt: 'a lighthouse at dusk', size: '64x64', seed: 7 },
    })
    await call('speech pcm', '/api/v1/audio/speech', { key: std, json: { model: 'openai/gpt-4o-mini-tts', input: 'Hello.' } })
    await call('speech mp3', '/api/v1/audio/speech', { key: std, json: { model: 'openai/gpt-4o-mini-tts', input: 'Hi.', response_format: 'mp3' } })
    const beep = wav(tone(1, 440, 8000), 8000)
    await call('transcription json', '/api/v1/audio/transcriptions', {
      key: std,
      json: { model: 'openai/whisper-large-v3', input_audio: { data: beep.toString('base64'), format: 'wav' }, response_format: 'verbose_json' },
    })
    await call('transcription form', '/api/v1/audio/transcriptions', {
      key: std,
      form: { fields: { model: 'openai/whisper-large-v3' }, files: [{ name: 'beep.wav', bytes: beep, type: 'audio/wav' }] },
    })
    await call('rerank', '/api/v1/rerank', {
      key: std,
      json: {
        model: 'cohere/rerank-v3.5',
        query: 'What is the capital of France?',
        documents: ['Berlin is the capital of Germany.', 'Paris is the capital of France.', 'How to bake sourdough bread at home'],
      },
    })

    // ---- Videos (the gateway's) and the video router ----
    const job = await call('videos create', '/api/v1/videos', {
      key: std,
      json: { model: 'google/veo-3.1', prompt: 'A serene mountain landscape at sunset', duration: 8, resolution: '720p', aspect_ratio: '16:9' },
    })
    const task = await call('router text2video', `${ROUTER}/text2video`, { key: std, json: { model: 'videoq2', prompt: 'A cat on a skateboard' } })
    await call('videos poll pending', `/api/v1/videos/${job.id}`, { key: std })
    await call('router task pending', `${ROUTER}/tasks/${task.task_id}/creations`, { key: std })
    await call('clock advance 1m', `${ADMIN}/clock/advance`, { json: { ms: 60_000 } })
    await call('videos poll completed', `/api/v1/videos/${job.id}`, { key: std })
    await call('videos content', `/api/v1/videos/${job.id}/content`, { key: std })
    const creations = await call('router task done', `${ROUTER}/tasks/${task.task_id}/creations`, { key: std })
    await call('router tasks list', `${ROUTER}/tasks`, { key: std })
    await call('admin video task', `${ADMIN}/video/tasks/${task.task_id}`)
    const creation = creations.creations?.[0]
    if (creation) await call('router media cover', new URL(creation.cover_url).pathname, { key: std })

    // ---- Files ----
    const uploaded = await call('files upload', '/api/v1/files', {
      key: std,
      form: { files: [{ name: 'notes.txt', bytes: Buffer.from('hello files\n'), type: 'text/plain' }] },
    })
    await call('files list', '/api/v1/files', { key: std })
    await call('files get', `/api/v1/files/${uploaded.id}`, { key: std })
    const server = await call('admin server file', `${ADMIN}/accounts/${account}/files`, {
      json: { filename: 'report.csv', content_base64: Buffer.from('a,b\n1,2\n').toString('base64') },
    })
    await call('files content', `/api/v1/files/${server.data.id}/content`, { key: std })
    await call('files delete', `/api/v1/files/${uploaded.id}`, { key: std, method: 'DELETE' })

    // ---- Keys, guardrails, credits, activity, generations ----
    const made = await call('keys create', '/api/v1/keys', { key: mgmt, json: { name: 'golden', limit: 5 } })
    await call('keys list', '/api/v1/keys', { key: mgmt })
    await call('keys patch', `/api/v1/keys/${made.data.hash}`, { key: mgmt, method: 'PATCH', json: { name: 'golden renamed', disabled: true } })
    await call('keys current', '/api/v1/key', { key: std })
    await call('keys delete', `/api/v1/keys/${made.data.hash}`, { key: mgmt, method: 'DELETE' })
    await call('keys create with standard key', '/api/v1/keys', { key: std, json: { name: 'nope' } })
    const guardrail = await call('guardrails create', '/api/v1/guardrails', {
      key: mgmt,
      json: { name: 'Golden', limit_usd: 10, reset_interval: 'monthly', allowed_models: [CHAT_MODEL] },
    })
    await call('guardrails list', '/api/v1/guardrails', { key: mgmt })
    await call('guardrails get', `/api/v1/guardrails/${guardrail.data?.id}`, { key: mgmt })
    await call('credits', '/api/v1/credits', { key: mgmt })
    const charge = await call('credits crypto charge', '/api/v1/credits/crypto', { key: std, json: { amount: 3, sender: `0x${'12'.repeat(20)}`, chain_id: 1 } })
    await call('admin charge confirm', `${ADMIN}/charges/${charge.data?.id}/confirm`, { method: 'POST' })
    await call('credits after charge', '/api/v1/credits', { key: mgmt })
    await call('clock advance 1d', `${ADMIN}/clock/advance`, { json: { ms: 86_400_000 } })
    await call('activity', '/api/v1/activity', { key: mgmt })
    await call('generation lookup', `/api/v1/generation?id=${chat.id}`, { key: std })
    await call('generation unknown', '/api/v1/generation?id=gen-nobody', { key: std })
    await call('generation content', `/api/v1/generation/content?id=${chat.id}`, { key: std })
    await call('generation feedback', '/api/v1/generation/feedback', {
      key: mgmt,
      json: { generation_id: chat.id, category: 'incoherence', comment: 'It rambled.' },
    })
    await call('models count', '/api/v1/models/count')
    await call('model endpoints', `/api/v1/models/${CHAT_MODEL}/endpoints`)

    // ---- The reads over usage elsewhere: workspaces, analytics, datasets; the organization, BYOK ----
    await call('workspaces create', '/api/v1/workspaces', { key: mgmt, json: { name: 'Research', slug: 'research' } })
    await call('workspaces budget', '/api/v1/workspaces/research/budgets/monthly', { key: mgmt, method: 'PUT', json: { limit_usd: 50 } })
    await call('workspaces list', '/api/v1/workspaces', { key: mgmt })
    await call('analytics meta', '/api/v1/analytics/meta', { key: mgmt })
    await call('analytics query', '/api/v1/analytics/query', {
      key: mgmt,
      json: { metrics: ['request_count', 'tokens_prompt', 'tokens_completion', 'total_usage'], granularity: 'hour', dimensions: ['model'] },
    })
    await call('datasets session cost', '/api/v1/datasets/session-cost', { key: std })
    await call('organization members', '/api/v1/organization/members', { key: mgmt })
    await call('byok create', '/api/v1/byok', { key: mgmt, json: { provider: 'openai', key: 'sk-provider-key-0123456789', name: 'Golden' } })
    await call('byok list', '/api/v1/byok', { key: mgmt })
    await call('admin state', `${ADMIN}/state`)

    // ---- Record and replay: an upstream, a recording emulator, then a replaying one ----
    const upstream = await listeningEmulator({ seed: 2 })
    session.placeholder(upstream.url, 'upstream')
    const dir = mkdtempSync(join(tmpdir(), 'gwe-golden-'))
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
    session.placeholder(dir, 'recordings')
    const recorder = await listeningEmulator({ upstream: upstream.url, upstreamKey: upstream.keys.standard, record: dir })
    session.placeholder(recorder.url, 'recorder')
    const recordable = async (label: string, url: string, key: string) => {
      const at = (name: string, path: string, options: Call) => session.call(`${label} ${name}`, url, path, { key, ...options })
      await at('chat', '/api/v1/chat/completions', { json: { model: CHAT_MODEL, messages: ask('Tell me about lighthouses') } })
      await at('chat streamed', '/api/v1/chat/completions', { json: { model: CHAT_MODEL, messages: ask('Tell me about lighthouses'), stream: true } })
      await at('responses', '/api/v1/responses', { json: { model: CHAT_MODEL, input: 'Tell me about lighthouses' } })
      await at('responses streamed', '/api/v1/responses', { json: { model: CHAT_MODEL, input: 'Tell me about lighthouses', stream: true } })
      await at('messages', '/api/v1/messages', { json: { model: CLAUDE, max_tokens: 256, messages: ask('Tell me about lighthouses') } })
      await at('messages streamed', '/api/v1/messages', { json: { model: CLAUDE, max_tokens: 256, messages: ask('Tell me about lighthouses'), stream: true } })
      await at('embeddings', '/api/v1/embeddings', { json: { model: 'openai/text-embedding-3-small', input: 'hello world', dimensions: 8 } })
    }
    await recordable('recorder', recorder.url, recorder.keys.standard)
    session.value(
      'recordings folder',
      withoutMeasured(
        readdirSync(dir)
          .sort()
          .map((name) => ({ name, file: JSON.parse(readFileSync(join(dir, name), 'utf8')) })),
      ),
    )
    await journalOf(session, 'recorder', recorder.url)
    await upstream.close()
    const replay = await listeningEmulator({ replay: dir, onMiss: 'error' })
    session.placeholder(replay.url, 'replay')
    await recordable('replay', replay.url, replay.keys.standard)
    await session.call('replay miss', replay.url, '/api/v1/chat/completions', {
      key: replay.keys.standard,
      json: { model: CHAT_MODEL, messages: ask('Something never recorded') },
    })
    await session.call('replay recordings', replay.url, `${ADMIN}/recordings`)
    await journalOf(session, 'replay', replay.url)

    // ---- The state: the journal, the export and the OpenAPI document ----
    await journalOf(session, 'emulator', base)
    await call('state export', `${ADMIN}/export`)
    await call('openapi', `${ADMIN}/openapi.json`)

    compareWithGolden(session.entries)
    expect(session.entries.length).toBeGreaterThan(100)
  })
})
