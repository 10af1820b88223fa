// One EventSource for the whole app: new journal entries go straight into the cache, and state
// changes invalidate what they touch, so every view stays live without polling.
import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { ADMIN, type JournalSummary } from './api.ts'

const INVALIDATES: Record<string, string[][]> = {
  'video.task': [['video'], ['accounts'], ['keys']],
  'callback.attempt': [['video'], ['callbacks']],
  'charge.created': [['charges']],
  'charge.confirmed': [['charges'], ['accounts']],
  'charge.expired': [['charges']],
  'clock.moved': [['clock'], ['video'], ['charges'], ['keys'], ['activity']],
  'state.reset': [[]],
  'account.created': [['accounts']],
}

export function useLiveEvents(): boolean {
  const client = useQueryClient()
  const [connected, setConnected] = useState(false)
  useEffect(() => {
    const source = new EventSource(`${ADMIN}/events`)
    source.onopen = () => setConnected(true)
    source.onerror = () => setConnected(false)
    source.addEventListener('journal', (event) => {
      // The stream carries summaries (no headers or bodies); a view asks GET /journal/:id for those.
      const entry = JSON.parse((event as MessageEvent<string>).data) as JournalSummary
      client.setQueryData<JournalSummary[]>(['journal', 'live'], (old = []) => [entry, ...old].slice(0, 500))
      void client.invalidateQueries({ queryKey: ['accounts'] })
      void client.invalidateQueries({ queryKey: ['keys'] })
    })
    for (const [type, keys] of Object.entries(INVALIDATES)) {
      source.addEventListener(type, () => {
        for (const queryKey of keys) void client.invalidateQueries({ queryKey })
      })
    }
    return () => source.close()
  }, [client])
  return connected
}
