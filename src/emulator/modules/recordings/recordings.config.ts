// Record and replay's part of the configuration: the upstream gateway and its key, the folders to
// record into and replay from, and what a request no recording answers gets; and the rules that tie
// them together.
import { ON_MISS, type OnMiss } from '../../core/types.ts'
import { ConfigError, describe, oneOf, nonEmptyString, setting, type RawValue } from '../../core/settings.ts'

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

export const RECORDINGS_CONFIG = [
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
] as const

/** The settings of record and replay these rules read. */
interface RecordAndReplay {
  readonly record: string | null
  readonly upstream: string | null
  readonly onMiss: OnMiss | null
}

/** The settings of record and replay that only make sense together (--on-miss's default follows --upstream: onMissOf). */
export function checkRecordAndReplay<Config extends RecordAndReplay>(config: Config): Config {
  if (config.record !== null && config.upstream === null)
    throw new ConfigError('--record (record) needs --upstream <url>: a recording is made of the upstream gateway’s answers')
  if (config.onMiss === 'upstream' && config.upstream === null) throw new ConfigError('--on-miss upstream needs --upstream <url>: there is no upstream to ask')
  return config
}

/** What a request that no recording answers gets (the configured --on-miss, or its default). */
export const onMissOf = (config: RecordAndReplay): OnMiss => config.onMiss ?? (config.upstream === null ? 'generate' : 'upstream')
