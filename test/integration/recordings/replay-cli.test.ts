// The CLI's side of replay, as a user runs it: `gateway-emulator validate <dir>` (one line per
// problem naming file and field, exit 1; a summary and exit 0), a malformed folder refusing the start,
// and a start with an upstream key that never shows it (summary, logs).
import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { EMBEDDING, folderWith, MODEL, PARIS, QUESTION, SYSTEM } from './replay-helpers.ts'

const CLI = join(import.meta.dirname, '../../../src/emulator/cli.ts')
const NODE_FLAGS = ['--experimental-strip-types', '--disable-warning=ExperimentalWarning']

interface Ran {
  code: number | null
  stdout: string
  stderr: string
}

/** Runs the CLI: its end (with what it printed), what it has printed so far, and the process. */
function cli(args: string[]): Promise<Ran> & { stdout: () => string; child: ChildProcess } {
  const child = spawn(process.execPath, [...NODE_FLAGS, CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  onTestFinished(() => {
    if (child.exitCode === null) child.kill('SIGKILL')
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const done = new Promise<Ran>((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })))
  return Object.assign(done, { stdout: () => stdout, child })
}

describe('gateway-emulator validate <dir>', () => {
  it('prints a summary and exits 0 for a valid folder', async () => {
    const folder = folderWith({ 'chat-1.json': PARIS, 'raw/emb.json': EMBEDDING })
    const ran = await cli(['validate', folder])
    expect(ran).toEqual({ code: 0, stdout: `${folder}: 2 recordings are valid (1 text, 1 other)\n`, stderr: '' })
  })

  it('prints one line per problem, naming the file and the field, and exits 1', async () => {
    const folder = folderWith({
      'chat-1.json': { ...PARIS, text: { ...PARIS.text, choices: [{ content: 'Paris.' }] } },
      'fine.json': PARIS,
      'sub/emb.json': { ...EMBEDDING, raw: { ...EMBEDDING.raw, base64: '%%%', json: undefined } },
    })
    const ran = await cli(['validate', folder])
    expect(ran.code).toBe(1)
    expect(ran.stdout).toBe(
      [
        `${folder}/chat-1.json: text.choices[0].finish_reason is required`,
        `${folder}/sub/emb.json: raw.base64 is not valid base64 (standard alphabet, padded)`,
        `2 problems in ${folder}`,
        '',
      ].join('\n'),
    )
  })

  it('refuses a missing folder argument (exit 2), and says what it does with --help', async () => {
    const bare = await cli(['validate'])
    expect(bare).toMatchObject({ code: 2, stderr: 'gateway-emulator: validate takes one folder: gateway-emulator validate <dir>\n' })
    const help = await cli(['validate', '--help'])
    expect(help.code).toBe(0)
    expect(help.stdout).toContain('Usage: gateway-emulator validate <dir>')
    const main = await cli(['--help'])
    expect(main.stdout).toContain('gateway-emulator validate <dir>')
    expect(main.stdout).toMatch(/--replay <dir>\s+answer requests that match a recording/)
    expect(main.stdout).toMatch(/--on-miss generate\|upstream\|error/)
  })
})

describe('starting with --replay', () => {
  it('refuses a malformed folder, naming the file and the field (exit 1)', async () => {
    const folder = folderWith({ 'chat-1.json': { ...PARIS, text: { ...PARIS.text, choices: [{ content: 'Paris.' }] } } })
    const ran = await cli(['--port', '0', '--db', ':memory:', '--replay', folder])
    expect(ran.code).toBe(1)
    expect(ran.stderr).toBe(`gateway-emulator: --replay ${folder}: ${folder}/chat-1.json: text.choices[0].finish_reason is required\n`)
  })

  it('prints the upstream by its origin and never the key (summary, request logs), and replays', async () => {
    const secret = 'sk-or-v1-do-not-print-4242'
    const folder = folderWith({ 'chat-1.json': PARIS })
    const run = cli([
      '--port',
      '0',
      '--eu-port',
      'off',
      '--db',
      ':memory:',
      '--replay',
      folder,
      '--upstream',
      'http://127.0.0.1:9',
      '--upstream-key',
      secret,
      '--on-miss',
      'error',
      '--log-level',
      'debug',
    ])
    const until = performance.now() + 15_000
    while (!run.stdout().includes('Press Ctrl+C')) {
      if (performance.now() > until) throw new Error('no start-up summary')
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    const summary = run.stdout()
    expect(summary).toContain('Upstream        http://127.0.0.1:9 (key set)')
    expect(summary).toContain(`Replay          ${folder} (1 recordings)`)
    expect(summary).toContain('On a miss       error')
    const api = /API\s+(http:\/\/127\.0\.0\.1:\d+\/api\/v1)/.exec(summary)![1]!
    const key = /Standard key\s+(\S+)/.exec(summary)![1]!
    const res = await fetch(`${api}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: MODEL,
        messages: [
          { role: 'system', content: SYSTEM },
          { role: 'user', content: QUESTION },
        ],
        max_tokens: 100,
      }),
    })
    expect(((await res.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]!.message.content).toBe('Paris.')
    run.child.kill('SIGTERM')
    const ran = await run
    expect(ran.code).toBe(0)
    expect(ran.stdout + ran.stderr).not.toContain(secret)
    expect(ran.stderr).toContain('"path":"/api/v1/chat/completions"')
  })
})
