// Configuration: flags > env (GATEWAY_EMULATOR_*) > config file > defaults, validated and frozen.
// Every bad value is reported in one line that names the setting, where it came from and what is allowed.
import { existsSync, readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseDuration, type ClockMode } from './core/clock.ts'

export type LogLevel = 'silent' | 'error' | 'warn' | 'info' | 'debug'

export interface EmulatorConfig {
  host: string
  /** 0 picks any free port. */
  port: number
  /** Port of the EU listener; null = port + 1 (or any free port when port is 0); -1 = no EU listener. */
  euPort: number | null
  /** A file path, or ':memory:'. */
  db: string
  seed: number
  /** A directory whose files replace the bundled fixtures (seeds, catalog). */
  fixtures: string
  clock: ClockMode
  /** Start of a manual clock, ISO 8601. */
  clockStart: string | null
  logLevel: LogLevel
  demo: boolean
  /** Start from the seed, discarding whatever state the database holds. */
  reset: boolean
  ui: boolean
  /** Status for a request denied by an exhausted key limit (the real service was seen to send both). */
  keyLimitStatus: 402 | 403
  /** Status for a standard key on a management-only operation: 401 (the spec) or 403 (the real service). */
  wrongKeyKindStatus: 401 | 403
  /** POST /credits/crypto: create a charge (the spec), or 410 Gone as the real, deprecated endpoint does. */
  cryptoCharges: 'create' | 'gone'
  /** A list of numbers as embeddings input: any doubles (the spec) or token ids only (the real service). */
  embeddingsNumbers: 'doubles' | 'token-ids'
  /** Key frames a multiframe task needs at least: 0, image_settings optional (the spec), to 2 (the vendor's docs). */
  multiframeMinKeyFrames: number
  /** Largest crypto charge, in USD. */
  chargeCapUsd: number
  /** How long a crypto charge stays payable, in ms of the virtual clock. */
  chargeExpiryMs: number
  /** Confirm a pending charge by itself after this many ms of the virtual clock; null = only when told. */
  chargeAutoConfirmMs: number | null
  /** Request limits on inference routes (embeddings, video); null = none. */
  rateLimitKeyPerMinute: number | null
  rateLimitKeyPerDay: number | null
  rateLimitAccountPerMinute: number | null
  rateLimitAccountPerDay: number | null
  /** Virtual ms a video task spends in created, queueing and processing; 0 skips a state. */
  videoCreatedMs: number
  videoQueueingMs: number
  videoProcessingMs: number
  /** Share of video tasks that end in failed (seeded), and the err_code they fail with. */
  videoFailureRate: number
  videoFailCode: string
  /** USD value of one video credit (the spec: 1 credit = 0.005 PTC). */
  videoCreditUsd: number
  /** HTTP status of the router's CreditInsufficient error (the vendor documents 400; 402 was seen). */
  videoCreditStatus: 400 | 402
  /** Virtual delays before each retry of a failed callback delivery. */
  callbackRetryDelaysMs: number[]
  /** Real ms a callback receiver has to answer. */
  callbackTimeoutMs: number
  /** Callback attempts under way at once to one receiver (scheme, host and port). */
  callbackConcurrency: number
  /** Requests the journal keeps (the oldest go first); 0 turns it off. */
  journalSize: number
  /** Bytes of each body the journal keeps (UTF-8; the rest is counted, not kept). */
  journalBodyLimit: number
  /** Host names the admin API and UI answer besides loopback and the bound host (DNS rebinding guard). */
  allowedHosts: string[]
  /**
   * The admin API and UI token; required when listening beyond loopback. null there means a random
   * one is made and printed at start.
   */
  adminToken: string | null
  /**
   * Browser origins allowed to call the gateway and the video router (CORS); `*` for any. Empty: no
   * CORS headers at all. The admin API and UI never answer other origins.
   */
  corsOrigins: string[]
  /**
   * A client must have sent its whole request (headers and body) within this long, or its connection
   * is closed (408): connections that trickle bytes would otherwise stay open for ever.
   */
  requestTimeoutMs: number
  /** An idle keep-alive connection is closed after this long. */
  keepAliveTimeoutMs: number
  /** Open connections at most, per listener; more are refused so the ones open keep working. */
  maxConnections: number
}

export class ConfigError extends Error {
  override name = 'ConfigError'
}

const PACKAGE_NAME = 'model-gateway-emulator'

/**
 * The package's own folder (fixtures, the built UI, package.json), found by walking up from this
 * module: it runs as TypeScript (src/emulator), compiled (dist), bundled (out/cli) and installed in
 * another project's node_modules, each at a different depth.
 */
function findPackageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json')
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === PACKAGE_NAME) return dir
    if (dirname(dir) === dir) throw new Error(`cannot find the ${PACKAGE_NAME} package above ${from}`)
  }
}

export const PACKAGE_ROOT = findPackageRoot(dirname(fileURLToPath(import.meta.url)))
export const BUNDLED_FIXTURES = join(PACKAGE_ROOT, 'fixtures')
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

export function defaultConfig(): EmulatorConfig {
  return {
    host: '127.0.0.1',
    port: 8710,
    euPort: null,
    db: defaultDatabasePath(),
    seed: 1,
    fixtures: BUNDLED_FIXTURES,
    clock: 'system',
    clockStart: null,
    logLevel: 'info',
    demo: false,
    reset: false,
    ui: true,
    keyLimitStatus: 402,
    wrongKeyKindStatus: 401,
    cryptoCharges: 'create',
    embeddingsNumbers: 'doubles',
    multiframeMinKeyFrames: 0,
    chargeCapUsd: 2000,
    chargeExpiryMs: 3_600_000,
    chargeAutoConfirmMs: null,
    rateLimitKeyPerMinute: null,
    rateLimitKeyPerDay: null,
    rateLimitAccountPerMinute: null,
    rateLimitAccountPerDay: null,
    videoCreatedMs: 1_000,
    videoQueueingMs: 5_000,
    videoProcessingMs: 20_000,
    videoFailureRate: 0,
    videoFailCode: 'ModelUnavailable',
    videoCreditUsd: 0.005,
    videoCreditStatus: 400,
    callbackRetryDelaysMs: [10_000, 60_000, 300_000],
    callbackTimeoutMs: 10_000,
    callbackConcurrency: 4,
    journalSize: 1000,
    journalBodyLimit: 16_384,
    allowedHosts: [],
    adminToken: null,
    corsOrigins: [],
    requestTimeoutMs: 30_000,
    keepAliveTimeoutMs: 5_000,
    maxConnections: 1_024,
  }
}

type Source = 'flag' | 'env' | 'config file' | 'option'
type RawValue = string | number | boolean | null | undefined

interface Setting {
  key: keyof EmulatorConfig
  flag: string
  parse(value: RawValue, where: string): unknown
}

const describe = (where: string, value: RawValue): string => `${where} ${JSON.stringify(value)}`

const integer =
  (min: number, max: number) =>
  (value: RawValue, where: string): number => {
    const n = typeof value === 'number' ? value : typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : NaN
    if (!Number.isInteger(n) || n < min || n > max) {
      throw new ConfigError(`invalid ${describe(where, value)}: must be an integer from ${min} to ${max}`)
    }
    return n
  }

const oneOf =
  <T extends string | number>(allowed: readonly T[]) =>
  (value: RawValue, where: string): T => {
    const match = allowed.find((a) => String(a) === String(value))
    if (match === undefined) throw new ConfigError(`invalid ${describe(where, value)}: must be one of ${allowed.join(', ')}`)
    return match
  }

const boolean = (value: RawValue, where: string): boolean => {
  if (typeof value === 'boolean') return value
  if (value === 'true' || value === '1' || value === '') return true
  if (value === 'false' || value === '0') return false
  throw new ConfigError(`invalid ${describe(where, value)}: must be true or false`)
}

const positiveNumber = (value: RawValue, where: string): number => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN
  if (!Number.isFinite(n) || n <= 0) throw new ConfigError(`invalid ${describe(where, value)}: must be a number > 0`)
  return n
}

/** A duration such as 90s, 15m, 1h or 2d (or milliseconds); `off` where the setting allows none. */
const duration =
  (allowOff: boolean) =>
  (value: RawValue, where: string): number | null => {
    if (allowOff && (value === null || value === 'off')) return null
    try {
      if (typeof value !== 'number' && typeof value !== 'string') throw new RangeError('not a duration')
      return parseDuration(value)
    } catch {
      throw new ConfigError(`invalid ${describe(where, value)}: must be a duration such as 30s, 15m, 1h or 2d${allowOff ? ', or off' : ''}`)
    }
  }

const limitOrOff = (value: RawValue, where: string): number | null => (value === null || value === 'off' ? null : integer(1, 1_000_000_000)(value, where))

const fraction = (value: RawValue, where: string): number => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN
  if (!Number.isFinite(n) || n < 0 || n > 1) throw new ConfigError(`invalid ${describe(where, value)}: must be a number from 0 to 1`)
  return n
}

/** A comma list of durations (a config file may give an array). */
const durations = (value: RawValue | RawValue[], where: string): number[] => {
  const parts = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',').filter((p) => p.trim() !== '') : [value]
  return parts.map((part) => duration(false)(typeof part === 'string' ? part.trim() : (part as RawValue), where)!)
}

/** A comma list of host names (a config file may give an array). */
const hostList = (value: RawValue | RawValue[], where: string): string[] => {
  const parts = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [value]
  return parts.map((p) => nonEmptyString(typeof p === 'string' ? p.trim() : (p as RawValue), where))
}

/** A comma list of origins (scheme://host[:port], or `*`); a config file may give an array. */
const originList = (value: RawValue | RawValue[], where: string): string[] => {
  const parts = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [value]
  return parts.map((part) => {
    const origin = typeof part === 'string' ? part.trim() : part
    if (origin === '*') return origin
    if (typeof origin !== 'string' || !/^https?:\/\/[^/\s]+$/.test(origin)) {
      throw new ConfigError(`invalid ${describe(where, part)}: each origin must look like http://localhost:5173 (scheme and host, no path), or be *`)
    }
    return origin.toLowerCase()
  })
}

const nonEmptyString = (value: RawValue, where: string): string => {
  if (typeof value !== 'string' || value.trim() === '') throw new ConfigError(`invalid ${describe(where, value)}: must be a non-empty string`)
  return value
}

const isoTime = (value: RawValue, where: string): string | null => {
  if (value === null) return null
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(Date.parse(value))) {
    throw new ConfigError(`invalid ${describe(where, value)}: must be an ISO 8601 time such as 2026-01-01T00:00:00Z`)
  }
  return new Date(Date.parse(value)).toISOString()
}

const SETTINGS: Setting[] = [
  { key: 'host', flag: 'host', parse: nonEmptyString },
  { key: 'port', flag: 'port', parse: integer(0, 65535) },
  // 'off' reads better than -1 on a command line, where "-1" looks like a flag to the parser.
  { key: 'euPort', flag: 'eu-port', parse: (v, w) => (v === null ? null : v === 'off' ? -1 : integer(-1, 65535)(v, w)) },
  { key: 'db', flag: 'db', parse: nonEmptyString },
  { key: 'seed', flag: 'seed', parse: integer(0, 2 ** 31 - 1) },
  { key: 'fixtures', flag: 'fixtures', parse: nonEmptyString },
  { key: 'clock', flag: 'clock', parse: oneOf(['system', 'manual'] as const) },
  { key: 'clockStart', flag: 'clock-start', parse: isoTime },
  { key: 'logLevel', flag: 'log-level', parse: oneOf(['silent', 'error', 'warn', 'info', 'debug'] as const) },
  { key: 'demo', flag: 'demo', parse: boolean },
  { key: 'reset', flag: 'reset', parse: boolean },
  { key: 'ui', flag: 'ui', parse: boolean },
  { key: 'keyLimitStatus', flag: 'key-limit-status', parse: oneOf([402, 403] as const) },
  { key: 'wrongKeyKindStatus', flag: 'wrong-key-kind-status', parse: oneOf([401, 403] as const) },
  { key: 'cryptoCharges', flag: 'crypto-charges', parse: oneOf(['create', 'gone'] as const) },
  { key: 'embeddingsNumbers', flag: 'embeddings-numbers', parse: oneOf(['doubles', 'token-ids'] as const) },
  { key: 'multiframeMinKeyFrames', flag: 'multiframe-min-key-frames', parse: integer(0, 2) },
  { key: 'chargeCapUsd', flag: 'charge-cap', parse: positiveNumber },
  { key: 'chargeExpiryMs', flag: 'charge-expiry', parse: duration(false) },
  { key: 'chargeAutoConfirmMs', flag: 'charge-auto-confirm', parse: duration(true) },
  { key: 'rateLimitKeyPerMinute', flag: 'rate-limit-key-per-minute', parse: limitOrOff },
  { key: 'rateLimitKeyPerDay', flag: 'rate-limit-key-per-day', parse: limitOrOff },
  { key: 'rateLimitAccountPerMinute', flag: 'rate-limit-account-per-minute', parse: limitOrOff },
  { key: 'rateLimitAccountPerDay', flag: 'rate-limit-account-per-day', parse: limitOrOff },
  { key: 'videoCreatedMs', flag: 'video-created', parse: duration(false) },
  { key: 'videoQueueingMs', flag: 'video-queueing', parse: duration(false) },
  { key: 'videoProcessingMs', flag: 'video-processing', parse: duration(false) },
  { key: 'videoFailureRate', flag: 'video-failure-rate', parse: fraction },
  { key: 'videoFailCode', flag: 'video-fail-code', parse: nonEmptyString },
  { key: 'videoCreditUsd', flag: 'video-credit-usd', parse: positiveNumber },
  { key: 'videoCreditStatus', flag: 'video-credit-status', parse: oneOf([400, 402] as const) },
  { key: 'callbackRetryDelaysMs', flag: 'callback-retry-delays', parse: durations as Setting['parse'] },
  { key: 'callbackTimeoutMs', flag: 'callback-timeout', parse: duration(false) },
  { key: 'callbackConcurrency', flag: 'callback-concurrency', parse: integer(1, 1_000) },
  { key: 'journalSize', flag: 'journal-size', parse: integer(0, 1_000_000) },
  { key: 'journalBodyLimit', flag: 'journal-body-limit', parse: integer(0, 100_000_000) },
  { key: 'allowedHosts', flag: 'allowed-hosts', parse: hostList as Setting['parse'] },
  { key: 'adminToken', flag: 'admin-token', parse: (v, w) => (v === null ? null : nonEmptyString(v, w)) },
  { key: 'corsOrigins', flag: 'cors-origins', parse: originList as Setting['parse'] },
  { key: 'requestTimeoutMs', flag: 'request-timeout', parse: duration(false) },
  { key: 'keepAliveTimeoutMs', flag: 'keep-alive-timeout', parse: duration(false) },
  { key: 'maxConnections', flag: 'max-connections', parse: integer(1, 1_000_000) },
]

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
  for (const setting of SETTINGS) {
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
  const known = new Set(SETTINGS.map((s) => s.key as string))
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
  for (const setting of SETTINGS) {
    const value = env[envName(setting.flag)]
    if (value !== undefined) fromEnv[setting.flag] = value
  }
  apply(config, fromEnv, 'env')
  if (input.options) {
    const { config: _ignored, ...options } = input.options
    apply(config, options as Record<string, RawValue>, 'option')
  }
  if (input.flags) apply(config, input.flags, 'flag')
  return Object.freeze(config as unknown as EmulatorConfig)
}

/** The flags the CLI accepts, for util.parseArgs. */
export const CLI_FLAGS = Object.fromEntries([
  ...SETTINGS.filter((s) => s.key !== 'demo' && s.key !== 'ui' && s.key !== 'reset').map((s) => [s.flag, { type: 'string' as const }]),
  ['config', { type: 'string' as const }],
  ['demo', { type: 'boolean' as const }],
  ['reset', { type: 'boolean' as const }],
  ['no-ui', { type: 'boolean' as const }],
  ['quiet', { type: 'boolean' as const, short: 'q' }],
  ['help', { type: 'boolean' as const, short: 'h' }],
  ['version', { type: 'boolean' as const, short: 'v' }],
])

/** A fixture file from the configured directory, or the bundled one when that directory lacks it. */
export function resolveFixture(fixturesDir: string, relativePath: string): string {
  const own = join(fixturesDir, relativePath)
  return existsSync(own) ? own : join(BUNDLED_FIXTURES, relativePath)
}
