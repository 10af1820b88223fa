// The emulator as a CLI process of its own, for what must be measured apart from the test's process:
// its resident memory (VmRSS, and the peak VmHWM, which can be reset to the current figure between
// two measurements) read from /proc, while the test sends it requests over real sockets.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { onTestFinished } from 'vitest'

const CLI = join(import.meta.dirname, '../../src/emulator/cli.ts')
const NODE_FLAGS = ['--experimental-strip-types', '--disable-warning=ExperimentalWarning']

export interface CliEmulator {
  child: ChildProcessWithoutNullStreams
  /** The origin, `http://127.0.0.1:<port>`. */
  url: string
  port: number
  standard: string
  management: string
  /** Resident memory now and its peak since the last `resetPeak`, in MB. */
  memory(): { rssMb: number; peakMb: number }
  /** Makes the peak the current resident memory (Linux: /proc/<pid>/clear_refs). */
  resetPeak(): void
}

/** Starts the CLI (in memory, seed 1, silent) with `args`, and waits for its start-up summary. */
export async function startCli(args: string[] = []): Promise<CliEmulator> {
  const child = spawn(
    process.execPath,
    [...NODE_FLAGS, CLI, '--port', '0', '--eu-port', 'off', '--db', ':memory:', '--seed', '1', '--log-level', 'silent', ...args],
    {
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  )
  onTestFinished(() => {
    if (child.exitCode === null) child.kill('SIGKILL')
  })
  let out = ''
  let err = ''
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()))
  const summary = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      if (out.includes('Press Ctrl+C')) resolve(out)
    })
    child.on('exit', (code) => reject(new Error(`the CLI exited (${code}) before it was ready: ${err}`)))
  })
  const url = /API\s+(http:\/\/127\.0\.0\.1:\d+)\/api\/v1/.exec(summary)![1]!
  const status = (): string => readFileSync(`/proc/${child.pid}/status`, 'utf8')
  const kb = (name: string): number => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status())![1])
  return {
    child,
    url,
    port: Number(new URL(url).port),
    standard: /Standard key\s+(\S+)/.exec(summary)![1]!,
    management: /Management key\s+(\S+)/.exec(summary)![1]!,
    memory: () => ({ rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 }),
    resetPeak: () => writeFileSync(`/proc/${child.pid}/clear_refs`, '5'),
  }
}
