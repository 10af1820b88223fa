// What the Data view reads of the selected account, beside the shared reads (queries.ts). Keys start
// with the area events.ts invalidates: ['guardrails', id], ['charges', id], and one per management
// section ([area, id]: workspaces, byok, presets, observability; management.ts).
import { useQuery } from '@tanstack/react-query'
import { api, type ManagementLists } from '../../api.ts'

export const guardrailsKey = (accountId: string) => ['guardrails', accountId] as const
export const chargesKey = (accountId: string) => ['charges', accountId] as const
export const managementKey = (area: keyof ManagementLists, accountId: string) => [area, accountId] as const

/** Read from the admin API: a client's change through the gateway shows in the journal, and the event stream invalidates ['guardrails'] then. */
export function useGuardrails(accountId: string) {
  return useQuery({ queryKey: guardrailsKey(accountId), queryFn: () => api.guardrails.list(accountId) })
}

export function useCharges(accountId: string) {
  return useQuery({ queryKey: chargesKey(accountId), queryFn: () => api.charges.list(accountId) })
}

/** One of the account's workspaces, BYOK credentials, presets or observability destinations. */
export function useManagementList<A extends keyof ManagementLists>(area: A, accountId: string) {
  return useQuery({ queryKey: managementKey(area, accountId), queryFn: () => api.management.list(area, accountId) })
}
