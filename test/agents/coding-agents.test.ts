// The real coding agents, unchanged, against a listening emulator: Codex CLI (`codex exec` on the
// Responses API through a custom provider, with its default tools) and Claude Code (`claude -p` with
// `json` and `stream-json` output, on the Messages API). Each runs in an empty temporary folder with a
// temporary home, its tools that run commands or write files disabled, and no permission bypass.
//
// The two CLIs weigh about 800 MB, so they live in this folder's own package file, not the project's:
// `npm ci --prefix test/agents` installs them (CI does), and these tests are skipped until then, unless
// GATEWAY_AGENT_TESTS=required (set by .ci/run) makes their absence a failure.
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { listeningEmulator, type TestEmulator } from '../helpers/emulator.ts'

/** Runs a CLI to its end with no input (Codex reads a piped stdin as more prompt), its output collected. */
function run(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeout: number }): Promise<{ stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('error', reject)
    child.on('close', (code, signal) =>
      code === 0 ? resolve({ stdout }) : reject(new Error(`${command} ${args.join(' ')} ended with ${code ?? signal}\n${stderr}\n${stdout}`)),
    )
  })
}
const BIN = join(import.meta.dirname, 'node_modules/.bin')
const CODEX = join(BIN, 'codex')
const CLAUDE = join(BIN, 'claude')
const installed = existsSync(CODEX) && existsSync(CLAUDE)
const required = process.env.GATEWAY_AGENT_TESTS === 'required'

/** A fresh empty folder, removed after the test. */
function scratch(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

interface JournalEntry {
  operation: string
  path: string
  status: number
}

/** Every request the agent sent, oldest first. */
async function requestsOf(emu: TestEmulator): Promise<JournalEntry[]> {
  const page = await emu.get('/_emulator/api/journal?limit=500')
  return (page.body.data as JournalEntry[]).toReversed()
}

/** An environment with nothing of this machine's: no real keys, no proxy, its own home. */
function cleanEnv(home: string, extra: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '', HOME: home, LANG: 'C.UTF-8', NO_COLOR: '1', ...extra }
}

describe.runIf(installed || required)('coding agents, unchanged, against the emulator', () => {
  it('the agents are installed (npm ci --prefix test/agents)', () => {
    expect(installed, `run: npm ci --prefix test/agents (looked for ${CODEX} and ${CLAUDE})`).toBe(true)
  })

  /** Codex in an empty folder with a temporary home whose config points it at `emu`, its shell tools off. */
  function codex(emu: TestEmulator & { url: string }, prompt: string) {
    const home = scratch('codex-home-')
    const work = scratch('codex-work-')
    writeFileSync(
      join(home, 'config.toml'),
      [
        'model = "openai/gpt-5.1-codex"',
        'model_provider = "emulator"',
        '[model_providers.emulator]',
        'name = "Model Gateway Emulator"',
        `base_url = "${emu.url}/api/v1"`,
        'env_key = "EMULATOR_KEY"',
        'wire_api = "responses"',
        '[features]',
        'shell_tool = false',
        'unified_exec = false',
        '',
      ].join('\n'),
    )
    return run(CODEX, ['exec', '--skip-git-repo-check', '-s', 'read-only', '--json', prompt], {
      cwd: work,
      env: cleanEnv(home, { CODEX_HOME: home, EMULATOR_KEY: emu.keys.standard }),
      timeout: 100_000,
    }).then(({ stdout }) =>
      stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { type: string; item?: { type: string; text?: string }; usage?: Record<string, number> }),
    )
  }

  it('Codex CLI finishes a turn on the Responses API with its default tools, shell tools off', { timeout: 120_000 }, async () => {
    const emu = await listeningEmulator()
    const events = await codex(emu, 'Reply with one word: hello')
    const types = events.map((event) => event.type)
    expect(types).toContain('turn.completed')
    expect(types).not.toContain('turn.failed')
    const message = events.find((event) => event.item?.type === 'agent_message')
    expect(message?.item?.text).toMatch(/\breply\b/i)
    const completed = events.find((event) => event.type === 'turn.completed')
    expect(completed?.usage?.output_tokens).toBeGreaterThan(0)

    const requests = await requestsOf(emu)
    expect(requests.length).toBeGreaterThan(0)
    expect(requests.map((r) => `${r.operation} ${r.status}`)).toEqual(requests.map(() => 'responses.create 200'))
  })

  it(
    'Codex CLI: a turn whose answer calls its plan tool goes on with the tool output and finishes, every request a 200, the second prompt read from the cache',
    { timeout: 120_000 },
    async () => {
      const emu = await listeningEmulator()
      const events = await codex(emu, 'Use update_plan to plan a lighthouse visit')
      const types = events.map((event) => event.type)
      expect(types).toContain('turn.completed')
      expect(types).not.toContain('turn.failed')
      expect(events.find((event) => event.item?.type === 'agent_message')?.item?.text).toMatch(/lighthouse/i)
      // The prompt of the request after the tool call starts as the first one's did: read from the cache.
      expect(events.find((event) => event.type === 'turn.completed')?.usage?.cached_input_tokens).toBeGreaterThan(0)
      const requests = await requestsOf(emu)
      expect(requests.length).toBeGreaterThanOrEqual(2)
      expect(requests.map((r) => `${r.operation} ${r.status}`)).toEqual(requests.map(() => 'responses.create 200'))
    },
  )

  for (const format of ['json', 'stream-json'] as const) {
    it(`Claude Code -p --output-format ${format}: every request a 200, a successful result`, { timeout: 120_000 }, async () => {
      const emu = await listeningEmulator()
      const home = scratch('claude-home-')
      const work = scratch('claude-work-')
      const args = ['-p', 'Reply with one word: hello', '--output-format', format, '--disallowedTools', 'Bash,Edit,Write,NotebookEdit,WebFetch']
      if (format === 'stream-json') args.push('--verbose')
      const { stdout } = await run(CLAUDE, args, {
        cwd: work,
        env: cleanEnv(home, {
          ANTHROPIC_BASE_URL: `${emu.url}/api`,
          ANTHROPIC_AUTH_TOKEN: emu.keys.standard,
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        }),
        timeout: 100_000,
      })
      const lines = stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { type: string; subtype?: string; is_error?: boolean; result?: string; usage?: Record<string, unknown> })
      const result = lines.find((line) => line.type === 'result')
      expect(result?.subtype).toBe('success')
      expect(result?.is_error).toBe(false)
      expect(result?.result).toMatch(/\breply\b/i)
      if (format === 'stream-json') expect(lines.map((line) => line.type)).toContain('assistant')

      const requests = await requestsOf(emu)
      expect(requests.length).toBeGreaterThan(0)
      expect(requests.map((r) => `${r.operation} ${r.status}`)).toEqual(requests.map(() => 'messages.create 200'))
    })
  }
})
