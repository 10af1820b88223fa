// The ledger: the one place a billable action is allowed or denied, and recorded. Inside the meter's
// transaction it checks, in order, that the model is allowed (account settings, region, guardrails),
// the guardrail and workspace budgets, the key's limit and the account's credits; then it writes the usage row and
// debits the account. Denials are ApiErrors with metadata naming what ran out.
import { immediateTransaction } from '../../store/db.ts'
import { recordEffect, withStagedEffects } from '../../journal/journal.ts'
import { windowStartFor, windowStarts } from '../../core/windows.ts'
import type { EmulatorContext } from '../module.ts'
import type { AuthContext } from '../caller.ts'
import type { CatalogEndpoint, Region } from '../catalog/catalog.schemas.ts'
import { availableEndpoints, type ModelNames, type PolicyEndpoint } from '../catalog/catalog-policy.service.ts'
import { healthiest } from '../catalog/catalog-routing.service.ts'
import { userNotFound } from '../keys/keys.errors.ts'
import { creditsExhausted, guardrailBudgetExceeded, insufficientCredits, keyLimitExceeded, noAllowedEndpoints } from './ledger.errors.ts'
import { guardrailsOf } from '../guardrails/guardrails.service.ts'
import { limitUsageNanos } from '../keys/keys.service.ts'
import { workspaceBudgetExceeded } from '../workspaces/workspaces.errors.ts'
import type { KeyRow } from '../keys/keys.repo.ts'
import type { AccountRow } from '../accounts/accounts.repo.ts'

export interface Charge {
  prompt_tokens: number
  completion_tokens?: number
  reasoning_tokens?: number
  cost_nanos: number
}

/**
 * An endpoint as the ledger sees it: what the policies check, what routing ranks by (`status`) and
 * what the usage row records. A catalog endpoint is one; the price callback gets the caller's own type.
 */
export type LedgerEndpoint = PolicyEndpoint & Pick<CatalogEndpoint, 'id' | 'status'>

export interface BillingRequest<E extends LedgerEndpoint> {
  caller: AuthContext
  /** Operation id of the route, recorded on the usage row. */
  operation: string
  /** The model's id (recorded on the usage row) and canonical slug: the names guardrails allow it by. */
  model: ModelNames
  /** The endpoints that may serve the model, in catalog order. */
  endpoints: readonly E[]
  region?: Region | null
  /** Picks the serving endpoint among those the caller may use; may throw its own 404. Default: the healthiest. */
  route?: (allowed: readonly E[]) => E
  /** Tokens and cost of the action on the chosen endpoint (its prices). */
  price: (endpoint: E) => Charge
  /** Paid through the caller's own provider key: recorded, but not debited from credits. */
  byok?: boolean
}

export interface Billed<E extends LedgerEndpoint> {
  usage_id: number
  endpoint: E
  charge: Charge
  /** Paid with the caller's own provider key (the answer's `is_byok`): not debited from credits. */
  byok: boolean
}

const WINDOW_NAME = { daily: 'daily', weekly: 'weekly', monthly: 'monthly' } as const

/**
 * Checks and bills: every check before the first write. Inside a transaction (the meter's), as part of it,
 * whose rollback undoes it and whose staged effects report the usage row; alone, in a transaction of its own.
 */
export function bill<E extends LedgerEndpoint>(ctx: EmulatorContext, request: BillingRequest<E>): Billed<E> {
  // The usage row is reported to the journal only once its transaction (and any enclosing one) holds.
  if (!ctx.db.inTransaction) return withStagedEffects(() => immediateTransaction(ctx.db, () => bill(ctx, request)))
  const now = ctx.clock.now()
  const { key, account, allowed } = allowedFor(ctx, request)
  const endpoint = (request.route ?? healthiest)(allowed)
  const charge = request.price(endpoint)
  // Paid with the caller's own provider key where its workspace holds a credential for the chosen provider.
  const byok = request.byok ?? ctx.services.byok.paysWithOwnKey({ key, account, provider: endpoint.provider, model: request.model })
  checkBudgets(ctx, key, account, now)

  const balance = account.credits_nanos - account.spent_nanos
  if (!byok && charge.cost_nanos > 0 && balance < charge.cost_nanos) {
    throw insufficientCredits(charge.cost_nanos, balance)
  }

  const usage_id = ctx.services.usage.insert({
    account_id: account.id,
    key_hash: key.hash,
    member_id: key.creator_user_id,
    operation: request.operation,
    model: request.model.id,
    provider: endpoint.provider_name,
    endpoint_id: endpoint.id,
    prompt_tokens: charge.prompt_tokens,
    completion_tokens: charge.completion_tokens ?? 0,
    reasoning_tokens: charge.reasoning_tokens ?? 0,
    cost_nanos: charge.cost_nanos,
    byok: byok ? 1 : 0,
    created_at: now,
    workspace_id: key.workspace_id ?? account.workspace_id,
  })
  if (!byok) ctx.services.accounts.addSpend(account.id, charge.cost_nanos)
  recordEffect('usage', usage_id)
  return { usage_id, endpoint, charge, byok }
}

/** What `admit` is asked: who calls, for which model, on which endpoints; the cost is not known yet. */
export type AdmissionRequest<E extends LedgerEndpoint> = Pick<BillingRequest<E>, 'caller' | 'model' | 'endpoints' | 'region' | 'byok'>

/**
 * Whether `bill` would take an action whose cost is known only once it is done (an answer relayed from
 * the upstream gateway): the same checks in the same order (the key, the policies' model and provider
 * rules, the guardrail budgets, the key's limit), and credits left above zero. Writes nothing; throws
 * the error `bill` would; returns the endpoints the caller may use.
 */
export function admit<E extends LedgerEndpoint>(ctx: EmulatorContext, request: AdmissionRequest<E>): readonly E[] {
  const now = ctx.clock.now()
  const { key, account, allowed } = allowedFor(ctx, request)
  checkBudgets(ctx, key, account, now)
  const balance = account.credits_nanos - account.spent_nanos
  if (!(request.byok ?? false) && balance <= 0) throw creditsExhausted(balance)
  return allowed
}

/** The caller's key as of now, its account, and the endpoints of the model its policies allow (404 for none). */
function allowedFor<E extends LedgerEndpoint>(ctx: EmulatorContext, request: AdmissionRequest<E>): { key: KeyRow; account: AccountRow; allowed: readonly E[] } {
  const { caller, model } = request
  // The key as of now: it may have been changed, or revoked, since the request was authenticated
  // (authentication runs before the body has arrived). A revoked key is as unknown as at the door.
  const key = ctx.services.keys.byHash(caller.key.hash)
  if (!key) throw userNotFound()
  const account = ctx.services.accounts.get(caller.account.id)!

  const policies = ctx.services.catalog.policies.for({ key, account }, request.region ?? null)
  const allowed = availableEndpoints(model, request.endpoints, policies)
  if (allowed.length === 0) {
    throw noAllowedEndpoints(
      model.id,
      policies.map((p) => p.source),
    )
  }
  return { key, account, allowed }
}

/** The guardrail budgets of the key and its member, its workspace's budgets, then the key's own limit: 402 (or 403) for the first spent. */
function checkBudgets(ctx: EmulatorContext, key: KeyRow, account: AccountRow, now: number): void {
  for (const guardrail of guardrailsOf(ctx.services.guardrails, { key, account })) {
    if (guardrail.limit_nanos === null) continue
    const since = windowStartFor(guardrail.reset_interval, windowStarts(now))
    const spent = ctx.services.guardrails.spentNanos(guardrail.id, since, now, guardrail.include_byok_in_budgets === 1)
    if (spent >= guardrail.limit_nanos) {
      const window = guardrail.reset_interval ? WINDOW_NAME[guardrail.reset_interval] : 'total'
      throw guardrailBudgetExceeded({ ...guardrail, limit_nanos: guardrail.limit_nanos }, window, spent)
    }
  }

  const workspaceBudget = ctx.services.workspaces.exceededBudget(key.workspace_id ?? account.workspace_id, now)
  if (workspaceBudget) throw workspaceBudgetExceeded(workspaceBudget)

  if (key.limit_nanos !== null) {
    // Summing usage costs a scan of the key's rows, so only keys with a limit pay for it.
    const used = limitUsageNanos(ctx.services.keys.withUsage(key.hash, windowStarts(now))!)
    if (used >= key.limit_nanos) {
      const window = key.limit_reset ? WINDOW_NAME[key.limit_reset] : 'total'
      throw keyLimitExceeded(ctx.config.keyLimitStatus, { limit_nanos: key.limit_nanos, limit_reset: key.limit_reset }, window, used)
    }
  }
}

/**
 * Gives back what a usage row cost (a failed video task): the row stays, costing nothing, and the
 * account's spend goes down by as much, so every figure derived from usage follows. Idempotent.
 */
export function refund(ctx: EmulatorContext, usageId: number): void {
  ctx.db
    .transaction(() => {
      const row = ctx.services.usage.get(usageId)
      if (!row || row.cost_nanos === 0) return
      ctx.services.usage.zeroCost(usageId)
      if (row.byok === 0) ctx.services.accounts.addSpend(row.account_id, -row.cost_nanos)
    })
    .immediate()
}

/**
 * Bills less than was charged (an answer cut short by a fault): the usage row keeps its prompt and
 * takes the completion tokens and cost of what was delivered, and the account's spend goes down by
 * the difference. Never bills more than the row did.
 */
export function settle(ctx: EmulatorContext, usageId: number, delivered: { completion_tokens: number; cost_nanos: number }): void {
  immediateTransaction(ctx.db, () => {
    const row = ctx.services.usage.get(usageId)
    if (!row || delivered.cost_nanos >= row.cost_nanos) return
    ctx.services.usage.settle(usageId, delivered.completion_tokens, delivered.cost_nanos)
    if (row.byok === 0) ctx.services.accounts.addSpend(row.account_id, delivered.cost_nanos - row.cost_nanos)
  })
}
