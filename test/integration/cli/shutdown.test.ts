// Stopping as users stop it: a signal to the CLI lets the request under way finish (bounded) and
// exits 0; a second signal stops at once; a SIGTERM to `npm start` reaches the emulator too (more
// on `npm start` and signals in start-signals.test.ts).
import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'

const ROOT = join(import.meta.dirname, '../../..')
const CLI = join(ROOT, 'src/emulator/cli.ts')
const NODE_FLAGS = ['--experimental-strip-types', '--disable-warning=ExperimentalWarning']

interface Started {
  child: ChildProcess
  base: string
  exited: Promise<{ code: number | null; at: number }>
  stdout: () => string
}

/** Spawns `command` and waits for the start-up summary, which gives the URL. */
async function start(command: string, args: string[]): Promise<Started> {
  const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  })
  let out = ''
  let err = ''
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()))
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()))
  const exited = new Promise<{ code: number | null; at: number }>((resolve) => child.on('exit', (code) => resolve({ code, at: performance.now() })))
  const base = await new Promise<string>((resolve, reject) => {
    const look = () => {
      const match = /API\s+(http:\/\/127\.0\.0\.1:\d+)\/api\/v1/.exec(out)
      if (match && out.includes('Press Ctrl+C')) resolve(match[1]!)
    }
    child.stdout!.on('data', look)
    child.on('exit', (code) => reject(new Error(`exited ${code} before it started: ${err || out}`)))
  })
  return { child, base, exited, stdout: () => out }
}

/** Adds a fault that holds models.count for `ms`, and resolves once a request is being held by it. */
async function holdCountRequests(base: string, ms: number): Promise<() => Promise<{ answer: Promise<Response> }>> {
  const rule = await fetch(`${base}/_emulator/api/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ match: { operation: 'models.count' }, action: { latency_ms: ms } }),
  })
  const { data } = (await rule.json()) as { data: { id: string } }
  return async () => {
    const answer = fetch(`${base}/api/v1/models/count`)
    // The rule counts a request as it starts holding it: wait for that, not for a time.
    for (;;) {
      const { data: seen } = (await (await fetch(`${base}/_emulator/api/faults/${data.id}`)).json()) as { data: { evaluations: number } }
      // Wrapped, or the caller's await would wait for the answer itself.
      if (seen.evaluations > 0) return { answer }
    }
  }
}

describe('stopping the CLI', () => {
  it('lets a request under way finish on SIGTERM, refuses new ones, and exits 0 within 5 s', async () => {
    const emu = await start(process.execPath, [...NODE_FLAGS, CLI, '--port', '0', '--db', ':memory:', '--eu-port', 'off'])
    const held = await holdCountRequests(emu.base, 1_500)
    const { answer } = await held()
    const signalled = performance.now()
    emu.child.kill('SIGTERM')
    const res = await answer
    expect(res.status).toBe(200)
    expect(((await res.json()) as { data: { count: number } }).data.count).toBeGreaterThan(0)
    const { code, at } = await emu.exited
    expect(code).toBe(0)
    expect(at - signalled).toBeLessThan(5_000)
    await expect(fetch(`${emu.base}/api/v1/models/count`)).rejects.toThrow()
    expect(emu.stdout()).toContain('SIGTERM: stopping')
  })

  it('stops at once on a second signal', async () => {
    const emu = await start(process.execPath, [...NODE_FLAGS, CLI, '--port', '0', '--db', ':memory:', '--eu-port', 'off'])
    const held = await holdCountRequests(emu.base, 60_000)
    const answer = (await held()).answer.catch((error: unknown) => error)
    emu.child.kill('SIGTERM')
    await new Promise<void>((resolve) => {
      const look = () => emu.stdout().includes('SIGTERM: stopping') && resolve()
      emu.child.stdout!.on('data', look)
      look()
    })
    // The same signal within 500 ms of the first is that one delivered twice (a Ctrl+C under npm
    // start reaches the emulator from the terminal and from npm; see cli.ts): a second stop comes later.
    await new Promise((resolve) => setTimeout(resolve, 600))
    emu.child.kill('SIGTERM')
    expect((await emu.exited).code).toBe(130)
    expect(await answer).toBeInstanceOf(Error) // its connection went with the process
  })
})

describe('npm start', () => {
  it('stops the emulator when npm itself gets SIGTERM', async () => {
    const emu = await start('npm', ['start', '--silent', '--', '--port', '0', '--db', ':memory:', '--eu-port', 'off'])
    const signalled = performance.now()
    emu.child.kill('SIGTERM')
    await emu.exited
    // npm has gone; the emulator it started must follow, not keep serving.
    for (;;) {
      const alive = await fetch(`${emu.base}/api/v1/models/count`).then(
        () => true,
        () => false,
      )
      if (!alive) break
      expect(performance.now() - signalled).toBeLessThan(5_000)
    }
    expect(performance.now() - signalled).toBeLessThan(5_000)
  })
})
