// The Playground: a chat with the emulator through its own gateway, with one of its keys. Pick an
// account, a key and a text model, write a system prompt and a message, and send: the answer streams
// in (or comes whole), joins the conversation, and the next message continues it. Tokens, cost, the
// finish reason and a link to the request in the Requests view follow each answer (PlaygroundResult);
// errors (402, 429, a fault's error chunk) show the gateway's own message.
import { useEffect, useId, useMemo, useRef, useState, type FormEvent, type KeyboardEvent } from 'react'
import { api } from '../../api.ts'
import { MessageList } from '../../chat/ChatParts.tsx'
import { Empty, ErrorText } from '../../components/ui.tsx'
import { useAccounts, useKeys, useTextModels } from '../../queries.ts'
import { failed, NO_OPTIONS, parseTools, toView, turnOf, type Options } from './conversation.ts'
import { PlaygroundOptions } from './PlaygroundOptions.tsx'
import { RunResult, type Run } from './PlaygroundResult.tsx'
import { sendChat, type ChatTurn } from './send.ts'
import './playground.css'

export function PlaygroundView() {
  const ids = useId()
  const accounts = useAccounts()
  const [accountId, setAccountId] = useState('')
  const account = accounts.data?.find((a) => a.id === accountId) ?? accounts.data?.[0]
  const keys = useKeys(account?.id)
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
      const newest = await api.journal.page(1)
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
          <PlaygroundOptions options={options} onChange={set} tools={tools} toolChoice={toolChoice} />
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
