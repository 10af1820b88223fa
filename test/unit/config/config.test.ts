import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CLI_FLAGS, defaultConfig, defaultDatabasePath, helpText, loadConfig, settingFlags, settingsMarkdown } from '../../../src/emulator/config.ts'

function configFile(content: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'gwe-config-'))
  const path = join(dir, 'config.json')
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content))
  return path
}

describe('configuration', () => {
  it('has loopback defaults and a database in the user data directory', () => {
    const config = loadConfig({ env: {} })
    expect(config).toMatchObject({ host: '127.0.0.1', port: 8710, euPort: null, seed: 1, clock: 'system', ui: true, keyLimitStatus: 402 })
    expect(config.db).toBe(defaultDatabasePath())
    expect(Object.isFrozen(config)).toBe(true)
  })

  it('puts the database where each platform keeps user data', () => {
    expect(defaultDatabasePath({ XDG_DATA_HOME: '/data' }, 'linux')).toBe('/data/model-gateway-emulator/emulator.db')
    expect(defaultDatabasePath({}, 'darwin')).toMatch(/Library\/Application Support\/model-gateway-emulator\/emulator\.db$/)
    expect(defaultDatabasePath({ LOCALAPPDATA: 'C:\\Users\\me\\AppData\\Local' }, 'win32')).toContain('model-gateway-emulator')
  })

  it('ranks flags over env over the config file over defaults', () => {
    const file = configFile({ port: 9001, seed: 3, clock: 'manual', logLevel: 'warn' })
    const env = { GATEWAY_EMULATOR_PORT: '9002', GATEWAY_EMULATOR_SEED: '4', GATEWAY_EMULATOR_CONFIG: file }
    expect(loadConfig({ env })).toMatchObject({ port: 9002, seed: 4, clock: 'manual', logLevel: 'warn' })
    expect(loadConfig({ env, flags: { port: '9003' } })).toMatchObject({ port: 9003, seed: 4, clock: 'manual' })
    expect(loadConfig({ env: {}, flags: { config: file } })).toMatchObject({ port: 9001, seed: 3 })
  })

  it('reads booleans and the EU port from env', () => {
    expect(loadConfig({ env: { GATEWAY_EMULATOR_UI: 'false', GATEWAY_EMULATOR_EU_PORT: '-1', GATEWAY_EMULATOR_DEMO: '1' } })).toMatchObject({
      ui: false,
      euPort: -1,
      demo: true,
    })
  })

  it.each([
    [{ flags: { port: 'abc' } }, 'invalid --port "abc": must be an integer from 0 to 65535'],
    [{ flags: { port: '70000' } }, 'invalid --port "70000": must be an integer from 0 to 65535'],
    [{ env: { GATEWAY_EMULATOR_CLOCK: 'sundial' } }, 'invalid GATEWAY_EMULATOR_CLOCK "sundial": must be one of system, manual'],
    [{ flags: { 'log-level': 'loud' } }, 'invalid --log-level "loud": must be one of silent, error, warn, info, debug'],
    [{ flags: { 'clock-start': 'yesterday' } }, 'invalid --clock-start "yesterday": must be an ISO 8601 time'],
    [{ flags: { 'key-limit-status': '500' } }, 'invalid --key-limit-status "500": must be one of 402, 403'],
    [{ flags: { seed: '-2' } }, 'invalid --seed "-2"'],
    [{ options: { port: 1.5 } }, 'invalid option port 1.5'],
  ])('names the bad value in one line: %j', (input, message) => {
    expect(() => loadConfig({ env: {}, ...input } as never)).toThrow(message)
  })

  it('rejects a config file that is missing, not JSON, or has unknown keys', () => {
    expect(() => loadConfig({ env: {}, flags: { config: '/nonexistent/config.json' } })).toThrow('cannot read config file /nonexistent/config.json: ENOENT')
    expect(() => loadConfig({ env: {}, flags: { config: configFile('{port: 1') } })).toThrow(/is not valid JSON/)
    expect(() => loadConfig({ env: {}, flags: { config: configFile({ prot: 1 }) } })).toThrow(/unknown key "prot"/)
    expect(() => loadConfig({ env: {}, flags: { config: configFile({ port: 'x' }) } })).toThrow('invalid config file key "port" "x"')
  })
})

describe('the settings table', () => {
  it('keeps the configuration table of docs/configuration.md as the settings declare it (npm run docs:settings rewrites it)', async () => {
    const { withSettingsTable } = await import('../../../scripts/settings-table.ts')
    const page = readFileSync(join(import.meta.dirname, '../../../docs/configuration.md'), 'utf8')
    expect(withSettingsTable(page)).toBe(page)
  })

  it('gives every setting a flag in --help, an environment variable and a config key, and nothing else', () => {
    const help = helpText()
    const defaults = defaultConfig()
    for (const key of Object.keys(defaults)) expect(settingsMarkdown()).toContain(`| \`${key}\` |`)
    for (const flag of Object.keys(CLI_FLAGS)) expect(help).toMatch(new RegExp(`--${flag}\\b`))
    // Every flag of the table reaches its key through the environment too.
    expect(loadConfig({ env: { GATEWAY_EMULATOR_VIDEO_FAIL_CODE: 'X', GATEWAY_EMULATOR_UI: 'false' } })).toMatchObject({ videoFailCode: 'X', ui: false })
    expect(loadConfig({ env: {}, flags: settingFlags({ 'no-ui': true, demo: true, port: '0' }) })).toMatchObject({ ui: false, demo: true, port: 0 })
  })

  it('starts from defaults that the parsers themselves accept', () => {
    const defaults = defaultConfig() as unknown as Record<string, unknown>
    // Round trip: every default, given back as an option, loads to itself.
    expect(loadConfig({ env: {}, options: defaults })).toEqual(defaults)
  })
})
