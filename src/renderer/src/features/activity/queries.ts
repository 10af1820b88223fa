// What the Activity view reads: an account's activity as a client reads GET /api/v1/activity, from the
// admin API (no key, not journaled). ['activity', accountId]: events.ts invalidates it when usage is
// billed and when the clock completes a day.
import { useQuery } from '@tanstack/react-query'
import { api } from '../../api.ts'

export const activityKey = (accountId: string) => ['activity', accountId] as const

export function useActivity(accountId: string | undefined) {
  return useQuery({ queryKey: activityKey(accountId ?? ''), queryFn: () => api.activity.list(accountId!), enabled: accountId !== undefined })
}
