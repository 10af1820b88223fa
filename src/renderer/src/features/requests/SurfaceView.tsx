// The request detail of an image generation, a speech, a transcription or a rerank call: its facts,
// what it sent and what came back (the files themselves are in the Media section). Read by surfaces.ts.
import { useId, useMemo } from 'react'
import { Facts, GatewayErrorText } from '../../chat/ChatParts.tsx'
import type { JournalEntry } from '../../api.ts'
import { surfaceDetail, type RerankDetail, type SurfaceDetail, type TranscriptionDetail } from './surfaces.ts'

const TITLES: Record<SurfaceDetail['kind'], string> = {
  images: 'Image generation',
  speech: 'Speech',
  transcription: 'Transcription',
  rerank: 'Rerank',
}

/** Facts shown as code, as the transcript shows them. */
const MONO = new Set(['Model', 'Generation id'])

/** "0.9684", a score to four places. */
const score = (n: number | null): string => (n === null ? '?' : n.toFixed(4))
const seconds = (n: number | null): string => (n === null ? '?' : `${n.toFixed(1)} s`)

function Note({ text }: { text: string | null }) {
  return text ? <p className="muted transcript-note">{text}</p> : null
}

function RerankResults({ detail }: { detail: RerankDetail }) {
  const { ranked, documentCount, topN } = detail
  const left = documentCount !== null ? documentCount - ranked.length : 0
  return (
    <>
      <p className="body-label">Query</p>
      {detail.query !== null ? <blockquote className="surface-text">{detail.query}</blockquote> : <Note text={detail.requestProblem} />}
      <p className="body-label">Documents, most relevant first</p>
      {ranked.length > 0 ? (
        <table className="rerank-results" aria-label="Documents, most relevant first">
          <thead>
            <tr>
              <th scope="col" className="num">
                Rank
              </th>
              <th scope="col" className="num">
                Score
              </th>
              <th scope="col" className="num nowrap">
                Sent as
              </th>
              <th scope="col">Document</th>
            </tr>
          </thead>
          <tbody>
            {ranked.map((d) => (
              <tr key={d.rank}>
                <td className="num">{d.rank}</td>
                <td className="num mono nowrap">
                  <span className="score-bar" style={{ width: `${Math.max(0, Math.min(1, d.score ?? 0)) * 3}em` }} aria-hidden="true" />
                  {score(d.score)}
                </td>
                <td className="num" title="Its place in the request's documents (from 0)">
                  #{d.index}
                </td>
                <td className="surface-document">
                  {d.text ?? <span className="muted">(no text)</span>}
                  {d.image && <span className="chat-media"> [image: {d.image}]</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        !detail.error && <Note text={detail.answerProblem ?? 'The answer ranked no documents.'} />
      )}
      {ranked.length > 0 && left > 0 && (
        <p className="muted small-print">
          {left} of the {documentCount} documents sent {left === 1 ? 'is' : 'are'} not in the answer
          {topN !== null ? ` (top_n ${topN})` : ''}.
        </p>
      )}
    </>
  )
}

function TranscriptionText({ detail }: { detail: TranscriptionDetail }) {
  return (
    <>
      {detail.audio && <p className="muted small-print">Sent: {detail.audio}</p>}
      <Note text={detail.requestProblem} />
      <p className="body-label">Text</p>
      {detail.text !== null ? <blockquote className="surface-text">{detail.text}</blockquote> : !detail.error && <Note text={detail.answerProblem} />}
      {detail.segments.length > 0 && (
        <ol className="surface-segments" aria-label="Segments">
          {detail.segments.map((s, i) => (
            <li key={i}>
              <span className="muted mono">
                {seconds(s.start)}–{seconds(s.end)}
              </span>{' '}
              {s.text}
            </li>
          ))}
        </ol>
      )}
    </>
  )
}

export function SurfaceView({ entry }: { entry: JournalEntry }) {
  const detail = useMemo(() => surfaceDetail(entry), [entry])
  const headingId = useId()
  if (!detail) return null
  const title = TITLES[detail.kind]
  return (
    <section className="transcript surface" aria-labelledby={headingId}>
      <h4 id={headingId}>{title}</h4>
      <Facts
        label={`${title} facts`}
        items={detail.facts.map(([name, value]) => [name, value && MONO.has(name) ? <code className="mono">{value}</code> : value])}
      />
      {detail.kind === 'images' && (
        <>
          <p className="body-label">Prompt</p>
          {detail.prompt !== null ? <blockquote className="surface-text">{detail.prompt}</blockquote> : <Note text={detail.requestProblem} />}
          {detail.options.length > 0 && (
            <p className="muted small-print transcript-options">
              {detail.options.map(([name, value]) => (
                <span key={name}>
                  {name} <code className="mono">{value}</code>
                </span>
              ))}
            </p>
          )}
          <Note text={detail.answerProblem} />
        </>
      )}
      {detail.kind === 'speech' && (
        <>
          <p className="body-label">Text spoken</p>
          {detail.input !== null ? <blockquote className="surface-text">{detail.input}</blockquote> : <Note text={detail.requestProblem} />}
          <Note text={detail.answerProblem} />
        </>
      )}
      {detail.kind === 'transcription' && <TranscriptionText detail={detail} />}
      {detail.kind === 'rerank' && <RerankResults detail={detail} />}
      {detail.error && <GatewayErrorText error={detail.error} status={entry.status >= 400 ? entry.status : null} />}
    </section>
  )
}
