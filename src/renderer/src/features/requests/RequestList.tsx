// The Requests view's list: one row per journal entry, newest first, chosen with the mouse or the
// keyboard (Enter or Space; the arrows move through the rows); the model and message of a completion
// read from its entry.
import { useMemo, type KeyboardEvent } from 'react'
import { compactLocalTime, localZone, StatusBadge } from '../../components/ui.tsx'
import { excerpt, gistOf, hasGist } from './gist.ts'
import { isWhole, useJournalEntry, type JournalRow } from './journal.ts'
import { bothTimes, SegmentedText } from './RequestText.tsx'
import { durationText as ms, sourceBadge, type AnswerSource } from './source.ts'

export function RequestList({ rows, selectedId, onSelect }: { rows: JournalRow[]; selectedId: number | null; onSelect: (id: number) => void }) {
  const onRowKey = (event: KeyboardEvent<HTMLTableRowElement>, id: number) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault()
      onSelect(id)
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      const row = (
        event.key === 'ArrowDown' ? event.currentTarget.nextElementSibling : event.currentTarget.previousElementSibling
      ) as HTMLTableRowElement | null
      if (row?.dataset.id) {
        row.focus()
        onSelect(Number(row.dataset.id))
      }
    }
  }

  return (
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
        {rows.map((e) => (
          <tr
            key={e.id}
            data-id={e.id}
            className="clickable"
            tabIndex={0}
            aria-selected={e.id === selectedId}
            onClick={() => onSelect(e.id)}
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
 * The model and the start of the last user message of a completion. A row from the first page has
 * its body; one the stream brought is read by id (the query the detail pane shares).
 */
function GistCell({ row }: { row: JournalRow }) {
  const whole = isWhole(row) ? row : null
  const wanted = whole === null && hasGist(row.operation)
  const read = useJournalEntry(row.id, wanted)
  const entry = whole ?? read.data ?? null
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
