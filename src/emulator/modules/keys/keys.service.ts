// Key creation and the public key object. Usage fields and limit_remaining are derived from usage
// rows against the clock on every read, so a reset is just a window boundary passing.
import { maskToken } from '../../core/ids.ts'
import { nanosToUsd, usdToNanos } from '../../core/money.ts'
import { sha256Hex } from '../../core/rng.ts'
import { toIso } from '../../core/clock.ts'
import { windowStarts, type ResetInterval } from '../../core/windows.ts'
import { fieldError } from '../../core/errors.ts'
import type { EmulatorContext } from '../module.ts'
import type { AccountRow } from '../accounts/accounts.repo.ts'
import type { KeyKind, KeyRow, KeyWithUsage } from './keys.repo.ts'
import type { CurrentKeyObject, KeyObject } from './keys.schemas.ts'
import type { Static } from 'typebox'

export interface NewKey {
  account_id: string
  kind: KeyKind
  name: string
  /** Fixes the token: same seed and label, same token. */
  label: string
  creator_user_id: string | null
  disabled?: boolean
  limit_usd?: number | null
  limit_reset?: ResetInterval | null
  include_byok_in_limit?: boolean
  expires_at?: number | null
  /** The workspace it belongs to; the account's default when not given. */
  workspace_id?: string | null
}

/** Inserts a key; call inside the caller's transaction. Returns the row and its one-time token. */
export function insertKey(ctx: EmulatorContext, input: NewKey): { row: KeyRow; token: string } {
  const token = ctx.ids.token(input.label)
  const row: KeyRow = {
    hash: sha256Hex(token),
    account_id: input.account_id,
    kind: input.kind,
    token,
    name: input.name,
    label: maskToken(token),
    disabled: input.disabled ? 1 : 0,
    limit_nanos: input.limit_usd === undefined || input.limit_usd === null ? null : usdToNanos(input.limit_usd),
    limit_reset: input.limit_reset ?? null,
    include_byok_in_limit: input.include_byok_in_limit ? 1 : 0,
    creator_user_id: input.creator_user_id,
    expires_at: input.expires_at ?? null,
    created_at: ctx.clock.now(),
    updated_at: null,
    workspace_id: input.workspace_id ?? ctx.services.accounts.get(input.account_id)!.workspace_id,
  }
  ctx.services.keys.insert(row)
  return { row, token }
}

/** What counts against a key's limit in its current window (nano-USD). */
export function limitUsageNanos(key: KeyWithUsage): number {
  const pick = (base: number, daily: number, weekly: number, monthly: number): number =>
    key.limit_reset === 'daily' ? daily : key.limit_reset === 'weekly' ? weekly : key.limit_reset === 'monthly' ? monthly : base
  const own = pick(key.usage, key.usage_daily, key.usage_weekly, key.usage_monthly)
  const byok = pick(key.byok_usage, key.byok_usage_daily, key.byok_usage_weekly, key.byok_usage_monthly)
  return own + (key.include_byok_in_limit ? byok : 0)
}

/** The key object of the API, as its response schema declares it. */
export type KeyView = Static<typeof KeyObject>

/** Limit and usage in USD, as the key object and GET /key both show them. */
function limitAndUsage(key: KeyWithUsage) {
  return {
    limit: key.limit_nanos === null ? null : nanosToUsd(key.limit_nanos),
    limit_remaining: key.limit_nanos === null ? null : nanosToUsd(Math.max(0, key.limit_nanos - limitUsageNanos(key))),
    limit_reset: key.limit_reset,
    include_byok_in_limit: key.include_byok_in_limit === 1,
    usage: nanosToUsd(key.usage),
    usage_daily: nanosToUsd(key.usage_daily),
    usage_weekly: nanosToUsd(key.usage_weekly),
    usage_monthly: nanosToUsd(key.usage_monthly),
    byok_usage: nanosToUsd(key.byok_usage),
    byok_usage_daily: nanosToUsd(key.byok_usage_daily),
    byok_usage_weekly: nanosToUsd(key.byok_usage_weekly),
    byok_usage_monthly: nanosToUsd(key.byok_usage_monthly),
  }
}

/** `defaultWorkspace`: the account's, for a key from before workspaces (no workspace of its own). */
export function toKeyView(key: KeyWithUsage, defaultWorkspace: string): KeyView {
  return {
    hash: key.hash,
    name: key.name,
    label: key.label,
    disabled: key.disabled === 1,
    ...limitAndUsage(key),
    created_at: toIso(key.created_at),
    updated_at: key.updated_at === null ? null : toIso(key.updated_at),
    expires_at: key.expires_at === null ? null : toIso(key.expires_at),
    creator_user_id: key.creator_user_id,
    workspace_id: key.workspace_id ?? defaultWorkspace,
    external_user: null,
  }
}

/** A key object as of now, or undefined when the hash is unknown. */
export function keyView(ctx: EmulatorContext, hash: string): KeyView | undefined {
  const key = ctx.services.keys.withUsage(hash, windowStarts(ctx.clock.now()))
  if (!key) return undefined
  return toKeyView(key, ctx.services.accounts.get(key.account_id)!.workspace_id)
}

export type CurrentKeyView = Static<typeof CurrentKeyObject>

/** The real free-variant caps: 50 requests a day, 1000 once $10 of credits were bought. */
const FREE_DAILY_REQUESTS = { base: 50, funded: 1000, fundedFromNanos: usdToNanos(10) }

/** What GET /key says of a key as of now, or undefined when the hash is unknown (revoked meanwhile). */
export function currentKeyView(ctx: EmulatorContext, hash: string): CurrentKeyView | undefined {
  const starts = windowStarts(ctx.clock.now())
  const key = ctx.services.keys.withUsage(hash, starts)
  if (!key) return undefined
  const account = ctx.services.accounts.get(key.account_id)!
  // The emulator's credits are granted or bought alike, so "has had credits" stands for "has paid".
  const freeLimit = account.credits_nanos >= FREE_DAILY_REQUESTS.fundedFromNanos ? FREE_DAILY_REQUESTS.funded : FREE_DAILY_REQUESTS.base
  const freeUsed = ctx.services.usage.freeModelRequests(account.id, starts.day, starts.now)
  const management = key.kind === 'management'
  return {
    label: key.label,
    is_management_key: management,
    is_provisioning_key: management,
    ...limitAndUsage(key),
    is_free_tier: account.credits_nanos === 0,
    expires_at: key.expires_at === null ? null : toIso(key.expires_at),
    creator_user_id: key.creator_user_id,
    organization_id: null,
    workspace_id: key.workspace_id ?? account.workspace_id,
    allowed_data_regions: ['global'],
    free_model_daily_requests: { limit: freeLimit, remaining: Math.max(0, freeLimit - freeUsed), used: freeUsed },
    rate_limit: { requests: -1, interval: '10s', note: 'This field is deprecated and safe to ignore.' },
  }
}

/** What a key made over the API (POST /keys, an OAuth exchange) starts with. */
export interface KeyTerms {
  name: string
  limit_usd: number | null
  limit_reset: ResetInterval | null
  include_byok_in_limit: boolean
  expires_at: number | null
  creator_user_id: string | null
  workspace_id: string
}

/**
 * A standard key made over the API: its token derives from the seed and the key sequence, like the
 * admin API's, so the same calls give the same keys. Call inside the caller's transaction (a refused
 * request then takes no number from the sequence).
 */
export function provisionKey(ctx: EmulatorContext, accountId: string, terms: KeyTerms): { row: KeyRow; token: string } {
  return insertKey(ctx, { account_id: accountId, kind: 'standard', label: ctx.ids.next('key'), ...terms })
}

/**
 * The workspace a new key (or authorization code) goes to, or the keys list shows: the one named, when
 * it is a workspace of the account, else the account's default. The real document declares no 404 for
 * these operations: a workspace that is not the caller's is a 400 naming the field.
 */
export function ownWorkspace(ctx: EmulatorContext, account: AccountRow, given: string | undefined, location = 'body'): string {
  if (given === undefined) return account.workspace_id
  const workspace = ctx.services.keys.workspaceOf(account.id, given)
  if (!workspace) throw fieldError('workspace_id', 'is not a workspace of this account', location)
  return workspace.id
}

/** An explicit UTC offset: "Z", or +00:00 / -00:00 (with or without the colon). */
const UTC_SUFFIX = /(?:z|[+-]00:?00)$/i

/**
 * An expiry sent as an ISO 8601 time, as the real gateway takes it: UTC only ("other timezones will be
 * rejected"), and in the future of the virtual clock. Returns epoch milliseconds.
 */
export function futureUtcTime(ctx: EmulatorContext, field: string, text: string): number {
  if (!UTC_SUFFIX.test(text)) throw fieldError(field, 'must be a UTC time (ending in Z or +00:00): other time zones are rejected')
  const at = Date.parse(text)
  if (!Number.isFinite(at)) throw fieldError(field, 'is not a valid date-time')
  if (at <= ctx.clock.now()) throw fieldError(field, `must be in the future (the clock says ${ctx.clock.nowIso()})`)
  return at
}

/** The member a key is made by: the one named (a member of the account), else the caller's key's creator, else the first member. */
export function keyCreator(ctx: EmulatorContext, account: AccountRow, given: string | null | undefined, fallback: string | null): string | null {
  const members = ctx.services.accounts.members(account.id)
  if (given !== undefined && given !== null) {
    if (!members.some((m) => m.id === given)) throw fieldError('creator_user_id', 'is not a member of this account')
    return given
  }
  return fallback ?? members[0]?.id ?? null
}
