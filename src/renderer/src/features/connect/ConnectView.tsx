// The Connect view: where to point a client (base URLs), the keys to use (shown in full on purpose:
// this is a local emulator), and snippets to paste for curl, `openai` and `@openrouter/sdk`.
import { useMutation, useQueries, useQueryClient } from '@tanstack/react-query'
import { useId } from 'react'
import { api, origin, type AdminKey } from '../../api.ts'
import { Code, CopyButton, Empty, ErrorText, usd } from '../../components/ui.tsx'
import { accountsKey, keysQuery, useAccounts } from '../../queries.ts'
import '../../styles/views.css'
import './connect.css'

const CHAT_MODEL = 'openai/gpt-4o-mini'

function urls(base: string) {
  return [
    { name: 'Gateway API', url: `${base}/api/v1`, what: 'The base URL for the openai and @openrouter/sdk clients, and for curl.' },
    { name: 'Video router', url: `${base}/router/v1`, what: 'The video generation API (text2video, img2video, tasks).' },
    { name: 'Admin API', url: `${base}/_emulator/api`, what: 'Controls the emulator itself: faults, clock, accounts, journal. No key needed.' },
    { name: 'Inspector UI', url: `${base}/_emulator/`, what: 'This page, in any browser.' },
    { name: 'API docs', url: `${base}/_emulator/docs`, what: 'Every endpoint of all three APIs, browsable.' },
  ]
}

function snippets(base: string, standard: string, management: string) {
  const api = `${base}/api/v1`
  return [
    {
      id: 'curl',
      title: 'curl',
      copy: 'Copy curl',
      code: `curl ${api}/chat/completions \\
  -H "Authorization: Bearer ${standard}" \\
  -H 'content-type: application/json' \\
  --data '{"model":"${CHAT_MODEL}","messages":[{"role":"user","content":"hello"}]}'

# a management key lists the account's keys
curl ${api}/keys -H "Authorization: Bearer ${management}"`,
    },
    {
      id: 'openai',
      title: 'openai (Node)',
      copy: 'Copy openai',
      code: `import OpenAI from 'openai'

const client = new OpenAI({
  apiKey: '${standard}', // the standard key
  baseURL: '${api}',
})

const res = await client.chat.completions.create({
  model: '${CHAT_MODEL}',
  messages: [{ role: 'user', content: 'hello' }],
})
console.log(res.choices[0].message.content)`,
    },
    {
      id: 'openrouter',
      title: '@openrouter/sdk (Node)',
      copy: 'Copy @openrouter/sdk',
      code: `import { OpenRouter } from '@openrouter/sdk'

const admin = new OpenRouter({
  apiKey: '${management}', // the management key
  serverURL: '${api}',
})

const { data: keys } = await admin.apiKeys.list()
console.log(keys.map((k) => k.name))`,
    },
    {
      id: 'env',
      title: 'Environment variables (tools that read OPENAI_*)',
      copy: 'Copy variables',
      code: `export OPENAI_BASE_URL=${api}
export OPENAI_API_KEY=${standard}`,
    },
  ]
}

export function ConnectView() {
  const ids = useId()
  const client = useQueryClient()
  const base = origin()
  const accounts = useAccounts()
  const list = accounts.data ?? []
  const keys = useQueries({ queries: list.map((a) => keysQuery(a.id)) })
  const create = useMutation({
    mutationFn: api.accounts.create,
    onSuccess: () => client.invalidateQueries({ queryKey: accountsKey }),
  })

  // The snippets use the first (default) account's keys.
  const defaults = keys[0]?.data ?? []
  const usable = (k: AdminKey) => !k.disabled && k.key !== null
  const standard = defaults.find((k) => k.kind === 'standard' && usable(k))?.key ?? '<a standard key>'
  const management = defaults.find((k) => k.kind === 'management' && usable(k))?.key ?? '<a management key>'

  return (
    <div className="connect-view">
      <h2>Connect a client</h2>
      <p className="muted intro">
        Point your code at the emulator instead of the real service: same paths, same answers, with the keys below. Everything stays on this machine.
      </p>

      <section className="panel" aria-labelledby={`${ids}-urls`}>
        <h3 id={`${ids}-urls`}>Base URLs</h3>
        <table className="connect-urls">
          <tbody>
            {urls(base).map((u) => (
              <tr key={u.name}>
                <th scope="row">{u.name}</th>
                <td className="mono">{u.url}</td>
                <td>
                  <CopyButton text={u.url} />
                </td>
                <td className="muted">{u.what}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <section className="panel" aria-labelledby={`${ids}-keys`}>
        <h3 id={`${ids}-keys`}>API keys</h3>
        {/* As the routes require (their `auth` configs): the test checks this list against the OpenAPI document. */}
        <ul className="muted key-kinds" aria-label="What each kind of key calls">
          <li>
            Standard keys call inference: chat completions, text completions, Responses, Messages, embeddings, images, speech, transcription, rerank and video
            (the videos API and the video router).
          </li>
          <li>
            Management keys manage the account: keys, workspaces (budgets and members), guardrails, BYOK credentials, presets, observability destinations,
            organization members and SCIM groups, analytics and activity, generation feedback and OAuth codes.
          </li>
          <li>Either kind reads its own key (/key), credits, generations, files, presets and datasets.</li>
          <li>The model catalog (models, providers, endpoints) needs no key.</li>
        </ul>
        <p className="muted">Keys are shown in full because this is a local emulator: never paste a real key here.</p>
        <ErrorText error={accounts.error ?? create.error} />
        {accounts.isPending ? (
          <p className="muted">Loading…</p>
        ) : list.length === 0 ? (
          <Empty title="No accounts">
            <p>The emulator's state is empty. Create an account: it comes with a standard and a management key.</p>
            <button type="button" onClick={() => create.mutate()} disabled={create.isPending}>
              Create an account
            </button>
          </Empty>
        ) : (
          list.map((account, i) => {
            const q = keys[i]
            const accountKeys = q?.data ?? []
            return (
              <div key={account.id} className="connect-account">
                <h4>
                  {account.name} {i === 0 && <span className="badge ok">default</span>}{' '}
                  <span className="muted connect-account-meta">
                    <code className="mono">{account.id}</code> · balance {usd(account.balance_usd)}
                  </span>
                </h4>
                <ErrorText error={q?.error} />
                {accountKeys.length === 0 ? (
                  <p className="muted">{q?.isPending ? 'Loading…' : 'No keys.'}</p>
                ) : (
                  <table aria-label={`Keys of ${account.name}`}>
                    <thead>
                      <tr>
                        <th scope="col">Name</th>
                        <th scope="col">Kind</th>
                        <th scope="col">Key</th>
                        <th scope="col">
                          <span className="visually-hidden">Copy</span>
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {accountKeys.map((k) => (
                        <tr key={k.hash} className={k.disabled ? 'inactive' : undefined}>
                          <td>
                            {k.name}
                            {k.disabled && <span className="badge warn connect-disabled">disabled</span>}
                          </td>
                          <td>
                            <span className={`badge kind-${k.kind}`}>{k.kind}</span>
                          </td>
                          <td className="mono token" title={`Hash ${k.hash}`}>
                            {k.key ?? <span className="muted">not stored (only its label {k.label})</span>}
                          </td>
                          <td>{k.key && <CopyButton text={k.key} label="Copy key" />}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                )}
              </div>
            )
          })
        )}
      </section>

      <section className="panel" aria-labelledby={`${ids}-snippets`}>
        <h3 id={`${ids}-snippets`}>Ready to paste</h3>
        <p className="muted">With the default account's keys{list[0] ? ` (${list[0].name})` : ''}.</p>
        <div className="snippets">
          {snippets(base, standard, management).map((s) => (
            <div key={s.id} className="snippet">
              <div className="row">
                <h4 className="grow" id={`${ids}-${s.id}`}>
                  {s.title}
                </h4>
                <CopyButton text={s.code} label={s.copy} />
              </div>
              <Code>{s.code}</Code>
            </div>
          ))}
        </div>
        <p className="muted small-print">
          The 1.x <code className="mono">@openrouter/sdk</code> retries every 5xx for a long time by default; in tests that provoke errors, pass{' '}
          <code className="mono">{'retryConfig: { strategy: "none" }'}</code>. For <code className="mono">openai</code>,{' '}
          <code className="mono">maxRetries: 0</code>.
        </p>
      </section>
    </div>
  )
}
