// The vitest integration (`model-gateway-emulator/vitest`). `gatewayEmulator()`, a plugin for
// vitest.config.ts, starts one emulator for the whole run (a global setup) and gives each test file a
// workspace of its own (a setup file), with the environment variables the official clients read;
// `emulator` is a test file's handle on both. Vitest's types only here: this module runs in the config
// and in every test file, and the package's other entries never load vitest.
import { extname } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Plugin } from 'vitest/config'
import type { TestProject } from 'vitest/node'
import type { EmulatorOptions } from '../emulator.ts'
import type { EmulatorAdmin, Workspace } from '../testing.ts'

export interface GatewayEmulatorOptions {
  /** How the shared emulator starts (startTestEmulator's defaults: in memory, any free port, manual clock). */
  emulator?: EmulatorOptions
  /** Credits in USD each test file's workspace starts with (10). */
  credits?: number
  /**
   * Before each test, the workspace goes back to how it was created (usage, fixtures, guardrails and
   * charges gone, its fault rules removed, its journal read from there on); keys and env stay. Off by default.
   */
  resetBetweenTests?: boolean
  /** Set the official clients' environment variables to the workspace for each test file (on by default). */
  env?: boolean
}

/** What the plugin hands each test file's setup (through vitest's `provide`: plain data). */
export interface GatewayEmulatorSettings {
  credits: number
  resetBetweenTests: boolean
  env: boolean
}

/**
 * The emulator's options, for the global setup: kept in the main process (by test project), not
 * provided to the workers, where an `upstreamKey` has no business.
 */
const EMULATOR_OPTIONS = Symbol.for('model-gateway-emulator.vitest.options')
type OptionsHolder = { [EMULATOR_OPTIONS]?: WeakMap<TestProject, EmulatorOptions> }

export function emulatorOptionsFor(project: TestProject): EmulatorOptions {
  return (globalThis as OptionsHolder)[EMULATOR_OPTIONS]?.get(project) ?? {}
}

/** The keys of vitest's provided context the integration uses. */
export const SETTINGS_KEY = 'modelGatewayEmulatorSettings'
export const URL_KEY = 'modelGatewayEmulatorUrl'

declare module 'vitest' {
  interface ProvidedContext {
    [SETTINGS_KEY]: GatewayEmulatorSettings
    [URL_KEY]: string
  }
}

/** The variables set for each test file, from its workspace; the previous values come back after it. */
export function clientEnv(workspace: Workspace): Record<string, string> {
  const origin = workspace.admin.url
  return {
    GATEWAY_EMULATOR_URL: origin,
    OPENAI_BASE_URL: workspace.apiUrl,
    OPENAI_API_KEY: workspace.keys.standard,
    OPENROUTER_BASE_URL: workspace.apiUrl,
    OPENROUTER_API_KEY: workspace.keys.standard,
    // @anthropic-ai/sdk and Claude Code as the gateway documents them: the key as a Bearer token
    // (authToken), ANTHROPIC_API_KEY empty (a key there, perhaps a real one, would be sent instead).
    ANTHROPIC_BASE_URL: `${origin}/api`,
    ANTHROPIC_AUTH_TOKEN: workspace.keys.standard,
    ANTHROPIC_API_KEY: '',
  }
}

/** A test file's state, set by the setup file. On globalThis: the test may load this module as another copy. */
export interface TestFileState {
  admin: EmulatorAdmin
  workspace: Workspace
}
const STATE = Symbol.for('model-gateway-emulator.vitest.file')
type StateHolder = { [STATE]?: TestFileState }

export function setTestFileState(state: TestFileState | undefined): void {
  ;(globalThis as StateHolder)[STATE] = state
}

function testFileState(): TestFileState {
  const state = (globalThis as StateHolder)[STATE]
  if (!state) {
    throw new Error(
      "model-gateway-emulator/vitest: no emulator for this test file. Add the plugin to vitest.config.ts: plugins: [gatewayEmulator()] (import { gatewayEmulator } from 'model-gateway-emulator/vitest')",
    )
  }
  return state
}

/** A test file's view of the shared emulator (set up by the plugin). */
export const emulator = {
  /** This test file's workspace: its own account, keys, credits, faults, fixtures and journal. */
  workspace: (): Workspace => testFileState().workspace,
  /** The admin API of the shared emulator: its clock, faults and journal are every test file's. */
  get admin(): EmulatorAdmin {
    return testFileState().admin
  },
  /** The emulator's origin (`http://127.0.0.1:<port>`); the gateway API is under /api/v1. */
  get url(): string {
    return testFileState().admin.url
  },
}

/** The files the plugin adds, beside this one: .ts from the sources, .js from the package. */
function sibling(name: string): string {
  return fileURLToPath(new URL(`./${name}${extname(fileURLToPath(import.meta.url))}`, import.meta.url))
}

/**
 * The vitest plugin: one emulator for the run, a workspace for each test file, the clients' env set.
 * `plugins: [gatewayEmulator()]` in vitest.config.ts; tests read `emulator.workspace()`.
 */
export function gatewayEmulator(options: GatewayEmulatorOptions = {}): Plugin {
  const settings: GatewayEmulatorSettings = {
    credits: options.credits ?? 10,
    resetBetweenTests: options.resetBetweenTests ?? false,
    env: options.env ?? true,
  }
  const globalSetup = sibling('global-setup')
  const setupFile = sibling('setup-file')
  return {
    name: 'model-gateway-emulator',
    // Each test project that has the plugin (a config's `projects` inherit it) gets the two files; the
    // global setups share one emulator. A `config` hook would not reach projects that extend the root.
    configureVitest({ project }) {
      const globalSetups = [project.config.globalSetup].flat()
      if (!globalSetups.includes(globalSetup)) project.config.globalSetup = [...globalSetups, globalSetup]
      if (!project.config.setupFiles.includes(setupFile)) project.config.setupFiles.push(setupFile)
      project.provide(SETTINGS_KEY, settings)
      ;((globalThis as OptionsHolder)[EMULATOR_OPTIONS] ??= new WeakMap()).set(project, options.emulator ?? {})
    },
  }
}
