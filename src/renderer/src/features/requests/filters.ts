// The Requests view's filters: what each one keeps of the journal. Nothing of the DOM or of React here.
import type { JournalRow } from './journal.ts'
import { matchesSource, type SourceKind } from './source.ts'

export interface Filters {
  status: string
  operation: string
  path: string
  faultedOnly: boolean
  source: SourceKind | ''
}
export const NO_FILTERS: Filters = { status: '', operation: '', path: '', faultedOnly: false, source: '' }

export const STATUS_CLASSES = [
  { value: '2xx', label: '2xx success' },
  { value: '4xx', label: '4xx client errors' },
  { value: '5xx', label: '5xx server errors' },
  { value: 'dropped', label: 'Dropped (no answer)' },
]

function matchesStatus(entry: JournalRow, status: string): boolean {
  if (status === '') return true
  if (status === 'dropped') return entry.status === 0 || entry.aborted
  if (/^\dxx$/.test(status)) return Math.floor(entry.status / 100) === Number(status[0])
  return entry.status === Number(status)
}

export function applyFilters(entries: JournalRow[], f: Filters): JournalRow[] {
  const operation = f.operation.trim().toLowerCase()
  const path = f.path.trim().toLowerCase()
  return entries.filter(
    (e) =>
      matchesStatus(e, f.status) &&
      (operation === '' || e.operation.toLowerCase().includes(operation)) &&
      (path === '' || `${e.path}${e.query ? `?${e.query}` : ''}`.toLowerCase().includes(path)) &&
      (!f.faultedOnly || e.fault !== null) &&
      matchesSource(e, f.source),
  )
}

/** Whether any filter is set. */
export const isFiltered = (f: Filters): boolean => f.status !== '' || f.operation !== '' || f.path !== '' || f.faultedOnly || f.source !== ''
