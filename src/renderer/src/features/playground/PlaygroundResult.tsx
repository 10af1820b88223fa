// The Playground's answer being received or just received: its text and tool calls, the gateway's
// error, its facts (tokens, cost, finish reason) and the link to its request in the Requests view.
import type { JournalSummary } from '../../api.ts'
import type { Answer, StreamedAnswer } from '../../chat/answer.ts'
import { ChoiceItem, Facts, GatewayErrorText, preciseUsd, tokensText } from '../../chat/ChatParts.tsx'
import { ErrorText } from '../../components/ui.tsx'
import { useLiveJournal } from '../requests/journal.ts'
import type { SendResult } from './send.ts'

/** One send: where it stands, what has arrived, and where its journal entry will be found. */
export interface Run {
  state: 'sending' | 'done' | 'failed'
  answer: Answer | StreamedAnswer | null
  result: SendResult | null
  error: unknown
  /** The newest journal id before the request, and its key: the request's entry is the next one of that key. */
  after: number
  keyHash: string
}

/** The answer being received or just received: text, tool calls, the error, the facts and the link. */
export function RunResult({ run }: { run: Run }) {
  const live = useLiveJournal()
  const answer = run.answer
  const result = run.result
  const entry = run.state === 'sending' ? undefined : firstEntryAfter(live, run.after, run.keyHash)
  const choice = answer?.choices[0]
  // A finished answer has joined the conversation above; what is shown here is its facts.
  const showAnswer = run.state !== 'done' && choice !== undefined
  return (
    <div className="playground-result" aria-live="polite">
      {run.state === 'sending' && !choice && <p className="muted">Waiting for the answer…</p>}
      {showAnswer && (
        <ol className="chat-messages" aria-label="Answer in progress">
          <ChoiceItem choice={choice} label="Answer" streaming={run.state === 'sending'} />
        </ol>
      )}
      {answer?.error && <GatewayErrorText error={answer.error} status={result && result.status >= 400 ? result.status : null} />}
      {result?.cut === 'connection' && <p className="error">The stream was cut before its end (no `data: [DONE]`): the connection closed part way.</p>}
      {result?.cut === 'stopped' && <p className="muted">Stopped: the rest of the answer was not read.</p>}
      {run.error !== null && <ErrorText error={run.error} />}
      {run.state === 'failed' && <p className="muted small-print">The message stays below: change something and send it again.</p>}
      {result && answer && (
        <Facts
          label="Answer facts"
          items={[
            ['Status', String(result.status)],
            ['Model', answer.model],
            ['Provider', answer.provider],
            ['Tokens', tokensText(answer.usage?.promptTokens ?? null, answer.usage?.completionTokens ?? null)],
            ['Cost', answer.usage?.cost == null ? null : preciseUsd(answer.usage.cost)],
            ['Finish reason', answer.choices.map((c) => c.finishReason).find((r) => r !== null) ?? null],
            ['Generation id', result.generationId && <code className="mono">{result.generationId}</code>],
            ['Streamed', result.streamed ? 'yes' : 'no'],
          ]}
        />
      )}
      {run.state !== 'sending' && (
        <p className="small-print">
          {entry ? <a href={`#/requests/${entry.id}`}>Open this request in the Requests view</a> : <a href="#/requests">Open the Requests view</a>}
        </p>
      )}
    </div>
  )
}

/** The oldest chat request of `keyHash` newer than `after` that the live journal has delivered. */
function firstEntryAfter(live: JournalSummary[], after: number, keyHash: string): JournalSummary | undefined {
  let found: JournalSummary | undefined
  for (const e of live) if (e.id > after && e.key_hash === keyHash && e.operation === 'chat.create' && (!found || e.id < found.id)) found = e
  return found
}
