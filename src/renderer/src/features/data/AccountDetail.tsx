// One account in the Data view: its keys (usage against their limits), guardrails (with what they are
// assigned to), the sections a client manages through the gateway (ManagementSections) and its crypto
// charges (Charges).
import type { Account, AdminKey, Member } from '../../api.ts'
import { Bar, Empty, ErrorText, shortTime, usd } from '../../components/ui.tsx'
import { useAccount, useClock, useKeys } from '../../queries.ts'
import { Charges } from './Charges.tsx'
import { ManagementSections } from './ManagementSections.tsx'
import { useGuardrails } from './queries.ts'
import { isExpired, windowUsage } from './shared.ts'

export function AccountDetail({ account }: { account: Account }) {
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

function Guardrails({ account, members }: { account: Account; members: Member[] }) {
  const guardrails = useGuardrails(account.id)
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
