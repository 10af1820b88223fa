// The Recordings view: the files the emulator loaded from --replay <dir> (each answers requests that
// match it with its recorded content and usage), what a request that none matches gets, and the
// upstream gateway a request can be proxied to. Uses follow the requests through the event stream
// (events.ts); Reload reads the folder again.
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { api } from '../../api.ts'
import { Empty, ErrorText } from '../../components/ui.tsx'
import { recordingsKey, useRecordings } from './queries.ts'
import { matchText, onMissText, usedUp, usesText } from './recordings.ts'
import '../../styles/views.css'
import './recordings.css'

export function RecordingsView() {
  const client = useQueryClient()
  const ids = useId()
  const list = useRecordings()
  const [notice, setNotice] = useState<string | null>(null)
  const reload = useMutation({
    // The answer is the list as the folder now holds it.
    mutationFn: api.recordings.reload,
    onMutate: () => setNotice(null),
    onSuccess: (reloaded) => {
      client.setQueryData(recordingsKey, reloaded)
      setNotice(`Reloaded: ${reloaded.total_count} ${reloaded.total_count === 1 ? 'file' : 'files'}`)
    },
  })
  const data = list.data
  const files = data?.data ?? []

  return (
    <div className="recordings-view">
      <div className="row view-head">
        <h2 className="grow">Recordings</h2>
        {notice && (
          <span className="muted" role="status">
            {notice}
          </span>
        )}
        <button type="button" className="secondary small" onClick={() => reload.mutate()} disabled={reload.isPending || !data?.folder}>
          Reload
        </button>
      </div>
      <p className="muted intro">
        Recorded answers replayed offline: a request that matches a file gets its recorded content and usage, as a stream when it asks for one, and is billed
        the recorded cost. The Requests view marks each answer as generated, replayed or proxied.
      </p>
      <ErrorText error={list.error ?? reload.error} />
      {list.isPending ? (
        <p className="muted">Loading…</p>
      ) : !data ? null : (
        <>
          <section className="panel" aria-labelledby={`${ids}-settings`}>
            <h3 id={`${ids}-settings`}>Settings</h3>
            <dl className="facts">
              <dt>Replay folder</dt>
              <dd className="mono">{data.folder ?? <span className="muted">none</span>}</dd>
              <dt>When nothing matches</dt>
              <dd>{onMissText(data.on_miss)}</dd>
              <dt>Upstream</dt>
              <dd className="mono">{data.upstream ?? <span className="muted">none</span>}</dd>
            </dl>
          </section>
          <section className="panel" aria-labelledby={`${ids}-files`}>
            <h3 id={`${ids}-files`}>Files {files.length > 0 && <span className="muted">({data.total_count})</span>}</h3>
            {data.folder === null ? (
              <Empty title="No recordings loaded">
                <p>
                  Start the emulator with <code className="mono">--replay &lt;dir&gt;</code> to answer requests from the recorded files in a folder, or with{' '}
                  <code className="mono">--upstream &lt;url&gt; --record &lt;dir&gt;</code> to record a real gateway&apos;s answers into one.
                </p>
              </Empty>
            ) : files.length === 0 ? (
              <Empty title="No recording files in this folder">
                <p>Files added to it are loaded when they change; press Reload to read it again now.</p>
              </Empty>
            ) : (
              <table aria-label="Recording files">
                <thead>
                  <tr>
                    <th scope="col">File</th>
                    <th scope="col">Operation</th>
                    <th scope="col">Model</th>
                    <th scope="col" className="num">
                      Uses / times
                    </th>
                    <th scope="col">Match</th>
                  </tr>
                </thead>
                <tbody>
                  {files.map((r) => (
                    <tr key={r.file} className={usedUp(r) ? 'inactive' : undefined}>
                      <td className="mono file-cell">{r.file}</td>
                      <td className="mono">{r.operation}</td>
                      <td className="mono">{r.model}</td>
                      <td className="num nowrap">
                        {usesText(r)}
                        {usedUp(r) && (
                          <>
                            {' '}
                            <span className="badge warn">used up</span>
                          </>
                        )}
                      </td>
                      <td>
                        <span className={`badge match ${matchText(r)}`}>{matchText(r)}</span>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
        </>
      )}
    </div>
  )
}
