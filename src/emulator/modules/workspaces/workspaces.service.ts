// Workspaces as the API shows them, the rules their changes follow, and the service other areas
// reach them through: a workspace by id, an account's default one, a key's, and the budget a key's
// request would go over (the ledger asks it before billing).
import { toIso } from '../../core/clock.ts'
import { uuidFromHex } from '../../core/ids.ts'
import { nanosToUsd, usdToNanos } from '../../core/money.ts'
import { sha256Hex } from '../../core/rng.ts'
import { windowStartFor, windowStarts } from '../../core/windows.ts'
import type { AccountRow } from '../accounts/accounts.repo.ts'
import type { EmulatorContext } from '../module.ts'
import { budgetOutOfOrder, budgetTooSmall, notAModel, slugTaken, tooManyWorkspaces, workspaceNotFound } from './workspaces.errors.ts'
import {
  BUDGET_INTERVALS,
  createWorkspacesRepo,
  DEFAULT_WORKSPACE,
  type BudgetInterval,
  type BudgetRow,
  type MembershipRow,
  type WorkspaceRow,
  type WorkspacesRepo,
} from './workspaces.repo.ts'
import {
  MAX_ACCOUNT_WORKSPACES,
  MAX_TOTAL_WORKSPACES,
  type BudgetObject,
  type CreateWorkspaceBody,
  MembershipObject,
  UpdateWorkspaceBody,
  WorkspaceObject,
} from './workspaces.schemas.ts'

/** A budget of a key's workspace that its spend in the current window has reached. */
export interface ExceededBudget {
  workspace_id: string
  workspace_name: string
  reset_interval: BudgetInterval
  limit_nanos: number
  spent_nanos: number
}

export interface WorkspacesService {
  readonly repo: WorkspacesRepo
  /** The workspace with this id in this account (an id only, not a slug); undefined for any other. */
  byId(accountId: string, id: string): WorkspaceRow | undefined
  /** The workspace with this id, or else this slug, in this account: what `{id}` in a path names. */
  find(accountId: string, idOrSlug: string): WorkspaceRow | undefined
  /** The id of the account's default workspace (it always exists, and cannot be deleted). */
  defaultFor(accountId: string): string
  /** Creates an account's default workspace; call inside the transaction that creates the account. */
  insertDefault(account: Pick<AccountRow, 'id' | 'workspace_id' | 'created_at'>, createdBy: string | null): void
  /** The first budget (narrowest interval first) of a workspace (a key's) that is spent, or undefined. */
  exceededBudget(workspaceId: string, now: number): ExceededBudget | undefined
  /**
   * Declares records of another area that belong to a workspace (BYOK credentials, destinations, presets,
   * files, SCIM mappings): a workspace that holds any cannot be deleted, so none is left pointing at nothing.
   */
  holds(what: string, count: (accountId: string, workspaceId: string) => number): void
  /** What of the declared records a workspace still holds, as `2 presets`; empty when none. */
  held(accountId: string, workspaceId: string): string[]
}

export function createWorkspacesService(ctx: EmulatorContext): WorkspacesService {
  const repo = createWorkspacesRepo(ctx.db)
  // Ids are stored lowercase, as uuids compare; slugs are lowercase by their rule.
  const byId = (accountId: string, id: string) => {
    const row = repo.get(id.toLowerCase())
    return row?.account_id === accountId ? row : undefined
  }
  const holders: Array<{ what: string; count: (accountId: string, workspaceId: string) => number }> = []
  return {
    repo,
    byId,
    holds: (what, count) => void holders.push({ what, count }),
    held: (accountId, workspaceId) =>
      holders.flatMap(({ what, count }) => {
        const n = count(accountId, workspaceId)
        return n > 0 ? [`${n} ${what}`] : []
      }),
    find: (accountId, idOrSlug) => byId(accountId, idOrSlug) ?? repo.bySlug(accountId, idOrSlug.toLowerCase()),
    defaultFor(accountId) {
      const account = ctx.services.accounts.get(accountId)
      if (!account) throw new Error(`no account ${accountId}`)
      return account.workspace_id
    },
    insertDefault(account, createdBy) {
      repo.insert({
        ...DEFAULT_SETTINGS,
        id: account.workspace_id,
        account_id: account.id,
        name: DEFAULT_WORKSPACE.name,
        slug: DEFAULT_WORKSPACE.slug,
        created_by: createdBy,
        created_at: account.created_at,
        updated_at: null,
      })
    },
    exceededBudget(workspaceId, now) {
      const budgets = repo.budgets(workspaceId)
      if (budgets.length === 0) return undefined
      const workspace = repo.get(workspaceId)!
      const starts = windowStarts(now)
      for (const budget of budgets) {
        const since = budget.reset_interval === 'lifetime' ? 0 : windowStartFor(budget.reset_interval, starts)
        const spent = ctx.services.usage.spentInWorkspace({
          accountId: workspace.account_id,
          workspaceId: workspace.id,
          defaultWorkspace: ctx.services.accounts.get(workspace.account_id)!.workspace_id,
          since,
          now,
          includeByok: workspace.include_byok_in_budgets === 1,
        })
        if (spent >= budget.limit_nanos) {
          return {
            workspace_id: workspace.id,
            workspace_name: workspace.name,
            reset_interval: budget.reset_interval,
            limit_nanos: budget.limit_nanos,
            spent_nanos: spent,
          }
        }
      }
      return undefined
    },
  }
}

/** Every setting of a new workspace that its creator did not give. */
const DEFAULT_SETTINGS = {
  description: null,
  default_text_model: null,
  default_image_model: null,
  default_provider_sort: null,
  is_observability_io_logging_enabled: 0,
  is_observability_broadcast_enabled: 0,
  is_data_discount_logging_enabled: 1,
  io_logging_sampling_rate: 1,
  io_logging_api_key_ids: null,
  include_byok_in_budgets: 0,
} as const satisfies Partial<WorkspaceRow>

/** The document's "deterministic ID derived from the workspace ID": a uuid of the workspace's id alone. */
export const defaultGuardrailId = (workspaceId: string): string => uuidFromHex(sha256Hex(`default-guardrail:${workspaceId}`))

const bool = (value: 0 | 1): boolean => value === 1
const flag = (value: boolean | undefined, current: 0 | 1): 0 | 1 => (value === undefined ? current : value ? 1 : 0)

export function workspaceView(row: WorkspaceRow): WorkspaceObject {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    default_guardrail_id: defaultGuardrailId(row.id),
    default_text_model: row.default_text_model,
    default_image_model: row.default_image_model,
    default_provider_sort: row.default_provider_sort,
    include_byok_in_budgets: bool(row.include_byok_in_budgets),
    io_logging_api_key_ids: row.io_logging_api_key_ids === null ? null : (JSON.parse(row.io_logging_api_key_ids) as number[]),
    io_logging_sampling_rate: row.io_logging_sampling_rate,
    is_data_discount_logging_enabled: bool(row.is_data_discount_logging_enabled),
    is_observability_broadcast_enabled: bool(row.is_observability_broadcast_enabled),
    is_observability_io_logging_enabled: bool(row.is_observability_io_logging_enabled),
    created_at: toIso(row.created_at),
    updated_at: row.updated_at === null ? null : toIso(row.updated_at),
    created_by: row.created_by,
  }
}

export const budgetView = (row: BudgetRow): BudgetObject => ({
  id: row.id,
  workspace_id: row.workspace_id,
  limit_usd: nanosToUsd(row.limit_nanos),
  reset_interval: row.reset_interval === 'lifetime' ? null : row.reset_interval,
  created_at: toIso(row.created_at),
  updated_at: toIso(row.updated_at),
})

export const membershipView = (row: MembershipRow): MembershipObject => ({
  id: row.id,
  workspace_id: row.workspace_id,
  user_id: row.member_id,
  role: row.role,
  created_at: toIso(row.created_at),
})

/** The workspace a path's `{id}` names in the caller's account (its id or its slug); anything else is a 404. */
export function requireWorkspace(ctx: EmulatorContext, account: AccountRow, idOrSlug: string): WorkspaceRow {
  const row = ctx.services.workspaces.find(account.id, idOrSlug)
  if (!row) throw workspaceNotFound(idOrSlug)
  return row
}

export const isDefault = (row: WorkspaceRow, account: AccountRow): boolean => row.id === account.workspace_id

/**
 * A default model must be one of the catalog's, of the kind its field names: a text model answers
 * with text, an image model with images.
 */
function checkModels(ctx: EmulatorContext, body: UpdateWorkspaceBody): void {
  const checks = [
    ['default_text_model', 'text', 'must name a model that outputs text'],
    ['default_image_model', 'image', 'must name a model that outputs images'],
  ] as const
  for (const [field, modality, why] of checks) {
    const id = body[field]
    if (id === undefined || id === null) continue
    const model = ctx.services.catalog.get().find(id)
    if (!model) throw notAModel(field, id, 'must name a model of the catalog')
    if (!model.architecture.output_modalities.includes(modality)) throw notAModel(field, id, why)
  }
}

function checkSlugFree(ctx: EmulatorContext, accountId: string, slug: string, self: string | null): void {
  const other = ctx.services.workspaces.repo.bySlug(accountId, slug)
  if (other && other.id !== self) throw slugTaken(slug)
}

/** A new workspace of the caller's account from a create body; checked, not yet stored. */
export function newWorkspaceRow(ctx: EmulatorContext, account: AccountRow, createdBy: string | null, body: CreateWorkspaceBody): WorkspaceRow {
  checkModels(ctx, body)
  checkSlugFree(ctx, account.id, body.slug, null)
  // Counted in the transaction that inserts it (the caller's): two creates cannot both take the last place.
  const { repo } = ctx.services.workspaces
  if (repo.countAdded(account.id, account.workspace_id) >= MAX_ACCOUNT_WORKSPACES) throw tooManyWorkspaces('account', MAX_ACCOUNT_WORKSPACES)
  const defaults = ctx.services.accounts.list().map((a) => a.workspace_id)
  if (repo.countAddedInAll(defaults) >= MAX_TOTAL_WORKSPACES) throw tooManyWorkspaces('emulator', MAX_TOTAL_WORKSPACES)
  return patched(
    {
      ...DEFAULT_SETTINGS,
      id: ctx.ids.uuid(ctx.ids.next('workspace')),
      account_id: account.id,
      name: body.name,
      slug: body.slug,
      created_by: createdBy,
      created_at: ctx.clock.now(),
      updated_at: null,
    },
    body,
  )
}

/** The workspace with a PATCH body laid over it: a field left out keeps its value, null clears one. */
export function patchedWorkspaceRow(ctx: EmulatorContext, row: WorkspaceRow, body: UpdateWorkspaceBody): WorkspaceRow {
  checkModels(ctx, body)
  if (body.slug !== undefined) checkSlugFree(ctx, row.account_id, body.slug, row.id)
  return { ...patched(row, body), updated_at: ctx.clock.now() }
}

function patched(row: WorkspaceRow, body: UpdateWorkspaceBody): WorkspaceRow {
  const keep = <T>(value: T | undefined, current: T): T => (value === undefined ? current : value)
  return {
    ...row,
    name: keep(body.name, row.name),
    slug: keep(body.slug, row.slug),
    description: keep(body.description, row.description),
    default_text_model: keep(body.default_text_model, row.default_text_model),
    default_image_model: keep(body.default_image_model, row.default_image_model),
    default_provider_sort: keep(body.default_provider_sort, row.default_provider_sort),
    is_observability_io_logging_enabled: flag(body.is_observability_io_logging_enabled, row.is_observability_io_logging_enabled),
    is_observability_broadcast_enabled: flag(body.is_observability_broadcast_enabled, row.is_observability_broadcast_enabled),
    is_data_discount_logging_enabled: flag(body.is_data_discount_logging_enabled, row.is_data_discount_logging_enabled),
    io_logging_sampling_rate: keep(body.io_logging_sampling_rate, row.io_logging_sampling_rate),
    io_logging_api_key_ids:
      body.io_logging_api_key_ids === undefined
        ? row.io_logging_api_key_ids
        : body.io_logging_api_key_ids === null
          ? null
          : JSON.stringify(body.io_logging_api_key_ids),
  }
}

/**
 * The interval's budget with a new limit, after checking it against the workspace's other budgets:
 * a narrower interval's limit must be below it, a wider one's above it. Not yet stored.
 */
export function nextBudget(ctx: EmulatorContext, workspace: WorkspaceRow, interval: BudgetInterval, limitUsd: number): BudgetRow {
  const limit_nanos = usdToNanos(limitUsd)
  if (limit_nanos <= 0) throw budgetTooSmall()
  const rank = BUDGET_INTERVALS.indexOf(interval)
  for (const other of ctx.services.workspaces.repo.budgets(workspace.id)) {
    const otherRank = BUDGET_INTERVALS.indexOf(other.reset_interval)
    if (otherRank < rank && other.limit_nanos >= limit_nanos) throw budgetOutOfOrder(interval, 'greater', other.reset_interval, other.limit_nanos)
    if (otherRank > rank && other.limit_nanos <= limit_nanos) throw budgetOutOfOrder(interval, 'less', other.reset_interval, other.limit_nanos)
  }
  const now = ctx.clock.now()
  const existing = ctx.services.workspaces.repo.budget(workspace.id, interval)
  return existing
    ? { ...existing, limit_nanos, updated_at: now }
    : {
        id: ctx.ids.uuid(ctx.ids.next('workspace-budget')),
        workspace_id: workspace.id,
        reset_interval: interval,
        limit_nanos,
        created_at: now,
        updated_at: now,
      }
}

/**
 * The default workspace's members are every member of the account (implicit membership), each with a
 * membership id derived from the workspace and the member, dated from the member's arrival.
 */
export function implicitMemberships(ctx: EmulatorContext, account: AccountRow): MembershipRow[] {
  return ctx.services.accounts.members(account.id).map((m) => ({
    id: ctx.ids.uuid(`workspace-member:${account.workspace_id}:${m.id}`),
    workspace_id: account.workspace_id,
    member_id: m.id,
    role: m.role,
    created_at: m.created_at,
  }))
}
