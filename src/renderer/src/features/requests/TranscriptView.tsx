// A completion's transcript in the request detail (a chat or text completion, a Responses response,
// an Anthropic message): the facts, the conversation sent, then the answer (assembled from the
// recorded stream, or the JSON). Read by transcript.ts.
import { useMemo } from 'react'
import { AnswerChoices, Facts, GatewayErrorText, MessageList, preciseUsd, tokensText } from '../../chat/ChatParts.tsx'
import type { JournalEntry } from '../../api.ts'
import { transcriptOf, type TranscriptKind } from './transcript.ts'

const ms = (n: number): string => (n < 10 ? `${n.toFixed(1)} ms` : `${Math.round(n).toLocaleString('en-US')} ms`)

const TITLES: Record<TranscriptKind, { title: string; facts: string }> = {
  chat: { title: 'Chat transcript', facts: 'Completion facts' },
  text: { title: 'Text completion', facts: 'Completion facts' },
  responses: { title: 'Responses transcript', facts: 'Response facts' },
  messages: { title: 'Messages transcript', facts: 'Message facts' },
}

export function TranscriptView({ entry }: { entry: JournalEntry }) {
  const t = useMemo(() => transcriptOf(entry), [entry])
  const { facts, request, answer } = t
  const titles = TITLES[t.kind]
  return (
    <section className="transcript" aria-label="Transcript">
      <h4>{titles.title}</h4>
      <Facts
        label={titles.facts}
        items={[
          ['Model', facts.model && <code className="mono">{facts.model}</code>],
          ['Provider', facts.provider],
          ['Tokens', tokensText(facts.promptTokens, facts.completionTokens, t.tokenWords)],
          ['Cost', facts.cost === null ? null : preciseUsd(facts.cost)],
          ['Cache', facts.cache && `${facts.cache.read} read / ${facts.cache.written} written`],
          [t.finishLabel, facts.finishReason],
          ['Generation id', facts.generationId && <code className="mono">{facts.generationId}</code>],
          ['Timing', `${ms(facts.durationMs)}, ${facts.streamed ? 'streamed' : 'not streamed'}`],
        ]}
      />

      <p className="body-label">Sent</p>
      {request ? (
        <>
          {request.messages.length > 0 ? (
            <MessageList messages={request.messages} label="Conversation" />
          ) : (
            <p className="muted">The request carried no messages.</p>
          )}
          {(request.tools.length > 0 || request.options.length > 0) && (
            <p className="muted small-print transcript-options">
              {request.tools.length > 0 && (
                <span>
                  Tools offered: <code className="mono">{request.tools.join(', ')}</code>
                  {request.toolChoice && (
                    <>
                      {' '}
                      (tool_choice <code className="mono">{request.toolChoice}</code>)
                    </>
                  )}
                </span>
              )}
              {request.options.map(([name, value]) => (
                <span key={name}>
                  {name} <code className="mono">{value}</code>
                </span>
              ))}
            </p>
          )}
        </>
      ) : (
        <p className="muted transcript-note">{t.requestProblem}</p>
      )}

      <p className="body-label">{t.facts.streamed ? 'Answer (the stream assembled)' : 'Answer'}</p>
      {answer ? (
        <>
          {answer.choices.length > 0 && <AnswerChoices answer={answer} />}
          {answer.error && <GatewayErrorText error={answer.error} status={entry.status >= 400 ? entry.status : null} />}
          {answer.choices.length === 0 && !answer.error && <p className="muted">The answer carried no choices.</p>}
        </>
      ) : (
        <p className="muted transcript-note">{t.answerProblem}</p>
      )}
      {t.answerCut && (
        <p className="transcript-warning" role="note">
          {t.answerCut}
        </p>
      )}
      {t.streamCut && (
        <p className="transcript-warning" role="note">
          The stream ended before <code className="mono">{t.streamEnd}</code>: the connection was cut part way (a fault, or the client went away).
        </p>
      )}
    </section>
  )
}
