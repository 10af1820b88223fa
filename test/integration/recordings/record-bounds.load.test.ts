// What --record writes, --replay reads: the recorder keeps the reader's bounds (a file's size, the
// folder's files and bytes) and runs the reader's own check, and an answer it may not save is relayed
// and billed, with the journal and the log saying why in the same words. An answer larger than a
// recording may be is relayed as it arrives, never held whole (measured in a CLI process: its peak
// RSS). The round trip of a large answer through a second emulator as the upstream: above the bound
// relayed and not saved, just under it saved, and a replaying emulator starts on the folder and
// answers it.
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished, vi } from 'vitest'
import { MAX_FILE_BYTES, MAX_FILES, MAX_FOLDER_BYTES } from '../../../src/emulator/modules/recordings/recordings-files.service.ts'
import { saveRecording } from '../../../src/emulator/modules/recordings/recordings-recorder.service.ts'
import { loadFolder } from '../../../src/emulator/modules/recordings/recordings-replay.service.ts'
import { listeningEmulator, testEmulator } from '../../helpers/emulator.ts'

const MODEL = 'openai/gpt-4o-mini'
const TTS = 'openai/gpt-4o-mini-tts'
const ASK = [{ role: 'user' as const, content: 'Tell me about lighthouses' }]
const CLI = join(import.meta.dirname, '../../../src/emulator/cli.ts')

async function folder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'gwe-record-bounds-'))
  onTestFinished(() => rm(dir, { recursive: true, force: true }))
  return dir
}

/** The `record:` warnings written to stderr while the test runs (the others pass through). */
function recordWarnings(): string[] {
  const warnings: string[] = []
  const write = process.stderr.write.bind(process.stderr)
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const text = String(chunk)
    if (!text.includes('record: ') && !text.includes('upstream: ')) return write(chunk, ...(rest as []))
    warnings.push(text)
    return true
  })
  onTestFinished(() => spy.mockRestore())
  return warnings
}

const post = (url: string, key: string, path: string, body: unknown) =>
  fetch(`${url}/api/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })

const sha = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex')

type Emu = Awaited<ReturnType<typeof listeningEmulator>>
/** The source of the journal's last entry of an operation. */
const lastSource = async (emu: Emu, operation: string) => (await emu.get(`/_emulator/api/journal?operation=${operation}&limit=1`)).body.data[0].source

/** A chat completion as the gateway answers it, saying `content`. */
const chatAnswer = (content: string, more: Record<string, unknown> = {}): string =>
  JSON.stringify({
    id: 'gen-upstream-large-1',
    object: 'chat.completion',
    model: MODEL,
    provider: 'OpenAI',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 12, completion_tokens: 3000, total_tokens: 3012, cost: 0.5 },
    ...more,
  })

/** A plain upstream on 127.0.0.1 answering every request with `answer` (closed when the test ends). */
async function upstreamAnswering(answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer((req, res) => {
    req.resume()
    req.on('end', () => answer(req, res))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`
}

describe('record then replay a large answer, through a second emulator as the upstream', () => {
  it('above the bound: relayed and not saved, saying why; just under: saved, and a replay starts on the folder and answers it', async () => {
    const up = await listeningEmulator({ seed: 2 })
    const dir = await folder()
    const warnings = recordWarnings()
    const recorder = await listeningEmulator({ upstream: up.url, upstreamKey: up.keys.standard, record: dir, logLevel: 'warn' })
    const speech = (url: string, key: string, input: string, speed: number) =>
      post(url, key, '/audio/speech', { model: TTS, input, speed, response_format: 'wav' })

    // 1,310 characters at speed 1: 4,192,044 bytes of WAV, just under the 4 MiB a recording keeps of bytes.
    const small = 'a lighthouse '.repeat(101).slice(0, 1310)
    const under = await speech(recorder.url, recorder.keys.standard, small, 1)
    expect(under.status).toBe(200)
    const underBytes = new Uint8Array(await under.arrayBuffer())
    expect(underBytes.length).toBe(4_192_044)
    const saved = await readdir(dir)
    expect(saved).toEqual([expect.stringMatching(/^audio\.speech-[0-9a-f]{12}\.json$/)])
    expect(await lastSource(recorder, 'audio.speech')).toEqual({
      kind: 'proxied',
      upstream_status: 200,
      upstream_ms: expect.any(Number),
      recorded_file: saved[0],
    })
    expect(statSync(join(dir, saved[0]!)).size).toBeLessThanOrEqual(MAX_FILE_BYTES)

    // 4,096 characters at speed 0.46: 28,493,958 bytes, relayed whole (as it arrives) and billed, not saved.
    const usageBefore = (await recorder.get('/api/v1/key', recorder.keys.standard)).body.data.usage
    const over = await speech(recorder.url, recorder.keys.standard, 'b'.repeat(4096), 0.46)
    expect(over.status).toBe(200)
    const overBytes = new Uint8Array(await over.arrayBuffer())
    expect(overBytes.length).toBe(28_493_958)
    expect(Buffer.from(overBytes.subarray(0, 4)).toString()).toBe('RIFF')
    expect((await recorder.get('/api/v1/key', recorder.keys.standard)).body.data.usage).toBeGreaterThan(usageBefore)
    const why = `the answer is 28493958 bytes, more than the ${MAX_FILE_BYTES} a recording may be`
    expect(await lastSource(recorder, 'audio.speech')).toEqual({
      kind: 'proxied',
      upstream_status: 200,
      upstream_ms: expect.any(Number),
      recorded_file: null,
      not_recorded: why,
    })
    expect(warnings).toContain(`gateway-emulator: warning: record: the audio.speech answer was relayed but not saved: ${why}\n`)
    expect(await readdir(dir)).toEqual(saved)
    await up.close()

    // Offline: the folder starts a replay, which answers the saved one byte for byte and misses the other.
    const replay = await listeningEmulator({ replay: dir, onMiss: 'error' })
    const replayed = await speech(replay.url, replay.keys.standard, small, 1)
    expect(replayed.status).toBe(200)
    expect(sha(new Uint8Array(await replayed.arrayBuffer()))).toBe(sha(underBytes))
    const missed = await speech(replay.url, replay.keys.standard, 'b'.repeat(4096), 0.46)
    expect(missed.status).toBe(404)
    expect(await missed.json()).toMatchObject({ error: { code: 404, metadata: { reason: 'no_recording' } } })
  })
})

describe('the recorder keeps the reader’s bounds', () => {
  it('a file of exactly the bound is saved and loads; one byte more is not saved, saying why', async () => {
    const emu = await testEmulator({ logLevel: 'silent' })
    const dir = await folder()
    const request = { model: MODEL, messages: [{ role: 'user', content: 'Say a lot' }] }
    const save = (length: number) =>
      saveRecording(
        emu.ctx,
        dir,
        {
          operation: 'chat.create',
          request,
          answer: {
            text: {
              choices: [{ content: 'x'.repeat(length), finish_reason: 'stop' }],
              model: MODEL,
              provider: 'OpenAI',
              usage: { prompt_tokens: 3, completion_tokens: 9, cost: 0.001 },
            },
          },
          upstream: 'http://127.0.0.1:1',
          latencyMs: 5,
        },
        [],
      )
    const first = await save(100)
    expect(first).toEqual({ file: expect.stringMatching(/^chat\.create-[0-9a-f]{12}\.json$/) })
    const file = join(dir, (first as { file: string }).file)
    // Each character of content is one byte of the file: fill it to the bound exactly.
    const atBound = 100 + MAX_FILE_BYTES - statSync(file).size
    expect(await save(atBound)).toEqual(first)
    expect(statSync(file).size).toBe(MAX_FILE_BYTES)
    const loaded = loadFolder(dir)
    expect(loaded.problems).toEqual([])
    expect(loaded.recordings.length).toBe(1)

    expect(await save(atBound + 1)).toEqual({
      notSaved: `its recording would be ${MAX_FILE_BYTES + 1} bytes, more than the ${MAX_FILE_BYTES} a recording may be`,
    })
    expect(statSync(file).size).toBe(MAX_FILE_BYTES)
  })

  it(`a folder of ${MAX_FILES} files takes no new one, and overwrites its own`, async () => {
    const up = await listeningEmulator({ seed: 2 })
    const dir = await folder()
    const warnings = recordWarnings()
    const emu = await listeningEmulator({ upstream: up.url, upstreamKey: up.keys.standard, record: dir, logLevel: 'warn' })
    expect((await post(emu.url, emu.keys.standard, '/chat/completions', { model: MODEL, messages: ASK })).status).toBe(200)
    const [own] = readdirSync(dir)
    for (let i = 1; i < MAX_FILES; i++) writeFileSync(join(dir, `pad-${i}.json`), '{}')

    // Its own file again: overwritten, the folder still holds 10,000.
    expect((await post(emu.url, emu.keys.standard, '/chat/completions', { model: MODEL, messages: ASK })).status).toBe(200)
    expect(await lastSource(emu, 'chat.create')).toMatchObject({ recorded_file: own })
    // A new one would be the 10,001st: relayed, not saved.
    const other = await post(emu.url, emu.keys.standard, '/chat/completions', { model: MODEL, messages: [{ role: 'user', content: 'Another question' }] })
    expect(other.status).toBe(200)
    const why = `the folder would hold ${MAX_FILES + 1} recordings, more than the ${MAX_FILES} --replay loads`
    expect(await lastSource(emu, 'chat.create')).toMatchObject({ recorded_file: null, not_recorded: why })
    expect(warnings).toContain(`gateway-emulator: warning: record: the chat.create answer was relayed but not saved: ${why}\n`)
    expect(readdirSync(dir).length).toBe(MAX_FILES)
  })

  it(`a folder near ${MAX_FOLDER_BYTES} bytes takes no file that would carry it past`, async () => {
    const up = await listeningEmulator({ seed: 2 })
    const dir = await folder()
    // Ten sparse files of 6,710,886 bytes: 67,108,860 bytes, 4 short of the bound.
    for (let i = 0; i < 10; i++) {
      writeFileSync(join(dir, `pad-${i}.json`), '')
      truncateSync(join(dir, `pad-${i}.json`), Math.floor(MAX_FOLDER_BYTES / 10))
    }
    const emu = await listeningEmulator({ upstream: up.url, upstreamKey: up.keys.standard, record: dir })
    expect((await post(emu.url, emu.keys.standard, '/chat/completions', { model: MODEL, messages: ASK })).status).toBe(200)
    const source = await lastSource(emu, 'chat.create')
    expect(source.recorded_file).toBeNull()
    expect(source.not_recorded).toMatch(new RegExp(`^the folder's recordings would be \\d+ bytes, more than the ${MAX_FOLDER_BYTES} --replay loads$`))
    expect(readdirSync(dir).length).toBe(10)
    rmSync(join(dir, 'pad-0.json'))
    expect((await post(emu.url, emu.keys.standard, '/chat/completions', { model: MODEL, messages: ASK })).status).toBe(200)
    expect((await lastSource(emu, 'chat.create')).recorded_file).toMatch(/^chat\.create-/)
  })

  it('an answer --replay would refuse (a finish reason it does not know) is relayed and billed, not saved', async () => {
    const upstream = await upstreamAnswering((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(chatAnswer('Hi.', { choices: [{ message: { content: 'Hi.' }, finish_reason: 'error' }] })),
    )
    const dir = await folder()
    const emu = await listeningEmulator({ upstream, upstreamKey: 'sk-upstream-secret-0123456789', record: dir })
    const res = await post(emu.url, emu.keys.standard, '/chat/completions', { model: MODEL, messages: ASK })
    expect(res.status).toBe(200)
    expect((await emu.get('/api/v1/key', emu.keys.standard)).body.data.usage).toBe(0.5)
    expect((await lastSource(emu, 'chat.create')).not_recorded).toMatch(
      /^`text\.choices\[0\]\.finish_reason` must be one of stop, length, tool_calls, content_filter \(--replay would refuse chat\.create-[0-9a-f]{12}\.json\)$/,
    )
    expect(await readdir(dir)).toEqual([])
  })

  it('an answer held whole whose recording would pass the bound (a long prompt and a long answer) is not saved', async () => {
    const upstream = await upstreamAnswering((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(chatAnswer('y'.repeat(3_500_000))))
    const dir = await folder()
    const emu = await listeningEmulator({ upstream, upstreamKey: 'sk-upstream-secret-0123456789', record: dir })
    const res = await post(emu.url, emu.keys.standard, '/chat/completions', { model: MODEL, messages: [{ role: 'user', content: 'z'.repeat(3_500_000) }] })
    expect(res.status).toBe(200)
    expect(res.headers.get('x-generation-id')).toBe('gen-upstream-large-1')
    expect((await lastSource(emu, 'chat.create')).not_recorded).toMatch(
      new RegExp(`^its recording would be 7\\d{6} bytes, more than the ${MAX_FILE_BYTES} a recording may be$`),
    )
    expect(await readdir(dir)).toEqual([])
  })
})

describe('an answer larger than a recording may be is relayed as it arrives', () => {
  it.each([
    ['saying its length', true],
    ['in chunks of unknown length', false],
  ])('%s: the same bytes, billed at the upstream’s cost under its id, not saved', async (_what, declared) => {
    const answer = Buffer.from(chatAnswer('w'.repeat(10_000_000)))
    const upstream = await upstreamAnswering((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', ...(declared && { 'content-length': String(answer.length) }) })
      res.end(answer)
    })
    const dir = await folder()
    const emu = await listeningEmulator({ upstream, upstreamKey: 'sk-upstream-secret-0123456789', record: dir })
    const res = await post(emu.url, emu.keys.standard, '/chat/completions', { model: MODEL, messages: ASK })
    expect(res.status).toBe(200)
    expect(sha(new Uint8Array(await res.arrayBuffer()))).toBe(sha(answer))
    expect((await emu.get('/api/v1/key', emu.keys.standard)).body.data.usage).toBe(0.5)
    const generation = await emu.get('/api/v1/generation?id=gen-upstream-large-1', emu.keys.standard)
    expect(generation.body.data).toMatchObject({ model: MODEL, total_cost: 0.5, tokens_prompt: 12, tokens_completion: 3000 })
    expect(await lastSource(emu, 'chat.create')).toEqual({
      kind: 'proxied',
      upstream_status: 200,
      upstream_ms: expect.any(Number),
      recorded_file: null,
      not_recorded: `the answer is ${answer.length} bytes, more than the ${MAX_FILE_BYTES} a recording may be`,
    })
    expect(await readdir(dir)).toEqual([])
  })
})

/** Kilobytes of a process's peak resident memory so far (Linux: /proc/<pid>/status). */
const peakKb = (pid: number): number => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1])

describe.skipIf(process.platform !== 'linux')('memory, in a CLI process', () => {
  it('relaying a 60 MB answer (not saved) grows its peak RSS by less than 100 MB', { timeout: 60_000 }, async () => {
    const answer = Buffer.from(chatAnswer('v'.repeat(60_000_000)))
    let asked = 0
    const upstream = await upstreamAnswering((_req, res) => {
      // A small answer to warm up with, then the large one, in pieces of unknown length.
      if (asked++ === 0) return res.writeHead(200, { 'content-type': 'application/json' }).end(chatAnswer('Hi.'))
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(answer)
    })
    const dir = await folder()
    const flags = [
      '--port',
      '0',
      '--eu-port',
      'off',
      '--db',
      ':memory:',
      '--upstream',
      upstream,
      '--upstream-key',
      'sk-upstream-secret-0123456789',
      '--record',
      dir,
    ]
    const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', CLI, ...flags], { stdio: ['ignore', 'pipe', 'pipe'] })
    onTestFinished(() => {
      if (child.exitCode === null) child.kill('SIGKILL')
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const until = performance.now() + 30_000
    while (!stdout.includes('Press Ctrl+C')) {
      if (performance.now() > until || child.exitCode !== null) throw new Error(`no start-up summary: ${stderr}`)
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    const api = /API\s+(http:\/\/127\.0\.0\.1:\d+)\/api\/v1/.exec(stdout)![1]!
    const key = /Standard key\s+(\S+)/.exec(stdout)![1]!

    const warm = await post(api, key, '/chat/completions', { model: MODEL, messages: [{ role: 'user', content: 'Hi' }] })
    expect(warm.status).toBe(200)
    await warm.arrayBuffer()
    const before = peakKb(child.pid!)
    const res = await post(api, key, '/chat/completions', { model: MODEL, messages: ASK })
    expect(res.status).toBe(200)
    // Read as it arrives: the test holds no copy either.
    const hash = createHash('sha256')
    let length = 0
    for await (const chunk of res.body!) {
      hash.update(chunk)
      length += chunk.length
    }
    expect(length).toBe(answer.length)
    expect(hash.digest('hex')).toBe(sha(answer))
    const grownMb = (peakKb(child.pid!) - before) / 1024
    expect(grownMb, 'MB of peak RSS growth').toBeLessThan(100)
    // The log's line, once the pipe has carried it.
    const line = `record: the chat.create answer was relayed but not saved: the answer is ${answer.length} bytes, more than the ${MAX_FILE_BYTES} a recording may be`
    const logged = performance.now() + 10_000
    while (!stderr.includes(line) && performance.now() < logged) await new Promise((resolve) => setTimeout(resolve, 20))
    expect(stderr).toContain(line)
    expect(readdirSync(dir).filter((name) => name.includes('-') && name.endsWith('.json')).length).toBe(1)
    child.kill('SIGTERM')
  })
})
