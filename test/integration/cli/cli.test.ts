// The CLI as a user runs it: a real process, reached at the URL it prints, stopped by a signal.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'

const CLI = join(import.meta.dirname, '../../../src/emulator/cli.ts')
// The same flags as `npm start`, so Node 22.12+ runs the TypeScript sources directly.
const NODE_FLAGS = ['--experimental-strip-types', '--disable-warning=ExperimentalWarning']

interface Run {
  child: ChildProcessWithoutNullStreams
  stdout: () => string
  stderr: () => string
  exited: Promise<number | null>
}

function runCli(args: string[], env: NodeJS.ProcessEnv = {}): Run {
  const child = spawn(process.execPath, [...NODE_FLAGS, CLI, ...args], {
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  onTestFinished(() => {
    if (child.exitCode === null) child.kill('SIGKILL')
  })
  return { child, stdout: () => out, stderr: () => err, exited }
}

async function waitFor<T>(probe: () => T | undefined, what: string, ms = 15_000): Promise<T> {
  const until = Date.now() + ms
  for (;;) {
    const value = probe()
    if (value !== undefined) return value
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

describe('gateway-emulator CLI', () => {
  it('with --port 0 prints the URLs and keys, serves at the printed URL, and exits 0 on SIGTERM', async () => {
    const run = runCli(['--port', '0', '--db', ':memory:', '--seed', '7'])
    const printed = await waitFor(() => {
      const out = run.stdout()
      if (!out.includes('Press Ctrl+C')) return undefined
      return {
        api: /API\s+(http:\/\/127\.0\.0\.1:\d+\/api\/v1)/.exec(out)?.[1],
        eu: /EU API\s+(http:\/\/127\.0\.0\.1:\d+\/api\/v1)/.exec(out)?.[1],
        ui: /UI\s+(http:\/\/127\.0\.0\.1:\d+\/_emulator\/)/.exec(out)?.[1],
        management: /Management key\s+(sk-gw-v1-[0-9a-f]{64})/.exec(out)?.[1],
        standard: /Standard key\s+(sk-gw-v1-[0-9a-f]{64})/.exec(out)?.[1],
      }
    }, 'the start-up summary')
    expect(printed.api).toBeDefined()
    expect(printed.eu).toBeDefined()
    expect(printed.ui).toBeDefined()
    expect(printed.standard).toBeDefined()

    const res = await fetch(`${printed.api}/keys`, { headers: { authorization: `Bearer ${printed.management}` } })
    expect(res.status).toBe(200)
    const body = (await res.json()) as { data: Array<{ name: string }> }
    expect(body.data.map((k) => k.name)).toContain('Default key')
    // The EU listener serves the same state.
    const eu = await fetch(`${printed.eu}/keys`, { headers: { authorization: `Bearer ${printed.management}` } })
    expect(eu.status).toBe(200)

    run.child.kill('SIGTERM')
    expect(await run.exited).toBe(0)
    // At the default level (info), a "ready" line, then one JSON line per request (a terminal gets them pretty-printed).
    const [ready, ...lines] = run
      .stderr()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(ready).toMatchObject({ level: 30, msg: 'ready', url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) })
    expect(lines).toHaveLength(2)
    for (const line of lines)
      expect(line).toMatchObject({
        level: 30,
        msg: 'request',
        method: 'GET',
        path: '/api/v1/keys',
        status: 200,
        ms: expect.any(Number),
        account: expect.stringMatching(/^acct_/),
      })
  })

  it('with an admin token, prints a UI link that carries it; the link opens the UI, the bare URL explains', async () => {
    const run = runCli(['--port', '0', '--db', ':memory:', '--eu-port', 'off', '--log-level', 'silent', '--admin-token', 'open sesame'])
    const out = await waitFor(() => (run.stdout().includes('Press Ctrl+C') ? run.stdout() : undefined), 'the start-up summary')
    const link = /UI\s+(http:\/\/127\.0\.0\.1:\d+\/_emulator\/\?token=\S+)/.exec(out)?.[1]
    expect(link).toMatch(/\?token=open%20sesame$/)
    const opened = await fetch(link!, { headers: { accept: 'text/html' } })
    expect(opened.status).toBe(200)
    expect(opened.headers.get('set-cookie')).toContain('gwe_admin=open%20sesame')
    const bare = await fetch(link!.replace(/\?token=.*$/, ''), { headers: { accept: 'text/html' } })
    expect(bare.status).toBe(401)
    expect(await bare.text()).toContain('The inspector needs the admin token')
    run.child.kill('SIGTERM')
    expect(await run.exited).toBe(0)
  })

  it('--quiet drops the summary but not the logs; --log-level silent drops the logs but not the summary', async () => {
    const quiet = runCli(['--port', '0', '--db', ':memory:', '--eu-port', 'off', '--quiet', '--log-level', 'debug', '--admin-token', 'x'])
    const silent = runCli(['--port', '0', '--db', ':memory:', '--eu-port', 'off', '--log-level', 'silent'])
    const out = await waitFor(() => (silent.stdout().includes('Press Ctrl+C') ? silent.stdout() : undefined), 'the start-up summary')
    // With --quiet, the log's "ready" line (URLs, no keys) is the readiness signal.
    const ready = await waitFor(
      () =>
        quiet
          .stderr()
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as Record<string, unknown>)
          .find((log) => log.msg === 'ready'),
      'the ready log line',
    )
    expect(ready.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(JSON.stringify(ready)).not.toMatch(/sk-gw-v1-/)
    const api = /API\s+(http:\/\/127\.0\.0\.1:\d+)\/api\/v1/.exec(out)![1]!
    expect((await fetch(`${api}/api/v1/models/count`)).status).toBe(200)
    silent.child.kill('SIGTERM')
    expect(await silent.exited).toBe(0)
    expect(silent.stderr()).toBe('')
    quiet.child.kill('SIGTERM')
    expect(await quiet.exited).toBe(0)
    expect(quiet.stdout()).toBe('')
  })

  it('logs no key, even at debug level, through failures, refusals and callbacks', async () => {
    const run = runCli([
      '--port',
      '0',
      '--eu-port',
      'off',
      '--db',
      ':memory:',
      '--log-level',
      'debug',
      '--video-created',
      '10ms',
      '--video-queueing',
      '10ms',
      '--video-processing',
      '10ms',
      '--callback-retry-delays',
      '10ms',
    ])
    const out = await waitFor(() => (run.stdout().includes('Press Ctrl+C') ? run.stdout() : undefined), 'the start-up summary')
    const api = /API\s+(http:\/\/127\.0\.0\.1:\d+)\/api\/v1/.exec(out)![1]!
    const standard = /Standard key\s+(\S+)/.exec(out)![1]!
    const management = /Management key\s+(\S+)/.exec(out)![1]!
    const post = (path: string, key: string, body: unknown) =>
      fetch(`${api}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })
    // A key in a body, a malformed body, a refused key, and a callback to a port nothing listens on.
    expect((await post('/api/v1/embeddings', standard, { model: 'openai/text-embedding-3-small', input: `my key is ${standard}` })).status).toBe(200)
    expect(
      (
        await fetch(`${api}/api/v1/guardrails`, {
          method: 'POST',
          headers: { authorization: `Bearer ${management}`, 'content-type': 'application/json' },
          body: `{"name":"${management}"`,
        })
      ).status,
    ).toBe(400)
    expect((await post('/api/v1/embeddings', `${standard.slice(0, -4)}0000`, { model: 'openai/text-embedding-3-small', input: 'x' })).status).toBe(401)
    expect(
      (await post('/router/v1/video/ent/v2/text2video', standard, { model: 'videoq2', prompt: 'p', callback_url: 'http://127.0.0.1:9/hook' })).status,
    ).toBe(200)
    // Until the callback has been attempted (and failed): its log lines are the ones to check.
    const admin = api.replace(/\/api\/v1$/, '')
    for (const until = Date.now() + 15_000; ;) {
      const deliveries = ((await (await fetch(`${admin}/_emulator/api/callbacks`)).json()) as { data: Array<{ attempt_count: number }> }).data
      if (deliveries.some((d) => d.attempt_count > 0)) break
      if (Date.now() > until) throw new Error('timed out waiting for a callback attempt')
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    run.child.kill('SIGTERM')
    expect(await run.exited).toBe(0)
    const secret = /sk-gw-v1-[0-9a-f]{8,}/
    expect(run.stderr()).not.toMatch(secret)
    // The start-up summary prints the two seeded keys, by design; nothing after it does.
    expect(run.stdout().split('Press Ctrl+C')[1]).not.toMatch(secret)
  })

  it('prints the same keys for the same seed', async () => {
    const keysOf = async (seed: string) => {
      const run = runCli(['--port', '0', '--db', ':memory:', '--seed', seed])
      // Read only once the summary is complete: a chunk may end in the middle of a key.
      const key = await waitFor(() => (run.stdout().includes('Press Ctrl+C') ? /Management key\s+(\S+)/.exec(run.stdout())?.[1] : undefined), 'the keys')
      run.child.kill('SIGINT')
      expect(await run.exited).toBe(0)
      return key
    }
    const [a, b, c] = await Promise.all([keysOf('3'), keysOf('3'), keysOf('4')])
    expect(a).toBe(b)
    expect(a).not.toBe(c)
  })

  it('refuses a bad flag value with one line naming it and exit code 2', async () => {
    const run = runCli(['--port', 'eighty', '--db', ':memory:'])
    expect(await run.exited).toBe(2)
    expect(run.stderr()).toBe('gateway-emulator: invalid --port "eighty": must be an integer from 0 to 65535\n')
  })

  it('refuses an unknown flag and a bad environment variable', async () => {
    const unknown = runCli(['--prot', '1'])
    expect(await unknown.exited).toBe(2)
    expect(unknown.stderr()).toMatch(/^gateway-emulator: Unknown option '--prot'.*\(see --help\)\n$/)
    const env = runCli(['--db', ':memory:', '--port', '0'], { GATEWAY_EMULATOR_CLOCK: 'sundial' })
    expect(await env.exited).toBe(2)
    expect(env.stderr()).toBe('gateway-emulator: invalid GATEWAY_EMULATOR_CLOCK "sundial": must be one of system, manual\n')
  })

  it('reports a port in use in one line and exits 1', async () => {
    const blocker: Server = createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    onTestFinished(() => new Promise<void>((resolve) => blocker.close(() => resolve())))
    const port = (blocker.address() as { port: number }).port
    const run = runCli(['--port', String(port), '--eu-port', 'off', '--db', ':memory:'])
    expect(await run.exited).toBe(1)
    expect(run.stderr()).toBe(`gateway-emulator: API port ${port} on 127.0.0.1 is already in use (choose another with --port, or --port 0 for any free port)\n`)
  })

  it('refuses a malformed catalog in --fixtures with one line naming the file and the field', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gwe-cli-'))
    mkdirSync(join(dir, 'catalog'))
    writeFileSync(join(dir, 'catalog', 'catalog.json'), JSON.stringify({ version: 1, models: [{ id: 'acme/x' }] }))
    const run = runCli(['--port', '0', '--db', ':memory:', '--fixtures', dir])
    expect(await run.exited).toBe(1)
    expect(run.stderr()).toBe(`gateway-emulator: catalog ${join(dir, 'catalog', 'catalog.json')}: \`models[0].canonical_slug\` is required\n`)
  })

  it('reports a database path it cannot write in one line and exits 1', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'gwe-cli-')), 'a-file')
    writeFileSync(file, '')
    const run = runCli(['--port', '0', '--db', join(file, 'emulator.db')])
    expect(await run.exited).toBe(1)
    expect(run.stderr()).toBe(`gateway-emulator: cannot open database at ${join(file, 'emulator.db')}: not a directory\n`)
  })

  it('npm start runs the bundled CLI, building it when the sources are newer', async () => {
    const child = spawn(process.execPath, [join(import.meta.dirname, '../../../scripts/start.mjs'), '--port', '0', '--db', ':memory:', '--eu-port', 'off'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    onTestFinished(() => {
      if (child.exitCode === null) child.kill('SIGKILL')
    })
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
    const api = await waitFor(
      () => (out.includes('Press Ctrl+C') ? /API\s+(http:\/\/127\.0\.0\.1:\d+\/api\/v1)/.exec(out)?.[1] : undefined),
      'the start-up summary',
      60_000,
    )
    expect((await fetch(`${api}/models/count`)).status).toBe(200)
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
  }, 90_000)
})
