// One EventSource for the whole app, and no polling: new journal entries go straight into the cache,
// and each event invalidates only the queries it touched. Query keys (queries.ts, features/<view>/queries.ts)
// start with the area they read:
// ['accounts'], ['keys'], ['guardrails'], ['charges'], ['activity'], ['video'], ['callbacks'],
// ['faults'], ['chat-fixtures'], ['catalog'], ['clock'], ['journal'], ['recordings'], and the Data view's
// ['workspaces'], ['byok'], ['presets'], ['observability'].
import { useQueryClient, type QueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { ADMIN, type JournalSummary, type StreamEvents } from './api.ts'
import { MANAGEMENT_AREAS, managementJournalKeys } from './features/data/management.ts'
import { RECORDINGS_ADMIN_PREFIX, touchesRecordings } from './features/recordings/recordings.ts'
import { refreshAfterConnect } from './refresh.ts'

type Keys = string[][]
const ALL: Keys = [[]]
/** Everything that belongs to one account (what deleting or resetting it changes). */
const ACCOUNT_SCOPED: Keys = [
  ['accounts'],
  ['keys'],
  ['guardrails'],
  ['charges'],
  ['activity'],
  ['video'],
  ['callbacks'],
  ['chat-fixtures'],
  ...MANAGEMENT_AREAS.map((area) => [area]),
]

/** What each state change touches; `journal` and `admin.changed` are read by their content below. */
export const INVALIDATES: Record<Exclude<keyof StreamEvents, 'journal' | 'admin.changed'>, Keys> = {
  // A task's state moves its credits (a failure refunds them) and so balances, key usage and activity.
  'video.task': [['video'], ['accounts'], ['keys'], ['activity']],
  'callback.attempt': [['callbacks']],
  'charge.created': [['charges']],
  'charge.confirmed': [['charges'], ['accounts']],
  'charge.expired': [['charges']],
  // Time moves tasks and charges along, key usage windows and the completed days of activity.
  'clock.moved': [['clock'], ['video'], ['charges'], ['keys'], ['activity'], ['faults']],
  'account.created': [['accounts']],
  // The whole state was replaced, or the stream could not replay what this page missed.
  'state.reset': ALL,
  reset: ALL,
}

/** What a change made through the admin API touches, by its operation id's prefix (first match wins). */
const ADMIN_CHANGES: Array<[prefix: string, keys: Keys]> = [
  ['admin.accounts.create', [['accounts']]],
  ['admin.accounts.update', [['accounts']]],
  ['admin.accounts.credits', [['accounts']]],
  ['admin.accounts.', ACCOUNT_SCOPED],
  ['admin.keys.', [['keys']]],
  ['admin.faults.', [['faults']]],
  // Trying a request against the fixtures changes nothing.
  ['admin.chatFixtures.test', []],
  ['admin.chatFixtures.', [['chat-fixtures']]],
  ['admin.catalog.', [['catalog']]],
  [RECORDINGS_ADMIN_PREFIX, [['recordings']]],
  ['admin.charges.', [['charges'], ['accounts']]],
  ['admin.video.', [['video']]],
  ['admin.callbacks.', [['callbacks']]],
  ['admin.journal.clear', [['journal']]],
  // Clock moves, resets, seeds and imports send events of their own.
]

export function adminChangeKeys(operation: string): Keys {
  return ADMIN_CHANGES.find(([prefix]) => operation.startsWith(prefix))?.[1] ?? []
}

/** What a gateway or router request changed, from its journal entry: its effects and its operation. */
export function journalKeys(entry: JournalSummary): Keys {
  const keys: Keys = []
  // A fault's hit and remaining counts move when it answers.
  if (entry.fault !== null) keys.push(['faults'])
  const { effects } = entry
  if (effects.usage.length > 0) keys.push(['accounts'], ['keys'], ['activity'])
  if (effects.tasks.length > 0) keys.push(['video'])
  if (effects.charges.length > 0) keys.push(['charges'])
  if (effects.callbacks.length > 0) keys.push(['callbacks'])
  // Keys and guardrails a client changes through the gateway leave no effect: the operation says it.
  const wrote = entry.method !== 'GET' && entry.status >= 200 && entry.status < 400
  if (wrote && entry.operation.startsWith('keys.')) keys.push(['keys'])
  if (wrote && entry.operation.startsWith('guardrails.')) keys.push(['guardrails'])
  // Workspaces, BYOK credentials, presets and observability destinations, the same way.
  keys.push(...managementJournalKeys(entry))
  // Any chat or text completion may have been answered by a fixture (the summary does not say), moving its counts.
  if (entry.operation === 'chat.create' || entry.operation === 'completions.create') keys.push(['chat-fixtures'])
  if (touchesRecordings(entry)) keys.push(['recordings'])
  return keys
}

const invalidate = (client: QueryClient, keys: Keys) => {
  for (const queryKey of keys) void client.invalidateQueries({ queryKey })
}

const RECONNECT_MS = 2000

export function useLiveEvents(): boolean {
  const client = useQueryClient()
  const [connected, setConnected] = useState(false)
  useEffect(() => {
    let source: EventSource | undefined
    let retry: ReturnType<typeof setTimeout> | undefined
    let closed = false
    const connect = (fresh: boolean) => {
      const current = new EventSource(`${ADMIN}/events`)
      source = current
      current.onopen = () => {
        setConnected(true)
        // A new connection (not the browser's own reconnect, which replays what was missed) knows
        // nothing of what happened before it: read everything again, the first connection too, since
        // what changed between the views' first reads and this moment reached no stream. All but the
        // entries this stream pushes (refresh.ts).
        if (fresh) refreshAfterConnect(client)
        fresh = false
      }
      current.onerror = () => {
        setConnected(false)
        // The browser reconnects by itself (with Last-Event-ID) unless the server answered with an
        // error status; then it gives up, and a new connection is made after a pause.
        if (current.readyState === EventSource.CLOSED && !closed) retry = setTimeout(() => connect(true), RECONNECT_MS)
      }
      current.addEventListener('journal', (event) => {
        // The stream carries summaries (no headers or bodies); a view asks GET /journal/:id for those.
        const entry = JSON.parse((event as MessageEvent<string>).data) as JournalSummary
        client.setQueryData<JournalSummary[]>(['journal', 'live'], (old = []) => (old.some((e) => e.id === entry.id) ? old : [entry, ...old].slice(0, 500)))
        invalidate(client, journalKeys(entry))
      })
      current.addEventListener('admin.changed', (event) => {
        const { operation } = JSON.parse((event as MessageEvent<string>).data) as StreamEvents['admin.changed']
        invalidate(client, adminChangeKeys(operation))
      })
      for (const [type, keys] of Object.entries(INVALIDATES)) current.addEventListener(type, () => invalidate(client, keys))
    }
    connect(true)
    return () => {
      closed = true
      clearTimeout(retry)
      source?.close()
    }
  }, [client])
  return connected
}
