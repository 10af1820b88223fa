// Small building blocks shared by the views.
import { useState, type ReactNode } from 'react'

export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty" role="status">
      <strong>{title}</strong>
      {children && <div>{children}</div>}
    </div>
  )
}

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [done, setDone] = useState(false)
  return (
    <button
      type="button"
      className="small"
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(() => {
          setDone(true)
          setTimeout(() => setDone(false), 1200)
        })
      }}
      aria-label={`${label}: ${text.length > 40 ? `${text.slice(0, 40)}…` : text}`}
    >
      {done ? 'Copied' : label}
    </button>
  )
}

export function Code({ children }: { children: string }) {
  return <pre className="code">{children}</pre>
}

/** A body as the journal keeps it: pretty JSON when it parses, the text otherwise. */
export function Body({ text }: { text: string | null }) {
  if (text === null || text === '') return <span className="muted">(empty)</span>
  let shown = text
  try {
    shown = JSON.stringify(JSON.parse(text), null, 2)
  } catch {
    // not JSON, or cut by the journal's size limit
  }
  return <Code>{shown}</Code>
}

export function StatusBadge({ status }: { status: number }) {
  const kind = status === 0 ? 'dropped' : status < 300 ? 'ok' : status < 500 ? 'warn' : 'bad'
  return <span className={`badge ${kind}`}>{status === 0 ? 'dropped' : status}</span>
}

export function Bar({ value, max, label }: { value: number; max: number | null; label: string }) {
  if (max === null || max <= 0) return <span className="muted">no limit</span>
  const share = Math.min(1, value / max)
  return (
    <div className="bar" role="meter" aria-label={label} aria-valuemin={0} aria-valuemax={max} aria-valuenow={value}>
      <div className={`fill ${share >= 1 ? 'full' : share > 0.8 ? 'high' : ''}`} style={{ width: `${share * 100}%` }} />
      <span>
        ${value.toFixed(4)} / ${max}
      </span>
    </div>
  )
}

export function ErrorText({ error }: { error: unknown }) {
  if (!error) return null
  return (
    <p className="error" role="alert">
      {error instanceof Error ? error.message : String(error)}
    </p>
  )
}

export const usd = (n: number): string => `$${n.toFixed(n !== 0 && Math.abs(n) < 0.01 ? 6 : 2)}`
export const shortTime = (iso: string): string => iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z')

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
const pad = (n: number, width = 2): string => String(n).padStart(width, '0')
const clockOf = (d: Date): string => `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`
/** The browser's time zone, which the local times below are in. */
export const localZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone
/** A compact local date and time for lists, with milliseconds: "Mar 4 11:00:00.123". */
export const compactLocalTime = (iso: string): string => {
  const d = new Date(iso)
  return `${MONTHS[d.getMonth()]} ${d.getDate()} ${clockOf(d)}`
}
/** A full local date and time: "2026-03-04 11:00:00.123". */
export const localDateTime = (iso: string): string => {
  const d = new Date(iso)
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${clockOf(d)}`
}
