// The Models view: the running catalog's models, filtered in memory as you type (ModelFilterForm),
// a page of them at a time (ModelList, "Show more"), and one model's detail (ModelDetail).
// `#/models/<author>/<slug>` opens with that model selected. The catalog is read once (and again only
// when it changes); typing never reaches the network. The fields answer at once and the list follows
// a moment later (useDeferredValue), so a long catalog never holds a keystroke up.
import { useCallback, useDeferredValue, useEffect, useMemo, useState } from 'react'
import { Empty, ErrorText } from '../../components/ui.tsx'
import { applyFilters, isFiltered, NO_FILTERS, sameFilters, type ModelFilters } from './models.ts'
import { ModelDetail } from './ModelDetail.tsx'
import { ModelFilterForm } from './ModelFilters.tsx'
import { ModelList } from './ModelList.tsx'
import { useModelRows } from './queries.ts'
import './models.css'

/** How many rows the list shows at first, and how many more each "Show more" adds. */
export const PAGE = 50

/** The model a link names: `#/models/<author>/<slug>`. */
const idFromHash = (): string | null => {
  const id = /^#\/?models\/(.+)$/.exec(window.location.hash)?.[1]
  return id === undefined ? null : decodeURIComponent(id)
}

/** The selected model, kept in the address so a link can open it (replaced, not pushed: no history). */
function useSelection(): [string | null, (id: string) => void] {
  const [selectedId, setSelectedId] = useState<string | null>(idFromHash)
  useEffect(() => {
    const onHash = () => setSelectedId(idFromHash())
    window.addEventListener('hashchange', onHash)
    return () => window.removeEventListener('hashchange', onHash)
  }, [])
  const select = useCallback((id: string) => {
    setSelectedId(id)
    history.replaceState(null, '', `#/models/${id}`)
  }, [])
  return [selectedId, select]
}

export function ModelsView() {
  const catalog = useModelRows()
  const rows = useMemo(() => catalog.data ?? [], [catalog.data])
  const [filters, setFilters] = useState<ModelFilters>(NO_FILTERS)
  const [selectedId, select] = useSelection()
  const deferred = useDeferredValue(filters)
  const shown = useMemo(() => applyFilters(rows, deferred), [rows, deferred])
  const selected = useMemo(() => rows.find((r) => r.id === selectedId) ?? null, [rows, selectedId])
  // "Show more" holds while the filters are those it was pressed under; other filters start again at
  // one page, in the same deferred render that filters (a keystroke's own render stays small).
  const [shownMore, setShownMore] = useState<{ filters: ModelFilters; limit: number } | null>(null)
  const limit = shownMore && sameFilters(shownMore.filters, deferred) ? shownMore.limit : PAGE
  const page = useMemo(() => (shown.length > limit ? shown.slice(0, limit) : shown), [shown, limit])
  const more = Math.min(PAGE, shown.length - page.length)

  return (
    <div className="models-view">
      <div className="row view-head">
        <h2 className="grow">Models</h2>
        <span className="muted" role="status" aria-live="polite">
          {catalog.isPending ? 'Loading the catalog…' : isFiltered(deferred) ? `${shown.length} of ${rows.length} models` : `${rows.length} models, by id`}
        </span>
      </div>
      <ErrorText error={catalog.error} />

      {rows.length > 0 && (
        <>
          <ModelFilterForm rows={rows} filters={filters} onChange={setFilters} />
          <div className="models-layout">
            {/* Busy while the list still shows the filters before the last change (a moment, on a long catalog). */}
            <div className="models-list" aria-busy={filters !== deferred || undefined}>
              {shown.length === 0 ? (
                <Empty title="No model matches these filters">
                  <button type="button" className="secondary small" onClick={() => setFilters(NO_FILTERS)}>
                    Reset filters
                  </button>
                </Empty>
              ) : (
                <>
                  <ModelList rows={page} selectedId={selectedId} onSelect={select} />
                  {more > 0 && (
                    <div className="row more">
                      <span className="muted">
                        Showing {page.length} of {shown.length}
                      </span>
                      <button type="button" className="secondary small" onClick={() => setShownMore({ filters: deferred, limit: limit + PAGE })}>
                        Show {more} more
                      </button>
                    </div>
                  )}
                </>
              )}
            </div>
            <section className="panel model-detail" aria-label="Model detail">
              {selected ? (
                <ModelDetail key={selected.id} model={selected.model} />
              ) : (
                <p className="muted">
                  Select a model (click it, or focus the list and press Enter; the arrows move through it) to see its prices, context, modalities, supported
                  parameters and the endpoints that serve it.
                </p>
              )}
            </section>
          </div>
        </>
      )}
      {!catalog.isPending && rows.length === 0 && !catalog.error && <Empty title="The catalog has no models" />}
    </div>
  )
}
