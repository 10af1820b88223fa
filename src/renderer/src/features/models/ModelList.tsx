// The Models view's list: a page of the filtered models (the view adds "Show more"), chosen with the
// mouse or the keyboard. One row is in the tab order (the selected one, else the first); the arrows,
// Home and End move through the rows and select as they go, Enter or Space selects. A row only
// re-renders when it or its selection changes, so a keystroke re-renders what it changed.
import { memo, type KeyboardEvent } from 'react'
import { perMillionText, tokensText, type ModelRow } from './models.ts'

const MOVES: Record<string, (row: HTMLTableRowElement) => Element | null | undefined> = {
  ArrowDown: (row) => row.nextElementSibling,
  ArrowUp: (row) => row.previousElementSibling,
  Home: (row) => row.parentElement?.firstElementChild,
  End: (row) => row.parentElement?.lastElementChild,
}

export const ModelList = memo(function ModelList({
  rows,
  selectedId,
  onSelect,
}: {
  rows: readonly ModelRow[]
  selectedId: string | null
  onSelect: (id: string) => void
}) {
  const focusable = rows.some((r) => r.id === selectedId) ? selectedId : (rows[0]?.id ?? null)
  const onKeyDown = (event: KeyboardEvent<HTMLTableSectionElement>) => {
    const row = (event.target as HTMLElement).closest('tr')
    if (!row?.dataset.id) return
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault()
      onSelect(row.dataset.id)
      return
    }
    const next = MOVES[event.key]?.(row) as HTMLTableRowElement | null | undefined
    if (next === undefined) return
    event.preventDefault()
    if (next?.dataset.id) {
      next.focus()
      onSelect(next.dataset.id)
    }
  }

  return (
    <table aria-label="Models">
      <thead>
        <tr>
          <th scope="col">Model</th>
          <th scope="col" className="modalities">
            Modalities
          </th>
          <th scope="col" className="num context">
            Context
          </th>
          <th scope="col" className="num" title="US dollars per million prompt (input) tokens">
            Prompt $/M
          </th>
          <th scope="col" className="num completion" title="US dollars per million completion (output) tokens">
            Completion $/M
          </th>
        </tr>
      </thead>
      <tbody onKeyDown={onKeyDown}>
        {rows.map((r) => (
          <ModelRowView key={r.id} row={r} selected={r.id === selectedId} focusable={r.id === focusable} onSelect={onSelect} />
        ))}
      </tbody>
    </table>
  )
})

const ModelRowView = memo(function ModelRowView({
  row,
  selected,
  focusable,
  onSelect,
}: {
  row: ModelRow
  selected: boolean
  focusable: boolean
  onSelect: (id: string) => void
}) {
  return (
    <tr data-id={row.id} className="clickable" tabIndex={focusable ? 0 : -1} aria-selected={selected} onClick={() => onSelect(row.id)}>
      <td>
        <span className="model-name">
          {row.name}
          {row.free && <span className="badge ok">free</span>}
        </span>
        <span className="mono model-id">{row.id}</span>
      </td>
      <td className="modalities">
        {row.inputs.join(', ')} → {row.outputs.join(', ')}
      </td>
      <td className="num nowrap" title={`${row.context.toLocaleString('en-US')} tokens`}>
        {tokensText(row.context)}
      </td>
      <td className="num nowrap">{perMillionText(row.promptPerMillion)}</td>
      <td className="num nowrap">{perMillionText(row.completionPerMillion)}</td>
    </tr>
  )
})
