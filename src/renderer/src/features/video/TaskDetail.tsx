// One video task in the Video view: its state timeline, request and planned outcome, buttons to push it
// along, the result once it succeeds, and its callback deliveries (with a button to send one again).
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api, type CallbackDelivery, type VideoTask, type VideoTaskAction } from '../../api.ts'
import { Body, Code, ErrorText, shortTime } from '../../components/ui.tsx'
import { errorMessage, pretty } from '../data/shared.ts'
import { callbacksKey, useCallbacks, videoTasksKey } from './queries.ts'
import { sameOrigin, StateBadge } from './TaskParts.tsx'

const DELIVERY_BADGE: Record<CallbackDelivery['status'], string> = { pending: 'warn', delivered: 'ok', failed: 'bad' }

export function TaskDetail({ task }: { task: VideoTask }) {
  const client = useQueryClient()
  const [errCode, setErrCode] = useState('')
  const act = useMutation({
    mutationFn: (action: VideoTaskAction) => api.video.act(task.id, action, action === 'fail' && errCode.trim() ? { err_code: errCode.trim() } : {}),
    onSettled: () => Promise.all([client.invalidateQueries({ queryKey: videoTasksKey }), client.invalidateQueries({ queryKey: callbacksKey(task.id) })]),
  })
  const ended = task.state === 'success' || task.state === 'failed'
  const creation = task.creations[0]
  return (
    <section className="panel" aria-labelledby="task-title">
      <h3 id="task-title" className="panel-title row">
        <span>
          Task <span className="mono">{task.id}</span>
        </span>
        <StateBadge state={task.state} />
        {task.err_code && <span className="badge bad">{task.err_code}</span>}
      </h3>

      <ol className="timeline" aria-label="State timeline">
        {task.timeline.map((t, i) => (
          <li key={`${t.state}-${i}`}>
            <span className={`step-${t.state}`} title={t.at}>
              <strong>{t.state}</strong> {shortTime(t.at).slice(11)}
            </span>
          </li>
        ))}
      </ol>
      <dl className="facts">
        {task.prompt !== null && (
          <>
            <dt>Prompt</dt>
            <dd className="prompt">{task.prompt}</dd>
          </>
        )}
        <dt>Duration</dt>
        <dd>{task.duration} s requested</dd>
        <dt>Planned outcome</dt>
        <dd>{task.planned_outcome}</dd>
        <dt>Next step</dt>
        <dd>{task.next_transition_at ? shortTime(task.next_transition_at) : ended ? 'none: the task has ended' : 'waits (stuck) until told otherwise'}</dd>
        <dt>Credits</dt>
        <dd>
          {task.credits}
          {task.off_peak && <span className="muted"> (off-peak)</span>}
        </dd>
        {!ended && (
          <>
            <dt>Progress</dt>
            <dd>{task.progress}%</dd>
          </>
        )}
      </dl>

      {!ended && (
        <div className="row actions" role="group" aria-label="Move the task">
          <button type="button" onClick={() => act.mutate('advance')} disabled={act.isPending}>
            Advance
          </button>
          <button type="button" className="secondary" onClick={() => act.mutate('succeed')} disabled={act.isPending}>
            Succeed
          </button>
          <span className="divider" aria-hidden="true" />
          <label>
            Error code
            <input value={errCode} onChange={(e) => setErrCode(e.target.value)} placeholder="ModelUnavailable" size={18} />
          </label>
          <button type="button" className="danger" onClick={() => act.mutate('fail')} disabled={act.isPending}>
            Fail
          </button>
        </div>
      )}
      {act.error && (
        <p className="error" role="alert">
          {errorMessage(act.error)}
        </p>
      )}

      {creation && (
        <>
          <h4>Result</h4>
          <video controls preload="metadata" src={sameOrigin(creation.url)} poster={sameOrigin(creation.cover_url)} aria-label={`Video of task ${task.id}`} />
          <div className="row media-links">
            <img className="cover" src={sameOrigin(creation.cover_url)} alt={`Cover of task ${task.id}`} />
            <span className="muted" title="As the task reports it to clients. The files served are the emulator's short sample clip, whatever was asked">
              {creation.video.resolution.width}×{creation.video.resolution.height}, {creation.video.duration} s at {creation.video.fps} fps (a sample clip
              plays)
            </span>
            <a href={sameOrigin(creation.url)} target="_blank" rel="noreferrer">
              video.mp4
            </a>
            <a href={sameOrigin(creation.watermarked_url)} target="_blank" rel="noreferrer">
              watermarked.mp4
            </a>
          </div>
        </>
      )}

      <Callbacks task={task} />

      <h4>Request</h4>
      <Code>{pretty(task.request)}</Code>
    </section>
  )
}

function Callbacks({ task }: { task: VideoTask }) {
  const client = useQueryClient()
  const deliveries = useCallbacks(task.id)
  const redeliver = useMutation({
    mutationFn: api.callbacks.redeliver,
    onSettled: () => client.invalidateQueries({ queryKey: callbacksKey(task.id) }),
  })
  return (
    <>
      <h4>Callbacks</h4>
      <ErrorText error={deliveries.error} />
      {redeliver.error && (
        <p className="error" role="alert">
          {errorMessage(redeliver.error)}
        </p>
      )}
      {!task.callback_url ? (
        <p className="muted">This task has no callback_url, so nothing is sent.</p>
      ) : deliveries.data?.length === 0 ? (
        <p className="muted">
          Nothing sent yet to <span className="mono">{task.callback_url}</span>: deliveries start when the task reaches processing.
        </p>
      ) : (
        <ul className="deliveries" aria-label="Callback deliveries">
          {deliveries.data?.map((d) => (
            <li key={d.id} className="delivery">
              <div className="row">
                <strong>{d.state}</strong>
                <span className={`badge ${DELIVERY_BADGE[d.status]}`}>{d.status}</span>
                <span className="muted small">
                  {d.attempt_count} attempt{d.attempt_count === 1 ? '' : 's'}
                  {d.max_attempts > 1 && ` of up to ${d.max_attempts}`}
                  {d.next_attempt_at && `; next at ${shortTime(d.next_attempt_at)}`}
                </span>
                <span className="grow" />
                <button
                  type="button"
                  className="small secondary"
                  disabled={redeliver.isPending}
                  onClick={() => redeliver.mutate(d.id)}
                  aria-label={`Redeliver the ${d.state} callback`}
                >
                  Redeliver
                </button>
              </div>
              <div className="mono muted small">POST {d.url}</div>
              {d.attempts.length > 0 && (
                <table className="compact">
                  <thead>
                    <tr>
                      <th>#</th>
                      <th>At (virtual)</th>
                      <th>Status</th>
                      <th className="num">Duration</th>
                      <th>Error</th>
                    </tr>
                  </thead>
                  <tbody>
                    {d.attempts.map((a) => (
                      <tr key={a.attempt}>
                        <td>{a.attempt}</td>
                        <td className="nowrap">{shortTime(a.at)}</td>
                        <td>
                          {a.status === null ? (
                            <span className="muted">no answer</span>
                          ) : (
                            <span className={`badge ${a.status < 300 ? 'ok' : 'bad'}`}>{a.status}</span>
                          )}
                        </td>
                        <td className="num">{a.duration_ms} ms</td>
                        <td className={a.error ? 'error' : 'muted'}>{a.error ?? '—'}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
              <details>
                <summary>Body sent</summary>
                <Body text={d.body} />
              </details>
            </li>
          ))}
        </ul>
      )}
    </>
  )
}
