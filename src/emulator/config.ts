// Configuration: flags > env (GATEWAY_EMULATOR_*) > config file > defaults, validated and frozen.
// Every bad value is reported in one line that names the setting, where it came from and what is allowed.
import { existsSync, readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { BUNDLED_FIXTURES, PACKAGE_ROOT } from './core/package-root.ts'
import {
  boolean,
  ConfigError,
  hostList,
  integer,
  isoTime,
  nonEmptyString,
  oneOf,
  originList,
  duration,
  setting,
  type RawValue,
  type Setting,
} from './core/settings.ts'
import { CALLBACKS_CONFIG } from './modules/callbacks/callbacks.config.ts'
import { CATALOG_RESOLVE_CONFIG } from './modules/catalog/catalog-resolve.config.ts'
import { CHARGES_CONFIG, CRYPTO_CHARGES_CONFIG } from './modules/credits/credits.config.ts'
import { EMBEDDINGS_CONFIG } from './modules/embeddings/embeddings.config.ts'
import { JOURNAL_CONFIG } from './journal/journal.config.ts'
import { TEXT_CONFIG } from './modules/text/text.config.ts'
import { LEDGER_CONFIG } from './modules/ledger/ledger.config.ts'
import { RATELIMIT_CONFIG } from './modules/ratelimit/ratelimit.config.ts'
import { checkRecordAndReplay, RECORDINGS_CONFIG } from './modules/recordings/recordings.config.ts'
import { MULTIFRAME_CONFIG, VIDEO_TASKS_CONFIG } from './modules/video-router/video-router.config.ts'

export type LogLevel = 'silent' | 'error' | 'warn' | 'info' | 'debug'

export { PACKAGE_ROOT, BUNDLED_FIXTURES } from './core/package-root.ts'
export { ConfigError } from './core/settings.ts'

export const VERSION: string = (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version

/** Where the database lives by default: the user's data directory, per platform convention. */
export function defaultDatabasePath(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  const home = homedir()
  const base =
    platform === 'darwin'
      ? join(home, 'Library', 'Application Support')
      : platform === 'win32'
        ? (env.LOCALAPPDATA ?? env.APPDATA ?? join(home, 'AppData', 'Local'))
        : (env.XDG_DATA_HOME ?? join(home, '.local', 'share'))
  return join(base, 'model-gateway-emulator', 'emulator.db')
}

type Source = 'flag' | 'env' | 'config file' | 'option'

/**
 * The settings table: the kernel's own settings and each area's part (its `<area>.config.ts`, which its
 * module declares as its `config`). In the order `--help` and docs/configuration.md show them, which is
 * the page's order from before the areas held their own: first where to listen and what to start from,
 * then the switches between the spec and the real service, then each area's, then the listeners' bounds.
 */
const SETTINGS = [
  setting({ key: 'host', flag: 'host', arg: '<addr>', default: '127.0.0.1', help: 'address to bind', parse: nonEmptyString }),
  setting({ key: 'port', flag: 'port', arg: '<n>', default: 8710, help: 'API port; `0` picks any free port', parse: integer(0, 65535) }),
  setting({
    key: 'euPort',
    flag: 'eu-port',
    arg: '<n>|off',
    // null: port + 1 (any free port when port is 0); -1: no EU listener.
    default: null as number | null,
    shownDefault: 'port + 1',
    help: 'EU listener port; `off` for none',
    // 'off' reads better than -1 on a command line, where "-1" looks like a flag to the parser.
    parse: (v, w) => (v === null ? null : v === 'off' ? -1 : integer(-1, 65535)(v, w)),
  }),
  setting({
    key: 'db',
    flag: 'db',
    arg: '<path>|:memory:',
    default: () => defaultDatabasePath(),
    shownDefault: 'user data dir',
    help: 'database file, or `:memory:`; created on first start',
    parse: nonEmptyString,
  }),
  setting({ key: 'seed', flag: 'seed', arg: '<n>', default: 1, help: 'fixes keys, ids and every generated value', parse: integer(0, 2 ** 31 - 1) }),
  setting({
    key: 'fixtures',
    flag: 'fixtures',
    arg: '<dir>',
    default: () => BUNDLED_FIXTURES,
    shownDefault: 'bundled `fixtures/`',
    help: 'a folder whose files replace the bundled ones (e.g. `seeds/default.json`)',
    parse: nonEmptyString,
  }),
  setting({
    key: 'clock',
    flag: 'clock',
    arg: 'system|manual',
    default: 'system',
    help: '`system` (real time plus an offset) or `manual` (moves only when told)',
    parse: oneOf(['system', 'manual'] as const),
  }),
  setting({
    key: 'clockStart',
    flag: 'clock-start',
    arg: '<iso>',
    default: null as string | null,
    shownDefault: '`2026-01-01T12:00:00Z` for manual',
    help: 'where the clock starts',
    details: 'without it, a database whose clock was moved resumes that time (a manual clock where it stopped, a system clock with its offset)',
    parse: isoTime,
  }),
  setting({
    key: 'logLevel',
    flag: 'log-level',
    arg: '<level>',
    default: 'info',
    help: '`silent`, `error`, `warn`, `info` (a `ready` line, then one line per request) or `debug`',
    details: 'secrets are redacted',
    parse: oneOf(['silent', 'error', 'warn', 'info', 'debug'] as const),
  }),
  setting({ key: 'demo', flag: 'demo', cli: 'switch', default: false, help: 'a new database starts with 30 days of usage history', parse: boolean }),
  setting({
    key: 'reset',
    flag: 'reset',
    cli: 'switch',
    default: false,
    help: "start from the seed, discarding the database's state",
    details: "also the way to change a database's seed",
    parse: boolean,
  }),
  setting({ key: 'ui', flag: 'ui', cli: 'negated', default: true, help: 'do not serve the inspector UI', parse: boolean }),
  ...LEDGER_CONFIG,
  setting({
    key: 'wrongKeyKindStatus',
    flag: 'wrong-key-kind-status',
    arg: '401|403',
    default: 401,
    help: 'status for a standard key on a management-only operation',
    details: '`401` is the spec, `403` the real service',
    parse: oneOf([401, 403] as const),
  }),
  ...CRYPTO_CHARGES_CONFIG,
  ...EMBEDDINGS_CONFIG,
  ...CATALOG_RESOLVE_CONFIG,
  ...TEXT_CONFIG,
  ...RECORDINGS_CONFIG,
  ...MULTIFRAME_CONFIG,
  ...CHARGES_CONFIG,
  ...RATELIMIT_CONFIG,
  ...VIDEO_TASKS_CONFIG,
  ...CALLBACKS_CONFIG,
  ...JOURNAL_CONFIG,
  setting({
    key: 'allowedHosts',
    flag: 'allowed-hosts',
    arg: '<a,b>',
    default: [] as string[],
    shownDefault: 'none',
    help: 'host names the admin API and UI answer besides loopback and the bound host (DNS rebinding guard)',
    parse: hostList,
  }),
  setting({
    key: 'adminToken',
    flag: 'admin-token',
    arg: '<token>',
    // null beyond loopback: a random one is made and printed at start.
    default: null as string | null,
    shownDefault: 'none on loopback',
    help: 'token the admin API and UI require',
    details: 'beyond loopback a random one is made (and printed once) when not given',
    parse: (v, w) => (v === null ? null : nonEmptyString(v, w)),
  }),
  setting({
    key: 'corsOrigins',
    flag: 'cors-origins',
    arg: '<a,b>|*',
    default: [] as string[],
    shownDefault: 'none',
    help: 'browser origins that may call `/api/v1` and `/router/v1` (comma list, or `*`)',
    details: 'the admin API and UI never answer other origins',
    parse: originList,
  }),
  setting({
    key: 'requestTimeoutMs',
    flag: 'request-timeout',
    arg: '<dur>',
    default: 30_000,
    help: 'a client must send its whole request (headers and body) within this, or gets a 408 and is closed',
    parse: duration,
  }),
  setting({
    key: 'keepAliveTimeoutMs',
    flag: 'keep-alive-timeout',
    arg: '<dur>',
    default: 5_000,
    help: 'an idle keep-alive connection is closed after this',
    parse: duration,
  }),
  setting({
    key: 'maxConnections',
    flag: 'max-connections',
    arg: '<n>',
    default: 1_024,
    help: 'open connections per listener at most; more are refused, the open ones keep working',
    parse: integer(1, 1_000_000),
  }),
  setting({
    key: 'mediaThreads',
    flag: 'media-threads',
    arg: '<n>',
    // null: the machine's cores (os.availableParallelism()), at most 4.
    default: null as number | null,
    shownDefault: 'the number of cores, at most 4',
    help: 'worker threads that draw images, make speech and read audio, shared by the emulators of one process',
    details: "one account's jobs use half of them at once (at least one)",
    parse: (v, w) => (v === null ? null : integer(1, 64)(v, w)),
  }),
] as const

type DeclaredSetting = (typeof SETTINGS)[number]

/** The emulator's configuration: one field per declared setting, typed by what its parser returns. */
export type EmulatorConfig = { -readonly [S in DeclaredSetting as S['key']]: ReturnType<S['parse']> }

/** Every setting at its default. */
export function defaultConfig(): EmulatorConfig {
  return Object.fromEntries(
    SETTINGS.map((s: Setting) => [s.key, typeof s.default === 'function' ? (s.default as () => unknown)() : structuredClone(s.default)]),
  ) as EmulatorConfig
}

/** Options of the command line only (they are not configuration). */
const CLI_ONLY = [
  { flag: 'config', arg: '<file>', help: 'JSON config file (keys as in docs/configuration.md)' },
  { flag: 'quiet', short: 'q', help: 'no start-up summary (URLs, keys); logs still follow `--log-level`' },
  { flag: 'version', short: 'v', help: 'print the version' },
  { flag: 'help', short: 'h', help: 'print this help' },
] as const

const envName = (flag: string): string => `GATEWAY_EMULATOR_${flag.replace(/-/g, '_').toUpperCase()}`

function whereOf(source: Source, setting: Setting): string {
  switch (source) {
    case 'flag':
      return `--${setting.flag}`
    case 'env':
      return envName(setting.flag)
    case 'config file':
      return `config file key "${setting.key}"`
    case 'option':
      return `option ${setting.key}`
  }
}

function apply(target: Record<string, unknown>, values: Record<string, RawValue>, source: Source): void {
  for (const setting of SETTINGS as readonly Setting[]) {
    const raw = values[source === 'flag' || source === 'env' ? setting.flag : setting.key]
    if (raw === undefined) continue
    target[setting.key] = setting.parse(raw, whereOf(source, setting))
  }
}

function readConfigFile(path: string): Record<string, RawValue> {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw new ConfigError(`cannot read config file ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`)
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw new ConfigError(`config file ${path} is not valid JSON: ${(error as Error).message}`)
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ConfigError(`config file ${path} must hold a JSON object`)
  }
  const known = new Set(SETTINGS.map((s: Setting) => s.key))
  for (const key of Object.keys(parsed)) {
    if (!known.has(key)) throw new ConfigError(`config file ${path}: unknown key "${key}" (known: ${[...known].join(', ')})`)
  }
  return parsed as Record<string, RawValue>
}

export interface LoadConfigInput {
  /** Parsed CLI flags by flag name (`eu-port`), plus `config` for the config file path. */
  flags?: Record<string, RawValue>
  env?: NodeJS.ProcessEnv
  /** Programmatic options by config key; they rank with flags. */
  options?: Partial<EmulatorConfig> & { config?: string }
}

export function loadConfig(input: LoadConfigInput = {}): Readonly<EmulatorConfig> {
  const env = input.env ?? {}
  const config: Record<string, unknown> = { ...defaultConfig() }
  const configPath = (input.flags?.config ?? input.options?.config ?? env[envName('config')]) as string | undefined
  if (configPath) apply(config, readConfigFile(configPath), 'config file')
  const fromEnv: Record<string, RawValue> = {}
  for (const setting of SETTINGS as readonly Setting[]) {
    const value = env[envName(setting.flag)]
    if (value !== undefined) fromEnv[setting.flag] = value
  }
  apply(config, fromEnv, 'env')
  if (input.options) {
    const { config: _ignored, ...options } = input.options
    apply(config, options as Record<string, RawValue>, 'option')
  }
  if (input.flags) apply(config, input.flags, 'flag')
  return Object.freeze(checkRecordAndReplay(config as unknown as EmulatorConfig))
}

/** The flags the CLI accepts, for util.parseArgs. */
type CliFlag = [string, { type: 'string' | 'boolean'; short?: string }]
export const CLI_FLAGS: Record<string, CliFlag[1]> = Object.fromEntries([
  ...SETTINGS.map((s: Setting): CliFlag =>
    s.cli ? [s.cli === 'negated' ? `no-${s.flag}` : s.flag, { type: 'boolean' as const }] : [s.flag, { type: 'string' as const }],
  ),
  ...CLI_ONLY.map((o): CliFlag => [o.flag, { type: 'arg' in o ? ('string' as const) : ('boolean' as const), ...('short' in o ? { short: o.short } : {}) }]),
])

/** parseArgs' values by flag, with `--no-<flag>` read as `<flag>: false`; the CLI-only ones left out. */
export function settingFlags(values: Record<string, string | boolean | undefined>): Record<string, RawValue> {
  const flags: Record<string, RawValue> = {}
  for (const s of SETTINGS as readonly Setting[]) {
    const value = s.cli === 'negated' ? (values[`no-${s.flag}`] ? false : undefined) : values[s.flag]
    if (value !== undefined) flags[s.flag] = value
  }
  if (typeof values.config === 'string') flags.config = values.config
  return flags
}

interface HelpRow {
  flag: string
  key: string
  shownDefault: string
  help: string
  details?: string
}

/** Literals printed as they are: a duration in ms as 1h, a list as a comma list, null as off. */
function formatDefault(s: Setting, value: unknown): string {
  if (s.shownDefault) return s.shownDefault
  if (value === null) return '`off`'
  if (typeof value === 'boolean') return value ? 'on' : 'off'
  const durationOf = (ms: number): string => {
    for (const [unit, size] of [
      ['d', 86_400_000],
      ['h', 3_600_000],
      ['m', 60_000],
      ['s', 1_000],
    ] as const)
      if (ms > 0 && ms % size === 0) return `${ms / size}${unit}`
    return String(ms)
  }
  if (Array.isArray(value)) return `\`${value.map((v) => (s.arg?.startsWith('<dur') ? durationOf(v as number) : String(v))).join(',')}\``
  if (typeof value === 'number' && s.arg?.startsWith('<dur')) return `\`${durationOf(value)}\``
  return `\`${String(value)}\``
}

function helpRows(): HelpRow[] {
  const defaults = defaultConfig() as unknown as Record<string, unknown>
  return [
    ...(SETTINGS as readonly Setting[]).map((s) => ({
      flag: s.cli === 'negated' ? `--no-${s.flag}` : `--${s.flag}${s.arg ? ` ${s.arg}` : ''}`,
      key: s.key,
      shownDefault: formatDefault(s, defaults[s.key]),
      help: s.help,
      ...(s.details ? { details: s.details } : {}),
    })),
    ...CLI_ONLY.map((o) => ({
      flag: `${'short' in o ? `-${o.short}, ` : ''}--${o.flag}${'arg' in o ? ` ${o.arg}` : ''}`,
      key: '',
      shownDefault: '',
      help: o.help,
    })),
  ]
}

const plain = (text: string): string => text.replace(/`/g, '')

/** `gateway-emulator --help`, from the settings table: flags in one column, help wrapped in the other. */
export function helpText(): string {
  const indent = 34
  const wrapAt = 100
  const lines: string[] = []
  for (const row of helpRows()) {
    // A switch's default goes without saying (off, or on for a --no- flag).
    const shown = row.shownDefault && !/^(on|off)$/.test(row.shownDefault) ? ` (default ${plain(row.shownDefault)})` : ''
    const words = `${plain(row.help)}${shown}`.split(' ')
    const flag = `  ${row.flag}`
    let line = flag.length < indent ? flag.padEnd(indent) : (lines.push(flag), ' '.repeat(indent))
    let empty = true
    for (const word of words) {
      if (!empty && line.length + 1 + word.length > wrapAt) {
        lines.push(line)
        line = ' '.repeat(indent)
        empty = true
      }
      line += empty ? word : ` ${word}`
      empty = false
    }
    lines.push(line)
  }
  return [
    'Usage: gateway-emulator [options]',
    '       gateway-emulator validate <dir>   checks the recordings of a folder (as --replay reads them)',
    '                                         without starting: one line per problem, exit 1 if any',
    '',
    'Runs the Model Gateway Emulator on 127.0.0.1. Every option can also be set with an environment',
    'variable GATEWAY_EMULATOR_<NAME> (e.g. GATEWAY_EMULATOR_PORT=9000) or a key of a JSON config file.',
    'Durations: 30s, 15m, 1h, 2d, or milliseconds.',
    '',
    'Options:',
    ...lines,
  ].join('\n')
}

/** The configuration table of docs/configuration.md, from the settings table (a test keeps it in step). */
export function settingsMarkdown(): string {
  const cell = (text: string): string => text.replace(/\|/g, '\\|')
  return [
    '| Flag | Config key | Default | Meaning |',
    '| --- | --- | --- | --- |',
    ...helpRows().map(
      (row) =>
        `| \`${cell(row.flag)}\` | ${row.key ? `\`${row.key}\`` : ''} | ${cell(row.shownDefault)} | ${cell(row.help)}${row.details ? `; ${cell(row.details)}` : ''} |`,
    ),
  ].join('\n')
}

/** A fixture file from the configured directory, or the bundled one when that directory lacks it. */
export function resolveFixture(fixturesDir: string, relativePath: string): string {
  const own = join(fixturesDir, relativePath)
  return existsSync(own) ? own : join(BUNDLED_FIXTURES, relativePath)
}
