// The Requests view: the live journal of gateway and router requests, with filters (RequestFilters),
// the list (RequestList) and one request's detail (RequestDetail). `#/requests/<id>` opens with that
// request selected.
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useEffect, useMemo, useRef, useState } from 'react'
import { api, origin } from '../../api.ts'
import { Code, Empty, ErrorText } from '../../components/ui.tsx'
import { applyFilters, isFiltered, NO_FILTERS, type Filters } from './filters.ts'
import { LIVE_KEY, mergeEntries, PAGE_KEY, useJournalPage, useLiveJournal } from './journal.ts'
import { RequestDetail } from './RequestDetail.tsx'
import { RequestFilters } from './RequestFilters.tsx'
import { RequestList } from './RequestList.tsx'
import '../../styles/views.css'
import './requests.css'

/** The request a link names: `#/requests/<journal id>`. */
const idFromHash = (): number | null => {
  const id = /^#\/?requests\/(\d+)/.exec(window.location.hash)?.[1]
  return id === undefined ? null : Number(id)
}

/**
 * The selected request, kept in the address (`#/requests/<id>`) so a link can open it; a link
 * followed while the view is open selects its request and brings its row into view.
 */
function useSelection(): [number | null, (id: number | null) => void, { current: boolean }] {
  const [selectedId, setSelectedId] = useState<number | null>(idFromHash)
  const revealRef = useRef(selectedId !== null)
  useEffect(() => {
    const onHash = () => {
      const id = idFromHash()
      if (id === null) return
      revealRef.current = true
      setSelectedId(id)
    }
    window.addEventListener('hashchange', onHash)
    return () => window.removeEventListener('hashchange', onHash)
  }, [])
  const select = (id: number | null) => {
    setSelectedId(id)
    // Replaced, not pushed: selecting rows does not fill the history.
    history.replaceState(null, '', id === null ? '#/requests' : `#/requests/${id}`)
  }
  return [selectedId, select, revealRef]
}

export function RequestsView() {
  const client = useQueryClient()
  const page = useJournalPage()
  const live = useLiveJournal()
  const entries = useMemo(() => mergeEntries(page.data?.data ?? [], live), [page.data, live])
  const [filters, setFilters] = useState<Filters>(NO_FILTERS)
  const [selectedId, setSelectedId, revealRef] = useSelection()
  const shown = useMemo(() => applyFilters(entries, filters), [entries, filters])
  const selected = entries.find((e) => e.id === selectedId) ?? null
  const filtered = isFiltered(filters)
  const listRef = useRef<HTMLDivElement>(null)

  // A request opened by a link: its row is scrolled into view once it is listed.
  useEffect(() => {
    if (!revealRef.current || selected === null) return
    revealRef.current = false
    listRef.current?.querySelector(`tr[data-id="${selected.id}"]`)?.scrollIntoView({ block: 'nearest' })
  }, [selected, revealRef])

  const clear = useMutation({
    mutationFn: api.journal.clear,
    onSuccess: () => {
      setSelectedId(null)
      client.setQueryData(LIVE_KEY, [])
      client.setQueryData(PAGE_KEY, { data: [], total_count: 0 })
    },
  })

  return (
    <div className="requests-view">
      <div className="row view-head">
        <h2 className="grow">Requests</h2>
        <span className="muted" aria-live="polite">
          {entries.length === 0
            ? 'Waiting for requests'
            : filtered
              ? `${shown.length} of ${entries.length} requests`
              : `${entries.length} requests, newest first`}
        </span>
        <button type="button" className="secondary small" onClick={() => clear.mutate()} disabled={clear.isPending || entries.length === 0}>
          Clear journal
        </button>
      </div>
      <ErrorText error={page.error ?? clear.error} />

      {entries.length === 0 && page.isPending ? (
        <p className="muted">Loading…</p>
      ) : entries.length === 0 ? (
        <Empty title="No requests yet">
          <p>Every request to the gateway and the video router appears here as it happens, with its headers, bodies and the fault that answered it.</p>
          <p>
            Point a client at <code className="mono">{origin()}/api/v1</code> with one of the keys on the <a href="#/connect">Connect</a> page, or try:
          </p>
          <Code>{`curl ${origin()}/api/v1/models`}</Code>
        </Empty>
      ) : (
        <>
          <RequestFilters entries={entries} filters={filters} onChange={setFilters} />

          <div className="requests-layout">
            <div className="requests-list panel-like" ref={listRef}>
              {shown.length === 0 ? (
                <Empty title="No request matches these filters">
                  <button type="button" className="secondary small" onClick={() => setFilters(NO_FILTERS)}>
                    Reset filters
                  </button>
                </Empty>
              ) : (
                <RequestList rows={shown} selectedId={selectedId} onSelect={setSelectedId} />
              )}
            </div>
            <section className="panel request-detail" aria-label="Request detail">
              {selected ? (
                <RequestDetail key={selected.id} row={selected} />
              ) : (
                <p className="muted detail-hint">
                  Select a request (click it, or focus it and press Enter) to see its headers and bodies (a conversation as a transcript, images and audio
                  shown), the fault that answered it, what it caused, and the same request as a curl command.
                </p>
              )}
            </section>
          </div>
        </>
      )}
    </div>
  )
}
