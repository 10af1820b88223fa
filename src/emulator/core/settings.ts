// How a setting of the configuration is declared (its key, flag, default, help) and its value read
// and checked, for the settings table of config.ts and each area's part of it (`<area>.config.ts`).
// Every bad value is reported in one line that names the setting, where it came from and what is allowed.
import { parseDuration } from './clock.ts'

export class ConfigError extends Error {
  override name = 'ConfigError'
}

export type RawValue = string | number | boolean | null | undefined

/**
 * One setting, declared once: its config key, its flag (and so its environment variable), its default,
 * how it is parsed and checked, and the help that `--help` and the configuration table in docs/configuration.md print.
 */
export interface Setting<K extends string = string, T = unknown> {
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

export const setting = <const K extends string, T>(declared: Setting<K, T>): Setting<K, T> => declared

export const describe = (where: string, value: RawValue): string => `${where} ${JSON.stringify(value)}`

export const integer =
  (min: number, max: number) =>
  (value: RawValue, where: string): number => {
    const n = typeof value === 'number' ? value : typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : NaN
    if (!Number.isInteger(n) || n < min || n > max) {
      throw new ConfigError(`invalid ${describe(where, value)}: must be an integer from ${min} to ${max}`)
    }
    return n
  }

export const oneOf =
  <T extends string | number>(allowed: readonly T[]) =>
  (value: RawValue, where: string): T => {
    const match = allowed.find((a) => String(a) === String(value))
    if (match === undefined) throw new ConfigError(`invalid ${describe(where, value)}: must be one of ${allowed.join(', ')}`)
    return match
  }

export const boolean = (value: RawValue, where: string): boolean => {
  if (typeof value === 'boolean') return value
  if (value === 'true' || value === '1' || value === '') return true
  if (value === 'false' || value === '0') return false
  throw new ConfigError(`invalid ${describe(where, value)}: must be true or false`)
}

export const positiveNumber = (value: RawValue, where: string): number => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN
  if (!Number.isFinite(n) || n <= 0) throw new ConfigError(`invalid ${describe(where, value)}: must be a number > 0`)
  return n
}

export const nonNegativeNumber = (value: RawValue, where: string): number => {
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

export const duration = (value: RawValue, where: string): number => durationIn(value, where, '')

export const durationOrOff = (value: RawValue, where: string): number | null =>
  value === null || value === 'off' ? null : durationIn(value, where, ', or off')

export const limitOrOff = (value: RawValue, where: string): number | null =>
  value === null || value === 'off' ? null : integer(1, 1_000_000_000)(value, where)

export const fraction = (value: RawValue, where: string): number => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN
  if (!Number.isFinite(n) || n < 0 || n > 1) throw new ConfigError(`invalid ${describe(where, value)}: must be a number from 0 to 1`)
  return n
}

/** A comma list of durations (a config file may give an array). */
export const durations = (value: RawValue | RawValue[], where: string): number[] => {
  const parts = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',').filter((p) => p.trim() !== '') : [value]
  return parts.map((part) => duration(typeof part === 'string' ? part.trim() : (part as RawValue), where))
}

/** A comma list of host names (a config file may give an array). */
export const hostList = (value: RawValue | RawValue[], where: string): string[] => {
  const parts = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [value]
  return parts.map((p) => nonEmptyString(typeof p === 'string' ? p.trim() : (p as RawValue), where))
}

/** A comma list of origins (scheme://host[:port], or `*`); a config file may give an array. */
export const originList = (value: RawValue | RawValue[], where: string): string[] => {
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

export const nonEmptyString = (value: RawValue, where: string): string => {
  if (typeof value !== 'string' || value.trim() === '') throw new ConfigError(`invalid ${describe(where, value)}: must be a non-empty string`)
  return value
}

export const isoTime = (value: RawValue, where: string): string | null => {
  if (value === null) return null
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(Date.parse(value))) {
    throw new ConfigError(`invalid ${describe(where, value)}: must be an ISO 8601 time such as 2026-01-01T00:00:00Z`)
  }
  return new Date(Date.parse(value)).toISOString()
}
