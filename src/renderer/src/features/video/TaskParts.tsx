// What the Video view's list and detail both show of a task: its state as a badge, and its media URLs
// on the page's own origin.
import { origin, type VideoTaskState } from '../../api.ts'

const STATE_BADGE: Record<VideoTaskState, string> = { created: '', queueing: '', processing: 'warn', success: 'ok', failed: 'bad' }

export function StateBadge({ state }: { state: VideoTaskState }) {
  return <span className={`badge ${STATE_BADGE[state]}`}>{state}</span>
}

/** Media URLs carry the origin the task was created through; the page may use another (CSP: 'self'). */
export const sameOrigin = (url: string): string => {
  try {
    const u = new URL(url)
    return `${origin()}${u.pathname}${u.search}`
  } catch {
    return url
  }
}
