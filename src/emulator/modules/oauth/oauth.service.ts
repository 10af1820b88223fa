// The PKCE flow: an authorization code is issued (by POST /auth/keys/code, the authorization page or
// the admin API) for one account, with the challenge the app made and the terms of the key; the app
// exchanges it once, with the verifier, for a standard key of that account. Codes live CODE_LIFETIME
// on the virtual clock. A refused exchange changes nothing (the code stays usable until it expires).
import { createHash, timingSafeEqual } from 'node:crypto'
import { toIso } from '../../core/clock.ts'
import { fieldError } from '../../core/errors.ts'
import { nanosToUsd, usdToNanos } from '../../core/money.ts'
import { sha256Hex } from '../../core/rng.ts'
import type { ResetInterval } from '../../core/windows.ts'
import type { AccountRow } from '../accounts/accounts.repo.ts'
import { provisionKey } from '../keys/keys.service.ts'
import type { EmulatorContext } from '../module.ts'
import { codeExpired, codeUnknown, codeUsed, tooManyPendingCodes, verifierMismatch } from './oauth.errors.ts'
import type { ChallengeMethod, OAuthCodeRow } from './oauth.repo.ts'

/** How long a code can be exchanged, on the virtual clock (RFC 6749 advises at most 10 minutes). */
export const CODE_LIFETIME_MS = 10 * 60_000
export const CODE_LIFETIME = '10 minutes'
/** Codes one account may have waiting for their exchange: the table stays bounded. */
export const MAX_PENDING_CODES = 100
/** The longest callback URL taken. */
export const MAX_CALLBACK_CHARS = 2048
/** The longest name a key made by the flow gets (the document's `key_label` bound). */
export const MAX_KEY_NAME = 100

export const CHALLENGE_METHODS = ['S256', 'plain'] as const

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

/**
 * A host as DNS and IP literals spell it (the URL parser has already lower-cased and punycoded it):
 * dot-separated labels of letters, digits and hyphens, or a bracketed IPv6. The URL parser lets
 * `;`, `,`, `'` and more through in a host, and the authorization page names the callback's origin in
 * its Content-Security-Policy, where they would start new directives.
 */
const HOST_NAME = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?$|^\[[0-9a-f:.]+\]$/

/**
 * A callback URL as the real gateway takes it: https anywhere, or http on localhost / 127.0.0.1 (any
 * port) for local tools. The emulator never requests it: the browser is sent there, or the app reads
 * the code from the answer.
 */
export function checkCallbackUrl(text: string, field: string, location = 'body'): URL {
  if (text.length > MAX_CALLBACK_CHARS) throw fieldError(field, `must be at most ${MAX_CALLBACK_CHARS} characters`, location)
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw fieldError(field, 'must be an absolute URL (https://your.app/callback)', location)
  }
  const local = LOCAL_HOSTS.has(url.hostname)
  if (!(url.protocol === 'https:' || (url.protocol === 'http:' && local))) {
    throw fieldError(field, 'must be an https URL, or an http URL on localhost or 127.0.0.1 (any port)', location)
  }
  if (!HOST_NAME.test(url.hostname)) throw fieldError(field, 'must name its host with letters, digits, hyphens and dots (or an IP address)', location)
  if (url.username !== '' || url.password !== '') throw fieldError(field, 'must not carry a user name or password', location)
  return url
}

const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/
/** RFC 7636's unreserved characters; shorter than its 43 is allowed, as the real guide's own example is. */
const PLAIN_CHALLENGE = /^[A-Za-z0-9._~-]{1,128}$/

/** A challenge checked against its method (RFC 7636: `plain` when none is named). */
export function checkChallenge(challenge: string | undefined, method: ChallengeMethod | undefined, location = 'body'): PkceChallenge | null {
  if (challenge === undefined) {
    if (method !== undefined) throw fieldError('code_challenge', 'is required when code_challenge_method is given', location)
    return null
  }
  const resolved = method ?? 'plain'
  if (resolved === 'S256' && !S256_CHALLENGE.test(challenge)) {
    throw fieldError('code_challenge', 'must be the base64url SHA-256 of the code_verifier: 43 characters of A-Z a-z 0-9 - _, no padding', location)
  }
  if (resolved === 'plain' && !PLAIN_CHALLENGE.test(challenge)) {
    throw fieldError('code_challenge', 'must be the code_verifier itself: 1 to 128 characters of A-Z a-z 0-9 - . _ ~', location)
  }
  return { value: challenge, method: resolved }
}

export interface PkceChallenge {
  value: string
  method: ChallengeMethod
}

/** A stable number for the app behind a callback URL (its origin): the code's `app_id`. */
export const appIdOf = (callback: URL): number => Number.parseInt(sha256Hex(`app:${callback.origin}`).slice(0, 7), 16)

/** What a code grants, and to whom. */
export interface CodeGrant {
  account: AccountRow
  userId: string | null
  callback: URL
  challenge: PkceChallenge | null
  keyName: string
  limitUsd: number | null
  limitReset: ResetInterval | null
  keyExpiresAt: number | null
  workspaceId: string
}

/** Issues a code in one transaction; expired codes are forgotten first. */
export function issueCode(ctx: EmulatorContext, grant: CodeGrant): OAuthCodeRow {
  const repo = ctx.services.oauth
  return ctx.db
    .transaction((): OAuthCodeRow => {
      const now = ctx.clock.now()
      repo.purgeExpired(now)
      if (repo.pending(grant.account.id, now) >= MAX_PENDING_CODES) throw tooManyPendingCodes(MAX_PENDING_CODES)
      const row: OAuthCodeRow = {
        id: ctx.ids.uuid(ctx.ids.next('oauth-code')),
        account_id: grant.account.id,
        user_id: grant.userId,
        app_id: appIdOf(grant.callback),
        callback_url: grant.callback.href,
        code_challenge: grant.challenge?.value ?? null,
        code_challenge_method: grant.challenge?.method ?? null,
        key_name: grant.keyName.slice(0, MAX_KEY_NAME),
        limit_nanos: grant.limitUsd === null ? null : usdToNanos(grant.limitUsd),
        limit_reset: grant.limitReset,
        key_expires_at: grant.keyExpiresAt,
        workspace_id: grant.workspaceId,
        created_at: now,
        expires_at: now + CODE_LIFETIME_MS,
        used_at: null,
      }
      repo.insert(row)
      return row
    })
    .immediate()
}

/** Where the browser goes after the decision: the callback with `code`, or with `error=access_denied`. */
export function redirectTarget(callback: URL, outcome: { code: string } | { error: 'access_denied' }): string {
  const target = new URL(callback.href)
  if ('code' in outcome) target.searchParams.set('code', outcome.code)
  else target.searchParams.set('error', outcome.error)
  return target.href
}

const digest = (text: string): Buffer => createHash('sha256').update(text).digest()

/** Whether `verifier` answers `challenge`; compared as digests, so in the same time whatever it is. */
function verifierAnswers(challenge: PkceChallenge, verifier: string): boolean {
  const derived = challenge.method === 'S256' ? createHash('sha256').update(verifier).digest('base64url') : verifier
  return timingSafeEqual(digest(derived), digest(challenge.value))
}

export interface Exchange {
  code: string
  verifier: string | undefined
  method: ChallengeMethod | null | undefined
}

/** Exchanges a code for a new key of its account, in one transaction: the key, and the member who authorized it. */
export function exchangeCode(ctx: EmulatorContext, exchange: Exchange): { key: string; user_id: string | null } {
  const repo = ctx.services.oauth
  return ctx.db
    .transaction(() => {
      const now = ctx.clock.now()
      const row = repo.get(exchange.code)
      if (!row) throw codeUnknown()
      if (row.used_at !== null) throw codeUsed()
      if (row.expires_at <= now) throw codeExpired(toIso(row.expires_at), CODE_LIFETIME)
      if (row.code_challenge !== null && row.code_challenge_method !== null) {
        const stored = row.code_challenge_method
        if (exchange.method !== undefined && exchange.method !== null && exchange.method !== stored) {
          throw fieldError('code_challenge_method', `must be ${stored}, the method the code was created with`)
        }
        if (exchange.verifier === undefined) throw fieldError('code_verifier', 'is required: the code was created with a code_challenge')
        if (!verifierAnswers({ value: row.code_challenge, method: stored }, exchange.verifier)) throw verifierMismatch(stored)
      }
      repo.markUsed(row.id, now)
      const { token } = provisionKey(ctx, row.account_id, {
        name: row.key_name,
        limit_usd: row.limit_nanos === null ? null : nanosToUsd(row.limit_nanos),
        limit_reset: row.limit_reset,
        include_byok_in_limit: false,
        expires_at: row.key_expires_at,
        creator_user_id: row.user_id,
        workspace_id: row.workspace_id ?? ctx.services.accounts.get(row.account_id)!.workspace_id,
      })
      return { key: token, user_id: row.user_id }
    })
    .immediate()
}
