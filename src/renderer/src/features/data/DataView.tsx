// The Data view: the emulator's accounts and, for the selected one, its keys (usage against their
// limits), guardrails (with what they are assigned to), workspaces, BYOK credentials, presets,
// observability destinations and crypto charges; plus the whole state's
// controls: seed presets, reset, export and import.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useRef, useState } from 'react'
import { ADMIN, admin, type Account, type AccountGuardrail, type AdminKey, type Charge, type Member, type Page } from '../../api.ts'
import { Bar, Empty, ErrorText, shortTime, usd, useConfirm } from '../../components/ui.tsx'
import { ManagementSections } from './ManagementSections.tsx'
import { errorMessage, isExpired, useAccount, useClock, useKeys, selectOnKey, useSelectedAccount, windowUsage } from './shared.ts'

export function DataView() {
  const { accounts, account, select, loading, error } = useSelectedAccount()
  return (
    <div className="dvac">
      <h2>Data</h2>
      <StatePanel />
      <section className="panel" aria-labelledby="accounts-title">
        <h3 id="accounts-title" className="panel-title">
          Accounts
        </h3>
        <ErrorText error={error} />
        {loading ? (
          <p className="muted">Loading…</p>
        ) : !accounts?.length ? (
          <Empty title="No accounts">
            The state is empty. Load the <em>default</em> or <em>demo</em> preset above, or create an account with{' '}
            <code className="inline">POST /_emulator/api/accounts</code>.
          </Empty>
        ) : (
          <table>
            <caption className="sr-only">Accounts; select one to see its keys, guardrails and charges</caption>
            <thead>
              <tr>
                <th>Name</th>
                <th>Id</th>
                <th className="num">Credits</th>
                <th className="num">Spent</th>
                <th className="num">Balance</th>
              </tr>
            </thead>
            <tbody>
              {accounts.map((a) => (
                <tr
                  key={a.id}
                  className="clickable"
                  tabIndex={0}
                  aria-selected={a.id === account?.id}
                  onClick={() => select(a.id)}
                  onKeyDown={selectOnKey(() => select(a.id))}
                >
                  <td>{a.name}</td>
                  <td className="mono">{a.id}</td>
                  <td className="num">{usd(a.credits_usd)}</td>
                  <td className="num">{usd(a.spent_usd)}</td>
                  <td className={`num ${a.balance_usd <= 0 ? 'error' : ''}`}>{usd(a.balance_usd)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {account && <AccountDetail account={account} />}
    </div>
  )
}

// ---- The whole state -----------------------------------------------------------------------------

const PRESETS = [
  { id: 'default', label: 'Default', hint: 'one account, seven keys, no usage' },
  { id: 'empty', label: 'Empty', hint: 'no accounts at all' },
  { id: 'demo', label: 'Demo', hint: 'the default account with 30 days of usage' },
] as const

/** The tables worth naming after an import, as a person would count them. */
const IMPORTED: Record<string, string> = {
  accounts: 'account',
  api_keys: 'API key',
  usage: 'usage record',
  guardrails: 'guardrail',
  charges: 'charge',
  video_tasks: 'video task',
  fault_rules: 'fault rule',
}

function StatePanel() {
  const client = useQueryClient()
  const [message, setMessage] = useState<string | null>(null)
  const fileInput = useRef<HTMLInputElement>(null)
  const confirm = useConfirm()
  const action = useMutation({
    mutationFn: async (run: () => Promise<string>) => run(),
    onMutate: () => setMessage(null),
    onSuccess: (done) => setMessage(done),
    onSettled: () => client.invalidateQueries(),
  })

  const seed = (preset: (typeof PRESETS)[number]) => {
    const name = preset.label.toLowerCase()
    confirm.ask({
      title: `Load the ${name} preset?`,
      message: `The ${name} preset (${preset.hint}) replaces the whole state: accounts, keys, usage, tasks and charges.`,
      confirm: `Load ${name} preset`,
      onConfirm: () =>
        action.mutate(async () => {
          await admin.post('/fixtures/seed', { preset: preset.id })
          return `Loaded the ${name} preset.`
        }),
    })
  }
  const reset = () =>
    confirm.ask({
      title: 'Reset the emulator?',
      message: 'Everything goes back to the seed; usage, tasks, charges and new accounts are lost.',
      confirm: 'Reset emulator',
      danger: true,
      onConfirm: () =>
        action.mutate(async () => {
          await admin.post('/reset')
          return 'The emulator is back to its seed.'
        }),
    })
  const importFile = (file: File) => {
    const clear = () => {
      if (fileInput.current) fileInput.current.value = ''
    }
    confirm.ask({
      title: `Import ${file.name}?`,
      message: 'It replaces the whole state.',
      confirm: 'Import',
      onCancel: clear,
      onConfirm: () => load(file, clear),
    })
  }
  const load = (file: File, clear: () => void) =>
    action.mutate(async () => {
      try {
        const text = await file.text()
        let document: unknown
        try {
          document = JSON.parse(text)
        } catch {
          throw new Error(`${file.name} is not JSON: choose a file saved with "Export state".`)
        }
        const result = await admin.post<{ data: { tables: Record<string, number> } }>('/import', document)
        const counts = Object.entries(IMPORTED)
          .filter(([table]) => (result.data.tables[table] ?? 0) > 0)
          .map(([table, noun]) => `${result.data.tables[table]} ${noun}${result.data.tables[table] === 1 ? '' : 's'}`)
        return `Imported ${file.name}${counts.length ? `: ${counts.join(', ')}` : ''}.`
      } finally {
        clear()
      }
    })

  return (
    <section className="panel" aria-labelledby="state-title">
      <h3 id="state-title" className="panel-title">
        Emulator state
      </h3>
      <div className="row state-actions">
        {/* Each button is named by its visible text (WCAG label in name); the group says they are presets, the title describes each. */}
        <div className="row" role="group" aria-labelledby="presets-label">
          <span className="muted" id="presets-label">
            Load a preset:
          </span>
          {PRESETS.map((p) => (
            <button key={p.id} type="button" className="secondary" disabled={action.isPending} onClick={() => seed(p)} title={p.hint}>
              {p.label}
            </button>
          ))}
        </div>
        <span className="divider" aria-hidden="true" />
        <a className="button secondary" href={`${ADMIN}/export`} download="emulator-state.json">
          Export state
        </a>
        <label className="button secondary file-button">
          Import state…
          <input
            ref={fileInput}
            type="file"
            accept="application/json,.json"
            className="sr-only"
            disabled={action.isPending}
            onChange={(e) => {
              const file = e.target.files?.[0]
              if (file) importFile(file)
            }}
          />
        </label>
        <span className="grow" />
        <button type="button" className="danger" disabled={action.isPending} onClick={reset}>
          Reset emulator
        </button>
      </div>
      <p className="muted note">An export contains every API key's token: treat the file like a secret.</p>
      {action.isPending && <p className="muted">Working…</p>}
      {message && (
        <p className="notice" role="status">
          {message}
        </p>
      )}
      <ErrorText error={action.error} />
      {confirm.dialog}
    </section>
  )
}

// ---- One account ---------------------------------------------------------------------------------

function AccountDetail({ account }: { account: Account }) {
  const clock = useClock()
  const detail = useAccount(account.id)
  const keys = useKeys(account.id)
  const now = clock.data?.now
  const members = detail.data?.members ?? []
  return (
    <>
      <section className="panel" aria-labelledby="keys-title">
        <h3 id="keys-title" className="panel-title">
          Keys of {account.name}
        </h3>
        <ErrorText error={keys.error} />
        {keys.data && keys.data.length === 0 ? (
          <Empty title="No keys">
            Create one with <code className="inline">POST /_emulator/api/accounts/{account.id}/keys</code>.
          </Empty>
        ) : (
          keys.data && <KeysTable keys={keys.data} now={now} members={members} />
        )}
      </section>
      <Guardrails account={account} members={members} />
      <ManagementSections account={account} />
      <Charges account={account} />
    </>
  )
}

function KeysTable({ keys, now, members }: { keys: AdminKey[]; now: string | undefined; members: Member[] }) {
  const memberName = (id: string | null) => members.find((m) => m.id === id)?.name ?? id ?? '—'
  return (
    <table>
      <thead>
        <tr>
          <th>Name</th>
          <th>Kind</th>
          <th>Owner</th>
          <th className="num">Usage (all time)</th>
          <th>Limit</th>
          <th>Status</th>
        </tr>
      </thead>
      <tbody>
        {keys.map((k) => {
          const expired = isExpired(k, now)
          return (
            <tr key={k.hash} className={k.disabled || expired ? 'dim' : undefined}>
              <td>
                <div>{k.name}</div>
                <div className="mono muted">{k.label}</div>
              </td>
              <td>{k.kind}</td>
              <td>{memberName(k.creator_user_id)}</td>
              <td className="num">{usd(k.usage)}</td>
              <td>
                {k.limit === null ? (
                  <span className="muted">no limit</span>
                ) : (
                  <div className="limit">
                    <Bar value={windowUsage(k)} max={k.limit} label={`${k.name}: ${k.limit_reset ?? 'all-time'} usage against its $${k.limit} limit`} />
                    <span className="muted">{k.limit_reset ?? 'all time'}</span>
                  </div>
                )}
              </td>
              <td>
                {k.disabled ? (
                  <span className="badge bad">disabled</span>
                ) : expired ? (
                  <span className="badge bad">expired</span>
                ) : (
                  <span className="badge ok">active</span>
                )}
                {k.expires_at && !expired && <div className="muted small">expires {shortTime(k.expires_at)}</div>}
                {k.expires_at && expired && <div className="muted small">since {shortTime(k.expires_at)}</div>}
              </td>
            </tr>
          )
        })}
      </tbody>
    </table>
  )
}

// Read from the admin API: a client's change through the gateway shows in the journal, and the event
// stream invalidates ['guardrails'] then (events.ts).
function Guardrails({ account, members }: { account: Account; members: Member[] }) {
  const guardrails = useQuery({
    queryKey: ['guardrails', account.id],
    queryFn: () => admin.get<Page<AccountGuardrail>>(`/accounts/${encodeURIComponent(account.id)}/guardrails`).then((r) => r.data),
  })
  const memberName = (id: string) => members.find((m) => m.id === id)?.name ?? id
  const list = (values: string[] | null) => (values?.length ? values.join(', ') : <span className="muted">any</span>)
  return (
    <section className="panel" aria-labelledby="guardrails-title">
      <h3 id="guardrails-title" className="panel-title">
        Guardrails of {account.name}
      </h3>
      <ErrorText error={guardrails.error} />
      {guardrails.data?.length === 0 && (
        <Empty title="No guardrails">
          Create one with <code className="inline">POST /api/v1/guardrails</code> and the management key, then assign keys or members to it.
        </Empty>
      )}
      {!!guardrails.data?.length && (
        <table>
          <thead>
            <tr>
              <th>Name</th>
              <th>Budget</th>
              <th>Models</th>
              <th>Providers</th>
              <th>Assigned keys</th>
              <th>Assigned members</th>
            </tr>
          </thead>
          <tbody>
            {guardrails.data.map((g) => (
              <tr key={g.id}>
                <td>
                  <div>{g.name}</div>
                  {g.description && <div className="muted small">{g.description}</div>}
                  {g.enforce_zdr && <span className="badge warn">zero data retention</span>}
                </td>
                <td>{g.limit_usd === null ? <span className="muted">none</span> : `${usd(g.limit_usd)} ${g.reset_interval ?? 'all time'}`}</td>
                <td>{list(g.allowed_models)}</td>
                <td>
                  {list(g.allowed_providers)}
                  {!!g.ignored_providers?.length && <div className="muted small">ignores {g.ignored_providers.join(', ')}</div>}
                </td>
                <td>{g.keys.length ? g.keys.map((k) => <div key={k.key_hash}>{k.key_name}</div>) : <span className="muted">none</span>}</td>
                <td>{g.members.length ? g.members.map((m) => <div key={m.user_id}>{memberName(m.user_id)}</div>) : <span className="muted">none</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}

const CHAINS: Record<number, string> = { 1: 'Ethereum', 137: 'Polygon', 8453: 'Base' }
const CHARGE_BADGE: Record<Charge['status'], string> = { pending: 'warn', confirmed: 'ok', expired: 'bad' }

function Charges({ account }: { account: Account }) {
  const client = useQueryClient()
  const charges = useQuery({
    queryKey: ['charges', account.id],
    queryFn: () => admin.get<{ data: Charge[] }>(`/charges?account=${encodeURIComponent(account.id)}`).then((r) => r.data),
  })
  const settle = useMutation({
    mutationFn: ({ id, action }: { id: string; action: 'confirm' | 'expire' }) => admin.post(`/charges/${encodeURIComponent(id)}/${action}`),
    onSettled: () => Promise.all([client.invalidateQueries({ queryKey: ['charges'] }), client.invalidateQueries({ queryKey: ['accounts'] })]),
  })
  return (
    <section className="panel" aria-labelledby="charges-title">
      <h3 id="charges-title" className="panel-title">
        Crypto charges of {account.name}
      </h3>
      <ErrorText error={charges.error} />
      {settle.error && (
        <p className="error" role="alert">
          Could not settle the charge: {errorMessage(settle.error)}
        </p>
      )}
      {charges.data?.length === 0 && (
        <Empty title="No charges">
          A client buys credits with <code className="inline">POST /api/v1/credits/crypto</code>; the charge waits here as pending until you simulate its
          payment.
        </Empty>
      )}
      {!!charges.data?.length && (
        <table>
          <thead>
            <tr>
              <th>Charge</th>
              <th className="num">Amount</th>
              <th>Chain</th>
              <th>Created</th>
              <th>Expires</th>
              <th>Status</th>
              <th>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {charges.data.map((c) => (
              <tr key={c.id}>
                <td className="mono">{c.id}</td>
                <td className="num">{usd(c.amount_usd)}</td>
                <td>{CHAINS[c.chain_id] ?? c.chain_id}</td>
                <td>{shortTime(c.created_at)}</td>
                <td>{shortTime(c.expires_at)}</td>
                <td>
                  <span className={`badge ${CHARGE_BADGE[c.status]}`}>{c.status}</span>
                  {c.confirmed_at && <div className="muted small">{shortTime(c.confirmed_at)}</div>}
                </td>
                <td>
                  {c.status === 'pending' && (
                    <div className="row nowrap">
                      <button
                        type="button"
                        className="small"
                        disabled={settle.isPending}
                        onClick={() => settle.mutate({ id: c.id, action: 'confirm' })}
                        aria-label={`Simulate payment of charge ${c.id}`}
                      >
                        Simulate payment
                      </button>
                      <button
                        type="button"
                        className="small secondary"
                        disabled={settle.isPending}
                        onClick={() => settle.mutate({ id: c.id, action: 'expire' })}
                        aria-label={`Expire charge ${c.id}`}
                      >
                        Expire
                      </button>
                    </div>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}
