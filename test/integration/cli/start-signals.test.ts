// `npm start` stops gracefully whichever process the signal reaches: npm alone (a CI cancel, a process
// manager), npm's whole process group (a terminal's Ctrl+C, `kill -- -PGID`), or the emulator itself.
// Graceful: exit 0 (npm exits with its script's code), the "stopping" line and not "stopping now",
// and the database closed (its lock file removed). A Ctrl+C reaches the emulator twice (from the
// terminal and forwarded by npm); it must still be one graceful stop, so those cases hold a request
// under way, which keeps the stop going long enough for a second signal to count as "stop now".
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '../../..')

interface Started {
  npm: ChildProcess
  /** The emulator's own pid (from its `ready` log line). */
  pid: number
  base: string
  db: string
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  stdout: () => string
  stderr: () => string
}

const running: Array<{ npm: ChildProcess; dir: string }> = []

afterEach(() => {
  // Whatever happened, nothing is left running: npm, and the emulator in its process group.
  for (const { npm, dir } of running.splice(0)) {
    try {
      process.kill(-npm.pid!, 'SIGKILL')
    } catch {
      // already gone
    }
    rmSync(dir, { recursive: true, force: true })
  }
})

/** `npm start` in its own process group, as a terminal runs it; resolves once the emulator logs `ready`. */
async function npmStart(): Promise<Started> {
  const dir = mkdtempSync(join(tmpdir(), 'gwe-start-'))
  const db = join(dir, 'emulator.db')
  const npm = spawn('npm', ['start', '--silent', '--', '--host', '127.0.0.1', '--port', '0', '--eu-port', 'off', '--db', db], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  running.push({ npm, dir })
  let out = ''
  let err = ''
  npm.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()))
  npm.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()))
  // Output complete: npm has exited and the emulator, which shares its pipes, has too.
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => npm.on('close', (code, signal) => resolve({ code, signal })))
  const ready = await new Promise<{ pid: number; url: string }>((resolve, reject) => {
    const look = () => {
      for (const line of err.split('\n')) {
        if (!line.includes('"msg":"ready"')) continue
        const { pid, url } = JSON.parse(line) as { pid: number; url: string }
        resolve({ pid, url })
      }
    }
    npm.stderr!.on('data', look)
    npm.on('exit', (code) => reject(new Error(`npm start exited ${code} before it was ready: ${err || out}`)))
  })
  return { npm, pid: ready.pid, base: ready.url, db, exited, stdout: () => out, stderr: () => err }
}

/** Starts a request that a fault holds for `ms`; resolves once the emulator is holding it. */
async function requestUnderWay(base: string, ms: number): Promise<{ answer: Promise<Response> }> {
  const rule = await fetch(`${base}/_emulator/api/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ match: { operation: 'models.count' }, action: { latency_ms: ms } }),
  })
  const { data } = (await rule.json()) as { data: { id: string } }
  const answer = fetch(`${base}/api/v1/models/count`)
  for (;;) {
    const { data: seen } = (await (await fetch(`${base}/_emulator/api/faults/${data.id}`)).json()) as { data: { evaluations: number } }
    // Wrapped: an async function returning the bare promise would wait for the answer itself.
    if (seen.evaluations > 0) return { answer }
  }
}

async function expectGracefulStop(emu: Started, signal: NodeJS.Signals): Promise<void> {
  const { code, signal: killedBy } = await emu.exited
  expect({ code, killedBy, stderr: emu.stderr().replace(/^\{.*\}\n/gm, '') }).toEqual({ code: 0, killedBy: null, stderr: '' })
  expect(emu.stdout()).toContain(`${signal}: stopping (requests under way may finish`)
  expect(emu.stderr()).not.toContain('stopping now')
  expect(existsSync(`${emu.db}.lock`)).toBe(false) // released by the database's close, after it
  await expect(fetch(`${emu.base}/_emulator/api/health`)).rejects.toThrow()
}

describe('npm start stops gracefully', () => {
  beforeAll(() => {
    // Builds what is stale (the CLI bundle, the UI) here, once, so no start below waits for a build.
    execFileSync(process.execPath, [join(ROOT, 'scripts/start.mjs'), '--version'], { cwd: ROOT, stdio: 'ignore' })
  }, 120_000)

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`on ${signal} to npm's pid alone`, async () => {
      const emu = await npmStart()
      process.kill(emu.npm.pid!, signal)
      await expectGracefulStop(emu, signal)
    })

    it(`on ${signal} to the emulator process itself`, async () => {
      const emu = await npmStart()
      expect(emu.pid).not.toBe(emu.npm.pid)
      process.kill(emu.pid, signal)
      await expectGracefulStop(emu, signal)
    })

    it(`on ${signal} to the whole process group (${signal === 'SIGINT' ? 'Ctrl+C' : 'kill -- -PGID'}): one signal, one graceful stop`, async () => {
      const emu = await npmStart()
      // Held for longer than a duplicate could take to arrive: were the copy forwarded by npm counted
      // as a second signal, the stop would turn into "stopping now" (exit 130) and cut this answer.
      const { answer } = await requestUnderWay(emu.base, 1_000)
      process.kill(-emu.npm.pid!, signal)
      // npm forwards its copy to the emulator, which then sees the signal twice; or once, when the
      // copy comes before the first is handled and the kernel merges the two (now and then). So the
      // test sends a copy too, at once, as npm's comes (waiting for the stopping line first could take
      // longer than the duplicate window on a busy machine).
      try {
        process.kill(emu.pid, signal)
      } catch {
        // gone already (npm's copy stopped it at once): the expectations below say so
      }
      expect(
        await answer.then(
          (res) => res.status,
          (error: unknown) => String(error),
        ),
      ).toBe(200)
      await expectGracefulStop(emu, signal)
    })
  }
})
