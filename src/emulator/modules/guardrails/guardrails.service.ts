// Guardrails as the API shows them, and as restrictions on a caller: a key is governed by its own
// guardrail and by its member's (the key's creator), and every one of them must allow an endpoint.
import { nanosToUsd, usdToNanos } from '../../core/money.ts'
import { toIso } from '../../core/clock.ts'
import type { EmulatorContext } from '../module.ts'
import type { AuthContext } from '../caller.ts'
import type { AccountRow } from '../accounts/accounts.repo.ts'
import type { EndpointPolicy } from '../catalog/catalog-policy.service.ts'
import type { GuardrailRow, GuardrailsRepo, KeyAssignmentRow, MemberAssignmentRow } from './guardrails.repo.ts'
import {
  GUARDRAIL_COLUMNS,
  READ_ONLY_FIELDS,
  type CreateGuardrailBody,
  type GuardrailObject,
  type KeyAssignmentObject,
  type MemberAssignmentObject,
  type UpdateGuardrailBody,
} from './guardrails.schemas.ts'
import { guardrailNotFound } from './guardrails.errors.ts'

const list = (json: string | null): string[] | null => (json === null ? null : (JSON.parse(json) as string[]))
const listJson = (value: string[] | null | undefined, current: string | null): string | null =>
  value === undefined ? current : value === null ? null : JSON.stringify(value)

export function guardrailView(row: GuardrailRow, account: AccountRow): GuardrailObject {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    limit_usd: row.limit_nanos === null ? null : nanosToUsd(row.limit_nanos),
    reset_interval: row.reset_interval,
    allowed_providers: list(row.allowed_providers),
    ignored_providers: list(row.ignored_providers),
    allowed_models: list(row.allowed_models),
    enforce_zdr: row.enforce_zdr === null ? null : row.enforce_zdr === 1,
    include_byok_in_budgets: row.include_byok_in_budgets === 1,
    workspace_id: account.workspace_id,
    created_at: toIso(row.created_at),
    updated_at: row.updated_at === null ? null : toIso(row.updated_at),
    ...(JSON.parse(row.extras) as Record<string, unknown>),
  }
}

export const keyAssignmentView = (a: KeyAssignmentRow): KeyAssignmentObject => ({
  id: a.id,
  key_hash: a.key_hash,
  guardrail_id: a.guardrail_id,
  key_name: a.key_name,
  key_label: a.key_label,
  assigned_by: a.assigned_by,
  created_at: toIso(a.created_at),
})

export const memberAssignmentView = (a: MemberAssignmentRow): MemberAssignmentObject => ({
  id: a.id,
  user_id: a.member_id,
  organization_id: a.account_id,
  guardrail_id: a.guardrail_id,
  assigned_by: a.assigned_by,
  created_at: toIso(a.created_at),
})

/** Client fields without a column of their own, kept as sent (later values replace earlier ones). */
function extrasOf(body: Record<string, unknown>, current: string): string {
  const extras = JSON.parse(current) as Record<string, unknown>
  for (const [key, value] of Object.entries(body)) if (!GUARDRAIL_COLUMNS.has(key) && !READ_ONLY_FIELDS.has(key)) extras[key] = value
  return JSON.stringify(extras)
}

/** The guardrail with this id in the caller's account; anything else (another account's, malformed) is a 404. */
export function requireGuardrail(repo: GuardrailsRepo, account: AccountRow, id: string): GuardrailRow {
  const row = repo.get(id)
  if (!row || row.account_id !== account.id) throw guardrailNotFound(id)
  return row
}

export function newGuardrailRow(ctx: EmulatorContext, account: AccountRow, body: CreateGuardrailBody): GuardrailRow {
  return {
    id: ctx.ids.uuid(ctx.ids.next('guardrail')),
    account_id: account.id,
    name: body.name,
    description: body.description ?? null,
    limit_nanos: body.limit_usd === undefined || body.limit_usd === null ? null : usdToNanos(body.limit_usd),
    reset_interval: body.reset_interval ?? null,
    allowed_providers: listJson(body.allowed_providers, null),
    ignored_providers: listJson(body.ignored_providers, null),
    allowed_models: listJson(body.allowed_models, null),
    enforce_zdr: body.enforce_zdr === undefined || body.enforce_zdr === null ? null : body.enforce_zdr ? 1 : 0,
    include_byok_in_budgets: body.include_byok_in_budgets ? 1 : 0,
    extras: extrasOf(body, '{}'),
    created_at: ctx.clock.now(),
    updated_at: null,
  }
}

/** Collections are replaced, not merged; a field left out keeps its value. */
export function patchedGuardrailRow(row: GuardrailRow, body: UpdateGuardrailBody, now: number): GuardrailRow {
  return {
    ...row,
    name: body.name ?? row.name,
    description: body.description === undefined ? row.description : body.description,
    limit_nanos: body.limit_usd === undefined ? row.limit_nanos : body.limit_usd === null ? null : usdToNanos(body.limit_usd),
    reset_interval: body.reset_interval === undefined ? row.reset_interval : body.reset_interval,
    allowed_providers: listJson(body.allowed_providers, row.allowed_providers),
    ignored_providers: listJson(body.ignored_providers, row.ignored_providers),
    allowed_models: listJson(body.allowed_models, row.allowed_models),
    enforce_zdr: body.enforce_zdr === undefined ? row.enforce_zdr : body.enforce_zdr === null ? null : body.enforce_zdr ? 1 : 0,
    include_byok_in_budgets: body.include_byok_in_budgets === undefined ? row.include_byok_in_budgets : body.include_byok_in_budgets ? 1 : 0,
    extras: extrasOf(body, row.extras),
    updated_at: now,
  }
}

/** The guardrails governing a caller: its key's, then its member's (once, if they are the same). */
export function guardrailsOf(repo: GuardrailsRepo, caller: AuthContext): GuardrailRow[] {
  const ids = [repo.guardrailOfKey(caller.key.hash), caller.key.creator_user_id ? repo.guardrailOfMember(caller.key.creator_user_id) : null]
  return [...new Set(ids.filter((id): id is string => id !== null))].map((id) => repo.get(id)!).filter(Boolean)
}

export function guardrailPolicy(row: GuardrailRow): EndpointPolicy {
  const ignoredModels = (JSON.parse(row.extras) as { ignored_models?: unknown }).ignored_models
  return {
    source: `guardrail ${row.id}`,
    allowedProviders: list(row.allowed_providers),
    ignoredProviders: list(row.ignored_providers),
    allowedModels: list(row.allowed_models),
    ignoredModels: Array.isArray(ignoredModels) ? (ignoredModels as string[]) : null,
    zdrOnly: row.enforce_zdr === 1,
  }
}
