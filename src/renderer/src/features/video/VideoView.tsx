// The Video view: every video task of the router, newest first, and the selected one in detail
// (TaskDetail); how to create one when there is none.
import { useState } from 'react'
import { origin } from '../../api.ts'
import { Code, CopyButton, Empty, ErrorText, shortTime } from '../../components/ui.tsx'
import { useClock, useKeys } from '../../queries.ts'
import { selectOnKey, standardKey, useSelectedAccount } from '../data/shared.ts'
import { useVideoTasks } from './queries.ts'
import { StateBadge } from './TaskParts.tsx'
import { TaskDetail } from './TaskDetail.tsx'
import '../../styles/dvac.css'
import './video.css'

/** A prompt cut short for the list (the cell's title keeps the whole text). */
const PROMPT_CHARS = 32
function shortPrompt(prompt: string): string {
  const chars = Array.from(prompt.replace(/\s+/g, ' ').trim())
  return chars.length > PROMPT_CHARS ? `${chars.slice(0, PROMPT_CHARS - 1).join('')}…` : chars.join('')
}

export function VideoView() {
  const [selected, setSelected] = useState<string | null>(null)
  const tasks = useVideoTasks()
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
