// The account the views look at, and small helpers shared by the Data, Video, Activity, Clock and
// Fixtures views. What they read is in queries.ts (shared) and each view's own queries.ts.
import { useCallback, useState, type KeyboardEvent } from 'react'
import type { Account, AdminKey } from '../../api.ts'
import { useAccounts } from '../../queries.ts'

const ACCOUNT_STORE = 'inspector.account'

/**
 * The account the views look at. Chosen in the Data view and remembered for the session, so the
 * Activity view follows; the first account when none was chosen or the chosen one is gone.
 */
export function useSelectedAccount(): {
  accounts: Account[] | undefined
  account: Account | undefined
  select(id: string): void
  loading: boolean
  error: unknown
} {
  const query = useAccounts()
  const [chosen, setChosen] = useState<string | null>(() => sessionStorage.getItem(ACCOUNT_STORE))
  const select = useCallback((id: string) => {
    sessionStorage.setItem(ACCOUNT_STORE, id)
    setChosen(id)
  }, [])
  const accounts = query.data
  const account = accounts?.find((a) => a.id === chosen) ?? accounts?.[0]
  return { accounts, account, select, loading: query.isPending, error: query.error }
}

export const isExpired = (key: AdminKey, nowIso: string | undefined): boolean =>
  key.expires_at !== null && nowIso !== undefined && Date.parse(key.expires_at) <= Date.parse(nowIso)

/** A key the gateway accepts: enabled and not expired. */
export const usable = (key: AdminKey, nowIso: string | undefined): boolean => !key.disabled && !isExpired(key, nowIso) && key.key !== null

export const standardKey = (keys: AdminKey[] | undefined, nowIso: string | undefined): AdminKey | undefined =>
  keys?.find((k) => k.kind === 'standard' && usable(k, nowIso))

/** The usage a key's limit is measured against: the window of its `limit_reset`, or all time. */
export function windowUsage(key: AdminKey): number {
  switch (key.limit_reset) {
    case 'daily':
      return key.usage_daily
    case 'weekly':
      return key.usage_weekly
    case 'monthly':
      return key.usage_monthly
    default:
      return key.usage
  }
}

export const pretty = (value: unknown): string => JSON.stringify(value, null, 2)

export const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error))

/** Table rows chosen with the mouse or the keyboard (Enter or Space), as the shared styles expect. */
export function selectOnKey(select: () => void) {
  return (event: KeyboardEvent) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault()
      select()
    }
  }
}
