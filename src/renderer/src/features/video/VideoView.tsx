// The Video view: every video task of the router, newest first; the selected one's state timeline,
// request and planned outcome, buttons to push it along, its callback deliveries, and the result.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { admin, origin, type CallbackDelivery, type Page, type VideoTask, type VideoTaskState } from '../../api.ts'
import { Body, Code, CopyButton, Empty, ErrorText, shortTime } from '../../components/ui.tsx'
import { errorMessage, pretty, selectOnKey, standardKey, useClock, useKeys, useSelectedAccount } from '../data/shared.ts'

type Task = VideoTask
type TaskState = VideoTaskState
type Delivery = CallbackDelivery

const STATE_BADGE: Record<TaskState, string> = { created: '', queueing: '', processing: 'warn', success: 'ok', failed: 'bad' }
const DELIVERY_BADGE: Record<Delivery['status'], string> = { pending: 'warn', delivered: 'ok', failed: 'bad' }

/** A prompt cut short for the list (the cell's title keeps the whole text). */
const PROMPT_CHARS = 32
function shortPrompt(prompt: string): string {
  const chars = Array.from(prompt.replace(/\s+/g, ' ').trim())
  return chars.length > PROMPT_CHARS ? `${chars.slice(0, PROMPT_CHARS - 1).join('')}…` : chars.join('')
}

function StateBadge({ state }: { state: TaskState }) {
  return <span className={`badge ${STATE_BADGE[state]}`}>{state}</span>
}

/** Media URLs carry the origin the task was created through; the page may use another (CSP: 'self'). */
const sameOrigin = (url: string): string => {
  try {
    const u = new URL(url)
    return `${origin()}${u.pathname}${u.search}`
  } catch {
    return url
  }
}

export function VideoView() {
  const [selected, setSelected] = useState<string | null>(null)
  const tasks = useQuery({
    queryKey: ['video', 'tasks'],
    queryFn: () => admin.get<Page<Task>>('/video/tasks?limit=200'),
  })
  const list = tasks.data?.data ?? []
  const task = list.find((t) => t.id === selected)
  return (
    <div className="dvac">
      <h2>Video tasks</h2>
      <ErrorText error={tasks.error} />
      {tasks.isPending ? (
        <p className="muted">Loading…</p>
      ) : list.length === 0 ? (
        <HowToCreate />
      ) : (
        <div className="split video-split">
          <section className="panel" aria-labelledby="tasks-title">
            <h3 id="tasks-title" className="panel-title">
              Tasks <span className="muted">({tasks.data!.total_count}, newest first)</span>
            </h3>
            <table>
              <caption className="sr-only">Video tasks; select one to see its details</caption>
              <thead>
                <tr>
                  <th>Task</th>
                  <th>Operation</th>
                  <th>Model / template</th>
                  <th>Prompt</th>
                  <th>State</th>
                  <th>Created</th>
                </tr>
              </thead>
              <tbody>
                {list.map((t) => (
                  <tr
                    key={t.id}
                    className="clickable"
                    tabIndex={0}
                    aria-selected={t.id === selected}
                    onClick={() => setSelected(t.id)}
                    onKeyDown={selectOnKey(() => setSelected(t.id))}
                  >
                    <td className="mono">{t.id}</td>
                    <td>{t.operation}</td>
                    <td>{t.template ?? t.model ?? '—'}</td>
                    {t.prompt === null ? (
                      <td className="muted">—</td>
                    ) : (
                      <td className="prompt-cell" title={t.prompt}>
                        {shortPrompt(t.prompt)}
                      </td>
                    )}
                    <td>
                      <StateBadge state={t.state} />
                    </td>
                    <td>{shortTime(t.created_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {tasks.data!.total_count > list.length && <p className="muted small">Showing the newest {list.length}.</p>}
          </section>
          {task ? (
            <TaskDetail key={task.id} task={task} />
          ) : (
            <Empty title="Select a task">Its state timeline, request, callbacks and, once it succeeds, the video show here.</Empty>
          )}
        </div>
      )}
    </div>
  )
}

function HowToCreate() {
  const { account } = useSelectedAccount()
  const clock = useClock()
  const keys = useKeys(account?.id)
  const key = standardKey(keys.data, clock.data?.now)?.key ?? '<standard key>'
  const curl = [
    `curl -s -X POST ${origin()}/router/v1/video/ent/v2/text2video \\`,
    `  -H 'Authorization: Bearer ${key}' \\`,
    `  -H 'content-type: application/json' \\`,
    `  -d '{"model":"videoq2","prompt":"a lighthouse at dusk"}'`,
  ].join('\n')
  return (
    <Empty title="No video tasks yet">
      <div className="howto">
        <p>Create one through the video router with a standard key{account ? ` of ${account.name}` : ''}:</p>
        <Code>{curl}</Code>
        <div className="row">
          <CopyButton text={curl} label="Copy command" />
        </div>
        <p>
          Add <code className="inline">"callback_url"</code> to the body to receive its state changes. A task moves on with the virtual clock (created →
          queueing → processing → success in about 26 seconds): the <a href="#/clock">Clock</a> view's <em>+1 hour</em> finishes it, or push it along here once
          it shows up.
        </p>
      </div>
    </Empty>
  )
}

function TaskDetail({ task }: { task: Task }) {
  const client = useQueryClient()
  const [errCode, setErrCode] = useState('')
  const act = useMutation({
    mutationFn: (action: 'advance' | 'succeed' | 'fail') =>
      admin.post(`/video/tasks/${task.id}/${action}`, action === 'fail' && errCode.trim() ? { err_code: errCode.trim() } : {}),
    onSettled: () => Promise.all([client.invalidateQueries({ queryKey: ['video'] }), client.invalidateQueries({ queryKey: ['callbacks'] })]),
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

function Callbacks({ task }: { task: Task }) {
  const client = useQueryClient()
  const deliveries = useQuery({
    queryKey: ['callbacks', task.id],
    // In the order they were made, as the timeline reads.
    queryFn: () =>
      admin
        .get<{ data: Delivery[] }>(`/callbacks?task_id=${encodeURIComponent(task.id)}`)
        .then((r) => r.data.sort((a, b) => a.created_at.localeCompare(b.created_at))),
  })
  const redeliver = useMutation({
    mutationFn: (id: string) => admin.post(`/callbacks/${encodeURIComponent(id)}/redeliver`),
    onSettled: () => client.invalidateQueries({ queryKey: ['callbacks'] }),
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
