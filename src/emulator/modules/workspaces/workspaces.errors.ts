// The words for what the workspaces API refuses, and for a request refused because its key's
// workspace spent its budget (the ledger throws that one, before anything is billed).
import { ApiError, fieldError } from '../../core/errors.ts'
import { formatUsd, nanosToUsd } from '../../core/money.ts'
import type { BudgetInterval } from './workspaces.repo.ts'

export const workspaceNotFound = (id: string): ApiError => new ApiError(404, `Workspace ${id} not found`)

export const budgetNotFound = (slug: string, interval: BudgetInterval): ApiError => new ApiError(404, `Workspace ${slug} has no ${interval} budget`)

export const slugTaken = (slug: string): ApiError => fieldError('slug', `is already the slug of another workspace of this account (${slug})`)

/** The real service lets only some accounts delete their default workspace; the emulator, none. */
export const defaultWorkspaceUndeletable = (): ApiError =>
  new ApiError(403, "The default workspace cannot be deleted: it is where the account's keys and settings go when no workspace is named")

export const workspaceHasKeys = (slug: string, keys: number): ApiError =>
  new ApiError(400, `Workspace ${slug} has ${keys} API key${keys === 1 ? '' : 's'}: workspaces with API keys cannot be deleted; delete the keys first`, {
    metadata: { workspace: slug, api_keys: keys },
  })

/** Rows of another area that refer to the workspace and are not deleted with it. */
export const workspaceInUse = (slug: string, held?: readonly string[]): ApiError =>
  new ApiError(
    400,
    held && held.length > 0
      ? `Workspace ${slug} still holds ${held.join(', ')}: delete or move them first`
      : `Workspace ${slug} still holds records of other kinds that refer to it: delete them first`,
  )

export const notAMember = (field: string, userId: string): ApiError => fieldError(field, `is not a member of this account (${userId})`)

export const memberHasKeys = (field: string, userId: string, keys: number): ApiError =>
  fieldError(field, `has ${keys} API key${keys === 1 ? '' : 's'} in this workspace (${userId}): members with API keys in a workspace cannot be removed from it`)

export const defaultMembersImplicit = (): ApiError =>
  fieldError('user_ids', "cannot be removed from the default workspace: its members are all of the account's members")

export const notAModel = (field: string, id: string, why: string): ApiError => fieldError(field, `${why}: ${id} is not a valid model ID`)

/** A limit that rounds to nothing: the ledger counts whole nano-dollars. */
export const budgetTooSmall = (): ApiError => fieldError('limit_usd', 'must be at least 0.000000001 (one nano-dollar, the smallest amount the ledger counts)')

/** A budget limit out of the order the real service requires (lifetime > monthly > weekly > daily). */
export const budgetOutOfOrder = (interval: BudgetInterval, relation: 'greater' | 'less', other: BudgetInterval, otherLimitNanos: number): ApiError =>
  fieldError(
    'limit_usd',
    `must be ${relation} than the ${other} budget (${formatUsd(otherLimitNanos)}) for a ${interval} budget: limits must strictly decrease as the interval narrows (lifetime > monthly > weekly > daily)`,
  )

/** 402, as the real document declares for a request over a quota on every billed operation. */
export const workspaceBudgetExceeded = (spent: {
  workspace_id: string
  workspace_name: string
  reset_interval: BudgetInterval
  limit_nanos: number
  spent_nanos: number
}): ApiError =>
  new ApiError(402, `Workspace budget exceeded (${spent.reset_interval} limit): workspace "${spent.workspace_name}" allows ${formatUsd(spent.limit_nanos)}`, {
    metadata: {
      limit_source: 'workspace_budget',
      workspace_id: spent.workspace_id,
      limit_usd: nanosToUsd(spent.limit_nanos),
      reset_interval: spent.reset_interval === 'lifetime' ? null : spent.reset_interval,
      usage_usd: nanosToUsd(spent.spent_nanos),
    },
  })

/** One more workspace would pass what the account, or the emulator over every account, keeps: the management API's 409. */
export const tooManyWorkspaces = (scope: 'account' | 'emulator', most: number): ApiError =>
  new ApiError(
    409,
    scope === 'account'
      ? `An account can have at most ${most} workspaces besides its default one: delete one before adding another`
      : `The emulator keeps at most ${most} workspaces besides the accounts' default ones: delete one (or reset an account) before adding another`,
    { metadata: { limit: most } },
  )
