// The journal as the Requests view sees it: the entries the event stream pushed into the cache
// (events.ts writes them under ['journal', 'live']), merged with a first page read from the admin API.
// The stream sends summaries (no headers or bodies): a request's detail is read by id when shown.
import { useQuery } from '@tanstack/react-query'
import { api, type JournalEntry, type JournalSummary } from '../../api.ts'

export const LIVE_KEY = ['journal', 'live'] as const
export const PAGE_KEY = ['journal', 'page'] as const
export const entryKey = (id: number) => ['journal', 'entry', id] as const

/** What the list shows of an entry: everything but its headers and bodies. */
export type JournalRow = JournalSummary
const NONE: JournalRow[] = []

/**
 * The entries the event stream delivered since the page opened. The query function only runs when
 * the key is invalidated (a state reset, a clear): the journal is then empty, and so is this.
 */
export function useLiveJournal(): JournalRow[] {
  const { data } = useQuery({
    queryKey: LIVE_KEY,
    queryFn: () => NONE,
    initialData: NONE,
    staleTime: Infinity,
    refetchInterval: false,
    refetchOnWindowFocus: false,
  })
  return data
}

/** The newest 200 entries from the admin API, once (and on focus): the stream brings the rest. */
export function useJournalPage() {
  return useQuery({
    queryKey: PAGE_KEY,
    queryFn: () => api.journal.page(200),
    refetchInterval: false,
  })
}

/** An entry read whole from the first page (the stream's carry no headers or bodies). */
export const isWhole = (row: JournalRow): row is JournalEntry => 'request' in row

/** Both lists as one, without duplicates, newest first. */
export function mergeEntries(page: JournalRow[], live: JournalRow[]): JournalRow[] {
  const byId = new Map<number, JournalRow>()
  for (const entry of page) byId.set(entry.id, entry)
  for (const entry of live) byId.set(entry.id, entry)
  return [...byId.values()].sort((a, b) => b.id - a.id)
}

/** One entry in full (headers, bodies), for the detail pane and the list's gist. Entries do not change once recorded. */
export function useJournalEntry(id: number, enabled = true) {
  return useQuery({
    queryKey: entryKey(id),
    queryFn: () => api.journal.get(id),
    enabled,
    staleTime: Infinity,
    refetchInterval: false,
    refetchOnWindowFocus: false,
    retry: false,
  })
}
