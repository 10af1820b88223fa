// The date window of the ranking datasets: start_date and end_date as the real document defines them
// (end defaults to the most recent completed UTC day, start to 30 days before end; a start before the
// dataset's first day is clamped to it, an end before it refused), on the virtual clock.
import type { EmulatorContext } from '../module.ts'
import { beforeDataset, notADate, startAfterEnd, windowTooLong } from './datasets.errors.ts'
import { dayIndex, isoDay, parseDay } from './datasets-draws.service.ts'

const DEFAULT_SPAN_DAYS = 30

/** Inclusive day indices. */
export interface DayWindow {
  start: number
  end: number
}

export function resolveWindow(
  ctx: EmulatorContext,
  query: { start_date?: string | undefined; end_date?: string | undefined },
  dataset: { dataset_start: string; max_window_days: number },
): DayWindow {
  const first = parseDay(dataset.dataset_start)!
  const latest = dayIndex(ctx.clock.now()) - 1
  let end = latest
  if (query.end_date !== undefined) {
    const asked = parseDay(query.end_date)
    if (asked === undefined) throw notADate('end_date')
    if (asked < first) throw beforeDataset('end_date', dataset.dataset_start)
    // Days not yet complete have no data: the resolved end is echoed in meta.end_date.
    end = Math.min(asked, latest)
  }
  let start = end - DEFAULT_SPAN_DAYS
  if (query.start_date !== undefined) {
    const asked = parseDay(query.start_date)
    if (asked === undefined) throw notADate('start_date')
    if (asked > end) throw startAfterEnd(query.start_date, isoDay(end))
    start = asked
  }
  // A clock before the dataset's first day leaves nothing to show: one empty day.
  start = Math.min(Math.max(start, first), end)
  const days = end - start + 1
  if (days > dataset.max_window_days) throw windowTooLong(days, dataset.max_window_days)
  return { start, end }
}
