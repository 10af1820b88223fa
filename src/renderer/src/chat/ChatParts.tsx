// How a conversation and its answer look, in the Requests view's transcript and in the Playground:
// one message per role (text, media placeholders, tool calls with their arguments, the call a tool
// result answers), the answer's choices with their finish reason, and the facts around it.
import type { ReactNode } from 'react'
import type { Answer, AnswerChoice, GatewayError, ToolCallView } from './answer.ts'
import type { MessageView } from './request.ts'
import './chat.css'

/** Arguments as pretty JSON when they parse (a stream cut part way leaves them unfinished: shown as sent). */
function prettyArguments(text: string): string {
  if (text === '') return '(no arguments)'
  try {
    return JSON.stringify(JSON.parse(text), null, 2)
  } catch {
    return text
  }
}

/** USD with the digits a fraction of a cent needs: $0.0000108, $0.42. */
export const preciseUsd = (n: number): string => {
  if (n === 0) return '$0'
  if (Math.abs(n) >= 0.01) return `$${n.toFixed(4).replace(/0{1,2}$/, '')}`
  return `$${n.toFixed(Math.min(12, 2 - Math.floor(Math.log10(Math.abs(n)))))}`
}

export function ToolCallBox({ call }: { call: ToolCallView }) {
  return (
    <div className="chat-tool-call" role="group" aria-label={`Tool call ${call.name}`}>
      <div className="row">
        <span className="badge">tool call</span>
        <code className="mono chat-tool-name">{call.name || '(no name)'}</code>
        {call.id && <span className="muted mono">{call.id}</span>}
      </div>
      <pre className="code" aria-label={`Arguments of ${call.name}`}>
        {prettyArguments(call.arguments)}
      </pre>
    </div>
  )
}

const roleClass = (role: string): string => `role-${/^[a-z]+$/.test(role) ? role : 'other'}`

function Content({ text, toolCalls, empty }: { text: ReactNode; toolCalls: ToolCallView[]; empty: string }) {
  return (
    <>
      {text}
      {toolCalls.map((call) => (
        <ToolCallBox key={`${call.index}-${call.id ?? ''}`} call={call} />
      ))}
      {!text && toolCalls.length === 0 && empty && <span className="muted">{empty}</span>}
    </>
  )
}

export function MessageList({ messages, label }: { messages: MessageView[]; label: string }) {
  return (
    <ol className="chat-messages" aria-label={label}>
      {messages.map((m, i) => (
        <li key={i} className={`chat-message ${roleClass(m.role)}`} aria-label={`${m.role} message`}>
          <div className="chat-role">
            {m.role}
            {m.name && <span className="muted"> ({m.name})</span>}
            {m.toolCallId && (
              <span className="muted">
                {' '}
                result of <code className="mono">{m.toolCallId}</code>
              </span>
            )}
          </div>
          <Content
            text={
              m.parts.length > 0 &&
              m.parts.map((part, j) =>
                part.kind === 'text' ? (
                  <div key={j} className="chat-text">
                    {part.text}
                  </div>
                ) : (
                  <div key={j} className="chat-media">
                    [{part.label}]
                  </div>
                ),
              )
            }
            toolCalls={m.toolCalls}
            empty="(no content)"
          />
        </li>
      ))}
    </ol>
  )
}

/** An answer that failed is marked bad; one cut short (at its token limit, incomplete, refused) a warning. */
const finishClass = (reason: string): string =>
  reason === 'error' || reason === 'failed' ? 'bad' : /^(length|max_tokens|incomplete|refusal)/.test(reason) ? 'warn' : ''

export function ChoiceItem({ choice, label, streaming = false }: { choice: AnswerChoice; label: string; streaming?: boolean }) {
  return (
    <li className="chat-message role-assistant" aria-label={label} aria-busy={streaming || undefined}>
      <div className="chat-role row">
        <span className="grow">{label === 'Answer' ? 'assistant' : `assistant · ${label.toLowerCase()}`}</span>
        {choice.finishReason && (
          <span className={`badge ${finishClass(choice.finishReason)}`} title="Finish reason">
            {choice.finishReason}
          </span>
        )}
      </div>
      {choice.reasoning && (
        <details className="chat-reasoning">
          <summary>Reasoning</summary>
          <div className="chat-text">{choice.reasoning}</div>
        </details>
      )}
      {choice.reasoningSummary && (
        <details className="chat-reasoning">
          <summary>Reasoning summary</summary>
          <div className="chat-text">{choice.reasoningSummary}</div>
        </details>
      )}
      {choice.refusal && (
        <div className="chat-refusal">
          <span className="badge warn">refusal</span> <span className="chat-text">{choice.refusal}</span>
        </div>
      )}
      <Content
        text={
          choice.content || choice.attachments ? (
            <>
              {choice.content && <div className="chat-text">{choice.content}</div>}
              {choice.attachments?.map((label, i) => (
                <div key={i} className="chat-media">
                  [{label}]
                </div>
              ))}
            </>
          ) : null
        }
        toolCalls={choice.toolCalls}
        empty={streaming ? 'Waiting for the answer…' : choice.refusal || choice.reasoning ? '' : '(no text)'}
      />
    </li>
  )
}

export function AnswerChoices({ answer, streaming = false }: { answer: Answer; streaming?: boolean }) {
  const several = answer.choices.length > 1
  return (
    <ol className="chat-messages" aria-label="Answer">
      {answer.choices.map((choice) => (
        <ChoiceItem key={choice.index} choice={choice} label={several ? `Choice ${choice.index + 1}` : 'Answer'} streaming={streaming} />
      ))}
    </ol>
  )
}

export function GatewayErrorText({ error, status }: { error: GatewayError; status?: number | null }) {
  // A named code (Anthropic's `invalid_request_error`, a Responses `server_error`) goes with the status, when there is one.
  const code = typeof error.code === 'string' && status ? `${status} (${error.code})` : (error.code ?? status ?? null)
  return (
    <p className="error chat-error" role="alert">
      <strong>Error{code !== null ? ` ${code}` : ''}:</strong> {error.message}
    </p>
  )
}

/** Label and value pairs; a null value is left out. */
export function Facts({ label, items }: { label: string; items: Array<[string, ReactNode]> }) {
  return (
    <dl className="chat-facts" aria-label={label}>
      {items
        .filter(([, value]) => value !== null && value !== undefined && value !== '')
        .map(([name, value]) => (
          <div key={name}>
            <dt>{name}</dt>
            <dd>{value}</dd>
          </div>
        ))}
    </dl>
  )
}

/** "12 prompt + 40 completion" (or the API's own words: "12 input + 40 output"), or null when neither is known. */
export const tokensText = (prompt: number | null, completion: number | null, words: readonly [string, string] = ['prompt', 'completion']): string | null =>
  prompt === null && completion === null ? null : `${prompt ?? '?'} ${words[0]} + ${completion ?? '?'} ${words[1]}`
