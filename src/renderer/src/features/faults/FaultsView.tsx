// The Faults view: make gateway and router requests fail on purpose. The emulator's presets one click
// away (its common ones, 402, 429 and 503, first), the rules with their one-sentence explanation, and
// an editor for the rest. Hit counts follow the requests through the event stream (events.ts).
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode, type RefObject } from 'react'
import { admin, ApiError, type Account, type AdminKey, type ClockState, type Envelope, type FaultPreset, type FaultRule } from '../../api.ts'
import { Empty, ErrorText } from '../../components/ui.tsx'
import { useOperationIds } from './operations.ts'

const RULES_KEY = ['faults', 'faults-view', 'list'] as const

export function FaultsView() {
  const client = useQueryClient()
  const rules = useQuery({ queryKey: RULES_KEY, queryFn: () => admin.get<{ data: FaultRule[] }>('/faults') })
  const { ids: operations, complete } = useOperationIds()
  const ids = useId()
  const [editing, setEditing] = useState<FaultRule | null>(null)
  const editorRef = useRef<HTMLHeadingElement>(null)

  const refresh = () => client.invalidateQueries({ queryKey: ['faults'] })
  const list = rules.data?.data ?? []

  return (
    <div className="faults-view">
      <h2>Faults</h2>
      <p className="muted intro">
        Make gateway and router requests fail on purpose, to see how your client handles errors. A fault answers before the request is handled, so a faulted
        request bills nothing and creates nothing. Each request that a fault answers is marked <span className="badge fault">fault</span> on the{' '}
        <a href="#/requests">Requests</a> page.
      </p>

      <Presets operations={complete ? operations : null} datalistId={`${ids}-ops`} onAdded={() => void refresh()} />

      <datalist id={`${ids}-ops`}>
        {operations.map((o) => (
          <option key={o} value={o} />
        ))}
      </datalist>

      <div className="faults-layout">
        <section className="panel" aria-labelledby={`${ids}-rules`}>
          <div className="row">
            <h3 id={`${ids}-rules`} className="grow">
              Rules {list.length > 0 && <span className="muted">({list.length})</span>}
            </h3>
          </div>
          <ErrorText error={rules.error} />
          {rules.isPending ? (
            <p className="muted">Loading…</p>
          ) : list.length === 0 ? (
            <Empty title="No fault rules">
              <p>
                Faults make requests fail on purpose: a 402 when credits run out, a 429 rate limit, a 503 outage, a slow or dropped connection. Your code should
                cope with all of them.
              </p>
              <p>
                <strong>Click a preset above</strong> to add one, or write your own rule with the editor.
              </p>
            </Empty>
          ) : (
            <ul className="rules" aria-label="Fault rules">
              {list.map((rule) => (
                <RuleItem
                  key={rule.id}
                  rule={rule}
                  editing={editing?.id === rule.id}
                  onEdit={() => {
                    setEditing(rule)
                    editorRef.current?.scrollIntoView({ block: 'nearest' })
                    editorRef.current?.focus()
                  }}
                  onDeleted={() => {
                    if (editing?.id === rule.id) setEditing(null)
                    void refresh()
                  }}
                />
              ))}
            </ul>
          )}
        </section>

        <RuleEditor
          key={editing?.id ?? 'new'}
          rule={editing}
          datalistId={`${ids}-ops`}
          headingRef={editorRef}
          onDone={() => setEditing(null)}
          onSaved={() => void refresh()}
        />
      </div>
    </div>
  )
}

function Presets({ operations, datalistId, onAdded }: { operations: string[] | null; datalistId: string; onAdded: () => void }) {
  const ids = useId()
  const [operation, setOperation] = useState('')
  const [count, setCount] = useState('')
  const [added, setAdded] = useState<string | null>(null)
  // The presets are the emulator's own; they never change while it runs.
  const presets = useQuery({
    queryKey: ['fault-presets'],
    queryFn: () => admin.get<Envelope<FaultPreset[]>>('/faults/presets').then((r) => r.data),
    staleTime: Infinity,
  })
  const apply = useMutation({
    mutationFn: (preset: string) => {
      const n = count.trim() === '' ? undefined : Number(count)
      const op = operation.trim()
      return admin.post<{ data: FaultRule }>(`/faults/presets/${preset}`, {
        ...(op !== '' && { match: { operation: op } }),
        ...(n !== undefined && { remaining: n }),
      })
    },
    onSuccess: (res) => {
      setAdded(res.data.explanation)
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

function RuleItem({ rule, editing, onEdit, onDeleted }: { rule: FaultRule; editing: boolean; onEdit: () => void; onDeleted: () => void }) {
  const ids = useId()
  const client = useQueryClient()
  // The switch moves at once; the list catches up when the rule list has been read again.
  const [wanted, setWanted] = useState<boolean | null>(null)
  const toggle = useMutation({
    mutationFn: (enabled: boolean) => admin.post<{ data: FaultRule }>(`/faults/${encodeURIComponent(rule.id)}/${enabled ? 'enable' : 'disable'}`),
    onSettled: async () => {
      await client.invalidateQueries({ queryKey: ['faults'] })
      setWanted(null)
    },
  })
  const remove = useMutation({ mutationFn: () => admin.del(`/faults/${encodeURIComponent(rule.id)}`), onSuccess: onDeleted })
  const usedUp = rule.remaining === 0
  const short = rule.name ?? rule.explanation
  return (
    <li className={`rule${rule.enabled && !usedUp ? '' : ' inactive'}${editing ? ' editing' : ''}`}>
      <label className="switch">
        <input
          type="checkbox"
          role="switch"
          checked={wanted ?? rule.enabled}
          onChange={(e) => {
            setWanted(e.target.checked)
            toggle.mutate(e.target.checked)
          }}
          aria-describedby={`${ids}-expl`}
        />
        Enabled
      </label>
      <div className="grow rule-body">
        <p className="rule-explanation" id={`${ids}-expl`}>
          {rule.explanation}
        </p>
        <p className="muted rule-meta">
          {rule.name && <span>{rule.name}</span>}
          <span>
            {rule.hits} {rule.hits === 1 ? 'hit' : 'hits'}
          </span>
          <span>{rule.remaining === null ? 'no limit' : usedUp ? <span className="badge warn">used up</span> : `${rule.remaining} left`}</span>
          {rule.probability < 1 && <span>{Math.round(rule.probability * 100)}% of matches</span>}
          {rule.expires_at && <span>expires {rule.expires_at}</span>}
          <span className="mono" title={rule.id}>
            id {rule.id.slice(0, 8)}
          </span>
        </p>
        <ErrorText error={toggle.error ?? remove.error} />
      </div>
      <div className="row rule-actions">
        <button type="button" className="secondary small" onClick={onEdit} aria-label={`Edit rule: ${short}`}>
          Edit
        </button>
        <button type="button" className="danger small" onClick={() => remove.mutate()} disabled={remove.isPending} aria-label={`Delete rule: ${short}`}>
          Delete
        </button>
      </div>
    </li>
  )
}

// The editor's fields, as the inputs hold them (text), and the API field each one reports as.
interface Draft {
  name: string
  operation: string
  method: string
  path: string
  model: string
  key_hash: string
  account_id: string
  status: string
  message: string
  latency_ms: string
  drop: boolean
  probability: string
  remaining: string
  expires_at: string
}
type Field = Exclude<keyof Draft, 'drop'> | 'drop'

const EMPTY: Draft = {
  name: '',
  operation: '',
  method: '',
  path: '',
  model: '',
  key_hash: '',
  account_id: '',
  status: '',
  message: '',
  latency_ms: '',
  drop: false,
  probability: '',
  remaining: '',
  expires_at: '',
}

const FIELD_OF: Record<string, Field> = {
  name: 'name',
  match: 'operation',
  'match.operation': 'operation',
  'match.method': 'method',
  'match.path': 'path',
  'match.model': 'model',
  'match.key_hash': 'key_hash',
  'match.account_id': 'account_id',
  action: 'status',
  'action.status': 'status',
  'action.message': 'message',
  'action.latency_ms': 'latency_ms',
  'action.drop': 'drop',
  probability: 'probability',
  remaining: 'remaining',
  expires_at: 'expires_at',
}

function fromRule(rule: FaultRule): Draft {
  const s = (v: unknown) => (v === undefined || v === null ? '' : String(v))
  return {
    name: s(rule.name),
    operation: s(rule.match.operation),
    method: s(rule.match.method).toUpperCase(),
    path: s(rule.match.path),
    model: s(rule.match.model),
    key_hash: s(rule.match.key_hash),
    account_id: s(rule.match.account_id),
    status: s(rule.action.status),
    message: s(rule.action.message),
    latency_ms: s(rule.action.latency_ms),
    drop: rule.action.drop === true,
    probability: rule.probability === 1 ? '' : String(rule.probability),
    remaining: s(rule.remaining),
    expires_at: s(rule.expires_at),
  }
}

const num = (text: string): number | undefined => (text.trim() === '' ? undefined : Number(text))

function toBody(d: Draft, original: FaultRule | null): Record<string, unknown> {
  const match: Record<string, string> = {}
  for (const k of ['operation', 'method', 'path', 'model', 'key_hash', 'account_id'] as const) if (d[k].trim() !== '') match[k] = d[k].trim()
  // What the editor has no field for (extra headers, a latency range) stays as it was.
  const action: Record<string, unknown> = {}
  if (original?.action.latency_range_ms) action.latency_range_ms = original.action.latency_range_ms
  const kept = original?.action.headers
  if (kept) action.headers = kept
  if (num(d.status) !== undefined) action.status = num(d.status)
  if (d.message.trim() !== '') action.message = d.message.trim()
  if (num(d.latency_ms) !== undefined) action.latency_ms = num(d.latency_ms)
  if (d.drop) action.drop = true
  const body: Record<string, unknown> = { match, action }
  if (original) {
    body.name = d.name.trim() === '' ? null : d.name.trim()
    body.probability = num(d.probability) ?? 1
    body.remaining = num(d.remaining) ?? null
    body.expires_at = d.expires_at.trim() === '' ? null : d.expires_at.trim()
  } else {
    if (d.name.trim() !== '') body.name = d.name.trim()
    if (num(d.probability) !== undefined) body.probability = num(d.probability)
    if (num(d.remaining) !== undefined) body.remaining = num(d.remaining)
    if (d.expires_at.trim() !== '') body.expires_at = d.expires_at.trim()
  }
  return body
}

function errorField(error: unknown): Field | null {
  if (!(error instanceof ApiError)) return null
  const field = (error.body as { error?: { metadata?: { field?: string } } } | undefined)?.error?.metadata?.field ?? /`([^`]+)`/.exec(error.message)?.[1]
  if (!field) return null
  return FIELD_OF[field] ?? FIELD_OF[field.split('.').slice(0, 2).join('.')] ?? null
}

function RuleEditor({
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
  const accounts = useQuery({ queryKey: ['accounts', 'faults-view'], queryFn: () => admin.get<{ data: Account[] }>('/accounts') })
  const keys = useQueries({
    queries: (accounts.data?.data ?? []).map((a) => ({
      queryKey: ['keys', 'faults-view', a.id],
      queryFn: () => admin.get<{ data: AdminKey[] }>(`/accounts/${encodeURIComponent(a.id)}/keys`),
    })),
  })
  const clock = useQuery({ queryKey: ['clock', 'faults-view'], queryFn: () => admin.get<{ data: ClockState }>('/clock') })

  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      rule ? admin.patch<{ data: FaultRule }>(`/faults/${encodeURIComponent(rule.id)}`, body) : admin.post<{ data: FaultRule }>('/faults', body),
    onSuccess: (res) => {
      setSaved(`${rule ? 'Saved' : 'Created'}: ${res.data.explanation}`)
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
    const now = clock.data ? Date.parse(clock.data.data.now) : Date.now()
    set({ expires_at: new Date(now + 3_600_000).toISOString() })
  }

  const accountList = accounts.data?.data ?? []
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
              (q.data?.data ?? []).map((k) => (
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
              {clock.data && <span className="muted small-print">Emulator time now: {clock.data.data.now}</span>}
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
