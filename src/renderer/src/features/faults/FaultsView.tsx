// The Faults view: make gateway and router requests fail on purpose. The emulator's presets one click
// away (its common ones, 402, 429 and 503, first), the rules with their one-sentence explanation, and
// an editor for the rest. Hit counts follow the requests through the event stream (events.ts).
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useId, useRef, useState } from 'react'
import { api, type FaultRule } from '../../api.ts'
import { Empty, ErrorText } from '../../components/ui.tsx'
import { FaultPresets } from './FaultPresets.tsx'
import { useOperationIds } from './operations.ts'
import { faultsKey, useFaultRules } from './queries.ts'
import { RuleEditor } from './RuleEditor.tsx'
import '../../styles/views.css'
import './faults.css'

export function FaultsView() {
  const client = useQueryClient()
  const rules = useFaultRules()
  const { ids: operations, complete } = useOperationIds()
  const ids = useId()
  const [editing, setEditing] = useState<FaultRule | null>(null)
  const editorRef = useRef<HTMLHeadingElement>(null)

  const refresh = () => client.invalidateQueries({ queryKey: faultsKey })
  const list = rules.data ?? []

  return (
    <div className="faults-view">
      <h2>Faults</h2>
      <p className="muted intro">
        Make gateway and router requests fail on purpose, to see how your client handles errors. A fault answers before the request is handled, so a faulted
        request bills nothing and creates nothing. Each request that a fault answers is marked <span className="badge fault">fault</span> on the{' '}
        <a href="#/requests">Requests</a> page.
      </p>

      <FaultPresets operations={complete ? operations : null} datalistId={`${ids}-ops`} onAdded={() => void refresh()} />

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

function RuleItem({ rule, editing, onEdit, onDeleted }: { rule: FaultRule; editing: boolean; onEdit: () => void; onDeleted: () => void }) {
  const ids = useId()
  const client = useQueryClient()
  // The switch moves at once; the list catches up when the rule list has been read again.
  const [wanted, setWanted] = useState<boolean | null>(null)
  const toggle = useMutation({
    mutationFn: (enabled: boolean) => api.faults.setEnabled(rule.id, enabled),
    onSettled: async () => {
      await client.invalidateQueries({ queryKey: faultsKey })
      setWanted(null)
    },
  })
  const remove = useMutation({ mutationFn: () => api.faults.remove(rule.id), onSuccess: onDeleted })
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
