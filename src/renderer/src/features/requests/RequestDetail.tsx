// One request of the Requests view in detail: a transcript for chat, text, Responses and Messages
// completions; the prompt, text, ranking or transcription of the other surfaces and the files their
// answers carried; headers, bodies, the fault that answered it, what it caused, and as curl.
import { ApiError, origin, type JournalEntry } from '../../api.ts'
import { Body, CopyButton, ErrorText, StatusBadge, localDateTime } from '../../components/ui.tsx'
import { useFaultRule } from '../faults/queries.ts'
import { bodyIncomplete, curlCommand } from './curl.ts'
import { useJournalEntry, type JournalRow } from './journal.ts'
import { MediaView } from './MediaView.tsx'
import { bothTimes, SegmentedText } from './RequestText.tsx'
import { durationText as ms, sourceParts, type AnswerSource } from './source.ts'
import { SurfaceView } from './SurfaceView.tsx'
import { hasTranscript } from './transcript.ts'
import { TranscriptView } from './TranscriptView.tsx'

export function RequestDetail({ row }: { row: JournalRow }) {
  const full = useJournalEntry(row.id)
  const entry = full.data
  const gone = full.error instanceof ApiError && full.error.status === 404
  const curl = entry ? curlCommand(entry, origin()) : null
  return (
    <div className="detail">
      <div className="row">
        <h3 className="grow detail-title mono">
          {row.method} <SegmentedText text={row.path} />
          {row.query && <span className="query">?{row.query}</span>}
        </h3>
        {curl && <CopyButton text={curl} label="Copy as curl" />}
      </div>
      <p className="row detail-meta">
        <StatusBadge status={row.status} />
        {row.fault !== null && <span className="badge fault">fault</span>}
        <span className="mono">{row.operation}</span>
        <span className="muted">{ms(row.duration_ms)}</span>
        <span className="muted" title={bothTimes(row)}>
          {localDateTime(row.time)} (virtual)
        </span>
      </p>
      {(row.account_id || row.key_hash) && (
        <p className="muted detail-meta">
          {row.account_id && (
            <>
              Account <code className="mono">{row.account_id}</code>{' '}
            </>
          )}
          {row.key_hash && (
            <>
              key <code className="mono" title={row.key_hash}>{`${row.key_hash.slice(0, 12)}…`}</code>
            </>
          )}
        </p>
      )}
      {row.source !== null && <SourceLine source={row.source} />}
      {row.aborted && <p className="error">The connection was closed before an answer (a dropped-connection fault, or the client went away).</p>}

      {row.fault !== null && (
        <section className="fault-box" aria-label="Fault">
          <h4>Answered by a fault</h4>
          <FaultInfo fault={row.fault} />
        </section>
      )}

      {gone ? (
        <p className="muted">This request is no longer in the journal (it was cleared, or pushed out by newer ones), so its headers and bodies are gone.</p>
      ) : full.error ? (
        <ErrorText error={full.error} />
      ) : !entry ? (
        <p className="muted">Loading headers and bodies…</p>
      ) : (
        <>
          {hasTranscript(entry.operation) && <TranscriptView entry={entry} />}
          <SurfaceView entry={entry} />
          <MediaView entry={entry} />

          <h4>Request</h4>
          <Headers headers={entry.request.headers} label="Request headers" />
          <p className="body-label">Request body</p>
          <Body text={entry.request.body} />

          <h4>Response</h4>
          {entry.response.headers['x-emulator-detail'] && (
            <p className="emulator-detail" aria-label="Emulator detail">
              <strong>Why:</strong> {entry.response.headers['x-emulator-detail']}
              <span className="muted"> (the body keeps the vendor's own words; this explanation travels in X-Emulator-Detail)</span>
            </p>
          )}
          <Headers headers={entry.response.headers} label="Response headers" open />
          <p className="body-label">Response body</p>
          {binaryType(entry) ? (
            <p className="muted">
              {entry.response.body_bytes.toLocaleString('en-US')} bytes of <code className="mono">{binaryType(entry)}</code>, not shown as text
              {entry.media.length > 0 && ' (see Media above)'}.
            </p>
          ) : (
            <Body text={entry.response.body} />
          )}
        </>
      )}

      <h4>Effects</h4>
      <Effects entry={entry ?? row} />

      {entry && curl && (
        <>
          <h4 className="row">
            <span className="grow">As curl</span>
            <CopyButton text={curl} label="Copy" />
          </h4>
          <pre className="code" aria-label="The request as a curl command">
            {curl}
          </pre>
          <p className="muted small-print">
            {'authorization' in entry.request.headers && (
              <>
                Keys never reach the journal: set <code className="mono">KEY</code> first (<code className="mono">export KEY=sk-gw-v1-…</code>, from{' '}
                <a href="#/connect">Connect</a>).{' '}
              </>
            )}
            {bodyIncomplete(entry) && 'The journal kept only part of this body (or hid a key in it), so the command sends it as recorded.'}
          </p>
        </>
      )}
    </div>
  )
}

/** The detail's sentence of where the answer came from, its file names as code. */
function SourceLine({ source }: { source: AnswerSource }) {
  return (
    <p className="source-line">
      {sourceParts(source).map((part, i) =>
        part.file ? (
          <code key={i} className="mono">
            {part.text}
          </code>
        ) : (
          part.text
        ),
      )}
      {source.kind !== 'generated' && (
        <span className="muted">
          {' '}
          · <a href="#/recordings">Recordings</a>
        </span>
      )}
    </p>
  )
}

function Headers({ headers, label, open = false }: { headers: Record<string, string>; label: string; open?: boolean }) {
  const list = Object.entries(headers)
  if (list.length === 0) return <p className="muted">(no headers)</p>
  return (
    <details className="headers" open={open}>
      <summary>
        {label} ({list.length})
      </summary>
      <table className="kv" aria-label={label}>
        <tbody>
          {list.map(([name, value]) => (
            <tr key={name}>
              <th scope="row" className="mono">
                {name}
              </th>
              <td className="mono">{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  )
}

function FaultInfo({ fault }: { fault: string }) {
  const rule = useFaultRule(fault, fault !== 'header')
  if (fault === 'header') {
    return (
      <p>
        The request carried an <code className="mono">X-Emulator-Fault</code> header, which forced this status on it alone.
      </p>
    )
  }
  const gone = rule.error instanceof ApiError && rule.error.status === 404
  return (
    <>
      {rule.data && <p className="fault-explanation">{rule.data.explanation}</p>}
      {rule.isPending && <p className="muted">Loading the rule…</p>}
      {gone && <p className="muted">The rule that answered it has since been deleted.</p>}
      {rule.error && !gone && <ErrorText error={rule.error} />}
      <p className="muted">
        Rule {rule.data?.name ? <strong>{rule.data.name}</strong> : null} <code className="mono">{fault}</code> · <a href="#/faults">Manage faults</a>
      </p>
    </>
  )
}

function Effects({ entry }: { entry: JournalRow }) {
  const { usage, tasks, charges, callbacks } = entry.effects
  if (usage.length + tasks.length + charges.length + callbacks.length === 0) {
    return (
      <p className="muted">
        {entry.fault ? 'None: a fault answers before the request is handled, so nothing was billed or created.' : 'None: nothing was billed or created.'}
      </p>
    )
  }
  return (
    <dl className="effects">
      {usage.length > 0 && (
        <>
          <dt>Usage rows (billed)</dt>
          <dd className="mono">{usage.join(', ')}</dd>
        </>
      )}
      {tasks.length > 0 && (
        <>
          <dt>Video tasks</dt>
          <dd className="mono">
            {tasks.map((t, i) => (
              <span key={t}>
                {i > 0 && ', '}
                <a href={`#/video/${encodeURIComponent(t)}`}>{t}</a>
              </span>
            ))}
          </dd>
        </>
      )}
      {charges.length > 0 && (
        <>
          <dt>Crypto charges</dt>
          <dd className="mono">{charges.join(', ')}</dd>
        </>
      )}
      {callbacks.length > 0 && (
        <>
          <dt>Callback deliveries</dt>
          <dd className="mono">{callbacks.join(', ')}</dd>
        </>
      )}
    </dl>
  )
}

/** The media type of an answer that is a file (speech audio, a video), whose bytes make no sense as text. */
const binaryType = (entry: JournalEntry): string | null => {
  const type = Object.entries(entry.response.headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? ''
  return /^(audio|image|video)\//.test(type) || type.startsWith('application/octet-stream') ? type : null
}
