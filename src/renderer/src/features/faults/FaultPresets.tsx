// The Faults view's presets: the emulator's own faults one click away (the common ones, 402, 429 and
// 503, first), for every request or the next N of one operation.
import { useMutation } from '@tanstack/react-query'
import { useId, useState, type ReactNode } from 'react'
import { api, type FaultPreset } from '../../api.ts'
import { ErrorText } from '../../components/ui.tsx'
import { useFaultPresets } from './queries.ts'

export function FaultPresets({ operations, datalistId, onAdded }: { operations: string[] | null; datalistId: string; onAdded: () => void }) {
  const ids = useId()
  const [operation, setOperation] = useState('')
  const [count, setCount] = useState('')
  const [added, setAdded] = useState<string | null>(null)
  // The presets are the emulator's own; they never change while it runs.
  const presets = useFaultPresets()
  const apply = useMutation({
    mutationFn: (preset: string) => {
      const n = count.trim() === '' ? undefined : Number(count)
      const op = operation.trim()
      return api.faults.applyPreset(preset, {
        ...(op !== '' && { match: { operation: op } }),
        ...(n !== undefined && { remaining: n }),
      })
    },
    onSuccess: (rule) => {
      setAdded(rule.explanation)
      onAdded()
    },
    onError: () => setAdded(null),
  })
  const n = count.trim() === '' ? null : Number(count)
  const unknown = operations !== null && operation.trim() !== '' && !operations.includes(operation.trim())
  const target = operation.trim() === '' ? 'gateway and router' : operation.trim()
  const scope =
    n === null
      ? `A preset applies to every ${target} request until you disable or delete it.`
      : `A preset applies to the next ${n === 1 ? `${target} request` : `${n} ${target} requests`}, then stops.`

  const button = (p: FaultPreset, main: boolean): ReactNode => (
    <button
      key={p.id}
      type="button"
      className={main ? 'preset-main' : 'secondary'}
      aria-label={p.label}
      aria-describedby={main ? `${ids}-${p.id}` : undefined}
      title={main ? undefined : p.description}
      disabled={apply.isPending}
      onClick={() => apply.mutate(p.id)}
    >
      <span className="preset-label">{p.label}</span>
      {main && (
        <span className="preset-hint" id={`${ids}-${p.id}`}>
          {p.description}
        </span>
      )}
    </button>
  )

  return (
    <section className="panel presets" aria-labelledby={`${ids}-title`}>
      <h3 id={`${ids}-title`}>Add a fault in one click</h3>
      <div className="row preset-scope">
        <label>
          Apply to operation
          <input
            list={datalistId}
            value={operation}
            onChange={(e) => setOperation(e.target.value)}
            placeholder="every operation"
            size={20}
            aria-describedby={`${ids}-scope`}
          />
        </label>
        <label>
          Next N requests
          <input
            type="number"
            min={1}
            step={1}
            value={count}
            onChange={(e) => setCount(e.target.value)}
            placeholder="every request"
            className="narrow-number"
            aria-describedby={`${ids}-scope`}
          />
        </label>
        <span className="muted" id={`${ids}-scope`}>
          {scope}
          {unknown && <span className="error"> No operation is called {operation.trim()}: pick one from the list.</span>}
        </span>
      </div>
      {presets.isPending && <p className="muted">Loading the presets…</p>}
      <div className="preset-main-row">{presets.data?.filter((p) => p.common).map((p) => button(p, true))}</div>
      {!!presets.data?.some((p) => !p.common) && (
        <div className="row preset-others">
          <span className="muted">More:</span>
          {presets.data.filter((p) => !p.common).map((p) => button(p, false))}
        </div>
      )}
      <ErrorText error={presets.error ?? apply.error} />
      <p className="added" role="status">
        {added && (
          <>
            Added: <strong>{added}</strong>
          </>
        )}
      </p>
    </section>
  )
}
