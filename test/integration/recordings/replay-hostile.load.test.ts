// A --replay folder as a hostile local process would arrange it: links to /proc/self/pagemap (which
// says it is 0 bytes and reads gigabytes) and to /etc/passwd, a FIFO (whose opening waits for a writer),
// a file whose text is no JSON. Each is refused, naming the file and the rule and never quoting its
// content; nothing is opened for a blocking read; the start does not hang; the watcher reads the
// folder off the event loop (a heartbeat beside it stays fast) and a failed reload keeps what was
// loaded. A link inside the folder is followed.
import { execFile, execFileSync, spawn } from 'node:child_process'
import { symlinkSync } from 'node:fs'
import { symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it, onTestFinished } from 'vitest'
import { createEmulator } from '../../../src/emulator/index.ts'
import { testEmulator } from '../../helpers/emulator.ts'
import { withHeartbeat } from '../../helpers/heartbeat.ts'
import { EMBEDDING, folderWith, PARIS } from './replay-helpers.ts'

const ADMIN = '/_emulator/api'
const CLI = join(import.meta.dirname, '../../../src/emulator/cli.ts')
const linux = process.platform === 'linux'
const run = promisify(execFile)
/** The start of /etc/passwd, which no message may quote. */
const PASSWD = 'root:x:0:0:root:/root:/bin/bash\n'

const startRefusal = (options: Record<string, unknown>): Promise<string> =>
  createEmulator({ db: ':memory:', logLevel: 'silent', ...options }).then(
    () => {
      throw new Error('the start was not refused')
    },
    (error: Error) => error.message,
  )

/** Runs the CLI to its end, killed after `ms` (a start that hung fails the test instead of holding it). */
function cli(args: string[], ms = 15_000): Promise<{ code: number | null; stdout: string; stderr: string; killed: boolean }> {
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  let killed = false
  const timer = setTimeout(() => {
    killed = true
    child.kill('SIGKILL')
  }, ms)
  onTestFinished(() => {
    clearTimeout(timer)
    if (child.exitCode === null) child.kill('SIGKILL')
  })
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr, killed })
    }),
  )
}

async function waitFor<T>(probe: () => T | undefined, what: string, ms = 15_000): Promise<T> {
  const until = performance.now() + ms
  for (;;) {
    const value = probe()
    if (value !== undefined) return value
    if (performance.now() > until) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe.skipIf(!linux)('files --replay never reads', () => {
  it('a link to /proc/self/pagemap: refused by its real path, unopened', async () => {
    const folder = folderWith({ 'chat-1.json': PARIS })
    symlinkSync('/proc/self/pagemap', join(folder, 'pagemap.json'))
    const started = performance.now()
    const message = await startRefusal({ replay: folder })
    expect(message).toBe(
      `--replay ${folder}: ${folder}/pagemap.json: leads to /proc, which holds no recordings: --replay reads regular files inside its folder only`,
    )
    // Read whole it took seconds and gigabytes; refused by its path it takes nothing.
    expect(performance.now() - started).toBeLessThan(2_000)
  })

  it('a link to /etc/passwd: refused as a link that leaves the folder, and not a character of it is quoted', async () => {
    const folder = folderWith({ 'chat-1.json': PARIS, 'copy.json': PASSWD })
    symlinkSync('/etc/passwd', join(folder, 'passwd.json'))
    const message = await startRefusal({ replay: folder })
    expect(message).toBe(
      [
        `--replay ${folder}: 2 problems`,
        `  ${folder}/copy.json: is not valid JSON (an unexpected character)`,
        `  ${folder}/passwd.json: is a link that leaves the folder: --replay reads regular files inside its folder only`,
      ].join('\n'),
    )
    for (const quoted of ['root', ':x:', 'bash']) expect(message).not.toContain(quoted)
  })

  it('a folder that is itself under /proc', async () => {
    expect(await startRefusal({ replay: '/proc/self' })).toBe(
      '--replay /proc/self: /proc/self: is under /proc, which holds no recordings (--replay reads none of it)',
    )
  })

  it('a FIFO: refused without being opened, so the CLI’s start and validate end at once', async () => {
    const folder = folderWith({ 'chat-1.json': PARIS })
    execFileSync('mkfifo', [join(folder, 'pipe.json')])
    const line = `${folder}/pipe.json: is not a regular file (a folder, FIFO, device or socket): --replay reads regular files only`
    const started = await cli(['--port', '0', '--eu-port', 'off', '--db', ':memory:', '--replay', folder])
    expect(started).toEqual({ code: 1, stdout: '', stderr: `gateway-emulator: --replay ${folder}: ${line}\n`, killed: false })
    const validated = await cli(['validate', folder])
    expect(validated).toEqual({ code: 1, stdout: `${line}\n1 problem in ${folder}\n`, stderr: '', killed: false })
  })
})

describe('what a problem shows of a file', () => {
  it('a key of its own is cut short and kept to printable characters (a terminal prints it)', async () => {
    const key = `\u001b[31m${'k'.repeat(300)}`
    const folder = folderWith({ 'odd.json': { ...PARIS, [key]: 1 } })
    expect(await startRefusal({ replay: folder })).toBe(`--replay ${folder}: ${folder}/odd.json: ?[31m${'k'.repeat(115)}… is not a known field`)
  })
})

describe('links inside the folder', () => {
  it('are followed: the file they lead to answers under both names', async () => {
    const folder = folderWith({ 'recorded/chat-1.json': PARIS, 'emb.json': EMBEDDING })
    symlinkSync('recorded/chat-1.json', join(folder, 'alias.json'))
    const emu = await testEmulator({ replay: folder, onMiss: 'error' })
    const files = (await emu.get(`${ADMIN}/recordings`)).body.data.map((r: { file: string }) => r.file)
    expect(files).toEqual(['alias.json', 'emb.json', 'recorded/chat-1.json'])
  })
})

describe.skipIf(!linux)('the watcher and a hostile folder', () => {
  it('reads it off the event loop (a heartbeat stays under 500 ms), refuses it naming each file, and keeps what was loaded', async () => {
    const folder = folderWith({ 'chat-1.json': PARIS })
    // The emulator in a process of its own: the heartbeat measures it, not this test's own work.
    const emu = await cliEmulator(['--replay', folder, '--on-miss', 'error'])
    const files = async () => ((await (await fetch(`${emu.origin}${ADMIN}/recordings`)).json()) as { data: Array<{ file: string }> }).data.map((r) => r.file)
    const reload = () => fetch(`${emu.origin}${ADMIN}/recordings/reload`, { method: 'POST' })
    // Large valid recordings to read first (5.6 MB of base64 each, 50 MB in all), then the hostile entries.
    const bytes = Buffer.alloc(4 * 1024 * 1024 - 16)
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 2654435761) >>> 24
    const large = (i: number) => ({
      format: 'gateway-emulator.recording/1',
      operation: 'audio.speech',
      request: { model: 'openai/gpt-4o-mini-tts', input: `large ${i}` },
      raw: { status: 200, content_type: 'audio/mpeg', base64: bytes.toString('base64'), model: 'openai/gpt-4o-mini-tts', provider: 'OpenAI', cost: 0.01 },
    })
    const texts = Array.from({ length: 9 }, (_, i) => JSON.stringify(large(i)))
    const warning = `--replay ${folder}: not reloaded, the 1 recordings loaded before stay in use: ${folder}/m-pagemap.json: leads to /proc, which holds no recordings`

    const { heartbeat } = await withHeartbeat(emu.origin, async () => {
      await Promise.all(texts.map((text, i) => writeFile(join(folder, `large-${i}.json`), text)))
      await symlink('/proc/self/pagemap', join(folder, 'm-pagemap.json'))
      await symlink('/etc/passwd', join(folder, 'p-passwd.json'))
      await run('mkfifo', [join(folder, 'q-pipe.json')])
      return waitFor(() => (emu.stderr().includes(warning) ? true : undefined), 'the watcher’s warning')
    })
    expect(heartbeat.failures).toEqual([])
    expect(heartbeat.slowestMs).toBeLessThan(500)
    expect(await files()).toEqual(['chat-1.json'])

    // On demand: a 400 naming the first file and the rule, counting the others; the set stays.
    const refused = await reload()
    expect(refused.status).toBe(400)
    const said = await refused.text()
    expect(JSON.parse(said).error).toMatchObject({
      message: `Cannot reload the recordings: ${folder}/m-pagemap.json: leads to /proc, which holds no recordings: --replay reads regular files inside its folder only (and 2 more problems); the 1 loaded before stay in use`,
      metadata: { file: `${folder}/m-pagemap.json`, field: null, problems: 3 },
    })
    expect(said).not.toContain('root')
    expect(await files()).toEqual(['chat-1.json'])
    const chat = await fetch(`${emu.origin}/api/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emu.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(PARIS.request),
    })
    expect(((await chat.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]!.message.content).toBe('Paris.')

    // The hostile entries gone, the large files load.
    execFileSync('rm', [join(folder, 'm-pagemap.json'), join(folder, 'p-passwd.json'), join(folder, 'q-pipe.json')])
    const reloaded = await reload()
    expect(reloaded.status).toBe(200)
    expect(((await reloaded.json()) as { total_count: number }).total_count).toBe(10)
  })
})

/** The CLI started with `flags` (a fresh database, any port): its origin, standard key and what it wrote to stderr so far. */
async function cliEmulator(flags: string[]): Promise<{ origin: string; key: string; stderr: () => string }> {
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', CLI, '--port', '0', '--eu-port', 'off', '--db', ':memory:', ...flags], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  onTestFinished(() => {
    if (child.exitCode === null) child.kill('SIGKILL')
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  await waitFor(() => {
    if (child.exitCode !== null) throw new Error(`the CLI ended: ${stderr}`)
    return stdout.includes('Press Ctrl+C') ? true : undefined
  }, 'the start-up summary')
  return { origin: /API\s+(http:\/\/127\.0\.0\.1:\d+)\/api\/v1/.exec(stdout)![1]!, key: /Standard key\s+(\S+)/.exec(stdout)![1]!, stderr: () => stderr }
}
