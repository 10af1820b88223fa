// The admin resources more than one view reads: one query each, under one key, so every view shares
// what was read. Keys start with the area events.ts invalidates: ['accounts'], ['accounts', id],
// ['keys', accountId], ['clock'], ['catalog']. A view's own resources are read in its features/<view>/queries.ts.
import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, type CatalogDocument } from './api.ts'

export const accountsKey = ['accounts'] as const
export const accountKey = (id: string) => ['accounts', id] as const
export const keysKey = (accountId: string) => ['keys', accountId] as const
export const clockKey = ['clock'] as const
export const catalogKey = ['catalog'] as const

export function useAccounts() {
  return useQuery({ queryKey: accountsKey, queryFn: api.accounts.list })
}

/** One account with its members. */
export function useAccount(id: string | undefined) {
  return useQuery({ queryKey: accountKey(id ?? ''), queryFn: () => api.accounts.get(id!), enabled: id !== undefined })
}

/** An account's keys, as one query of a list (`useQueries`, for every account at once) or alone (`useKeys`). */
export const keysQuery = (accountId: string) => queryOptions({ queryKey: keysKey(accountId), queryFn: () => api.keys.list(accountId) })

export function useKeys(accountId: string | undefined) {
  return useQuery({ ...keysQuery(accountId ?? ''), enabled: accountId !== undefined })
}

export function useClock() {
  return useQuery({ queryKey: clockKey, queryFn: api.clock.get })
}

export interface TextModel {
  id: string
  name: string
}

/**
 * The running catalog, read from the admin API rather than the gateway's model list, so the inspector
 * stays off the gateway and out of the journal. One query under one key for every view that reads it
 * (each takes what it needs with `select`); a change to the catalog reads it again (events.ts),
 * nothing else does.
 */
export const catalogQuery = queryOptions({ queryKey: catalogKey, queryFn: api.catalog.get, staleTime: Infinity })

const textModels = (catalog: CatalogDocument): TextModel[] =>
  catalog.models.filter((m) => m.architecture.output_modalities.includes('text')).map((m) => ({ id: m.id, name: m.name }))

/** The catalog's text models (what chat answers). */
export function useTextModels() {
  return useQuery({ ...catalogQuery, select: textModels })
}
