// The Requests view's filters: status (a class or an exact one), operation, path, where the answer
// came from, and faulted requests only (filters.ts says what each keeps).
import { useId, useMemo } from 'react'
import { NO_FILTERS, STATUS_CLASSES, isFiltered, type Filters } from './filters.ts'
import type { JournalRow } from './journal.ts'
import { SOURCE_KINDS, type SourceKind } from './source.ts'

export function RequestFilters({ entries, filters, onChange }: { entries: JournalRow[]; filters: Filters; onChange: (filters: Filters) => void }) {
  const ids = useId()
  const statuses = useMemo(() => [...new Set(entries.map((e) => e.status))].sort((a, b) => a - b), [entries])
  const operations = useMemo(() => [...new Set(entries.map((e) => e.operation))].sort(), [entries])
  const set = (patch: Partial<Filters>) => onChange({ ...filters, ...patch })
  return (
    <form className="row filters" role="search" aria-label="Filter requests" onSubmit={(e) => e.preventDefault()}>
      <label>
        Status
        <select value={filters.status} onChange={(e) => set({ status: e.target.value })}>
          <option value="">Any status</option>
          {STATUS_CLASSES.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
          {statuses.length > 0 && (
            <optgroup label="Exactly">
              {statuses.map((s) => (
                <option key={s} value={String(s)}>
                  {s === 0 ? '0 (dropped)' : s}
                </option>
              ))}
            </optgroup>
          )}
        </select>
      </label>
      <label>
        Operation
        <input
          type="search"
          list={`${ids}-ops`}
          value={filters.operation}
          placeholder="e.g. embeddings"
          onChange={(e) => set({ operation: e.target.value })}
          size={18}
        />
      </label>
      <datalist id={`${ids}-ops`}>
        {operations.map((o) => (
          <option key={o} value={o} />
        ))}
      </datalist>
      <label>
        Path
        <input type="search" value={filters.path} placeholder="e.g. /models" onChange={(e) => set({ path: e.target.value })} size={18} />
      </label>
      <label>
        Source
        <select value={filters.source} onChange={(e) => set({ source: e.target.value as SourceKind | '' })}>
          <option value="">Any source</option>
          {SOURCE_KINDS.map((k) => (
            <option key={k.value} value={k.value}>
              {k.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        <input type="checkbox" checked={filters.faultedOnly} onChange={(e) => set({ faultedOnly: e.target.checked })} />
        Faulted only
      </label>
      {isFiltered(filters) && (
        <button type="button" className="secondary small" onClick={() => onChange(NO_FILTERS)}>
          Reset filters
        </button>
      )}
    </form>
  )
}
