// Small building blocks shared by the views.
import { useEffect, useId, useRef, useState, type ReactNode } from 'react'
import { createPortal } from 'react-dom'
import './ui.css'

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

export interface ConfirmRequest {
  /** The dialog's name: the question ("Load the demo preset?"). */
  title: string
  /** What happens, in a sentence: the dialog's description. */
  message: ReactNode
  /** The confirming button's text, the action itself ("Load demo preset"). */
  confirm: string
  danger?: boolean
  onConfirm: () => void
  onCancel?: () => void
}

/**
 * An in-page confirmation instead of `window.confirm` (which blocks the page and cannot be styled or
 * tested in it): `ask` opens a modal dialog, `dialog` is the element to render. It is rendered into
 * the body, outside any live region the asking button sits in.
 */
export function useConfirm(): { ask: (request: ConfirmRequest) => void; dialog: ReactNode } {
  const [asked, setAsked] = useState<{ request: ConfirmRequest; id: number } | null>(null)
  return {
    ask: (request) => setAsked((last) => ({ request, id: (last?.id ?? 0) + 1 })),
    dialog: asked && createPortal(<ConfirmDialog key={asked.id} request={asked.request} onClosed={() => setAsked(null)} />, document.body),
  }
}

/**
 * A native modal <dialog>: the browser moves focus into it (to Cancel, the first button), keeps it
 * there, closes it on Escape and gives focus back to the button that opened it.
 */
function ConfirmDialog({ request, onClosed }: { request: ConfirmRequest; onClosed: () => void }) {
  const ref = useRef<HTMLDialogElement>(null)
  const ids = useId()
  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    // Effects run twice in development (StrictMode): opening an open dialog would throw.
    if (!dialog.open) dialog.showModal()
    const onClose = () => {
      onClosed()
      if (dialog.returnValue === 'confirm') request.onConfirm()
      else request.onCancel?.()
    }
    dialog.addEventListener('close', onClose)
    return () => dialog.removeEventListener('close', onClose)
  }, [request, onClosed])
  return (
    <dialog ref={ref} className="confirm-dialog" aria-labelledby={`${ids}-title`} aria-describedby={`${ids}-message`}>
      <form method="dialog">
        <h3 id={`${ids}-title`}>{request.title}</h3>
        <p id={`${ids}-message`}>{request.message}</p>
        <div className="row confirm-actions">
          <button type="submit" value="cancel" className="secondary">
            Cancel
          </button>
          <button type="submit" value="confirm" className={request.danger ? 'danger' : undefined}>
            {request.confirm}
          </button>
        </div>
      </form>
    </dialog>
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
