// Observability destinations as the API shows them, and the rules their changes follow. Secrets of a
// config are masked before they are stored; a destination is traced the calls made after it was
// created or enabled, not those before.
import { toIso } from '../../core/clock.ts'
import type { AccountRow } from '../accounts/accounts.repo.ts'
import { checkAccountKeyHashes } from '../byok/byok.service.ts'
import { workspaceFor } from '../byok/byok-workspace.service.ts'
import type { EmulatorContext } from '../module.ts'
import { nextConfig, type DestinationType } from './observability-destinations.service.ts'
import { destinationNotFound, tooManyDestinations, tooManyOfType } from './observability.errors.ts'
import { checkFilterRules } from './observability-filters.service.ts'
import type { DestinationRow, DestinationsRepo } from './observability.repo.ts'
import type { CreateDestinationBody, DestinationObject, FilterRules, RegionIn, UpdateDestinationBody } from './observability.schemas.ts'

/** The real service's cap on destinations of one type (in one workspace). */
export const MAX_PER_TYPE = 5
/**
 * Destinations one account keeps over its workspaces, and the emulator over every account: five of
 * each of the 17 types fill a workspace with 85; the broadcaster reads every enabled one each run.
 */
export const MAX_ACCOUNT_DESTINATIONS = 200
export const MAX_TOTAL_DESTINATIONS = 2000

type Region = DestinationObject['regions'][number]

export function destinationView(row: DestinationRow): DestinationObject {
  return {
    id: row.id,
    workspace_id: row.workspace_id,
    type: row.type as DestinationType,
    name: row.name,
    enabled: row.enabled === 1,
    privacy_mode: row.privacy_mode === 1,
    broadcast_generation_cost: row.broadcast_generation_cost === 1,
    broadcast_generation_identity: row.broadcast_generation_identity === 1,
    broadcast_generation_request_context: row.broadcast_generation_request_context === 1,
    sampling_rate: row.sampling_rate,
    api_key_hashes: row.api_key_hashes === null ? null : (JSON.parse(row.api_key_hashes) as string[]),
    filter_rules: row.filter_rules === null ? null : (JSON.parse(row.filter_rules) as FilterRules),
    regions: JSON.parse(row.regions) as Region[],
    config: JSON.parse(row.config) as Record<string, unknown>,
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
  }
}

/** The destination with this id in the caller's account; anything else (another account's, malformed) is a 404. */
export function requireDestination(repo: DestinationsRepo, account: AccountRow, id: string): DestinationRow {
  const row = repo.get(id)
  if (!row || row.account_id !== account.id) throw destinationNotFound(id)
  return row
}

/** `eu` is `europe` spelt as the SDK may send it; each region once, in the order given. */
const regionsJson = (regions: readonly RegionIn[]): string => JSON.stringify([...new Set(regions.map((r): Region => (r === 'eu' ? 'europe' : r)))])
const flag = (value: boolean | undefined, current: 0 | 1): 0 | 1 => (value === undefined ? current : value ? 1 : 0)
const json = (value: unknown, current: string | null): string | null => (value === undefined ? current : value === null ? null : JSON.stringify(value))

function checkLists(ctx: EmulatorContext, account: AccountRow, body: UpdateDestinationBody): void {
  checkAccountKeyHashes(ctx, account, body.api_key_hashes, 'api_key_hashes')
  checkFilterRules(body.filter_rules)
}

/** A new destination's row; call inside the transaction that inserts it (the cap per type is counted there). */
export function newDestinationRow(ctx: EmulatorContext, account: AccountRow, body: CreateDestinationBody): DestinationRow {
  const repo = ctx.services.observability
  const workspace_id = workspaceFor(ctx, account.id, body.workspace_id, 'workspace_id', 'body')
  if (repo.countOfType(account.id, workspace_id, body.type) >= MAX_PER_TYPE) throw tooManyOfType(body.type, MAX_PER_TYPE)
  if (repo.countStored(account.id) >= MAX_ACCOUNT_DESTINATIONS) throw tooManyDestinations('account', MAX_ACCOUNT_DESTINATIONS)
  if (repo.countStored(null) >= MAX_TOTAL_DESTINATIONS) throw tooManyDestinations('emulator', MAX_TOTAL_DESTINATIONS)
  const config = nextConfig(body.type, body.config, null, ctx.ownAddresses)
  checkLists(ctx, account, body)
  const now = ctx.clock.now()
  return {
    id: ctx.ids.uuid(ctx.ids.next('observability-destination')),
    account_id: account.id,
    workspace_id,
    type: body.type,
    name: body.name,
    config: JSON.stringify(config),
    enabled: flag(body.enabled, 1),
    privacy_mode: flag(body.privacy_mode, 0),
    broadcast_generation_cost: flag(body.broadcast_generation_cost, 0),
    broadcast_generation_identity: flag(body.broadcast_generation_identity, 0),
    broadcast_generation_request_context: flag(body.broadcast_generation_request_context, 0),
    sampling_rate: body.sampling_rate ?? 1,
    api_key_hashes: json(body.api_key_hashes, null),
    filter_rules: json(body.filter_rules, null),
    regions: regionsJson(body.regions ?? ['global']),
    traced_usage_id: repo.lastUsageId(),
    created_at: now,
    updated_at: now,
  }
}

/** Only the fields given change; config fields are laid over the current ones. Enabling it again starts its traces from now. */
export function patchedDestinationRow(ctx: EmulatorContext, account: AccountRow, row: DestinationRow, body: UpdateDestinationBody): DestinationRow {
  const config =
    body.config === undefined
      ? row.config
      : JSON.stringify(nextConfig(row.type as DestinationType, body.config, JSON.parse(row.config) as Record<string, unknown>, ctx.ownAddresses))
  checkLists(ctx, account, body)
  const enabled = flag(body.enabled, row.enabled)
  return {
    ...row,
    name: body.name ?? row.name,
    config,
    enabled,
    privacy_mode: flag(body.privacy_mode, row.privacy_mode),
    broadcast_generation_cost: flag(body.broadcast_generation_cost, row.broadcast_generation_cost),
    broadcast_generation_identity: flag(body.broadcast_generation_identity, row.broadcast_generation_identity),
    broadcast_generation_request_context: flag(body.broadcast_generation_request_context, row.broadcast_generation_request_context),
    sampling_rate: body.sampling_rate ?? row.sampling_rate,
    api_key_hashes: json(body.api_key_hashes, row.api_key_hashes),
    filter_rules: json(body.filter_rules, row.filter_rules),
    regions: body.regions === undefined ? row.regions : regionsJson(body.regions),
    traced_usage_id: row.enabled === 0 && enabled === 1 ? ctx.services.observability.lastUsageId() : row.traced_usage_id,
    updated_at: ctx.clock.now(),
  }
}
