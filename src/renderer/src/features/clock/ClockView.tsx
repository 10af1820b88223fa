// The Clock view: the emulator's virtual now, and the controls that move it. Advancing runs the work
// that falls due on the way (video task states, charge expiry, callback deliveries) before it answers.
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState, type FormEvent } from 'react'
import { api, type ClockState } from '../../api.ts'
import { CopyButton, ErrorText } from '../../components/ui.tsx'
import { clockKey, useClock } from '../../queries.ts'
import '../../styles/dvac.css'
import './clock.css'

const STEPS = [
  { by: '1h', label: '+1 hour' },
  { by: '1d', label: '+1 day' },
  { by: '1w', label: '+1 week' },
] as const

type Move = { kind: 'advance'; by: string; label: string } | { kind: 'to'; to: string } | { kind: 'freeze' } | { kind: 'resume' }

/** A datetime-local value (no zone) read as UTC, and back. */
const fromLocalInput = (value: string): string => new Date(`${value.length === 16 ? `${value}:00` : value}Z`).toISOString()
const toLocalInput = (iso: string): string => iso.slice(0, 16)

const describe = (iso: string) => {
  const d = new Date(iso)
  return {
    date: d.toLocaleDateString('en-GB', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }),
    time: d.toISOString().slice(11, 19),
  }
}

const span = (ms: number): string => {
  const units: Array<[number, string]> = [
    [7 * 86_400_000, 'week'],
    [86_400_000, 'day'],
    [3_600_000, 'hour'],
    [60_000, 'minute'],
    [1000, 'second'],
  ]
  const parts: string[] = []
  let rest = Math.abs(ms)
  for (const [size, name] of units) {
    const n = Math.floor(rest / size)
    if (n > 0) parts.push(`${n} ${name}${n === 1 ? '' : 's'}`)
    rest -= n * size
  }
  return parts.slice(0, 2).join(' ') || 'no time'
}

/** The virtual now, ticking along with real time while the clock runs (system mode). */
function useTicking(state: ClockState | undefined, fetchedAt: number): string | undefined {
  const [, tick] = useState(0)
  useEffect(() => {
    if (state?.mode !== 'system') return
    const timer = setInterval(() => tick((n) => n + 1), 1000)
    return () => clearInterval(timer)
  }, [state?.mode])
  if (!state) return undefined
  if (state.mode !== 'system') return state.now
  return new Date(Date.parse(state.now) + Math.max(0, Date.now() - fetchedAt)).toISOString()
}

export function ClockView() {
  const client = useQueryClient()
  const clock = useClock()
  const now = useTicking(clock.data, clock.dataUpdatedAt)
  const [target, setTarget] = useState('')
  const [result, setResult] = useState<string | null>(null)
  useEffect(() => {
    if (!target && clock.data) setTarget(toLocalInput(new Date(Date.parse(clock.data.now) + 86_400_000).toISOString()))
  }, [clock.data, target])

  const move = useMutation({
    mutationFn: async (m: Move) => {
      const before = clock.data?.now
      const after =
        m.kind === 'advance' ? await api.clock.advance({ by: m.by }) : m.kind === 'to' ? await api.clock.advance({ to: m.to }) : await api.clock[m.kind]()
      return { m, before, after }
    },
    onMutate: () => setResult(null),
    onSuccess: ({ m, before, after }) => {
      client.setQueryData(clockKey, after)
      setTarget(toLocalInput(new Date(Date.parse(after.now) + 86_400_000).toISOString()))
      const moved = before ? Date.parse(after.now) - Date.parse(before) : 0
      const at = `${after.now.slice(0, 19).replace('T', ' ')} UTC`
      if (m.kind === 'freeze') setResult(`Frozen at ${at}. Time now moves only when you advance it.`)
      else if (m.kind === 'resume') setResult(`Running again from ${at}, at the speed of real time.`)
      else setResult(`Moved ${m.kind === 'advance' ? m.label.slice(1) : span(moved)} forward, to ${at}. Everything that fell due on the way has run.`)
    },
    onSettled: () => client.invalidateQueries(),
  })

  const advanceTo = (event: FormEvent) => {
    event.preventDefault()
    if (!target) return
    move.mutate({ kind: 'to', to: fromLocalInput(target) })
  }
  const shown = now ? describe(now) : undefined
  const manual = clock.data?.mode === 'manual'

  return (
    <div className="dvac">
      <h2>Clock</h2>
      <ErrorText error={clock.error} />
      <section className="panel clock-face" aria-labelledby="clock-now-label">
        <div id="clock-now-label" className="muted">
          Virtual now (UTC)
        </div>
        {shown ? (
          <>
            <output className="clock-time" aria-live="polite" aria-label="Virtual time">
              {shown.time}
            </output>
            <div className="clock-date">{shown.date}</div>
            <div className="row center">
              <span className="mono muted">{now}</span>
              <CopyButton text={now!} label="Copy ISO time" />
            </div>
            <div className="clock-mode">
              {manual ? <span className="badge warn">manual: frozen</span> : <span className="badge ok">system: running</span>}{' '}
              <span className="muted">{manual ? 'Time stands still and moves only when you advance it.' : 'Time runs at real speed from where it is.'}</span>
            </div>
          </>
        ) : (
          <p className="muted">Loading…</p>
        )}
      </section>

      <section className="panel" aria-labelledby="clock-move-title">
        <h3 id="clock-move-title" className="panel-title">
          Move the clock
        </h3>
        <div className="row" role="group" aria-label="Advance by">
          {STEPS.map((s) => (
            <button
              key={s.by}
              type="button"
              disabled={move.isPending || !clock.data}
              onClick={() => move.mutate({ kind: 'advance', by: s.by, label: s.label })}
            >
              {s.label}
            </button>
          ))}
          <span className="divider" aria-hidden="true" />
          {manual ? (
            <button type="button" className="secondary" disabled={move.isPending} onClick={() => move.mutate({ kind: 'resume' })}>
              Resume
            </button>
          ) : (
            <button type="button" className="secondary" disabled={move.isPending || !clock.data} onClick={() => move.mutate({ kind: 'freeze' })}>
              Freeze
            </button>
          )}
        </div>
        <form className="row advance-to" onSubmit={advanceTo}>
          <label>
            Advance to (UTC)
            <input type="datetime-local" value={target} onChange={(e) => setTarget(e.target.value)} required />
          </label>
          <button type="submit" className="secondary" disabled={move.isPending || !target}>
            Advance to…
          </button>
        </form>
        {move.isPending && <p className="muted">Moving the clock and running what falls due…</p>}
        {result && (
          <p className="notice" role="status">
            {result}
          </p>
        )}
        <ErrorText error={move.error} />
        <p className="muted note">
          Advancing runs the work that falls due on the way, in time order, before the clock answers: video tasks move through their states, pending charges
          expire (or confirm themselves, with auto-confirm on), and callbacks are delivered and retried. The clock only moves forward here; the admin API's{' '}
          <code className="inline">POST /_emulator/api/clock/set</code> jumps either way without running anything.
        </p>
      </section>
    </div>
  )
}
