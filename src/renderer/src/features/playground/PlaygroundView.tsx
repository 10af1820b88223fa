// The Playground: a chat with the emulator through its own gateway, with one of its keys. Pick an
// account, a key and a text model, write a system prompt and a message, and send: the answer streams
// in (or comes whole), joins the conversation, and the next message continues it. Tokens, cost, the
// finish reason and a link to the request in the Requests view follow each answer; errors (402, 429,
// a fault's error chunk) show the gateway's own message.
import { useQuery } from '@tanstack/react-query'
import { useEffect, useId, useMemo, useRef, useState, type FormEvent, type KeyboardEvent } from 'react'
import { admin, type Account, type AdminKey, type Envelope, type JournalSummary, type Page } from '../../api.ts'
import { Empty, ErrorText } from '../../components/ui.tsx'
import type { Answer, StreamedAnswer } from '../../chat/answer.ts'
import { ChoiceItem, Facts, GatewayErrorText, MessageList, preciseUsd, tokensText } from '../../chat/ChatParts.tsx'
import type { MessageView } from '../../chat/request.ts'
import { useLiveJournal } from '../requests/journal.ts'
import { sendChat, type ChatTurn, type SendResult } from './send.ts'

interface CatalogModel {
  id: string
  name?: string
  architecture?: { output_modalities?: string[] }
}

/** The catalog's text models, read through the admin API (the inspector's reads are not journaled). */
function useTextModels() {
  return useQuery({
    queryKey: ['catalog', 'playground'],
    queryFn: () => admin.get<Envelope<{ models: CatalogModel[] }>>('/catalog'),
    select: (r) => r.data.models.filter((m) => m.architecture?.output_modalities?.includes('text')),
    staleTime: 5 * 60_000,
  })
}

/** One send: where it stands, what has arrived, and where its journal entry will be found. */
interface Run {
  state: 'sending' | 'done' | 'failed'
  answer: Answer | StreamedAnswer | null
  result: SendResult | null
  error: unknown
  /** The newest journal id before the request, and its key: the request's entry is the next one of that key. */
  after: number
  keyHash: string
}

interface Options {
  temperature: string
  maxTokens: string
  seed: string
  stream: boolean
  tools: string
  toolChoice: string
}

const NO_OPTIONS: Options = { temperature: '', maxTokens: '', seed: '', stream: true, tools: '', toolChoice: '' }

const TOOLS_EXAMPLE = `[{"type":"function","function":{"name":"get_weather","description":"The weather in a city","parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}}]`

/** The tools textarea read: the list to send, or why it cannot be. */
function parseTools(text: string): { tools: unknown[] | null; names: string[]; problem: string | null } {
  if (text.trim() === '') return { tools: null, names: [], problem: null }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return { tools: null, names: [], problem: `Tools are not valid JSON: ${error instanceof Error ? error.message : String(error)}` }
  }
  if (!Array.isArray(value)) return { tools: null, names: [], problem: 'Tools must be a JSON array of {"type":"function","function":{...}} objects.' }
  const names = value
    .map((t: unknown) => (t as { function?: { name?: unknown } } | null)?.function?.name)
    .filter((n): n is string => typeof n === 'string' && n !== '')
  return { tools: value, names, problem: null }
}

const toView = (turn: ChatTurn): MessageView => ({
  role: turn.role,
  parts: turn.content ? [{ kind: 'text', text: turn.content }] : [],
  toolCalls: (turn.tool_calls ?? []).map((c, index) => ({ index, id: c.id, name: c.function.name, arguments: c.function.arguments })),
  toolCallId: null,
  name: null,
})

/** The first choice of a finished answer as the assistant's turn of the conversation. */
function turnOf(answer: Answer): ChatTurn | null {
  const choice = answer.choices[0]
  if (!choice) return null
  const calls = choice.toolCalls.map((c) => ({ id: c.id ?? `call_${c.index}`, type: 'function' as const, function: { name: c.name, arguments: c.arguments } }))
  return { role: 'assistant', content: choice.content, ...(calls.length > 0 && { tool_calls: calls }) }
}

const failed = (result: SendResult): boolean => result.status >= 400 || result.answer.error !== null || result.cut !== null

export function PlaygroundView() {
  const ids = useId()
  const accounts = useQuery({ queryKey: ['accounts', 'playground'], queryFn: () => admin.get<Envelope<Account[]>>('/accounts').then((r) => r.data) })
  const [accountId, setAccountId] = useState('')
  const account = accounts.data?.find((a) => a.id === accountId) ?? accounts.data?.[0]
  const keys = useQuery({
    queryKey: ['keys', 'playground', account?.id],
    queryFn: () => admin.get<Envelope<AdminKey[]>>(`/accounts/${encodeURIComponent(account!.id)}/keys`).then((r) => r.data),
    enabled: account !== undefined,
  })
  // Only keys the emulator kept the token of can be sent.
  const withToken = useMemo(() => (keys.data ?? []).filter((k) => k.key !== null), [keys.data])
  const [keyHash, setKeyHash] = useState('')
  const key = withToken.find((k) => k.hash === keyHash) ?? withToken.find((k) => k.kind === 'standard' && !k.disabled) ?? withToken[0]
  const models = useTextModels()
  const [modelId, setModelId] = useState('')
  const model = models.data?.find((m) => m.id === modelId) ?? models.data?.[0]

  const [system, setSystem] = useState('')
  const [draft, setDraft] = useState('')
  const [options, setOptions] = useState<Options>(NO_OPTIONS)
  const [conversation, setConversation] = useState<ChatTurn[]>([])
  const [run, setRun] = useState<Run | null>(null)
  const abort = useRef<AbortController | null>(null)
  useEffect(() => () => abort.current?.abort(), [])

  const tools = useMemo(() => parseTools(options.tools), [options.tools])
  // A choice naming a function the tools no longer have, or any choice without tools, is not sent.
  const toolChoice =
    tools.names.length === 0 || (options.toolChoice.startsWith('function:') && !tools.names.includes(options.toolChoice.slice(9))) ? '' : options.toolChoice
  const sending = run?.state === 'sending'
  const canSend = !sending && key !== undefined && model !== undefined && draft.trim() !== '' && tools.problem === null
  const set = (patch: Partial<Options>) => setOptions((o) => ({ ...o, ...patch }))

  const send = async (event?: FormEvent) => {
    event?.preventDefault()
    if (!canSend || !key?.key || !model) return
    const userTurn: ChatTurn = { role: 'user', content: draft }
    const messages: ChatTurn[] = [...(system.trim() !== '' ? [{ role: 'system' as const, content: system }] : []), ...conversation, userTurn]
    const body: Record<string, unknown> = { model: model.id, messages, stream: options.stream }
    if (options.temperature !== '') body.temperature = Number(options.temperature)
    if (options.maxTokens !== '') body.max_tokens = Number(options.maxTokens)
    if (options.seed !== '') body.seed = Number(options.seed)
    if (tools.tools) body.tools = tools.tools
    if (toolChoice !== '') body.tool_choice = toolChoice.startsWith('function:') ? { type: 'function', function: { name: toolChoice.slice(9) } } : toolChoice
    const controller = new AbortController()
    abort.current = controller
    const keyHashSent = key.hash
    setRun({ state: 'sending', answer: null, result: null, error: null, after: Number.POSITIVE_INFINITY, keyHash: keyHashSent })
    try {
      // The newest entry before this request: the request's own entry is the next one of its key.
      const newest = await admin.get<Page<JournalSummary>>('/journal?limit=1')
      const after = newest.data[0]?.id ?? 0
      setRun((r) => r && { ...r, after })
      const result = await sendChat(key.key, body, controller.signal, (answer) => setRun((r) => r && { ...r, answer }))
      setRun((r) => r && { ...r, state: failed(result) ? 'failed' : 'done', answer: result.answer, result })
      if (!failed(result)) {
        const reply = turnOf(result.answer)
        setConversation((c) => [...c, userTurn, ...(reply ? [reply] : [])])
        setDraft('')
      }
    } catch (error) {
      setRun((r) => r && { ...r, state: 'failed', error: controller.signal.aborted ? new Error('Stopped before the answer began.') : error })
    } finally {
      if (abort.current === controller) abort.current = null
    }
  }

  const onDraftKey = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // Ctrl+Enter (or Cmd+Enter) sends; Enter alone makes a new line.
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) void send()
  }

  const restart = () => {
    abort.current?.abort()
    setConversation([])
    setRun(null)
  }

  if (accounts.data?.length === 0) {
    return (
      <div className="playground-view">
        <h2>Playground</h2>
        <Empty title="No accounts">
          <p>
            A chat needs an account and one of its keys. Load a preset or create an account on the <a href="#/data">Data</a> page.
          </p>
        </Empty>
      </div>
    )
  }

  return (
    <div className="playground-view">
      <h2>Playground</h2>
      <p className="muted intro">
        Chat with the emulator through its own gateway (<code className="mono">POST /api/v1/chat/completions</code>) with one of its keys: the request is
        billed, journaled and open to faults like any client's.
      </p>
      <ErrorText error={accounts.error ?? keys.error ?? models.error} />
      <div className="playground-layout">
        <section className="panel playground-settings" aria-labelledby={`${ids}-settings`}>
          <h3 id={`${ids}-settings`}>Settings</h3>
          <div className="field">
            <label htmlFor={`${ids}-account`}>Account</label>
            <select
              id={`${ids}-account`}
              value={account?.id ?? ''}
              onChange={(e) => {
                setAccountId(e.target.value)
                setKeyHash('')
              }}
            >
              {accounts.data?.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${ids}-key`}>Key</label>
            <select id={`${ids}-key`} value={key?.hash ?? ''} onChange={(e) => setKeyHash(e.target.value)} disabled={withToken.length === 0}>
              {withToken.length === 0 && <option value="">{keys.isPending ? 'Loading…' : 'No key with a known token'}</option>}
              {withToken.map((k) => (
                <option key={k.hash} value={k.hash}>
                  {k.name} ({k.kind}
                  {k.disabled ? ', disabled' : ''})
                </option>
              ))}
            </select>
            {key?.kind === 'management' && <span className="muted small-print">A management key is refused here: chat takes a standard key.</span>}
          </div>
          <div className="field">
            <label htmlFor={`${ids}-model`}>Model</label>
            <select id={`${ids}-model`} value={model?.id ?? ''} onChange={(e) => setModelId(e.target.value)}>
              {models.isPending && <option value="">Loading…</option>}
              {models.data?.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.id}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${ids}-system`}>System prompt</label>
            <textarea id={`${ids}-system`} rows={3} value={system} onChange={(e) => setSystem(e.target.value)} placeholder="(none)" />
          </div>
          <div className="field-grid">
            <div className="field">
              <label htmlFor={`${ids}-temperature`}>Temperature</label>
              <input
                id={`${ids}-temperature`}
                type="number"
                min={0}
                max={2}
                step={0.1}
                value={options.temperature}
                onChange={(e) => set({ temperature: e.target.value })}
                placeholder="default"
              />
            </div>
            <div className="field">
              <label htmlFor={`${ids}-max`}>Max tokens</label>
              <input
                id={`${ids}-max`}
                type="number"
                min={1}
                step={1}
                value={options.maxTokens}
                onChange={(e) => set({ maxTokens: e.target.value })}
                placeholder="default"
              />
            </div>
            <div className="field">
              <label htmlFor={`${ids}-seed`}>Seed</label>
              <input id={`${ids}-seed`} type="number" step={1} value={options.seed} onChange={(e) => set({ seed: e.target.value })} placeholder="none" />
            </div>
          </div>
          <label className="check">
            <input type="checkbox" checked={options.stream} onChange={(e) => set({ stream: e.target.checked })} />
            Stream
          </label>
          <div className="field">
            <label htmlFor={`${ids}-tools`}>Tools (JSON)</label>
            <textarea
              id={`${ids}-tools`}
              rows={4}
              className="mono"
              value={options.tools}
              onChange={(e) => set({ tools: e.target.value })}
              placeholder={TOOLS_EXAMPLE}
              aria-invalid={tools.problem !== null}
              aria-describedby={`${ids}-tools-help`}
            />
            <span id={`${ids}-tools-help`} className={tools.problem ? 'error small-print' : 'muted small-print'}>
              {tools.problem ?? (
                <>
                  A JSON array of function tools.{' '}
                  <button type="button" className="link-button" onClick={() => set({ tools: TOOLS_EXAMPLE })}>
                    Use an example
                  </button>
                </>
              )}
            </span>
          </div>
          <div className="field">
            <label htmlFor={`${ids}-choice`}>Tool choice</label>
            <select id={`${ids}-choice`} value={toolChoice} onChange={(e) => set({ toolChoice: e.target.value })} disabled={tools.names.length === 0}>
              <option value="">(not sent: auto with tools)</option>
              <option value="auto">auto</option>
              <option value="none">none</option>
              <option value="required">required</option>
              {tools.names.map((name) => (
                <option key={name} value={`function:${name}`}>
                  function {name}
                </option>
              ))}
            </select>
          </div>
        </section>

        <section className="panel playground-chat" aria-labelledby={`${ids}-chat`}>
          <div className="row">
            <h3 id={`${ids}-chat`} className="grow">
              Conversation
            </h3>
            <button type="button" className="secondary small" onClick={restart} disabled={conversation.length === 0 && run === null}>
              New conversation
            </button>
          </div>
          {conversation.length === 0 && run === null && <p className="muted">Write a message below and send it.</p>}
          {conversation.length > 0 && <MessageList messages={conversation.map(toView)} label="Conversation" />}
          {run && <RunResult run={run} />}
          <form className="playground-composer" onSubmit={(e) => void send(e)}>
            <div className="field">
              <label htmlFor={`${ids}-message`}>Your message</label>
              <textarea
                id={`${ids}-message`}
                rows={3}
                value={draft}
                onChange={(e) => setDraft(e.target.value)}
                onKeyDown={onDraftKey}
                placeholder={conversation.length === 0 ? 'Ask something (Ctrl+Enter sends)' : 'Continue the conversation (Ctrl+Enter sends)'}
              />
            </div>
            <div className="row">
              <button type="submit" disabled={!canSend}>
                {sending ? 'Sending…' : 'Send'}
              </button>
              {sending && (
                <button type="button" className="secondary" onClick={() => abort.current?.abort()}>
                  Stop
                </button>
              )}
              {!key && !keys.isPending && <span className="muted">Pick a key to send with.</span>}
            </div>
          </form>
        </section>
      </div>
    </div>
  )
}

/** The answer being received or just received: text, tool calls, the error, the facts and the link. */
function RunResult({ run }: { run: Run }) {
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
