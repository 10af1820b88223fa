// The Data view's management sections (workspaces, BYOK credentials, presets, observability
// destinations): their query keys, what refreshes them, and the words they are shown with. Nothing of
// the DOM or of React here, so the unit tests (compiled for Node) import it.
import type { AccountDestination, AccountPreset, AccountWorkspace, JournalSummary } from '../../../../emulator/admin/types.ts'

/** The first part of each section's query key (['workspaces', accountId], ...). */
export const MANAGEMENT_AREAS = ['workspaces', 'byok', 'presets', 'observability'] as const
export type ManagementArea = (typeof MANAGEMENT_AREAS)[number]

/**
 * The sections a gateway request changed, from its journal entry: a successful write of the area's
 * operations (`workspaces.create`, `byok.delete`, `presets.chat.create`, `observability.destinations.update`...).
 */
export function managementJournalKeys(entry: Pick<JournalSummary, 'operation' | 'method' | 'status'>): string[][] {
  const wrote = entry.method !== 'GET' && entry.status >= 200 && entry.status < 400
  if (!wrote) return []
  return MANAGEMENT_AREAS.filter((area) => entry.operation.startsWith(`${area}.`)).map((area) => [area])
}

/** Config fields that hold an address, the one traces go to first (destination-types.ts). */
const ADDRESS_FIELDS = ['url', 'endpoint', 'otlpEndpoint', 'baseUrl', 'host'] as const

/**
 * The host a destination sends to, and nothing more of its address: a webhook's URL may carry a token
 * in its path, query or user info. Null when its config names no http(s) address (a vendor's default).
 */
export function destinationHost(destination: Pick<AccountDestination, 'config'>): string | null {
  for (const field of ADDRESS_FIELDS) {
    const value = (destination.config as Record<string, unknown>)[field]
    if (typeof value !== 'string') continue
    try {
      const url = new URL(value)
      if (url.protocol === 'http:' || url.protocol === 'https:') return url.host
    } catch {
      // not a URL (a ClickHouse host may be a bare name): say nothing rather than show a raw value
    }
  }
  return null
}

/** A workspace's budgets in words, narrowest first: "$5.00 weekly, $50.00 lifetime"; null for none. */
export function budgetsText(budgets: AccountWorkspace['budgets'], money: (usd: number) => string): string | null {
  if (budgets.length === 0) return null
  return budgets.map((b) => `${money(b.limit_usd)} ${b.reset_interval ?? 'lifetime'}`).join(', ')
}

/** The version a request naming the preset gets (its designated one), as "v3"; null before any version. */
export function presetVersionText(preset: Pick<AccountPreset, 'designated_version_id' | 'versions'>): string | null {
  const designated = preset.versions.find((v) => v.id === preset.designated_version_id)
  return designated ? `v${designated.version}` : null
}

/** A workspace's name for a row that names one by id; the id itself when it is gone, "all workspaces" for none. */
export function workspaceName(workspaces: Pick<AccountWorkspace, 'id' | 'name'>[] | undefined, id: string | null): string {
  if (id === null) return 'all workspaces'
  return workspaces?.find((w) => w.id === id)?.name ?? id
}

export const memberCountText = (n: number): string => `${n} member${n === 1 ? '' : 's'}`
