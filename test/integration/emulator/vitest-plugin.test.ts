// model-gateway-emulator/vitest as a user's suite runs it: a child vitest on the project in
// test/fixtures/vitest-plugin (the plugin from the sources), two test files on one shared emulator,
// each asserting its own journal and a retried 429 with openai, the clients configured by the env alone.
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const PROJECT = join(import.meta.dirname, '../../fixtures/vitest-plugin')
const VITEST = join(import.meta.dirname, '../../../node_modules/vitest/vitest.mjs')

interface FileReport {
  url: string
  accountId: string
  keys: { management: string; standard: string }
  env: Record<string, string>
}

interface JsonReport {
  numPassedTests: number
  numFailedTests: number
  testResults: { name: string; status: string }[]
}

/** Runs vitest in the fixture project; resolves with its exit code and output. */
function runVitest(env: NodeJS.ProcessEnv, args: string[]): Promise<{ code: number | null; output: string }> {
  // The child is a run of its own: none of this worker's VITEST_* variables.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST')))
  const child = spawn(process.execPath, [VITEST, 'run', ...args], { cwd: PROJECT, env: { ...inherited, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, output }))
  })
}

describe('model-gateway-emulator/vitest', () => {
  const base = mkdtempSync(join(tmpdir(), 'gateway-vitest-plugin-'))
  afterAll(() => rmSync(base, { recursive: true, force: true }))
  /** Where a run's test files write what they saw. */
  const reportDir = (name: string): string => {
    const dir = join(base, name)
    mkdirSync(dir)
    return dir
  }

  it('gives two test files one emulator, a workspace each with its own journal, and the clients their env', { timeout: 90_000 }, async () => {
    const dir = reportDir('one-project')
    const reportFile = join(dir, 'report.json')
    // Variables of the user's own: the plugin replaces them for each file, then puts them back.
    const { code, output } = await runVitest(
      { FIXTURE_REPORT_DIR: dir, OPENAI_API_KEY: 'sk-the-users-own', ANTHROPIC_API_KEY: 'sk-ant-the-users-own', NO_COLOR: '1' },
      ['--reporter=json', `--outputFile=${reportFile}`],
    )
    expect(code, output).toBe(0)
    const report = JSON.parse(readFileSync(reportFile, 'utf8')) as JsonReport
    expect(report.numFailedTests).toBe(0)
    expect(report.numPassedTests).toBe(3)
    expect(report.testResults.map((file) => file.name.slice(PROJECT.length + 1)).sort()).toEqual(['clients.spec.ts', 'openai.spec.ts'])

    const openai = JSON.parse(readFileSync(join(dir, 'openai.spec.ts.json'), 'utf8')) as FileReport
    const clients = JSON.parse(readFileSync(join(dir, 'clients.spec.ts.json'), 'utf8')) as FileReport
    // One emulator, two workspaces.
    expect(openai.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(clients.url).toBe(openai.url)
    expect(clients.accountId).not.toBe(openai.accountId)
    expect(openai.env).toEqual({ OPENAI_BASE_URL: `${openai.url}/api/v1`, OPENAI_API_KEY: openai.keys.standard })
    expect(clients.env).toEqual({
      ANTHROPIC_BASE_URL: `${clients.url}/api`,
      ANTHROPIC_AUTH_TOKEN: clients.keys.standard,
      OPENROUTER_BASE_URL: `${clients.url}/api/v1`,
      OPENROUTER_API_KEY: clients.keys.standard,
      GATEWAY_EMULATOR_URL: clients.url,
    })
    // The plugin's teardown closed the emulator before the user's own global teardown ran.
    expect(JSON.parse(readFileSync(join(dir, 'teardown.json'), 'utf8'))).toEqual({ url: openai.url, answers: false })
  })

  it('shares the emulator between the projects of a config that each inherit the plugin', { timeout: 90_000 }, async () => {
    const dir = reportDir('two-projects')
    const { code, output } = await runVitest({ FIXTURE_REPORT_DIR: dir, NO_COLOR: '1' }, ['--config', 'vitest.projects.config.ts'])
    expect(code, output).toBe(0)
    expect(output).toMatch(/Tests\s+3 passed/)
    const urls = ['openai.spec.ts.json', 'clients.spec.ts.json'].map((file) => (JSON.parse(readFileSync(join(dir, file), 'utf8')) as FileReport).url)
    expect(new Set(urls).size).toBe(1)
  })
})
