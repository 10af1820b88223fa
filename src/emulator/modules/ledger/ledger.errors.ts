// The real gateway's words for a request the ledger refuses before anything is written: no endpoint
// the caller may use, a guardrail's budget or the key's limit spent, credits short.
import { ApiError } from '../../core/errors.ts'
import { formatUsd, nanosToUsd } from '../../core/money.ts'

export const noAllowedEndpoints = (model: string, restrictions: readonly string[]): ApiError =>
  new ApiError(404, 'No endpoints available matching your guardrail restrictions and data policy', { metadata: { model, restrictions } })

export const guardrailBudgetExceeded = (
  guardrail: { id: string; name: string; limit_nanos: number; reset_interval: string | null },
  window: string,
  spentNanos: number,
): ApiError =>
  new ApiError(402, `Guardrail budget exceeded (${window} limit): guardrail "${guardrail.name}" allows ${formatUsd(guardrail.limit_nanos)}`, {
    metadata: {
      limit_source: 'guardrail_budget',
      guardrail_id: guardrail.id,
      limit_usd: nanosToUsd(guardrail.limit_nanos),
      reset_interval: guardrail.reset_interval,
      usage_usd: nanosToUsd(spentNanos),
    },
  })

/** `status`: 402 as the spec says, or 403 as the real service was seen to answer (--key-limit-status). */
export const keyLimitExceeded = (status: number, key: { limit_nanos: number; limit_reset: string | null }, window: string, usedNanos: number): ApiError =>
  new ApiError(status, `Key limit exceeded (${window} limit)`, {
    metadata: { limit_source: 'openrouter_key_limit', limit: nanosToUsd(key.limit_nanos), limit_reset: key.limit_reset, usage: nanosToUsd(usedNanos) },
  })

export const insufficientCredits = (costNanos: number, balanceNanos: number): ApiError =>
  new ApiError(
    402,
    `Insufficient credits. This request costs ${formatUsd(costNanos)} and the account has ${formatUsd(Math.max(0, balanceNanos))} left; add credits with a crypto charge or the admin API`,
    { metadata: { limit_source: 'openrouter_credits', balance_usd: nanosToUsd(balanceNanos), cost_usd: nanosToUsd(costNanos) } },
  )

/** Refused before an action whose cost is not known yet (a call relayed to the upstream gateway): nothing left to spend. */
export const creditsExhausted = (balanceNanos: number): ApiError =>
  new ApiError(402, `Insufficient credits. The account has ${formatUsd(Math.max(0, balanceNanos))} left; add credits with a crypto charge or the admin API`, {
    metadata: { limit_source: 'openrouter_credits', balance_usd: nanosToUsd(balanceNanos) },
  })
