// The inspector speaks to the emulator only over HTTP: the admin API and the gateway, on the page's
// own origin (the emulator serves this UI), so the same build works in a browser and in the window.
export const ADMIN = '/_emulator/api'
export const GATEWAY = '/api/v1'

export class ApiError extends Error {
  readonly status: number
  readonly body: unknown
  constructor(status: number, message: string, body: unknown) {
    super(message)
    this.status = status
    this.body = body
  }
}

async function call<T>(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  const res = await fetch(url, {
    method,
    headers: { ...(body !== undefined && { 'content-type': 'application/json' }), ...headers },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  })
  const text = await res.text()
  const parsed: unknown = text ? JSON.parse(text) : undefined
  if (!res.ok) {
    const message =
      (parsed as { error?: { message?: string }; message?: string } | undefined)?.error?.message ??
      (parsed as { message?: string } | undefined)?.message ??
      res.statusText
    throw new ApiError(res.status, message, parsed)
  }
  return parsed as T
}

/** The admin API: answers are `{data: ...}` envelopes unless said otherwise. */
export const admin = {
  get: <T>(path: string) => call<T>('GET', `${ADMIN}${path}`),
  post: <T>(path: string, body?: unknown) => call<T>('POST', `${ADMIN}${path}`, body ?? {}),
  put: <T>(path: string, body: unknown) => call<T>('PUT', `${ADMIN}${path}`, body),
  patch: <T>(path: string, body: unknown) => call<T>('PATCH', `${ADMIN}${path}`, body),
  del: <T>(path: string) => call<T>('DELETE', `${ADMIN}${path}`),
}

/** The gateway and the router, with an API key. */
export const gateway = {
  get: <T>(path: string, key: string) => call<T>('GET', path, undefined, { authorization: `Bearer ${key}` }),
  post: <T>(path: string, key: string, body: unknown) => call<T>('POST', path, body, { authorization: `Bearer ${key}` }),
}

export const origin = (): string => window.location.origin

// Shapes of the admin API this UI reads (only the fields it uses).
export interface Account {
  id: string
  name: string
  credits_usd: number
  spent_usd: number
  balance_usd: number
  workspace_id: string
  members?: Array<{ id: string; name: string; email: string; role: string }>
}
export interface AdminKey {
  hash: string
  name: string
  label: string
  kind: 'management' | 'standard'
  key: string | null
  disabled: boolean
  limit: number | null
  limit_remaining: number | null
  limit_reset: string | null
  usage: number
  usage_daily: number
  usage_weekly: number
  usage_monthly: number
  expires_at: string | null
  creator_user_id: string | null
}
export interface ClockState {
  now: string
  mode: 'system' | 'manual'
}
export interface JournalEntry {
  id: number
  time: string
  wall_time: string
  operation: string
  method: string
  path: string
  query: string
  status: number
  duration_ms: number
  account_id: string | null
  key_hash: string | null
  fault: string | null
  aborted: boolean
  request: { headers: Record<string, string>; body: string | null; body_bytes: number }
  response: { headers: Record<string, string>; body: string | null; body_bytes: number }
  effects: { usage: number[]; tasks: string[]; charges: string[]; callbacks: string[] }
}
/** A journal entry as the live stream sends it: without headers and bodies. */
export type JournalSummary = Omit<JournalEntry, 'request' | 'response'>

export interface FaultRule {
  id: string
  name: string | null
  enabled: boolean
  match: Record<string, string>
  action: { status?: number; latency_ms?: number; latency_range_ms?: { min: number; max: number }; drop?: boolean; message?: string }
  probability: number
  remaining: number | null
  expires_at: string | null
  hits: number
  explanation: string
}
