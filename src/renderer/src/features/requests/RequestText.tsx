// Texts the Requests view's list and detail both show: a path or id that wraps only at its separators,
// and an entry's two times.
import { Fragment } from 'react'
import { localDateTime, shortTime } from '../../components/ui.tsx'
import type { JournalRow } from './journal.ts'

/** Both times of an entry, in full: the virtual one it is listed by, and the real one it happened at. */
export const bothTimes = (e: JournalRow): string =>
  `Virtual: ${localDateTime(e.time)} (${shortTime(e.time)} UTC)\nReal: ${localDateTime(e.wall_time)} (${shortTime(e.wall_time)} UTC)`

/**
 * A path, model id or operation id that wraps only after its separator (`/`, `.`), never inside a
 * segment: each segment is kept whole, with a line-break opportunity after each separator but a
 * leading one.
 */
export function SegmentedText({ text, separator = '/' }: { text: string; separator?: string }) {
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
