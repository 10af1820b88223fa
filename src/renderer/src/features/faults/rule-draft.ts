// The fault rule editor's draft: its fields as the inputs hold them (text), the rule's body they make,
// and which field an error of the admin API is about. Nothing of the DOM or of React here.
import { ApiError, type FaultRule } from '../../api.ts'

/** The editor's fields, as the inputs hold them (text); FIELD_OF says which API field each one reports as. */
export interface Draft {
  name: string
  operation: string
  method: string
  path: string
  model: string
  key_hash: string
  account_id: string
  status: string
  message: string
  latency_ms: string
  drop: boolean
  probability: string
  remaining: string
  expires_at: string
}
export type Field = Exclude<keyof Draft, 'drop'> | 'drop'

export const EMPTY: Draft = {
  name: '',
  operation: '',
  method: '',
  path: '',
  model: '',
  key_hash: '',
  account_id: '',
  status: '',
  message: '',
  latency_ms: '',
  drop: false,
  probability: '',
  remaining: '',
  expires_at: '',
}

const FIELD_OF: Record<string, Field> = {
  name: 'name',
  match: 'operation',
  'match.operation': 'operation',
  'match.method': 'method',
  'match.path': 'path',
  'match.model': 'model',
  'match.key_hash': 'key_hash',
  'match.account_id': 'account_id',
  action: 'status',
  'action.status': 'status',
  'action.message': 'message',
  'action.latency_ms': 'latency_ms',
  'action.drop': 'drop',
  probability: 'probability',
  remaining: 'remaining',
  expires_at: 'expires_at',
}

export function fromRule(rule: FaultRule): Draft {
  const s = (v: unknown) => (v === undefined || v === null ? '' : String(v))
  return {
    name: s(rule.name),
    operation: s(rule.match.operation),
    method: s(rule.match.method).toUpperCase(),
    path: s(rule.match.path),
    model: s(rule.match.model),
    key_hash: s(rule.match.key_hash),
    account_id: s(rule.match.account_id),
    status: s(rule.action.status),
    message: s(rule.action.message),
    latency_ms: s(rule.action.latency_ms),
    drop: rule.action.drop === true,
    probability: rule.probability === 1 ? '' : String(rule.probability),
    remaining: s(rule.remaining),
    expires_at: s(rule.expires_at),
  }
}

const num = (text: string): number | undefined => (text.trim() === '' ? undefined : Number(text))

export function toBody(d: Draft, original: FaultRule | null): Record<string, unknown> {
  const match: Record<string, string> = {}
  for (const k of ['operation', 'method', 'path', 'model', 'key_hash', 'account_id'] as const) if (d[k].trim() !== '') match[k] = d[k].trim()
  // What the editor has no field for (extra headers, a latency range) stays as it was.
  const action: Record<string, unknown> = {}
  if (original?.action.latency_range_ms) action.latency_range_ms = original.action.latency_range_ms
  const kept = original?.action.headers
  if (kept) action.headers = kept
  if (num(d.status) !== undefined) action.status = num(d.status)
  if (d.message.trim() !== '') action.message = d.message.trim()
  if (num(d.latency_ms) !== undefined) action.latency_ms = num(d.latency_ms)
  if (d.drop) action.drop = true
  const body: Record<string, unknown> = { match, action }
  if (original) {
    body.name = d.name.trim() === '' ? null : d.name.trim()
    body.probability = num(d.probability) ?? 1
    body.remaining = num(d.remaining) ?? null
    body.expires_at = d.expires_at.trim() === '' ? null : d.expires_at.trim()
  } else {
    if (d.name.trim() !== '') body.name = d.name.trim()
    if (num(d.probability) !== undefined) body.probability = num(d.probability)
    if (num(d.remaining) !== undefined) body.remaining = num(d.remaining)
    if (d.expires_at.trim() !== '') body.expires_at = d.expires_at.trim()
  }
  return body
}

export function errorField(error: unknown): Field | null {
  if (!(error instanceof ApiError)) return null
  const field = (error.body as { error?: { metadata?: { field?: string } } } | undefined)?.error?.metadata?.field ?? /`([^`]+)`/.exec(error.message)?.[1]
  if (!field) return null
  return FIELD_OF[field] ?? FIELD_OF[field.split('.').slice(0, 2).join('.')] ?? null
}
