// The fault rule editor: which requests a rule matches, what it answers them with, and how often and
// for how long; the field the admin API refuses is marked and focused.
import { useMutation, useQueries } from '@tanstack/react-query'
import { useEffect, useId, useState, type FormEvent, type RefObject } from 'react'
import { api, type FaultRule } from '../../api.ts'
import { ErrorText } from '../../components/ui.tsx'
import { keysQuery, useAccounts, useClock } from '../../queries.ts'
import { EMPTY, errorField, fromRule, toBody, type Draft, type Field } from './rule-draft.ts'

export function RuleEditor({
  rule,
  datalistId,
  headingRef,
  onDone,
  onSaved,
}: {
  rule: FaultRule | null
  datalistId: string
  headingRef: RefObject<HTMLHeadingElement | null>
  onDone: () => void
  onSaved: () => void
}) {
  const ids = useId()
  const [draft, setDraft] = useState<Draft>(() => (rule ? fromRule(rule) : EMPTY))
  const [saved, setSaved] = useState<string | null>(null)
  const accounts = useAccounts()
  const keys = useQueries({ queries: (accounts.data ?? []).map((a) => keysQuery(a.id)) })
  const clock = useClock()

  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) => (rule ? api.faults.update(rule.id, body) : api.faults.create(body)),
    onSuccess: (saved) => {
      setSaved(`${rule ? 'Saved' : 'Created'}: ${saved.explanation}`)
      onSaved()
      if (rule) onDone()
      else setDraft(EMPTY)
    },
    onError: () => setSaved(null),
  })
  const bad = save.isError ? errorField(save.error) : null
  const errorId = `${ids}-error`

  useEffect(() => {
    if (bad) document.getElementById(`${ids}-${bad}`)?.focus()
  }, [bad, ids, save.failureCount])

  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }))
  const field = (name: Field) => ({
    id: `${ids}-${name}`,
    'aria-invalid': bad === name ? true : undefined,
    'aria-describedby': bad === name ? errorId : undefined,
  })
  const text = (name: Exclude<Field, 'drop'>, label: string, extra: Record<string, unknown> = {}) => (
    <div className="field">
      <label htmlFor={`${ids}-${name}`}>{label}</label>
      <input {...field(name)} value={draft[name]} onChange={(e) => set({ [name]: e.target.value })} {...extra} />
    </div>
  )

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setSaved(null)
    save.mutate(toBody(draft, rule))
  }
  const hourLater = () => {
    const now = clock.data ? Date.parse(clock.data.now) : Date.now()
    set({ expires_at: new Date(now + 3_600_000).toISOString() })
  }

  const accountList = accounts.data ?? []
  return (
    <section className="panel rule-editor" aria-labelledby={`${ids}-title`}>
      <h3 id={`${ids}-title`} ref={headingRef} tabIndex={-1}>
        {rule ? 'Edit rule' : 'Write a rule'}
      </h3>
      {rule && <p className="muted">Editing: {rule.explanation}</p>}
      <form onSubmit={submit} noValidate>
        {text('name', 'Name (optional)', { placeholder: 'e.g. flaky embeddings' })}
        <fieldset>
          <legend>Which requests (empty fields match anything)</legend>
          <div className="field-grid">
            {text('operation', 'Operation', { list: datalistId, placeholder: 'any operation' })}
            <div className="field">
              <label htmlFor={`${ids}-method`}>Method</label>
              <select {...field('method')} value={draft.method} onChange={(e) => set({ method: e.target.value })}>
                <option value="">Any method</option>
                {['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((m) => (
                  <option key={m}>{m}</option>
                ))}
              </select>
            </div>
            {text('path', 'Path pattern (* = anything)', { placeholder: 'e.g. /api/v1/models*' })}
            {text('model', 'Model', { placeholder: 'any model' })}
            {text('key_hash', 'Key hash', { list: `${ids}-keys`, placeholder: 'any key' })}
            {text('account_id', 'Account id', { list: `${ids}-accounts`, placeholder: 'any account' })}
          </div>
          <datalist id={`${ids}-accounts`}>
            {accountList.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </datalist>
          <datalist id={`${ids}-keys`}>
            {keys.flatMap((q, i) =>
              (q.data ?? []).map((k) => (
                <option key={k.hash} value={k.hash}>
                  {`${accountList[i]?.name ?? ''} · ${k.name} (${k.kind})`}
                </option>
              )),
            )}
          </datalist>
        </fieldset>
        <fieldset>
          <legend>What happens (a status, a latency, or a dropped connection)</legend>
          <div className="field-grid">
            {text('status', 'Status (400-599)', { type: 'number', min: 400, max: 599, placeholder: 'e.g. 429' })}
            {text('latency_ms', 'Added latency (ms)', { type: 'number', min: 0, step: 100, placeholder: 'none' })}
            {text('message', 'Error message (optional)', { placeholder: "the real service's" })}
            <div className="field field-check">
              <label>
                <input type="checkbox" {...field('drop')} checked={draft.drop} onChange={(e) => set({ drop: e.target.checked })} />
                Drop the connection (no answer)
              </label>
            </div>
          </div>
        </fieldset>
        <fieldset>
          <legend>How often and for how long</legend>
          <div className="field-grid">
            {text('probability', 'Probability (0-1)', { type: 'number', min: 0, max: 1, step: 0.05, placeholder: '1 (always)' })}
            {text('remaining', 'Next N requests', { type: 'number', min: 0, step: 1, placeholder: 'no limit' })}
            <div className="field">
              <label htmlFor={`${ids}-expires_at`}>Expires at (emulator clock)</label>
              <div className="row nowrap-row">
                <input
                  {...field('expires_at')}
                  className="grow"
                  value={draft.expires_at}
                  onChange={(e) => set({ expires_at: e.target.value })}
                  placeholder="never"
                />
                <button type="button" className="secondary small" onClick={hourLater}>
                  In 1 h
                </button>
              </div>
              {clock.data && <span className="muted small-print">Emulator time now: {clock.data.now}</span>}
            </div>
          </div>
        </fieldset>
        <div id={errorId}>
          <ErrorText error={save.error} />
        </div>
        <div className="row">
          <button type="submit" disabled={save.isPending}>
            {rule ? 'Save changes' : 'Create rule'}
          </button>
          {rule ? (
            <button type="button" className="secondary" onClick={onDone}>
              Cancel
            </button>
          ) : (
            <button type="button" className="secondary" onClick={() => (setDraft(EMPTY), save.reset())}>
              Clear
            </button>
          )}
        </div>
        <p className="added" role="status">
          {saved}
        </p>
      </form>
    </section>
  )
}
