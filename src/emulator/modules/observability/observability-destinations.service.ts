// The config each destination type takes, as the real document's Observability*Destination schemas
// declare it: its fields (text, a URL, an enum, custom headers), which are required, and which one is
// the address traces go to. Only the two types whose receiver is the team's own (webhook, an OTLP
// collector) are delivered to: the emulator never sends anything to a vendor's service.
import { fieldError } from '../../core/errors.ts'
import type { OwnAddresses } from '../../http/own-addresses.ts'
import { isSecretName, maskSecret } from '../byok/byok-secrets.service.ts'

export const DESTINATION_TYPES = [
  'arize',
  'braintrust',
  'clickhouse',
  'datadog',
  'grafana',
  'langfuse',
  'langsmith',
  'newrelic',
  'opik',
  'otel-collector',
  'posthog',
  'ramp',
  's3',
  'sentry',
  'snowflake',
  'weave',
  'webhook',
] as const
export type DestinationType = (typeof DESTINATION_TYPES)[number]

type FieldKind = 'text' | 'optional-text' | 'url' | 'headers' | readonly string[]

interface TypeSpec {
  /** Every field the type takes, by name; any other is refused. */
  fields: Readonly<Record<string, FieldKind>>
  required: readonly string[]
  /** The field holding the address its traces are POSTed to; none for types the emulator does not deliver to. */
  deliversTo?: string
}

/** Custom headers: names and values of a small map. */
const MAX_HEADERS = 20
const MAX_TEXT = 2048

const spec = (fields: Record<string, FieldKind>, required: string[], deliversTo?: string): TypeSpec => ({
  fields: { headers: 'headers', ...fields },
  required,
  ...(deliversTo !== undefined && { deliversTo }),
})

export const TYPE_SPECS: Readonly<Record<DestinationType, TypeSpec>> = {
  arize: spec({ apiKey: 'text', baseUrl: 'url', modelId: 'text', spaceKey: 'text' }, ['apiKey', 'spaceKey', 'modelId']),
  braintrust: spec({ apiKey: 'text', baseUrl: 'url', projectId: 'text' }, ['apiKey', 'projectId']),
  clickhouse: spec({ database: 'text', host: 'text', password: 'text', table: 'text', username: 'text' }, ['host', 'database', 'username', 'password']),
  datadog: spec({ apiKey: 'text', mlApp: 'text', url: 'url' }, ['apiKey', 'mlApp']),
  grafana: spec({ apiKey: 'text', baseUrl: 'url', instanceId: 'text' }, ['apiKey', 'instanceId']),
  langfuse: spec({ baseUrl: 'url', publicKey: 'text', secretKey: 'text' }, ['secretKey', 'publicKey']),
  langsmith: spec({ apiKey: 'text', endpoint: 'url', project: 'text', workspaceId: 'optional-text' }, ['apiKey']),
  newrelic: spec({ licenseKey: 'text', region: ['us', 'eu'] }, ['licenseKey']),
  opik: spec({ apiKey: 'text', projectName: 'text', workspace: 'text' }, ['apiKey', 'workspace', 'projectName']),
  'otel-collector': spec({ endpoint: 'url' }, ['endpoint'], 'endpoint'),
  posthog: spec({ apiKey: 'text', endpoint: 'url' }, ['apiKey']),
  ramp: spec({ apiKey: 'text', baseUrl: 'url' }, ['apiKey']),
  s3: spec(
    {
      accessKeyId: 'text',
      bucketName: 'text',
      endpoint: 'url',
      pathTemplate: 'optional-text',
      prefix: 'optional-text',
      region: 'optional-text',
      secretAccessKey: 'text',
      sessionToken: 'optional-text',
    },
    ['bucketName', 'accessKeyId', 'secretAccessKey'],
  ),
  sentry: spec({ dsn: 'text', otlpEndpoint: 'url' }, ['otlpEndpoint', 'dsn']),
  snowflake: spec({ account: 'text', database: 'text', schema: 'text', table: 'text', token: 'text', warehouse: 'text' }, ['account', 'token']),
  weave: spec({ apiKey: 'text', baseUrl: 'url', entity: 'text', project: 'text' }, ['apiKey', 'entity', 'project']),
  webhook: spec({ method: ['POST', 'PUT'], url: 'url' }, ['url'], 'url'),
}

/** The characters of a secret its mask shows before the dots (`sk-l...AbCd`), as the real answers show them. */
const MASK_HEAD = 4

/**
 * How a field is stored and shown: a secret masked. Headers (which carry credentials) are masked value
 * by value; a value given as an answer showed it keeps the one it stands for.
 */
function masked(name: string, value: unknown, current: unknown): unknown {
  if (name === 'headers') {
    const before = (current ?? {}) as Record<string, string>
    return Object.fromEntries(Object.entries(value as Record<string, string>).map(([h, v]) => [h, v === before[h] ? v : maskSecret(v, MASK_HEAD)]))
  }
  return isSecretName(name) && typeof value === 'string' ? maskSecret(value, MASK_HEAD) : value
}

function checkUrl(value: string, field: string, own: OwnAddresses, delivered: boolean): void {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw fieldError(field, 'must be an http or https URL')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw fieldError(field, 'must be an http or https URL')
  // Traces of the emulator's own calls, sent to itself, would be calls of their own: a loop.
  if (delivered && own.includes(url)) throw fieldError(field, `must not point at the emulator itself (${url.host}): give the address of your own receiver`)
}

function checkField(kind: FieldKind, value: unknown, field: string, own: OwnAddresses, delivered: boolean): void {
  if (kind === 'headers') {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw fieldError(field, 'must be an object of header names and values')
    const entries = Object.entries(value)
    if (entries.length > MAX_HEADERS) throw fieldError(field, `must have at most ${MAX_HEADERS} headers`)
    for (const [name, header] of entries) {
      if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/.test(name)) throw fieldError(`${field}.${name.slice(0, 64)}`, 'is not a valid header name')
      if (typeof header !== 'string' || header.length > MAX_TEXT) throw fieldError(`${field}.${name}`, `must be a string of at most ${MAX_TEXT} characters`)
    }
    return
  }
  if (typeof value !== 'string') throw fieldError(field, 'must be a string')
  if (value.length > MAX_TEXT) throw fieldError(field, `must be at most ${MAX_TEXT} characters`)
  if (Array.isArray(kind)) {
    if (!kind.includes(value)) throw fieldError(field, `must be one of ${kind.join(', ')}`)
  } else if (kind === 'url') checkUrl(value, field, own, delivered)
  else if (kind === 'text' && value.length === 0) throw fieldError(field, 'must not be empty')
}

/**
 * A destination's config after a create (`current` null) or an update: the fields given, checked by
 * the type's rules and laid over the current ones (a field given as null is removed; a masked value,
 * as an answer showed it, keeps the secret it stands for), secrets masked. Refuses what the type does
 * not take, naming `config.<field>`.
 */
export function nextConfig(
  type: DestinationType,
  given: Record<string, unknown>,
  current: Record<string, unknown> | null,
  own: OwnAddresses,
): Record<string, unknown> {
  const typeSpec = TYPE_SPECS[type]
  const next: Record<string, unknown> = { ...current }
  for (const [name, value] of Object.entries(given)) {
    const field = `config.${name}`
    const kind = typeSpec.fields[name]
    if (kind === undefined) throw fieldError(field, `is not a field of a ${type} destination (it takes ${Object.keys(typeSpec.fields).sort().join(', ')})`)
    if (value === null) {
      delete next[name]
      continue
    }
    if (current !== null && value === current[name]) continue
    checkField(kind, value, field, own, name === typeSpec.deliversTo)
    next[name] = masked(name, value, current?.[name])
  }
  for (const name of typeSpec.required) if (next[name] === undefined) throw fieldError(`config.${name}`, `is required for a ${type} destination`)
  return next
}

/**
 * The address a config gives the traces (when it gives one), once its host name is resolved: a name
 * that resolves to the emulator's own listeners is refused as its address would be. Run before the
 * transaction that stores the config (nextConfig checks the rest, the literal host among it).
 */
export async function checkDeliveryTarget(type: DestinationType, given: Readonly<Record<string, unknown>> | undefined, own: OwnAddresses): Promise<void> {
  const field = TYPE_SPECS[type].deliversTo
  const value = field === undefined ? undefined : given?.[field]
  // Not a URL at all: nextConfig refuses it in its own words.
  if (typeof value !== 'string' || value.length > MAX_TEXT || !URL.canParse(value)) return
  const url = new URL(value)
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return
  const issue = await own.resolvedIssue(url)
  if (issue !== null) throw fieldError(`config.${field}`, issue)
}

/** Where a destination's traces go, or null for a type the emulator does not deliver to. */
export function deliveryUrl(type: string, config: Record<string, unknown>): string | null {
  const field = TYPE_SPECS[type as DestinationType]?.deliversTo
  const url = field === undefined ? undefined : config[field]
  return typeof url === 'string' ? url : null
}
