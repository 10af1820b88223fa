// Configuration: flags > env (GATEWAY_EMULATOR_*) > config file > defaults, validated and frozen.
// Every bad value is reported in one line that names the setting, where it came from and what is allowed.
import { existsSync, readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { parseDuration } from './core/clock.ts'
import { ON_MISS, type OnMiss } from './core/types.ts'
import { BUNDLED_FIXTURES, PACKAGE_ROOT } from './core/package-root.ts'

export type LogLevel = 'silent' | 'error' | 'warn' | 'info' | 'debug'

export class ConfigError extends Error {
  override name = 'ConfigError'
}

export { PACKAGE_ROOT, BUNDLED_FIXTURES } from './core/package-root.ts'

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
type RawValue = string | number | boolean | null | undefined

/**
 * One setting, declared once: its config key, its flag (and so its environment variable), its default,
 * how it is parsed and checked, and the help that `--help` and the configuration table in docs/configuration.md print.
 */
interface Setting<K extends string = string, T = unknown> {
  key: K
  flag: string
  /** The value's form in `--help` (`<n>`, `<dur>|off`); absent for a switch. */
  arg?: string
  /** `switch`: `--demo` takes no value; `negated`: the command line has only `--no-<flag>` (to turn it off). */
  cli?: 'switch' | 'negated'
  /** A function where the default depends on the machine (the database path). */
  default: NoInfer<T> | (() => NoInfer<T>)
  /** The default as `--help` and docs/configuration.md say it, when the value alone would not (`port + 1`). */
  shownDefault?: string
  /** One line for `--help` and docs/configuration.md; `code` marks literals (printed bare by `--help`). */
  help: string
  /** More for docs/configuration.md only. */
  details?: string
  parse(value: RawValue, where: string): T
}

const setting = <const K extends string, T>(declared: Setting<K, T>): Setting<K, T> => declared

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

const nonNegativeNumber = (value: RawValue, where: string): number => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN
  if (!Number.isFinite(n) || n < 0 || n > 1000) throw new ConfigError(`invalid ${describe(where, value)}: must be a number from 0 to 1000`)
  return n
}

/** A duration such as 90s, 15m, 1h or 2d (or milliseconds); `off` where the setting allows none. */
function durationIn(value: RawValue, where: string, orOff: string): number {
  try {
    if (typeof value !== 'number' && typeof value !== 'string') throw new RangeError('not a duration')
    return parseDuration(value)
  } catch {
    throw new ConfigError(`invalid ${describe(where, value)}: must be a duration such as 30s, 15m, 1h or 2d${orOff}`)
  }
}

const duration = (value: RawValue, where: string): number => durationIn(value, where, '')

const durationOrOff = (value: RawValue, where: string): number | null => (value === null || value === 'off' ? null : durationIn(value, where, ', or off'))

const limitOrOff = (value: RawValue, where: string): number | null => (value === null || value === 'off' ? null : integer(1, 1_000_000_000)(value, where))

const fraction = (value: RawValue, where: string): number => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN
  if (!Number.isFinite(n) || n < 0 || n > 1) throw new ConfigError(`invalid ${describe(where, value)}: must be a number from 0 to 1`)
  return n
}

/** A comma list of durations (a config file may give an array). */
const durations = (value: RawValue | RawValue[], where: string): number[] => {
  const parts = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',').filter((p) => p.trim() !== '') : [value]
  return parts.map((part) => duration(typeof part === 'string' ? part.trim() : (part as RawValue), where))
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

/** A URL as an error may show it: credentials in it (`https://user:pass@host`) are never printed. */
const withoutCredentials = (value: RawValue): RawValue => (typeof value === 'string' ? value.replace(/\/\/[^/@\s]*@/, '//[redacted]@') : value)

/** A real gateway's origin (scheme, host, port): http(s) only, no credentials, path, query or fragment. */
const upstreamOrigin = (value: RawValue, where: string): string | null => {
  if (value === null) return null
  const refuse = (why: string): never => {
    throw new ConfigError(`invalid ${describe(where, withoutCredentials(value))}: ${why}`)
  }
  if (typeof value !== 'string' || value.trim() === '') return refuse('must be the URL of a gateway, such as https://gateway.example.com')
  let url: URL
  try {
    url = new URL(value.trim())
  } catch {
    return refuse('must be the URL of a gateway, such as https://gateway.example.com')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return refuse('must be an http or https URL')
  if (url.username !== '' || url.password !== '') return refuse('must not carry credentials: give the key with --upstream-key')
  if ((url.pathname !== '/' && url.pathname !== '') || url.search !== '' || url.hash !== '')
    return refuse(`must be an origin only (scheme, host and port, such as ${url.origin}): /api/v1/... is appended`)
  return url.origin
}

/** A secret: checked without ever being repeated in the error. */
const secret = (value: RawValue, where: string): string | null => {
  if (value === null) return null
  if (typeof value !== 'string' || value.trim() === '') throw new ConfigError(`invalid ${where}: must be a non-empty string`)
  if (/[\r\n]/.test(value)) throw new ConfigError(`invalid ${where}: must be one line (it is sent in a header)`)
  return value
}

const folderOrNone = (value: RawValue, where: string): string | null => (value === null ? null : nonEmptyString(value, where))

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
  setting({
    key: 'keyLimitStatus',
    flag: 'key-limit-status',
    arg: '402|403',
    default: 402,
    help: "status for a request over a key's spending limit",
    details: 'the real service was seen to send both',
    parse: oneOf([402, 403] as const),
  }),
  setting({
    key: 'wrongKeyKindStatus',
    flag: 'wrong-key-kind-status',
    arg: '401|403',
    default: 401,
    help: 'status for a standard key on a management-only operation',
    details: '`401` is the spec, `403` the real service',
    parse: oneOf([401, 403] as const),
  }),
  setting({
    key: 'cryptoCharges',
    flag: 'crypto-charges',
    arg: 'create|gone',
    default: 'create',
    help: '`create` charges (the spec), or `gone`: 410 Gone as the real, deprecated endpoint',
    parse: oneOf(['create', 'gone'] as const),
  }),
  setting({
    key: 'embeddingsNumbers',
    flag: 'embeddings-numbers',
    arg: 'doubles|token-ids',
    default: 'doubles',
    help: 'a list of numbers as embeddings input: any `doubles` (the spec) or `token-ids` only (the real service)',
    parse: oneOf(['doubles', 'token-ids'] as const),
  }),
  setting({
    key: 'chatAnswerTokens',
    flag: 'chat-answer-tokens',
    arg: '<n>',
    default: 60,
    help: 'about how many tokens a chat answer in text has (whole sentences), before `max_tokens` cuts it',
    parse: integer(1, 100_000),
  }),
  setting({
    key: 'chatSpeed',
    flag: 'chat-speed',
    arg: '<factor>',
    default: 0,
    help: 'streamed chat timing as a multiple of the serving endpoint’s latency and throughput (`1` = as fast as the real one), in virtual time while the clock is frozen; `0` sends at once',
    parse: nonNegativeNumber,
  }),
  setting({
    key: 'upstream',
    flag: 'upstream',
    arg: '<url>',
    default: null as string | null,
    shownDefault: 'none',
    help: 'a real gateway’s origin (`https://gateway.example.com`; `/api/v1/...` is appended): requests no recording answers are forwarded there (see --on-miss)',
    details: 'http(s) only, no path',
    parse: upstreamOrigin,
  }),
  setting({
    key: 'upstreamKey',
    flag: 'upstream-key',
    arg: '<key>',
    default: null as string | null,
    shownDefault: 'none',
    help: 'the key sent upstream (`Authorization: Bearer <key>`); callers still use the emulator’s own keys',
    details: 'never printed, logged, journaled or written to a recording',
    parse: secret,
  }),
  setting({
    key: 'record',
    flag: 'record',
    arg: '<dir>',
    default: null as string | null,
    shownDefault: 'none',
    help: 'save each successful upstream answer as a recording (one JSON file) in this folder; needs --upstream',
    parse: folderOrNone,
  }),
  setting({
    key: 'replay',
    flag: 'replay',
    arg: '<dir>',
    default: null as string | null,
    shownDefault: 'none',
    help: 'answer requests that match a recording of this folder (its `*.json` files, read at start and again when they change) with the recorded answer',
    details: 'a malformed file refuses the start; check a folder with `gateway-emulator validate <dir>`',
    parse: folderOrNone,
  }),
  setting({
    key: 'onMiss',
    flag: 'on-miss',
    arg: 'generate|upstream|error',
    default: null as OnMiss | null,
    shownDefault: '`upstream` with --upstream, else `generate`',
    help: 'what a request no recording answers gets: a generated answer, the upstream’s, or a 404 saying nothing matched (nothing billed)',
    parse: (v, w) => (v === null ? null : oneOf(ON_MISS)(v, w)),
  }),
  setting({
    key: 'multiframeMinKeyFrames',
    flag: 'multiframe-min-key-frames',
    arg: '<n>',
    default: 0,
    help: "key frames a multiframe task needs at least: `0` (`image_settings` optional, the spec) to `2` (the vendor's docs)",
    parse: integer(0, 2),
  }),
  setting({ key: 'chargeCapUsd', flag: 'charge-cap', arg: '<usd>', default: 2000, help: 'largest crypto charge, in USD', parse: positiveNumber }),
  setting({
    key: 'chargeExpiryMs',
    flag: 'charge-expiry',
    arg: '<dur>',
    default: 3_600_000,
    help: 'how long a charge stays payable (`30s`, `15m`, `2h`, `1d`, or milliseconds; virtual time)',
    parse: duration,
  }),
  setting({
    key: 'chargeAutoConfirmMs',
    flag: 'charge-auto-confirm',
    arg: '<dur>|off',
    default: null as number | null,
    help: 'confirm pending charges by themselves after this long (virtual time)',
    parse: durationOrOff,
  }),
  setting({
    key: 'rateLimitKeyPerMinute',
    flag: 'rate-limit-key-per-minute',
    arg: '<n>|off',
    default: null as number | null,
    help: 'requests per minute one key may make to embeddings and video',
    parse: limitOrOff,
  }),
  setting({
    key: 'rateLimitKeyPerDay',
    flag: 'rate-limit-key-per-day',
    arg: '<n>|off',
    default: null as number | null,
    help: 'requests per day one key may make to embeddings and video',
    parse: limitOrOff,
  }),
  setting({
    key: 'rateLimitAccountPerMinute',
    flag: 'rate-limit-account-per-minute',
    arg: '<n>|off',
    default: null as number | null,
    help: 'requests per minute one account may make to embeddings and video',
    parse: limitOrOff,
  }),
  setting({
    key: 'rateLimitAccountPerDay',
    flag: 'rate-limit-account-per-day',
    arg: '<n>|off',
    default: null as number | null,
    help: 'requests per day one account may make to embeddings and video',
    parse: limitOrOff,
  }),
  setting({
    key: 'videoCreatedMs',
    flag: 'video-created',
    arg: '<dur>',
    default: 1_000,
    help: 'how long a video task stays `created` (virtual time; `0` skips the state)',
    parse: duration,
  }),
  setting({
    key: 'videoQueueingMs',
    flag: 'video-queueing',
    arg: '<dur>',
    default: 5_000,
    help: 'how long a video task stays `queueing` (virtual time; `0` skips the state)',
    parse: duration,
  }),
  setting({
    key: 'videoProcessingMs',
    flag: 'video-processing',
    arg: '<dur>',
    default: 20_000,
    help: 'how long a video task stays `processing` (virtual time; `0` skips the state)',
    parse: duration,
  }),
  setting({ key: 'videoFailureRate', flag: 'video-failure-rate', arg: '<0-1>', default: 0, help: 'share of video tasks that fail (seeded)', parse: fraction }),
  setting({
    key: 'videoFailCode',
    flag: 'video-fail-code',
    arg: '<code>',
    default: 'ModelUnavailable',
    help: 'the `err_code` they fail with',
    parse: nonEmptyString,
  }),
  setting({
    key: 'videoCreditUsd',
    flag: 'video-credit-usd',
    arg: '<usd>',
    default: 0.005,
    help: 'USD value of one video credit (the spec: 1 credit = 0.005 PTC)',
    parse: positiveNumber,
  }),
  setting({
    key: 'videoCreditStatus',
    flag: 'video-credit-status',
    arg: '400|402',
    default: 400,
    help: "HTTP status of the router's `CreditInsufficient` error",
    details: 'the vendor documents `400`; `402` was seen',
    parse: oneOf([400, 402] as const),
  }),
  setting({
    key: 'callbackRetryDelaysMs',
    flag: 'callback-retry-delays',
    arg: '<dur,...>',
    default: [10_000, 60_000, 300_000],
    help: 'virtual delays before each retry of a failed callback delivery',
    parse: durations,
  }),
  setting({
    key: 'callbackTimeoutMs',
    flag: 'callback-timeout',
    arg: '<dur>',
    default: 10_000,
    help: 'how long a callback receiver has to answer (real time)',
    parse: duration,
  }),
  setting({
    key: 'callbackConcurrency',
    flag: 'callback-concurrency',
    arg: '<n>',
    default: 4,
    help: 'callback attempts under way at once to one receiver (scheme, host and port)',
    parse: integer(1, 1_000),
  }),
  setting({
    key: 'journalSize',
    flag: 'journal-size',
    arg: '<n>',
    default: 1000,
    help: 'requests the journal keeps (the oldest go first); `0` turns it off',
    parse: integer(0, 1_000_000),
  }),
  setting({
    key: 'journalBodyLimit',
    flag: 'journal-body-limit',
    arg: '<bytes>',
    default: 16_384,
    help: 'bytes of each body the journal keeps (the rest is counted, not kept)',
    parse: integer(0, 100_000_000),
  }),
  setting({
    key: 'journalMediaLimit',
    flag: 'journal-media-limit',
    arg: '<bytes>',
    default: 64 * 1024 * 1024,
    shownDefault: '67108864 (64 MiB)',
    help: 'bytes of images, audio and video the journal keeps whole for the inspector, over all entries (the oldest go first)',
    parse: integer(0, 4_000_000_000),
  }),
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

/** The settings of record and replay that only make sense together (--on-miss's default follows --upstream: onMissOf). */
function checkRecordAndReplay(config: EmulatorConfig): EmulatorConfig {
  if (config.record !== null && config.upstream === null)
    throw new ConfigError('--record (record) needs --upstream <url>: a recording is made of the upstream gateway’s answers')
  if (config.onMiss === 'upstream' && config.upstream === null) throw new ConfigError('--on-miss upstream needs --upstream <url>: there is no upstream to ask')
  return config
}

/** What a request that no recording answers gets (the configured --on-miss, or its default). */
export const onMissOf = (config: Readonly<EmulatorConfig>): OnMiss => config.onMiss ?? (config.upstream === null ? 'generate' : 'upstream')

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
