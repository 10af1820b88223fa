// The Requests view: the live journal of gateway and router requests, with filters, and one
// request's detail (a transcript for chat, text, Responses and Messages completions; the prompt,
// text, ranking or transcription of the other surfaces and the files their answers carried; headers,
// bodies, the fault that answered it, what it caused, and as curl). `#/requests/<id>` opens with
// that request selected.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Fragment, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { admin, ApiError, origin, type FaultRule, type JournalEntry } from '../../api.ts'
import { Body, Code, CopyButton, Empty, ErrorText, StatusBadge, compactLocalTime, localDateTime, localZone, shortTime } from '../../components/ui.tsx'
import { bodyIncomplete, curlCommand } from './curl.ts'
import { excerpt, gistOf, hasGist } from './gist.ts'
import { isWhole, LIVE_KEY, mergeEntries, PAGE_KEY, useJournalEntry, useJournalPage, useLiveJournal, type JournalRow } from './journal.ts'
import { MediaView } from './MediaView.tsx'
import { SurfaceView } from './SurfaceView.tsx'
import { durationText, matchesSource, SOURCE_KINDS, sourceBadge, sourceParts, type AnswerSource, type SourceKind } from './source.ts'
import { hasTranscript } from './transcript.ts'
import { TranscriptView } from './TranscriptView.tsx'

interface Filters {
  status: string
  operation: string
  path: string
  faultedOnly: boolean
  source: SourceKind | ''
}
const NO_FILTERS: Filters = { status: '', operation: '', path: '', faultedOnly: false, source: '' }

const STATUS_CLASSES = [
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

function applyFilters(entries: JournalRow[], f: Filters): JournalRow[] {
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

/** Both times of an entry, in full: the virtual one it is listed by, and the real one it happened at. */
const bothTimes = (e: JournalRow): string =>
  `Virtual: ${localDateTime(e.time)} (${shortTime(e.time)} UTC)\nReal: ${localDateTime(e.wall_time)} (${shortTime(e.wall_time)} UTC)`
const ms = durationText

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
  const statuses = useMemo(() => [...new Set(entries.map((e) => e.status))].sort((a, b) => a - b), [entries])
  const operations = useMemo(() => [...new Set(entries.map((e) => e.operation))].sort(), [entries])
  const selected = entries.find((e) => e.id === selectedId) ?? null
  const filtered = filters.status !== '' || filters.operation !== '' || filters.path !== '' || filters.faultedOnly || filters.source !== ''
  const ids = useId()
  const listRef = useRef<HTMLDivElement>(null)

  // A request opened by a link: its row is scrolled into view once it is listed.
  useEffect(() => {
    if (!revealRef.current || selected === null) return
    revealRef.current = false
    listRef.current?.querySelector(`tr[data-id="${selected.id}"]`)?.scrollIntoView({ block: 'nearest' })
  }, [selected, revealRef])

  const clear = useMutation({
    mutationFn: () => admin.del('/journal'),
    onSuccess: () => {
      setSelectedId(null)
      client.setQueryData(LIVE_KEY, [])
      client.setQueryData(PAGE_KEY, { data: [], total_count: 0 })
    },
  })

  const set = (patch: Partial<Filters>) => setFilters((f) => ({ ...f, ...patch }))

  const onRowKey = (event: KeyboardEvent<HTMLTableRowElement>, id: number) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault()
      setSelectedId(id)
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      const row = (
        event.key === 'ArrowDown' ? event.currentTarget.nextElementSibling : event.currentTarget.previousElementSibling
      ) as HTMLTableRowElement | null
      if (row?.dataset.id) {
        row.focus()
        setSelectedId(Number(row.dataset.id))
      }
    }
  }

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
            {filtered && (
              <button type="button" className="secondary small" onClick={() => setFilters(NO_FILTERS)}>
                Reset filters
              </button>
            )}
          </form>

          <div className="requests-layout">
            <div className="requests-list panel-like" ref={listRef}>
              {shown.length === 0 ? (
                <Empty title="No request matches these filters">
                  <button type="button" className="secondary small" onClick={() => setFilters(NO_FILTERS)}>
                    Reset filters
                  </button>
                </Empty>
              ) : (
                <table aria-label="Requests, newest first">
                  <thead>
                    <tr>
                      <th scope="col" title={`Time on the emulator's clock (virtual time), in your time zone (${localZone()})`}>
                        Time (virtual, local)
                      </th>
                      <th scope="col">Path</th>
                      <th scope="col">Operation</th>
                      <th scope="col" title="The model asked for and the last user message, for chat, text completions, Responses and Messages">
                        Model and message
                      </th>
                      <th scope="col">Status</th>
                      <th scope="col" className="num">
                        Duration
                      </th>
                      <th scope="col">Source</th>
                    </tr>
                  </thead>
                  <tbody>
                    {shown.map((e) => (
                      <tr
                        key={e.id}
                        data-id={e.id}
                        className="clickable"
                        tabIndex={0}
                        aria-selected={e.id === selectedId}
                        onClick={() => setSelectedId(e.id)}
                        onKeyDown={(event) => onRowKey(event, e.id)}
                      >
                        <td className="mono" title={bothTimes(e)}>
                          <TimeText iso={e.time} />
                        </td>
                        <td className="mono path-cell">
                          <span className="method">{e.method}</span> <SegmentedText text={e.path} />
                          {e.query && <span className="muted query">?{e.query}</span>}
                        </td>
                        <td className="mono">
                          <SegmentedText text={e.operation} separator="." />
                        </td>
                        <GistCell row={e} />
                        <td className="status-cell">
                          <StatusBadge status={e.status} />
                          {e.fault !== null && (
                            <>
                              {' '}
                              <span className="badge fault" title={e.fault === 'header' ? 'Forced by the X-Emulator-Fault header' : `Fault rule ${e.fault}`}>
                                fault
                              </span>
                            </>
                          )}
                        </td>
                        <td className="num nowrap">{ms(e.duration_ms)}</td>
                        <td>
                          <SourceBadgeView source={e.source} />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
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

/** A list time that may wrap between its date and its clock, never inside either. */
function TimeText({ iso }: { iso: string }) {
  const [month, day, clock] = compactLocalTime(iso).split(' ')
  return (
    <>
      <span className="nowrap">
        {month} {day}
      </span>{' '}
      <span className="nowrap">{clock}</span>
    </>
  )
}

/**
 * A path, model id or operation id that wraps only after its separator (`/`, `.`), never inside a
 * segment: each segment is kept whole, with a line-break opportunity after each separator but a
 * leading one.
 */
function SegmentedText({ text, separator = '/' }: { text: string; separator?: string }) {
  const segments = text.split(separator)
  return segments.map((segment, i) => (
    <Fragment key={i}>
      {i > 0 && segments[i - 1] !== '' && <wbr />}
      <span className="segment">
        {segment}
        {i < segments.length - 1 && separator}
      </span>
    </Fragment>
  ))
}

/**
 * The model and the start of the last user message of a completion. A row from the first page has
 * its body; one the stream brought is read by id (the query the detail pane shares).
 */
function GistCell({ row }: { row: JournalRow }) {
  const whole = isWhole(row) ? row : null
  const wanted = whole === null && hasGist(row.operation)
  const read = useJournalEntry(row.id, wanted)
  const entry = whole ?? read.data?.data ?? null
  const gist = useMemo(() => (entry ? gistOf(entry) : null), [entry])
  return (
    <td className="gist-cell" aria-busy={wanted && read.isPending ? true : undefined}>
      {gist?.model && (
        <span className="mono gist-model">
          <SegmentedText text={gist.model} />
        </span>
      )}
      {gist?.model && gist.message && ' '}
      {gist?.message && (
        <span className="gist-message" title={gist.message}>
          {excerpt(gist.message)}
        </span>
      )}
    </td>
  )
}

/** The list's badge of where the answer came from: one word shown, the rest of the sentence for screen readers. */
function SourceBadgeView({ source }: { source: AnswerSource | null }) {
  const badge = sourceBadge(source)
  if (badge === null) return null
  return (
    <span className={`badge source ${badge.kind}`} title={badge.title}>
      {badge.word}
      <span className="visually-hidden">{badge.rest}</span>
    </span>
  )
}

/** The detail's sentence of where the answer came from, its file names as code. */
function SourceLine({ source }: { source: AnswerSource }) {
  return (
    <p className="source-line">
      {sourceParts(source).map((part, i) =>
        part.file ? (
          <code key={i} className="mono">
            {part.text}
          </code>
        ) : (
          part.text
        ),
      )}
      {source.kind !== 'generated' && (
        <span className="muted">
          {' '}
          · <a href="#/recordings">Recordings</a>
        </span>
      )}
    </p>
  )
}

function Headers({ headers, label, open = false }: { headers: Record<string, string>; label: string; open?: boolean }) {
  const list = Object.entries(headers)
  if (list.length === 0) return <p className="muted">(no headers)</p>
  return (
    <details className="headers" open={open}>
      <summary>
        {label} ({list.length})
      </summary>
      <table className="kv" aria-label={label}>
        <tbody>
          {list.map(([name, value]) => (
            <tr key={name}>
              <th scope="row" className="mono">
                {name}
              </th>
              <td className="mono">{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  )
}

function FaultInfo({ fault }: { fault: string }) {
  const rule = useQuery({
    queryKey: ['faults', 'rule', fault],
    queryFn: () => admin.get<{ data: FaultRule }>(`/faults/${encodeURIComponent(fault)}`),
    enabled: fault !== 'header',
    retry: false,
    refetchInterval: false,
  })
  if (fault === 'header') {
    return (
      <p>
        The request carried an <code className="mono">X-Emulator-Fault</code> header, which forced this status on it alone.
      </p>
    )
  }
  const gone = rule.error instanceof ApiError && rule.error.status === 404
  return (
    <>
      {rule.data && <p className="fault-explanation">{rule.data.data.explanation}</p>}
      {rule.isPending && <p className="muted">Loading the rule…</p>}
      {gone && <p className="muted">The rule that answered it has since been deleted.</p>}
      {rule.error && !gone && <ErrorText error={rule.error} />}
      <p className="muted">
        Rule {rule.data?.data.name ? <strong>{rule.data.data.name}</strong> : null} <code className="mono">{fault}</code> · <a href="#/faults">Manage faults</a>
      </p>
    </>
  )
}

function Effects({ entry }: { entry: JournalRow }) {
  const { usage, tasks, charges, callbacks } = entry.effects
  if (usage.length + tasks.length + charges.length + callbacks.length === 0) {
    return (
      <p className="muted">
        {entry.fault ? 'None: a fault answers before the request is handled, so nothing was billed or created.' : 'None: nothing was billed or created.'}
      </p>
    )
  }
  return (
    <dl className="effects">
      {usage.length > 0 && (
        <>
          <dt>Usage rows (billed)</dt>
          <dd className="mono">{usage.join(', ')}</dd>
        </>
      )}
      {tasks.length > 0 && (
        <>
          <dt>Video tasks</dt>
          <dd className="mono">
            {tasks.map((t, i) => (
              <span key={t}>
                {i > 0 && ', '}
                <a href={`#/video/${encodeURIComponent(t)}`}>{t}</a>
              </span>
            ))}
          </dd>
        </>
      )}
      {charges.length > 0 && (
        <>
          <dt>Crypto charges</dt>
          <dd className="mono">{charges.join(', ')}</dd>
        </>
      )}
      {callbacks.length > 0 && (
        <>
          <dt>Callback deliveries</dt>
          <dd className="mono">{callbacks.join(', ')}</dd>
        </>
      )}
    </dl>
  )
}

/** The media type of an answer that is a file (speech audio, a video), whose bytes make no sense as text. */
const binaryType = (entry: JournalEntry): string | null => {
  const type = Object.entries(entry.response.headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? ''
  return /^(audio|image|video)\//.test(type) || type.startsWith('application/octet-stream') ? type : null
}

function RequestDetail({ row }: { row: JournalRow }) {
  const full = useJournalEntry(row.id)
  const entry = full.data?.data
  const gone = full.error instanceof ApiError && full.error.status === 404
  const curl = entry ? curlCommand(entry, origin()) : null
  return (
    <div className="detail">
      <div className="row">
        <h3 className="grow detail-title mono">
          {row.method} <SegmentedText text={row.path} />
          {row.query && <span className="query">?{row.query}</span>}
        </h3>
        {curl && <CopyButton text={curl} label="Copy as curl" />}
      </div>
      <p className="row detail-meta">
        <StatusBadge status={row.status} />
        {row.fault !== null && <span className="badge fault">fault</span>}
        <span className="mono">{row.operation}</span>
        <span className="muted">{ms(row.duration_ms)}</span>
        <span className="muted" title={bothTimes(row)}>
          {localDateTime(row.time)} (virtual)
        </span>
      </p>
      {(row.account_id || row.key_hash) && (
        <p className="muted detail-meta">
          {row.account_id && (
            <>
              Account <code className="mono">{row.account_id}</code>{' '}
            </>
          )}
          {row.key_hash && (
            <>
              key <code className="mono" title={row.key_hash}>{`${row.key_hash.slice(0, 12)}…`}</code>
            </>
          )}
        </p>
      )}
      {row.source !== null && <SourceLine source={row.source} />}
      {row.aborted && <p className="error">The connection was closed before an answer (a dropped-connection fault, or the client went away).</p>}

      {row.fault !== null && (
        <section className="fault-box" aria-label="Fault">
          <h4>Answered by a fault</h4>
          <FaultInfo fault={row.fault} />
        </section>
      )}

      {gone ? (
        <p className="muted">This request is no longer in the journal (it was cleared, or pushed out by newer ones), so its headers and bodies are gone.</p>
      ) : full.error ? (
        <ErrorText error={full.error} />
      ) : !entry ? (
        <p className="muted">Loading headers and bodies…</p>
      ) : (
        <>
          {hasTranscript(entry.operation) && <TranscriptView entry={entry} />}
          <SurfaceView entry={entry} />
          <MediaView entry={entry} />

          <h4>Request</h4>
          <Headers headers={entry.request.headers} label="Request headers" />
          <p className="body-label">Request body</p>
          <Body text={entry.request.body} />

          <h4>Response</h4>
          {entry.response.headers['x-emulator-detail'] && (
            <p className="emulator-detail" aria-label="Emulator detail">
              <strong>Why:</strong> {entry.response.headers['x-emulator-detail']}
              <span className="muted"> (the body keeps the vendor's own words; this explanation travels in X-Emulator-Detail)</span>
            </p>
          )}
          <Headers headers={entry.response.headers} label="Response headers" open />
          <p className="body-label">Response body</p>
          {binaryType(entry) ? (
            <p className="muted">
              {entry.response.body_bytes.toLocaleString('en-US')} bytes of <code className="mono">{binaryType(entry)}</code>, not shown as text
              {entry.media.length > 0 && ' (see Media above)'}.
            </p>
          ) : (
            <Body text={entry.response.body} />
          )}
        </>
      )}

      <h4>Effects</h4>
      <Effects entry={entry ?? row} />

      {entry && curl && (
        <>
          <h4 className="row">
            <span className="grow">As curl</span>
            <CopyButton text={curl} label="Copy" />
          </h4>
          <pre className="code" aria-label="The request as a curl command">
            {curl}
          </pre>
          <p className="muted small-print">
            {'authorization' in entry.request.headers && (
              <>
                Keys never reach the journal: set <code className="mono">KEY</code> first (<code className="mono">export KEY=sk-gw-v1-…</code>, from{' '}
                <a href="#/connect">Connect</a>).{' '}
              </>
            )}
            {bodyIncomplete(entry) && 'The journal kept only part of this body (or hid a key in it), so the command sends it as recorded.'}
          </p>
        </>
      )}
    </div>
  )
}
