// What the Faults view reads, and the Requests view of the rule that answered a request. Keys start
// with ['faults'], which events.ts invalidates when a rule changes or answers: ['faults'] (the rules),
// ['faults', id] (one rule); the presets, the emulator's own, never change while it runs.
import { useQuery } from '@tanstack/react-query'
import { api } from '../../api.ts'

export const faultsKey = ['faults'] as const
export const faultKey = (id: string) => ['faults', id] as const
export const faultPresetsKey = ['fault-presets'] as const

export function useFaultRules() {
  return useQuery({ queryKey: faultsKey, queryFn: api.faults.list })
}

/** One rule; a 404 (it was deleted since) is an answer, not worth asking again. */
export function useFaultRule(id: string, enabled = true) {
  return useQuery({ queryKey: faultKey(id), queryFn: () => api.faults.get(id), enabled, retry: false, refetchInterval: false })
}

export function useFaultPresets() {
  return useQuery({ queryKey: faultPresetsKey, queryFn: api.faults.presets, staleTime: Infinity })
}
