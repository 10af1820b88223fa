// The bundled CLI as a child process, for the scripts that run it as users do (the benchmark and the
// crash test): started with some flags, and ready once its start-up summary, which gives the URL and
// the seeded keys, has been printed.
import { spawn, type ChildProcess } from 'node:child_process'
import { ensureCliBundle } from './cli-bundle.mjs'

export interface CliProcess {
  child: ChildProcess
  /** e.g. http://127.0.0.1:40123 (the gateway is under /api/v1). */
  base: string
  management: string
  standard: string
  exited: Promise<number | null>
  stderr(): string
}

const START_TIMEOUT_MS = 15_000

export async function startCliProcess(flags: string[]): Promise<CliProcess> {
  const child = spawn(process.execPath, [ensureCliBundle(), ...flags], { stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  let err = ''
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
  const deadline = Date.now() + START_TIMEOUT_MS
  while (!out.includes('Press Ctrl+C')) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`the CLI did not start (exit ${child.exitCode}): ${err.trim() || out.trim() || 'no output'}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return {
    child,
    base: /API\s+(http:\/\/127\.0\.0\.1:\d+)\/api\/v1/.exec(out)![1]!,
    management: /Management key\s+(\S+)/.exec(out)![1]!,
    standard: /Standard key\s+(\S+)/.exec(out)![1]!,
    exited,
    stderr: () => err,
  }
}
